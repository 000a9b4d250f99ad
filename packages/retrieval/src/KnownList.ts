/**
 * The items of one kind one NPC has a knowledge fact for, with the time of its earliest
 * fact. A sorted base (binary-searchable: "does she know item 812,344?" in ~20 steps)
 * plus a small unsorted tail for facts learnt since the last merge; the tail is merged
 * once it grows past an eighth of the base, so adds stay amortised O(1)-ish and lookups
 * O(log n + tail).
 *
 * A list of `BITMAP_MIN` facts or more also keeps one bit per item it holds. A large
 * known set is searched through posting lists whose entries the NPC mostly does not
 * know, and "no" is then a bit test instead of a binary search whose steps miss the
 * cache (the bitmap costs an eighth of a byte per item of the collection, so small
 * lists, which are enumerated rather than probed, keep none).
 */
const BITMAP_MIN = 1024;

export class KnownList {
  private locals = new Int32Array(0);
  private times = new Int32Array(0);
  private tailLocals: Array<number> = [];
  private tailTimes: Array<number> = [];
  /** One bit per item held (null: the list is too small to keep one). */
  private bits: Uint8Array | null = null;
  /** Every item held, in the order it was first added (`size` of them in use). */
  private order = new Int32Array(0);
  /** Bumped by `load`, which replaces the list: an earlier position in `order` is void. */
  private loads = 0;

  /** Changes whenever the list is replaced wholesale (see {@link forEachAddedSince}). */
  get generation(): number {
    return this.loads;
  }

  /** Facts held (distinct items). */
  get size(): number {
    return this.locals.length + this.tailLocals.length;
  }

  private find(local: number): number {
    let lo = 0;
    let hi = this.locals.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.locals[mid]!;
      if (v === local) return mid;
      if (v < local) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** When the NPC first knew the item, or -1 when it has no fact for it. */
  timeOf(local: number): number {
    if (this.bits !== null && !this.has(local)) return -1;
    const i = this.find(local);
    if (i >= 0) return this.times[i]!;
    for (let j = 0; j < this.tailLocals.length; j++) {
      if (this.tailLocals[j] === local) return this.tailTimes[j]!;
    }
    return -1;
  }

  /** Records a fact; the earliest time wins. True when the item is new to the list. */
  add(local: number, t: number): boolean {
    // The bitmap, when kept, says at once that the item is new: no search, no tail scan.
    if (this.bits === null || this.has(local)) {
      const i = this.find(local);
      if (i >= 0) {
        if (t < this.times[i]!) this.times[i] = t;
        return false;
      }
      for (let j = 0; j < this.tailLocals.length; j++) {
        if (this.tailLocals[j] === local) {
          if (t < this.tailTimes[j]!) this.tailTimes[j] = t;
          return false;
        }
      }
    }
    this.remember(this.size, local);
    this.tailLocals.push(local);
    this.tailTimes.push(t);
    if (this.bits !== null) this.mark(local);
    if (this.tailLocals.length > Math.max(32, this.locals.length >>> 3)) this.merge();
    return true;
  }

  /** True when the item's bit is set (the bitmap must be kept). */
  private has(local: number): boolean {
    const bits = this.bits!;
    return local >>> 3 < bits.length && (bits[local >>> 3]! & (1 << (local & 7))) !== 0;
  }

  /** Sets the item's bit, growing the bitmap as needed. */
  private mark(local: number): void {
    let bits = this.bits!;
    if (local >>> 3 >= bits.length) {
      const grown = new Uint8Array(Math.max((local >>> 3) + 1, bits.length * 2));
      grown.set(bits);
      bits = grown;
      this.bits = bits;
    }
    bits[local >>> 3]! |= 1 << (local & 7);
  }

  /** Puts `local` at position `at` of the first-added order, growing it as needed. */
  private remember(at: number, local: number): void {
    if (at >= this.order.length) {
      const grown = new Int32Array(Math.max(16, this.order.length * 2, at + 1));
      grown.set(this.order);
      this.order = grown;
    }
    this.order[at] = local;
  }

  /** Replaces everything with the given facts (bulk load; duplicates keep the earliest). */
  load(locals: ArrayLike<number>, times: ArrayLike<number>): void {
    this.tailLocals = Array.from(locals);
    this.tailTimes = Array.from(times);
    this.locals = new Int32Array(0);
    this.times = new Int32Array(0);
    // The bitmap is of the items replaced: made again from the new ones, when due.
    this.bits = null;
    this.merge();
    this.order = this.locals.slice();
    this.loads += 1;
  }

  private merge(): void {
    const n = this.tailLocals.length;
    if (n === 0) return;
    const order = Array.from({ length: n }, (_, i) => i).sort(
      (a, b) =>
        this.tailLocals[a]! - this.tailLocals[b]! || this.tailTimes[a]! - this.tailTimes[b]!,
    );
    const outL = new Int32Array(this.locals.length + n);
    const outT = new Int32Array(this.locals.length + n);
    let i = 0;
    let j = 0;
    let k = 0;
    const push = (l: number, t: number) => {
      if (k > 0 && outL[k - 1] === l) {
        if (t < outT[k - 1]!) outT[k - 1] = t;
        return;
      }
      outL[k] = l;
      outT[k] = t;
      k++;
    };
    while (i < this.locals.length || j < n) {
      const tl = j < n ? this.tailLocals[order[j]!]! : Number.POSITIVE_INFINITY;
      if (i < this.locals.length && this.locals[i]! <= tl) {
        push(this.locals[i]!, this.times[i]!);
        i++;
      } else {
        push(tl, this.tailTimes[order[j]!]!);
        j++;
      }
    }
    // Only a duplicate (a bulk load's) leaves the arrays longer than the facts.
    this.locals = k === outL.length ? outL : outL.slice(0, k);
    this.times = k === outT.length ? outT : outT.slice(0, k);
    this.tailLocals = [];
    this.tailTimes = [];
    if (this.bits === null && k >= BITMAP_MIN) {
      this.bits = new Uint8Array((this.locals[k - 1]! >>> 3) + 1);
      for (let x = 0; x < k; x++) this.mark(this.locals[x]!);
    }
  }

  /**
   * Calls `f` for each item added after the first `from` (in the order they were added),
   * so a copy that has seen `size` items catches up on the new ones alone. Positions hold
   * until the list's {@link generation} changes.
   */
  forEachAddedSince(from: number, f: (local: number) => void): void {
    const n = this.size;
    for (let i = Math.max(0, from); i < n; i++) f(this.order[i]!);
  }

  /**
   * Writes into `out` (at least {@link size} long) every item first known at or before
   * `t`, in {@link forEach}'s order; returns how many. A plain loop over the list's own
   * arrays: what a search enumerating thousands of facts runs.
   */
  knownBy(t: number, out: Int32Array): number {
    const locals = this.locals;
    const times = this.times;
    let n = 0;
    for (let i = 0; i < locals.length; i++) if (times[i]! <= t) out[n++] = locals[i]!;
    for (let j = 0; j < this.tailLocals.length; j++)
      if (this.tailTimes[j]! <= t) out[n++] = this.tailLocals[j]!;
    return n;
  }

  /** Calls `f` for every fact (base in item order, then the tail). */
  forEach(f: (local: number, t: number) => void): void {
    for (let i = 0; i < this.locals.length; i++) f(this.locals[i]!, this.times[i]!);
    for (let j = 0; j < this.tailLocals.length; j++) f(this.tailLocals[j]!, this.tailTimes[j]!);
  }
}
