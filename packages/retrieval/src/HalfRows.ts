/**
 * The precise (f16) copy of a store's vectors, by slot, held where it costs no memory:
 * rows the saved vectors file holds are read from it when needed (one `pread` each),
 * and only rows put since the file was written are kept in memory, until the next save
 * hands the store its new file. The store ranks with its i8 copy and reads f16 only to
 * score the few best candidates exactly, so the file's rows are read a few dozen at a
 * time per search. The last rows read are kept in a small direct-mapped cache, an
 * eighth of the file's rows up to `CACHE_ROWS` (6 MiB at 384-d): a run scores the same
 * NPC's best rows turn after turn. A small file is cached whole (`WHOLE_FILE_ROWS`).
 *
 * The unsaved rows are held in pages (`PagedArray`): a run's index job writes the files
 * once the rows put since reach as many as it last wrote (its default), so the unsaved
 * rows reach half the store, and growing them as one array copied them all each time.
 *
 * The file is held open by descriptor, not by name: a save renames a new file over the
 * old one and a rebuild may delete it, and a descriptor keeps reading the bytes it was
 * opened on (the same slot layout) until the store adopts the new file.
 */
import { close, closeSync, readSync } from "node:fs";
import { HALF_TABLE, toHalfInto } from "./halfFloat.ts";
import { grownCapacity, PagedArray } from "./PagedArray.ts";

/** Descriptors of stores dropped without `close`, closed when their store is collected. */
const orphans = new FinalizationRegistry<{ fd: number }>((held) => {
  if (held.fd >= 0) closeSync(held.fd);
});

/** A closed descriptor's callback: nothing waits on it, and it is never read again. */
const ignoreError = (): void => {};

/** Rows the in-memory tail first makes room for. */
const TAIL_MIN_ROWS = 64;

/** Rows read from the file kept in memory, at most (a power of two). */
const CACHE_ROWS = 8192;

/**
 * Files of up to this many rows are cached whole: a scan of so few rows scores every one
 * from f16 (`ExactScan`), and a cache smaller than the file then misses on most of them
 * every scan — the lore, searched by nearly every turn, is such a file.
 */
const WHOLE_FILE_ROWS = 256;

/**
 * The cache's ways for a file of `rows` rows: a power of two, at most an eighth of them,
 * or all of them for a small file.
 */
const cacheWays = (rows: number): number => {
  let ways = 16;
  if (rows <= WHOLE_FILE_ROWS) {
    while (ways < rows) ways *= 2;
    return ways;
  }
  while (ways < CACHE_ROWS && ways * 16 <= rows) ways *= 2;
  return ways;
};

/** Bytes a `Map` entry and a small typed array cost beyond their data (an estimate for V8). */
const ENTRY_OVERHEAD = 160;

export class HalfRows {
  /** The file's descriptor (-1: no file), boxed so the finalizer sees the current one. */
  private readonly held = { fd: -1 };
  /** Byte offset of slot 0's row in the file. */
  private base = 0;
  /** Slots [0, inFile) are rows of the file. */
  private inFile = 0;
  /** Rows of slots at and past `inFile` (slot − inFile), `dimensions` f16 each. */
  private readonly tail: PagedArray<Uint16Array>;
  /** File rows written again since the file was adopted. */
  private readonly moved = new Map<number, Uint16Array>();
  private readonly rowBytes: number;
  /** Rows read from the file: way `slot & (ways - 1)` holds slot `cachedSlot[way]`. */
  private cache = new Uint16Array(0);
  /** The cache's bytes, what a read from the file lands in. */
  private cacheBytes = new Uint8Array(0);
  private cachedSlot = new Int32Array(0);

  /** `tailPageShift`: rows a page of the unsaved rows holds, as a power of two. */
  constructor(
    readonly dimensions: number,
    tailPageShift: number,
  ) {
    this.rowBytes = dimensions * 2;
    this.tail = new PagedArray(Uint16Array, dimensions, tailPageShift);
    this.tail.grow(1024);
    orphans.register(this, this.held, this);
  }

  /** True when no row is read from a file. */
  get allResident(): boolean {
    return this.inFile === 0;
  }

  /** True when no row of the file was written again since the file was adopted. */
  get fileIntact(): boolean {
    return this.moved.size === 0;
  }

  /** True when the slot's row is in memory (not read from the file). */
  resident(slot: number): boolean {
    return slot >= this.inFile || this.moved.has(slot);
  }

  /** Bytes held in memory: rows not in the file, and the buffers. */
  get residentBytes(): number {
    return (
      this.tail.byteLength +
      this.cache.byteLength +
      this.cachedSlot.byteLength +
      this.moved.size * (this.rowBytes + ENTRY_OVERHEAD)
    );
  }

  /** Stores a slot's vector as f16 (`v` from float `from` on). */
  write(slot: number, v: Float32Array, from = 0): void {
    const { out, at } = this.place(slot);
    toHalfInto(v, from, out, at, this.dimensions);
  }

  /** Stores at `slot` the f16 row already held at `source` (a repeated vector). */
  copy(source: number, slot: number): void {
    // Placed first: placing may grow the tail, which `locate` then reads from.
    const { out, at } = this.place(slot);
    const { bits, at: o } = this.locate(source);
    if (bits === out) out.copyWithin(at, o, o + this.dimensions);
    else out.set(bits.subarray(o, o + this.dimensions), at);
  }

