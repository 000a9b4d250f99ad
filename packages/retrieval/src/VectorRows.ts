/**
 * The rows of one collection's vectors, keyed by item key (the row's rowid, any safe
 * integer: store/src/ItemKeys.ts; one dense slot array per key space, `KeySlots`), held twice: an i8 matrix
 * in memory (each row scaled to its own largest component) that every search ranks with,
 * and the precise f16 copy (`HalfRows`) that scores the best few exactly — read from the
 * saved vectors file, so that only rows put since the last save hold f16 in memory. Each
 * row also keeps the fingerprint of the text it was made from and the save it was put for.
 *
 * Rows live in slots: a removed row's slot is reused by a later put, and the slots grow
 * by an eighth (at most to the end of a page) when every one is taken. The per-slot
 * arrays are held in pages (`PagedArray`), so a growth adds slots without copying the
 * rows held: a run's store only grows (a year's memories reach 1.3 million rows), and
 * each growth of one contiguous matrix copied all of it.
 */
import type { SegmentRows } from "./GraphSegments.ts";
import { HalfRows } from "./HalfRows.ts";
import { Interner } from "./Interner.ts";
import { KeySlots } from "./KeySlots.ts";
import { quantizeInto } from "./nativeScan.ts";
import { grownCapacity, type PageArray, PagedArray } from "./PagedArray.ts";
import { RowMarks } from "./RowMarks.ts";
import { SharedRows } from "./SharedRows.ts";
import { SignCodes } from "./SignCodes.ts";

/** Slots read from the vectors file per run when restoring (1.5 MiB at 384-d). */
const RESTORE_RUN_ROWS = 2048;

/**
 * Slots a page of the per-slot arrays holds, as a power of two (6 MiB of i8 at 384-d;
 * the unsaved f16 rows' pages, `HalfRows`, hold as many rows).
 */
const PAGE_SHIFT = 14;

export class VectorRows {
  /** rowid → slot + 1 (0: absent). */
  private readonly slotOf = new KeySlots();
  /** slot → rowid (-1: free). */
  private readonly rowidAt: PagedArray<Float64Array>;
  /** slot → fingerprint of the text the vector was made from. */
  private readonly fpAt: PagedArray<Uint32Array>;
  /** The f16 rows by slot, in memory only until saved (`HalfRows`). */
  private readonly halves: HalfRows;
  /** slot × dimensions, per-row scaled i8. */
  private readonly q8: PagedArray<Int8Array>;
  /**
   * slot → 1 once its i8 row is written. A row put is quantised at once; a row restored
   * from the files when something first reads its i8 copy (a scan's gather, a copy, a
   * share), from its f16 row as the restore would have: a long run's files hold a row
   * for every memory it recorded, which a scripted run and most readers never scan, and
   * quantising them all took most of the time to open them.
   */
  private readonly quantized: PagedArray<Uint8Array>;
  /** slot → the group (save) its row belongs to. */
  private readonly groupAt: PagedArray<Int32Array>;
  /** Save ids ("" for rows put without one) as group numbers, kept across `restore`. */
  private readonly groups = new Interner();
  private used = 0;
  private live = 0;
  private readonly freeSlots: Array<number> = [];
  /** Copies of the i8 rows of items known by many, next to each other (`share`). */
  private readonly shared: SharedRows;
  /** slot → one-bit sketch of its row, what large scans rank first (`SignCodes`). */
  private readonly codes: SignCodes;
  /**
   * slot → 1 once its sketch is written. A row put or restored is sketched when a large
   * scan first reads it (or on {@link codePending}), not when it is put, restored or
   * saved: a sketch costs two 512-point rotations (~15 µs), a run saves its index as it
   * goes, and a run's own scans are small, so most rows a run puts are never sketched —
   * and a store opened on a long run's files (a resume, a talk, an inspection) would
   * otherwise spend seconds sketching them all.
   */
  private readonly coded: PagedArray<Uint8Array>;
  /** The per-slot arrays, grown together. */
  private readonly columns: ReadonlyArray<PagedArray<PageArray>>;
  /** One decoded row, reused by `put`. */
  private readonly row: Float32Array;
  /**
   * What changed since each mark (`RowMarks`): every change of a row's presence or
   * fingerprint (`put`, `remove`, `restore`) is shown to it first.
   */
  private readonly marks = new RowMarks();

