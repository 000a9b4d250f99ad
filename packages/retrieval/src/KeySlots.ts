/**
 * Item key → slot, for keys up to 2^53: one dense array per key space (the keys of one
 * save, `ITEM_KEY_SPACE` wide: store/src/ItemKeys.ts), grown to the largest key put in
 * it. Keys of a save are dense from its space's base, so each array is about as long as
 * the save has items, whichever space the save has; a lookup is an array read once the
 * space of the previous key is the same (every scan reads one save's keys).
 */
import { ITEM_KEY_SPACE } from "@hearsay/store";

export class KeySlots {
  /** Space number → (key − base) → slot + 1 (0: absent). */
  private readonly spaces = new Map<number, Int32Array>();
  /** Space numbers, ascending (the order keys are enumerated in). */
  private order: Array<number> = [];
  private lastSpace = -1;
  private lastSlots: Int32Array = new Int32Array(0);

  /** Slot + 1 of `key`, 0 when absent (negative or fractional keys are absent). */
  get(key: number): number {
    const space = Math.floor(key / ITEM_KEY_SPACE);
    if (space !== this.lastSpace) {
      const slots = this.spaces.get(space);
      if (slots === undefined) return 0;
      this.lastSpace = space;
      this.lastSlots = slots;
    }
    const at = key - space * ITEM_KEY_SPACE;
    return at < this.lastSlots.length ? (this.lastSlots[at] ?? 0) : 0;
  }

  /** Sets slot + 1 of `key` (0: absent). */
  set(key: number, slotPlusOne: number): void {
    if (!Number.isSafeInteger(key) || key < 0) {
      throw new RangeError(`KeySlots: item key ${key} is not a non-negative safe integer`);
    }
    const space = Math.floor(key / ITEM_KEY_SPACE);
    const at = key - space * ITEM_KEY_SPACE;
    let slots = this.spaces.get(space);
    if (slots === undefined || at >= slots.length) {
      if (slotPlusOne === 0) return;
      let n = Math.max(1024, slots?.length ?? 0);
      while (n <= at) n *= 2;
      const grown = new Int32Array(n);
      if (slots) grown.set(slots);
      else this.order = [...this.order, space].sort((a, b) => a - b);
      slots = grown;
      this.spaces.set(space, slots);
      if (space === this.lastSpace) this.lastSlots = slots;
    }
    slots[at] = slotPlusOne;
  }

  /** Forgets every key. */
  clear(): void {
    this.spaces.clear();
    this.order = [];
    this.lastSpace = -1;
    this.lastSlots = new Int32Array(0);
  }

  /**
   * Calls `visit(key, slotPlusOne)` for each present key at or after `from` and before
   * `to`, ascending, until it returns false.
   */
  each(
    from: number,
    to: number,
    visit: (key: number, slotPlusOne: number) => boolean | undefined,
  ): void {
    for (const space of this.order) {
      const base = space * ITEM_KEY_SPACE;
      if (base + ITEM_KEY_SPACE <= from) continue;
      if (base >= to) return;
      const slots = this.spaces.get(space)!;
      const end = Math.min(slots.length, to - base);
      for (let at = Math.max(0, from - base); at < end; at++) {
        const s = slots[at]!;
        if (s > 0 && visit(base + at, s) === false) return;
      }
    }
  }

  /** Bytes of the arrays. */
  get byteLength(): number {
    let n = 0;
    for (const slots of this.spaces.values()) n += slots.byteLength;
    return n;
  }
}