  /** Where a slot's f16 row is written: its own moved row, or the unsaved tail. */
  private place(slot: number): { out: Uint16Array; at: number } {
    const d = this.dimensions;
    let out: Uint16Array;
    let at: number;
    if (slot < this.inFile) {
      out = this.moved.get(slot) ?? new Uint16Array(d);
      this.moved.set(slot, out);
      at = 0;
    } else {
      const row = slot - this.inFile;
      const tail = this.tail;
      if (tail.capacity <= row) {
        // Twice the rows, up to the end of a page (`grownCapacity`).
        const held = tail.capacity;
        tail.grow(
          Math.max(row + 1, grownCapacity(held, tail.shift, Math.max(held * 2, TAIL_MIN_ROWS))),
        );
      }
      out = tail.page(row);
      at = tail.offset(row);
    }
    return { out, at };
  }

  /**
   * The slot's row as f16 bits, and where in the returned array it starts. A row read
   * from the file lands in a cache way a later read may reuse: use it before reading again.
   */
  private locate(slot: number): { bits: Uint16Array; at: number } {
    const d = this.dimensions;
    if (slot >= this.inFile) {
      const row = slot - this.inFile;
      return { bits: this.tail.page(row), at: this.tail.offset(row) };
    }
    const m = this.moved.get(slot);
    if (m) return { bits: m, at: 0 };
    if (this.cachedSlot.length === 0) {
      const ways = cacheWays(this.inFile);
      this.cache = new Uint16Array(ways * d);
      this.cacheBytes = new Uint8Array(this.cache.buffer);
      this.cachedSlot = new Int32Array(ways).fill(-1);
    }
    const way = slot & (this.cachedSlot.length - 1);
    if (this.cachedSlot[way] === slot) return { bits: this.cache, at: way * d };
    // Marked empty first: a failed read leaves no half-written row behind a tag.
    this.cachedSlot[way] = -1;
    const { rowBytes } = this;
    const n = readSync(
      this.held.fd,
      this.cacheBytes,
      way * rowBytes,
      rowBytes,
      this.base + slot * rowBytes,
    );
    if (n !== this.rowBytes) throw new Error(`HalfRows: short read of slot ${slot} (${n} bytes)`);
    this.cachedSlot[way] = slot;
    return { bits: this.cache, at: way * d };
  }

  /** Copies the slot's f16 bits into `out` at `at`. */
  read(slot: number, out: Uint16Array, at: number): void {
    const { bits, at: o } = this.locate(slot);
    out.set(bits.subarray(o, o + this.dimensions), at);
  }

  /** Decodes the slot's row into `out` at `at`. */
  decode(slot: number, out: Float32Array, at: number): void {
    const { bits, at: o } = this.locate(slot);
    for (let j = 0; j < this.dimensions; j++) out[at + j] = HALF_TABLE[bits[o + j]!]!;
  }

  /**
   * Inner product of the slot's row with `query` (its cosine: rows are unit length). The
   * terms are added in index order, four to a pass: the same sum, bit for bit, as one to a
   * pass, in about 0.6 of the time (every ranking's cosines come through here).
   */
  dot(slot: number, query: Float32Array): number {
    const { bits, at } = this.locate(slot);
    const n = this.dimensions;
    const half = HALF_TABLE;
    let dot = 0;
    let j = 0;
    for (; j + 3 < n; j += 4) {
      const o = at + j;
      dot += half[bits[o]!]! * query[j]!;
      dot += half[bits[o + 1]!]! * query[j + 1]!;
      dot += half[bits[o + 2]!]! * query[j + 2]!;
      dot += half[bits[o + 3]!]! * query[j + 3]!;
    }
    for (; j < n; j++) dot += half[bits[at + j]!]! * query[j]!;
    return dot;
  }

  /** Copies `count` slots from `from` on into `out` (row by row; file runs in one read). */
  readRange(from: number, count: number, out: Uint16Array): void {
    const d = this.dimensions;
    const fileEnd = Math.min(from + count, this.inFile);
    if (fileEnd > from) {
      const bytes = new Uint8Array(out.buffer, out.byteOffset, (fileEnd - from) * this.rowBytes);
      let off = 0;
      while (off < bytes.length) {
        const n = readSync(
          this.held.fd,
          bytes,
          off,
          bytes.length - off,
          this.base + from * this.rowBytes + off,
        );
        if (n <= 0) throw new Error(`HalfRows: short read at slot ${from}`);
        off += n;
      }
      for (const [slot, row] of this.moved) {
        if (slot >= from && slot < fileEnd) out.set(row, (slot - from) * d);
      }
    }
    for (let s = Math.max(from, this.inFile); s < from + count; s++)
      this.read(s, out, (s - from) * d);
  }

  /**
   * Reads every row from the file `fd` (which this takes over) from now on: slots
   * [0, count) are its rows, slot 0's at byte `base`. The rows held in memory are dropped:
   * the caller has just written them there, or is restoring from it.
   */
  adopt(fd: number, base: number, count: number): void {
    // The file let go of is one a save has just renamed the new one over: closing its last
    // descriptor frees its blocks, as long a job as the file is large (~100 ms at 400 MB),
    // so it is closed on libuv's pool rather than on the run's thread.
    if (this.held.fd >= 0) close(this.held.fd, ignoreError);
    this.held.fd = fd;
    this.base = base;
    this.inFile = count;
    this.moved.clear();
    this.cache = new Uint16Array(0);
    this.cacheBytes = new Uint8Array(0);
    this.cachedSlot = new Int32Array(0);
    this.tail.reset(0);
  }

  /** Closes the file (its rows become unreadable: only for a store being dropped). */
  close(): void {
    if (this.held.fd >= 0) closeSync(this.held.fd);
    this.held.fd = -1;
  }
}