  /** `pageShift`: slots a page holds, as a power of two (small ones for tests). */
  constructor(
    readonly dimensions: number,
    pageShift = PAGE_SHIFT,
  ) {
    this.halves = new HalfRows(dimensions, pageShift);
    this.rowidAt = new PagedArray(Float64Array, 1, pageShift, -1);
    this.fpAt = new PagedArray(Uint32Array, 1, pageShift);
    this.groupAt = new PagedArray(Int32Array, 1, pageShift);
    this.q8 = new PagedArray(Int8Array, dimensions, pageShift);
    this.quantized = new PagedArray(Uint8Array, 1, pageShift);
    this.coded = new PagedArray(Uint8Array, 1, pageShift);
    this.columns = [this.rowidAt, this.fpAt, this.groupAt, this.q8, this.quantized, this.coded];
    this.shared = new SharedRows(dimensions, pageShift);
    this.codes = new SignCodes(dimensions);
    this.holdSlots(1024, true);
    this.row = new Float32Array(dimensions);
  }

  /** Makes room for slots [0, slots) (`fresh`: forgetting every row first). */
  private holdSlots(slots: number, fresh: boolean): void {
    for (const c of this.columns) {
      if (fresh) c.reset(slots);
      else c.grow(slots);
    }
    this.codes.ensure(slots);
  }

  /** Live rows. */
  get size(): number {
    return this.live;
  }

  /** The group number of a save id, made on first use. */
  group(save: string): number {
    return this.groups.intern(save);
  }

  /** The save id of a group number. */
  saveOfGroup(group: number): string {
    return this.groups.value(group);
  }

  /** How many groups (saves) there are. */
  get groupCount(): number {
    return this.groups.size;
  }

  has(rowid: number): boolean {
    return this.slotOf.get(rowid) > 0;
  }

  /**
   * Writes into `out` the rowids of `rowids` that have a vector, in order, and into
   * `slots` their slots; returns how many. One lookup a row: a scan of a large known set
   * reads its rows by slot from here on (each lookup of 100k scattered rowids misses).
   */
  presentSlotsOf(rowids: ArrayLike<number>, out: Float64Array, slots: Int32Array): number {
    const slotOf = this.slotOf;
    let n = 0;
    for (let i = 0; i < rowids.length; i++) {
      const r = rowids[i]!;
      const s = slotOf.get(r);
      if (s > 0) {
        out[n] = r;
        slots[n++] = s - 1;
      }
    }
    return n;
  }

  /** The save a row was put for ("" when none was given). */
  saveOf(rowid: number): string {
    return this.has(rowid) ? this.groups.value(this.groupAt.get(this.slotOf.get(rowid) - 1)) : "";
  }

  /** The fingerprint stored with a rowid's vector, if present. */
  fingerprint(rowid: number): number | undefined {
    return this.has(rowid) ? this.fpAt.get(this.slotOf.get(rowid) - 1) : undefined;
  }

  /** Decodes a rowid's vector from f16 into `out` at `at`; false when it has none. */
  vectorInto(rowid: number, out: Float32Array, at: number): boolean {
    if (!this.has(rowid)) return false;
    this.halves.decode(this.slotOf.get(rowid) - 1, out, at);
    return true;
  }

  /** Every live rowid with its fingerprint, in rowid order. */
  entries(): { rowids: Float64Array; fingerprints: Uint32Array } {
    const rowids = new Float64Array(this.live);
    const fingerprints = new Uint32Array(this.live);
    let n = 0;
    this.slotOf.each(0, Number.POSITIVE_INFINITY, (r, s) => {
      rowids[n] = r;
      fingerprints[n] = this.fpAt.get(s - 1);
      n++;
      return true;
    });
    return { rowids, fingerprints };
  }

