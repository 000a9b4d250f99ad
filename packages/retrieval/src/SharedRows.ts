/**
 * Copies of the i8 rows of items known by many NPCs (`VectorRows.share`), next to each
 * other in the order they were shared: a scan of any known set that holds them reads them
 * from a few contiguous pages rather than one page each. A copy holds the same bytes as
 * its row, so no result depends on what is shared.
 */
import { PagedArray } from "./PagedArray.ts";

export class SharedRows {
  /** slot → position + 1 of its row's copy in `rows` (0: none). */
  readonly at: PagedArray<Int32Array>;
  /** The copies, `used` of them (some void once their row went). */
  readonly rows: PagedArray<Int8Array>;
  used = 0;

  constructor(dimensions: number, pageShift: number) {
    this.at = new PagedArray(Int32Array, 1, pageShift);
    this.rows = new PagedArray(Int8Array, dimensions, pageShift);
  }

  /** Where the slot's copy is, or -1 when it has none. */
  of(slot: number): number {
    return slot < this.at.capacity ? this.at.get(slot) - 1 : -1;
  }

  /**
   * Copies `row` as the slot's after the others, room kept for `slots` slots and `cap`
   * copies (the caller stops at `cap`).
   */
  add(slot: number, row: Int8Array, slots: number, cap: number): void {
    this.at.grow(slots);
    if (this.rows.capacity < this.used + 1) {
      this.rows.grow(Math.min(cap, Math.max(1024, this.used + (this.used >>> 1))));
    }
    const at = this.used++;
    this.rows.setRow(at, row);
    this.at.set(slot, at + 1);
  }

  /** The slot's row changed: its copy, if it has one, follows. */
  update(slot: number, row: Int8Array): void {
    const at = this.of(slot);
    if (at >= 0) this.rows.setRow(at, row);
  }

  /** The slot's row went: its copy is void, and its next row is not shared until asked. */
  drop(slot: number): void {
    if (slot < this.at.capacity) this.at.set(slot, 0);
  }

  /** Forgets every copy (the slots are being replaced). */
  reset(): void {
    this.at.reset(0);
    this.rows.reset(0);
    this.used = 0;
  }

  get byteLength(): number {
    return this.at.byteLength + this.rows.byteLength;
  }
}
