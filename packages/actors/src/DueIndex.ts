/**
 * Things that come due at a game time — NPC wake-ups, memory expiries — bucketed by day,
 * so a tick touches only what is due now, never every NPC. Keys come out in sorted order,
 * so what is due is handled deterministically. Mutable on purpose: the world clock owns
 * its wake-up schedule and changes it only through its own events, once per event.
 */
import { type GameTime, MINUTES_PER_DAY } from "@hearsay/core";

export class DueIndex<K extends string> {
  private readonly buckets = new Map<number, Map<K, number>>();
  private readonly dayOfKey = new Map<K, number>();
  private firstDay = Number.POSITIVE_INFINITY;

  /** Schedules `key` at `due`, replacing any earlier schedule; null unschedules it. */
  set(key: K, due: number | null): void {
    this.delete(key);
    if (due === null) return;
    const day = Math.floor(due / MINUTES_PER_DAY);
    let bucket = this.buckets.get(day);
    if (!bucket) {
      bucket = new Map();
      this.buckets.set(day, bucket);
    }
    bucket.set(key, due);
    this.dayOfKey.set(key, day);
    if (day < this.firstDay) this.firstDay = day;
  }

  delete(key: K): void {
    const day = this.dayOfKey.get(key);
    if (day === undefined) return;
    this.buckets.get(day)?.delete(key);
    this.dayOfKey.delete(key);
  }

  /** When `key` is due, if scheduled. */
  dueAt(key: K): number | undefined {
    const day = this.dayOfKey.get(key);
    return day === undefined ? undefined : this.buckets.get(day)?.get(key);
  }

  /** Removes and returns every key due at or before `t`, sorted. */
  takeDue(t: GameTime): Array<K> {
    const lastDay = Math.floor(t / MINUTES_PER_DAY);
    const out: Array<K> = [];
    for (let day = this.firstDay; day <= lastDay; day++) {
      const bucket = this.buckets.get(day);
      if (!bucket) continue;
      for (const [key, due] of bucket) {
        if (due <= t) {
          out.push(key);
          bucket.delete(key);
          this.dayOfKey.delete(key);
        }
      }
      if (bucket.size === 0) {
        this.buckets.delete(day);
        if (day === this.firstDay) this.firstDay = day + 1;
      }
    }
    if (this.buckets.size === 0) this.firstDay = Number.POSITIVE_INFINITY;
    return out.sort();
  }

  /** Every key due at or before `t`, sorted, left on the schedule. */
  peekDue(t: GameTime): Array<K> {
    const lastDay = Math.floor(t / MINUTES_PER_DAY);
    const out: Array<K> = [];
    for (let day = this.firstDay; day <= lastDay; day++)
      for (const [key, due] of this.buckets.get(day) ?? []) if (due <= t) out.push(key);
    return out.sort();
  }

  /** Every scheduled key with when it is due, in no particular order. */
  *entries(): IterableIterator<readonly [K, number]> {
    for (const bucket of this.buckets.values()) yield* bucket;
  }

  get size(): number {
    return this.dayOfKey.size;
  }
}