  /**
   * A mark of the rows as they are now (`RowMarks`): {@link rowsApartSince} counts the
   * rows changed since. Release it when done: every mark records each row changed.
   */
  mark(): number {
    return this.marks.mark();
  }

  /** Forgets a mark (an unknown token is ignored). */
  release(token: number): void {
    this.marks.release(token);
  }

  /**
   * Rows that differ from what they were at the mark `token` (present then or now only,
   * or with another fingerprint): what `entries()` then and now disagree on, counted in
   * the rows changed since. Null for a token unknown to these rows.
   */
  rowsApartSince(token: number): number | null {
    return this.marks.apart(
      token,
      (rowid) => {
        const s = this.slotOf.get(rowid);
        return s > 0 ? this.fpAt.get(s - 1) : -1;
      },
      () => this.entries(),
    );
  }

  /**
   * The raw slots and their rowids, for saving: each of `rowids`, `fingerprints` and
   * `groups` is views of slots [0, used), one after another (no copy: they are the
   * store's pages); `halves(from, count, out)` copies the f16 bits of `count` slots from
   * `from` on.
   */
  slots(): {
    rowids: ReadonlyArray<Float64Array>;
    fingerprints: ReadonlyArray<Uint32Array>;
    groups: ReadonlyArray<Int32Array>;
    saves: ReadonlyArray<string>;
    halves: (from: number, count: number, out: Uint16Array) => void;
    used: number;
  } {
    return {
      rowids: this.rowidAt.pieces(this.used),
      fingerprints: this.fpAt.pieces(this.used),
      groups: this.groupAt.pieces(this.used),
      saves: this.groups.list(),
      halves: (from, count, out) => this.halves.readRange(from, count, out),
      used: this.used,
    };
  }

  /**
   * Reads f16 rows from the file `fd` from now on (the rows take it over): its slots
   * [0, count) start at byte `base`. Rows kept in memory until then are let go.
   */
  adoptHalves(fd: number, base: number, count: number): void {
    this.halves.adopt(fd, base, count);
  }

  /** Closes the f16 file: only for rows no one reads any more. */
  close(): void {
    this.halves.close();
  }

  /** True when no f16 row the file holds was written again since it was adopted. */
  get halvesFileIntact(): boolean {
    return this.halves.fileIntact;
  }

  /** True when every f16 row is in memory (none is read from the file). */
  get halvesResident(): boolean {
    return this.halves.allResident;
  }

  /**
   * Bytes kept in memory: the i8 rows, their sketches, the f16 rows not yet saved and the
   * rowid maps.
   */
  get residentBytes(): number {
    return (
      this.q8.byteLength +
      this.quantized.byteLength +
      this.halves.residentBytes +
      this.slotOf.byteLength +
      this.rowidAt.byteLength +
      this.fpAt.byteLength +
      this.groupAt.byteLength +
      this.freeSlots.length * 8 +
      this.shared.byteLength +
      this.codes.residentBytes
    );
  }

  /** Rows copied by {@link share} (void ones included). */
  get sharedRows(): number {
    return this.shared.used;
  }

  /**
   * Copies the i8 rows of these rowids (absent ones skipped, shared ones kept where they
   * are) next to the rows shared before, at most an eighth of the rows in all: the rows
   * of items known by many, which every large known set reads. Scans read the same
   * bytes in the same order as without it, so no result depends on what is shared.
   */
  share(rowids: ArrayLike<number>): void {
    const cap = Math.max(1024, this.live >>> 3);
    for (let i = 0; i < rowids.length && this.shared.used < cap; i++) {
      const rowid = rowids[i]!;
      if (!this.has(rowid)) continue;
      const slot = this.slotOf.get(rowid) - 1;
      if (this.shared.of(slot) >= 0) continue;
      this.quantize(slot);
      this.shared.add(slot, this.q8.row(slot), this.rowidAt.capacity, cap);
    }
  }

