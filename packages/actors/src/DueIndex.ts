/**
 * Things that come due at a game time — NPC wake-ups, memory expiries, task deadlines —
 * keyed by the time they are due, with those times on a min-heap, so a tick touches only
 * what is due now: never every NPC, nor everything due later the same day. Keys come out
 * in sorted order, so what is due is handled deterministically. Mutable on purpose: the
 * world clock owns its wake-up schedule and changes it only through its own events, once
 * per event.
 *
 * A time whose keys were all unscheduled stays on the heap until it is reached, and is
 * then passed over; a time scheduled again while still on it may sit there twice. Either
 * way the heap holds no more times than `set` was called with since they were reached.
 */
import type { GameTime } from "@hearsay/core";

export class DueIndex<K extends string> {
  /** The keys due at each time that has any. */
  private readonly keysAt = new Map<number, Set<K>>();
  /** When each key is due. */
  private readonly dueOf = new Map<K, number>();
  /** The times in `keysAt` (and some no longer there), as a binary min-heap. */
  private readonly times: Array<number> = [];

  /** Schedules `key` at `due`, replacing any earlier schedule; null unschedules it. */
  set(key: K, due: number | null): void {
    this.delete(key);
    if (due === null) return;
    let keys = this.keysAt.get(due);
    if (!keys) {
      keys = new Set();
      this.keysAt.set(due, keys);
      this.push(due);
    }
    keys.add(key);
    this.dueOf.set(key, due);
  }

  delete(key: K): void {
    const due = this.dueOf.get(key);
    if (due === undefined) return;
    const keys = this.keysAt.get(due)!;
    keys.delete(key);
    if (keys.size === 0) this.keysAt.delete(due);
    this.dueOf.delete(key);
  }

  /** When `key` is due, if scheduled. */
  dueAt(key: K): number | undefined {
    return this.dueOf.get(key);
  }

  /** Removes and returns every key due at or before `t`, sorted. */
  takeDue(t: GameTime): Array<K> {
    const out: Array<K> = [];
    while (this.times.length > 0 && this.times[0]! <= t) {
      const due = this.pop();
      const keys = this.keysAt.get(due);
      if (keys === undefined) continue;
      for (const key of keys) {
        out.push(key);
        this.dueOf.delete(key);
      }
      this.keysAt.delete(due);
    }
    return out.sort();
  }

  /** Every key due at or before `t`, sorted, left on the schedule. */
  peekDue(t: GameTime): Array<K> {
    const out: Array<K> = [];
    const seen = new Set<number>();
    // The heap's times at or before `t` form a subtree at its root: walk only that.
    const stack = this.times.length > 0 ? [0] : [];
    while (stack.length > 0) {
      const i = stack.pop()!;
      const due = this.times[i]!;
      if (due > t) continue;
      if (!seen.has(due)) {
        seen.add(due);
        for (const key of this.keysAt.get(due) ?? []) out.push(key);
      }
      if (2 * i + 1 < this.times.length) stack.push(2 * i + 1);
      if (2 * i + 2 < this.times.length) stack.push(2 * i + 2);
    }
    return out.sort();
  }

  /** Every scheduled key with when it is due, in no particular order. */
  entries(): IterableIterator<readonly [K, number]> {
    return this.dueOf.entries();
  }

  get size(): number {
    return this.dueOf.size;
  }

  private push(due: number): void {
    const h = this.times;
    let i = h.length;
    h.push(due);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent]! <= due) break;
      h[i] = h[parent]!;
      i = parent;
    }
    h[i] = due;
  }

  private pop(): number {
    const h = this.times;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const c = l + 1 < h.length && h[l + 1]! < h[l]! ? l + 1 : l;
        if (h[c]! >= last) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}
