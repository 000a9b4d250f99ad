/**
 * A typed array of fixed-width rows by slot, held in pages of 2^shift slots, so that
 * growing it never copies the rows it holds: every page but the last holds a whole page
 * of slots, and only a short last page (a small array's, or a loaded store's, sized to
 * its rows) is replaced by a longer copy when it grows — at most one page's bytes.
 *
 * Why: a collection's rows only grow in a run (a year's memories reach 1.3 million), and
 * one contiguous array grown by an eighth copies all of them each time: hundreds of MB a
 * growth, eight times the final size over the run. Pages cost a shift and a mask a read,
 * and a row never straddles two pages.
 *
 * Slot `s` is at `pages[s >>> shift]`, elements `(s & mask) * width` on: hot loops read
 * the pages directly (one array type per call site), the rest use the methods.
 */

/** The typed arrays pages can be made of. */
export type PageArray =
  | Float64Array
  | Float32Array
  | Int32Array
  | Uint32Array
  | Uint16Array
  | Int8Array
  | Uint8Array;

/**
 * The slots to hold once `held` are all taken: `wanted` — by default an eighth more (at
 * least 1,024) — but never past the end of the page the next slot falls in, so no growth
 * copies more than one short page. Spare slots are search memory too (a loaded store is
 * sized to its rows, and a run's first add must not double it): the default keeps them
 * to an eighth and to one page.
 */
export const grownCapacity = (
  held: number,
  shift: number,
  wanted = held + Math.max(1024, held >>> 3),
): number => {
  const page = 2 ** shift;
  return Math.min((Math.floor(held / page) + 1) * page, wanted);
};

export class PagedArray<T extends PageArray> {
  /** Slots a whole page holds. */
  readonly pageSlots: number;
  /** `slot & mask` is a slot's place in its page. */
  readonly mask: number;
  /** The pages, each `pageSlots × width` elements but the last, which may be shorter. */
  readonly pages: Array<T> = [];
  private held = 0;

  /**
   * `make` makes a page of a length; each slot is `width` elements, new ones `blank`;
   * pages hold 2^`shift` slots.
   */
  constructor(
    private readonly make: new (length: number) => T,
    readonly width: number,
    readonly shift: number,
    private readonly blank = 0,
  ) {
    this.pageSlots = 2 ** shift;
    this.mask = this.pageSlots - 1;
  }

  /** Slots held: [0, capacity). */
  get capacity(): number {
    return this.held;
  }

  /** Bytes of the pages. */
  get byteLength(): number {
    let n = 0;
    for (const p of this.pages) n += p.byteLength;
    return n;
  }

  /** Holds at least slots [0, slots); the rows held stay where they are. */
  grow(slots: number): void {
    if (slots <= this.held) return;
    const size = this.pageSlots;
    const last = this.pages.length - 1;
    if (last >= 0 && this.held - last * size < size) {
      const old = this.pages[last]!;
      const page = this.page0(Math.min(size, slots - last * size), old.length);
      page.set(old);
      this.pages[last] = page;
    }
    for (let base = this.pages.length * size; base < slots; base += size) {
      this.pages.push(this.page0(Math.min(size, slots - base), 0));
    }
    this.held = slots;
  }

  /** Forgets every row and holds slots [0, slots), each `blank`. */
  reset(slots: number): void {
    this.pages.length = 0;
    this.held = 0;
    this.grow(slots);
  }

  /** A page of `slots` slots, `blank` from element `from` on. */
  private page0(slots: number, from: number): T {
    const page = new this.make(slots * this.width);
    if (this.blank !== 0) page.fill(this.blank, from);
    return page;
  }

  /** The page holding a slot. */
  page(slot: number): T {
    return this.pages[slot >>> this.shift]!;
  }

  /** Where a slot's row starts in its page. */
  offset(slot: number): number {
    return (slot & this.mask) * this.width;
  }

  /** The first element of a slot's row. */
  get(slot: number): number {
    return this.pages[slot >>> this.shift]![(slot & this.mask) * this.width]!;
  }

  /** Sets the first element of a slot's row. */
  set(slot: number, value: number): void {
    this.pages[slot >>> this.shift]![(slot & this.mask) * this.width] = value;
  }

  /** A slot's row: a view into its page. */
  row(slot: number): T {
    const at = (slot & this.mask) * this.width;
    return this.pages[slot >>> this.shift]!.subarray(at, at + this.width) as T;
  }

  /** Writes a slot's row from `source` (`width` elements). */
  setRow(slot: number, source: ArrayLike<number>): void {
    this.pages[slot >>> this.shift]!.set(source, (slot & this.mask) * this.width);
  }

  /** Copies one slot's row over another's. */
  copyRow(from: number, to: number): void {
    const w = this.width;
    const src = this.pages[from >>> this.shift]!;
    const dst = this.pages[to >>> this.shift]!;
    const f = (from & this.mask) * w;
    const t = (to & this.mask) * w;
    if (src === dst) dst.copyWithin(t, f, f + w);
    else dst.set(src.subarray(f, f + w), t);
  }

  /** Views of the rows of slots [0, count), one a page, in order (no copy). */
  pieces(count: number): Array<T> {
    const out: Array<T> = [];
    const size = this.pageSlots;
    for (let base = 0, i = 0; base < count; base += size, i++) {
      out.push(this.pages[i]!.subarray(0, Math.min(size, count - base) * this.width) as T);
    }
    return out;
  }
}