  private allocSlot(): number {
    const reused = this.freeSlots.pop();
    if (reused !== undefined) return reused;
    if (this.used === this.rowidAt.capacity) {
      // An eighth more, not twice, and no further than the page's end (`grownCapacity`):
      // no row held is copied but those of a short last page.
      this.holdSlots(grownCapacity(this.used, this.rowidAt.shift), false);
    }
    return this.used++;
  }

  /**
   * Inserts or replaces one row (`vector`: `dimensions` floats, unit length) for `save`.
   * `sameAs`, when not negative, is a held rowid whose vector this one repeats: its stored
   * rows are copied rather than encoded again (`vector` may then be null: a caller that
   * knows the row is held need not make it). Returns the group the row belonged to
   * before, or -1 when it is new.
   */
  put(
    rowid: number,
    fingerprint: number,
    vector: Float32Array | null,
    save: string,
    sameAs = -1,
  ): number {
    // The row copied from: held, and not this row itself (its own stored rows are replaced).
    const copied = sameAs >= 0 && sameAs !== rowid && this.has(sameAs);
    if (!copied && vector === null) throw new Error(`VectorRows.put: no vector for ${rowid}`);
    let slot = this.slotOf.get(rowid) - 1;
    let was = -1;
    if (this.marks.any) this.marks.touch(rowid, slot < 0 ? -1 : this.fpAt.get(slot));
    if (slot < 0) {
      slot = this.allocSlot();
      this.slotOf.set(rowid, slot + 1);
      this.rowidAt.set(slot, rowid);
      this.live++;
    } else {
      was = this.groupAt.get(slot);
    }
    this.groupAt.set(slot, this.group(save));
    this.fpAt.set(slot, fingerprint >>> 0);
    const q8 = this.q8;
    if (copied) {
      const source = this.slotOf.get(sameAs) - 1;
      this.halves.copy(source, slot);
      this.quantize(source);
      q8.copyRow(source, slot);
      if (this.coded.get(source) === 1) {
        this.codes.copy(source, slot);
        this.coded.set(slot, 1);
      } else this.coded.set(slot, 0);
    } else {
      this.halves.write(slot, vector!);
      quantizeInto(vector!, q8.page(slot), q8.offset(slot), this.dimensions);
      this.coded.set(slot, 0);
    }
    this.quantized.set(slot, 1);
    this.shared.update(slot, q8.row(slot));
    return was;
  }

  /**
   * Writes the sketch of a live slot not yet sketched, from its f16 row (as `restore`
   * does: a sketch never depends on how its store was filled).
   */
  private codeSlot(slot: number): void {
    this.halves.decode(slot, this.row, 0);
    this.codes.encode(this.row, slot);
    this.coded.set(slot, 1);
  }

  /**
   * Writes the i8 row of a live slot not quantised yet, from its f16 row (the bits a
   * restore read: `HalfRows.decode` and the restore decode them by the same table).
   */
  private quantize(slot: number): void {
    if (this.quantized.get(slot) === 1) return;
    this.halves.decode(slot, this.row, 0);
    quantizeInto(this.row, this.q8.page(slot), this.q8.offset(slot), this.dimensions);
    this.quantized.set(slot, 1);
  }

  /** Sketches every live row not sketched yet. */
  codePending(): void {
    const coded = this.coded.pages;
    const rowidAt = this.rowidAt.pages;
    const size = this.coded.pageSlots;
    for (let p = 0, base = 0; base < this.used; p++, base += size) {
      const c = coded[p]!;
      const r = rowidAt[p]!;
      const end = Math.min(size, this.used - base);
      for (let i = 0; i < end; i++) if (c[i] === 0 && r[i]! >= 0) this.codeSlot(base + i);
    }
  }

  /** Removes rowids (absent ones are ignored). */
  remove(rowids: ArrayLike<number>): void {
    for (let i = 0; i < rowids.length; i++) {
      const rowid = rowids[i]!;
      if (!this.has(rowid)) continue;
      const slot = this.slotOf.get(rowid) - 1;
      if (this.marks.any) this.marks.touch(rowid, this.fpAt.get(slot));
      this.slotOf.set(rowid, 0);
      this.rowidAt.set(slot, -1);
      // The copy is void; the slot's next row is not shared until it is asked to be.
      this.shared.drop(slot);
      this.freeSlots.push(slot);
      this.live--;
    }
  }

  /**
   * Restores slots saved by {@link slots}, replacing every row (the save names already
   * known keep their group numbers), their f16 rows being those of the vectors file
   * `file.fd` (taken over: see {@link adoptHalves}) from byte `file.base` on. Each run of
   * rows read is shown to `file.onRead` (the caller hashes them); a row is quantised into
   * i8 when it is first read as such ({@link quantized}).
   */
  restore(
    rowids: Float64Array,
    fingerprints: Uint32Array,
    file: { readonly fd: number; readonly base: number; onRead?(bits: Uint16Array): void },
    groups?: Int32Array,
    saves: ReadonlyArray<string> = [""],
  ): void {
    this.marks.replacing(() => this.entries());
    this.halves.adopt(file.fd, file.base, rowids.length);
    const d = this.dimensions;
    this.slotOf.clear();
    // Sized to the rows: spare slots only come with the first put after.
    this.holdSlots(Math.max(1024, rowids.length), true);
    this.used = 0;
    this.live = 0;
    this.freeSlots.length = 0;
    this.shared.reset();
    const groupOfSaved = saves.map((save) => this.group(save));
    const run = Math.max(1, Math.min(rowids.length, RESTORE_RUN_ROWS));
    const bits = new Uint16Array(run * d);
    for (let from = 0; from < rowids.length; from += run) {
      const count = Math.min(run, rowids.length - from);
      const got = bits.subarray(0, count * d);
      this.halves.readRange(from, count, got);
      file.onRead?.(got);
      for (let i = from; i < from + count; i++) {
        const rowid = rowids[i]!;
        const slot = this.used++;
        if (rowid < 0) {
          this.freeSlots.push(slot);
          continue;
        }
        this.slotOf.set(rowid, slot + 1);
        this.rowidAt.set(slot, rowid);
        this.fpAt.set(slot, fingerprints[i]!);
        this.groupAt.set(slot, groupOfSaved[groups ? groups[i]! : 0] ?? this.group(""));
        this.live++;
        // Quantised and sketched when first read as such (`quantized`, `coded`).
        this.quantized.set(slot, 0);
        this.coded.set(slot, 0);
      }
    }
  }

  /** Cosine of a query to one stored row, from its f16 copy (0 when absent). */
  similarity(query: Float32Array, rowid: number): number {
    const s = this.slotOf.get(rowid);
    return s > 0 ? this.halves.dot(s - 1, query) : 0;
  }

  /** Cosine of a query to the row in a live `slot` (from {@link presentSlotsOf}), from f16. */
  similarityAt(query: Float32Array, slot: number): number {
    return this.halves.dot(slot, query);
  }

  /** Copies a row's i8 vector into `out` at `at`; false when the row has no vector. */
  copyQuantized(rowid: number, out: Int8Array, at: number): boolean {
    if (!this.has(rowid)) return false;
    const slot = this.slotOf.get(rowid) - 1;
    this.quantize(slot);
    out.set(this.q8.row(slot), at);
    return true;
  }

  /**
   * Positions, ascending, of the `count` rows among the first `n` of `slots` (live, from
   * {@link presentSlotsOf}) whose sketches best match `query` (`SignCodes.shortlist`):
   * what a scan of many rows reads in full.
   */
  shortlist(query: Float32Array, slots: Int32Array, n: number, count: number): Int32Array {
    const coded = this.coded.pages;
    const { shift, mask } = this.coded;
    for (let j = 0; j < n; j++) {
      const slot = slots[j]!;
      if (coded[slot >>> shift]![slot & mask] === 0) this.codeSlot(slot);
    }
    // After the sketching above: writing a sketch may grow the codes' memory.
    this.codes.slotsFor(n).set(slots.subarray(0, n));
    return this.codes.shortlist(query, n, count);
  }

  /**
   * Copies the i8 rows of the first `n` of `slots` (live, from {@link presentSlotsOf})
   * into `out`, one after another: what an exact scan reads. One call per gather, so the
   * loop stays tight.
   */
  gatherSlots(slots: Int32Array, n: number, out: Int8Array): void {
    const d = this.dimensions;
    // Rows restored and not read as i8 before are quantised first (a shared row was when
    // it was shared).
    const { pages: ready, shift: readyShift, mask: readyMask } = this.quantized;
    for (let j = 0; j < n; j++) {
      const s = slots[j]!;
      if (ready[s >>> readyShift]![s & readyMask] === 0) this.quantize(s);
    }
    const q8 = this.q8.pages;
    const { shift, mask } = this.q8;
    const sharedAt = this.shared.at.pages;
    const shared = this.shared.rows.pages;
    const nShared = this.shared.at.capacity;
    // Rows that follow one another in one page where they are read from are copied as
    // one run: a view per run, not per row (each view is garbage the young generation
    // collects). A run ends at a page's end: the next row is in another page.
    let from = q8[0]!;
    let start = 0;
    let len = 0;
    let at = 0;
    for (let j = 0; j < n; j++) {
      const s = slots[j]!;
      // The same bytes either way: a shared row is read from its copy among the others.
      const c = s < nShared ? sharedAt[s >>> shift]![s & mask]! - 1 : -1;
      const src = c >= 0 ? shared[c >>> shift]! : q8[s >>> shift]!;
      const pos = c >= 0 ? c & mask : s & mask;
      if (len > 0 && src === from && pos === start + len) {
        len++;
        continue;
      }
      if (len > 0) out.set(from.subarray(start * d, (start + len) * d), at * d);
      from = src;
      start = pos;
      len = 1;
      at = j;
    }
    if (len > 0) out.set(from.subarray(start * d, (start + len) * d), at * d);
  }

  /**
   * Appends to `out` each live rowid of `group` at or after `from` that `accept` takes,
   * ascending: the rows a save's graphs do not hold yet.
   */
  collectOfGroup(
    group: number,
    from: number,
    accept: (rowid: number) => boolean,
    out: Array<number>,
  ): void {
    this.slotOf.each(Math.max(0, from), Number.POSITIVE_INFINITY, (r, slot) => {
      if (this.groupAt.get(slot - 1) === group && accept(r)) out.push(r);
      return true;
    });
  }

  /** What one save's graphs read from the rows: that save's rows only. */
  segmentRows(group: number): SegmentRows {
    /** This save's rowids in [lo, hi), at most `limit` of them, in order. */
    const collect = (lo: number, hi: number, limit: number) => {
      const out: Array<number> = [];
      if (limit > 0) {
        this.slotOf.each(Math.max(0, lo), hi, (r, slot) => {
          if (this.groupAt.get(slot - 1) === group) out.push(r);
          return out.length < limit;
        });
      }
      return Float64Array.from(out);
    };
    return {
      rowidsFrom: (from, limit = Number.POSITIVE_INFINITY) =>
        collect(from, Number.POSITIVE_INFINITY, limit),
      rowidsIn: (lo, hi) => collect(lo, hi, Number.POSITIVE_INFINITY),
      vectorsOf: (rowids) => {
        const d = this.dimensions;
        const out = new Float32Array(rowids.length * d);
        for (let j = 0; j < rowids.length; j++) {
          this.halves.decode(this.slotOf.get(rowids[j]!) - 1, out, j * d);
        }
        return out;
      },
      halvesOf: (rowids) => {
        const d = this.dimensions;
        const out = new Uint16Array(rowids.length * d);
        for (let j = 0; j < rowids.length; j++) {
          this.halves.read(this.slotOf.get(rowids[j]!) - 1, out, j * d);
        }
        return out;
      },
    };
  }
}
