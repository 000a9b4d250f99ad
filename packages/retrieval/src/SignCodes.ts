/**
 * One-bit sketches of a collection's rows — 64 bytes, one cache line, per row at 384-d —
 * that an exact scan of a large known set ranks first, so that it reads the full i8 rows
 * of only a short list (`ExactScan`).
 *
 * Why: a known set of tens of thousands of rows is scattered over a matrix of a million,
 * and gathering its i8 rows costs six cache misses a row (≈ 0.5 µs here): the scan
 * itself is a small part of it. A sketch is one miss, and the kernel (`signScan.wat`)
 * touches a block of rows before summing them, so their misses overlap.
 *
 * A sketch is SimHash after a randomised Hadamard rotation: the row, zero-padded to
 * `bits` (a power of two ≥ the dimensions), has fixed pseudo-random signs applied and is
 * Hadamard-transformed, twice; each bit is the sign of one rotated component. The query
 * is rotated alike but kept real-valued (asymmetric distance): a row's score is the sum
 * over its bits of ±(the query's component), read eight bits at a time from a table of
 * 256 partial sums per byte. The score estimates the cosine; the short list is then
 * ranked by the i8 rows and the best few by f16, as any exact scan.
 *
 * The sketches and the kernel's buffers live in one WebAssembly memory, grown as slots
 * are added; a slot's sketch is rewritten whenever its row is.
 */
import { SIGN_SCAN_WASM } from "./signScanWasm.ts";

const PAGE = 65_536;
/** Table bytes per code byte: 256 i16 partial sums. */
const TABLE_BYTES = 512;
/** Sign flips of the two rotation rounds: a fixed hash of (round, index). */
const flip = (round: number, i: number): boolean => {
  let h = Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(round + 1, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h & 1) === 1;
};

/** The part of the WebAssembly API used here (the TS libs this project builds with omit it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (
    module: object,
    imports: { env: { memory: WasmMemory } },
  ) => { readonly exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let scanModule: object | undefined;
const compiled = (): object => {
  scanModule ??= new wasm.Module(Buffer.from(SIGN_SCAN_WASM, "base64"));
  return scanModule;
};

type ScanFn = (
  slots: number,
  n: number,
  codes: number,
  bytes: number,
  lut: number,
  out: number,
) => number;

/** In-place Walsh–Hadamard transform of a power-of-two length array (unnormalised). */
const hadamard = (a: Float64Array): void => {
  for (let h = 1; h < a.length; h *= 2) {
    for (let i = 0; i < a.length; i += 2 * h) {
      for (let j = i; j < i + h; j++) {
        const x = a[j]!;
        const y = a[j + h]!;
        a[j] = x + y;
        a[j + h] = x - y;
      }
    }
  }
};

export class SignCodes {
  /** Bits per sketch: the dimensions rounded up to a power of two, at least 64. */
  readonly bits: number;
  /** Bytes per sketch. */
  readonly bytes: number;
  private readonly memory: WasmMemory;
  private readonly scanFn: ScanFn;
  /** Where the sketches start (the query's table is before them). */
  private readonly codesAt: number;
  /** Slots with room for a sketch. */
  private capacity = 0;
  private u8: Uint8Array;
  /** The rotation's signs, per round. */
  private readonly flips: Array<Float64Array>;
  private readonly rotated: Float64Array;
  /** A byte's partial sums over its low and its high four bits (the query's table). */
  private readonly nibbles = [new Float64Array(16), new Float64Array(16)];
  /** The query the table was last written for. */
  private tableQuery = new Float64Array(0);

  constructor(readonly dimensions: number) {
    let bits = 64;
    while (bits < dimensions) bits *= 2;
    this.bits = bits;
    this.bytes = bits / 8;
    this.codesAt = this.bytes * TABLE_BYTES;
    this.memory = new wasm.Memory({ initial: Math.ceil(this.codesAt / PAGE) + 1 });
    const instance = new wasm.Instance(compiled(), { env: { memory: this.memory } });
    this.scanFn = instance.exports.scan as ScanFn;
    this.u8 = new Uint8Array(this.memory.buffer);
    this.flips = [0, 1].map((round) =>
      Float64Array.from({ length: bits }, (_, i) => (flip(round, i) ? -1 : 1)),
    );
    this.rotated = new Float64Array(bits);
  }

  /** Bytes held: the sketches, the query table and the scan's buffers at their largest. */
  get residentBytes(): number {
    return this.memory.buffer.byteLength;
  }

  /** Makes room for sketches of slots [0, slots). */
  ensure(slots: number): void {
    if (slots <= this.capacity) return;
    this.reserve(this.codesAt + slots * this.bytes);
    this.capacity = slots;
  }

  private reserve(end: number): void {
    const have = this.memory.buffer.byteLength;
    if (end > have) {
      this.memory.grow(Math.ceil((end - have) / PAGE));
      this.u8 = new Uint8Array(this.memory.buffer);
    }
  }

  /** The rotation of `v` (its first `dimensions` values) into `this.rotated`. */
  private rotate(v: ArrayLike<number>): Float64Array {
    const a = this.rotated;
    const d = this.dimensions;
    const s0 = this.flips[0]!;
    const s1 = this.flips[1]!;
    for (let i = 0; i < d; i++) a[i] = v[i]! * s0[i]!;
    a.fill(0, d);
    hadamard(a);
    for (let i = 0; i < a.length; i++) a[i] = a[i]! * s1[i]!;
    hadamard(a);
    return a;
  }

  /** Writes the sketch of `vector` (`dimensions` floats) for `slot` (within {@link ensure}). */
  encode(vector: ArrayLike<number>, slot: number): void {
    const a = this.rotate(vector);
    const u8 = this.u8;
    const at = this.codesAt + slot * this.bytes;
    for (let byte = 0; byte < this.bytes; byte++) {
      let b = 0;
      for (let bit = 0; bit < 8; bit++) if (a[byte * 8 + bit]! > 0) b |= 1 << bit;
      u8[at + byte] = b;
    }
  }

  /** Copies one slot's sketch to another (a row that repeats another's vector). */
  copy(from: number, to: number): void {
    const at = this.codesAt;
    const b = this.bytes;
    this.u8.copyWithin(at + to * b, at + from * b, at + (from + 1) * b);
  }

  /** Where the slots of a scan of `n` rows are written: call, fill, then {@link shortlist}. */
  slotsFor(n: number): Int32Array {
    const at = this.scratchAt();
    this.reserve(at + n * 8);
    return new Int32Array(this.memory.buffer, at, n);
  }

  private scratchAt(): number {
    return this.codesAt + this.capacity * this.bytes;
  }

  /**
   * Positions, ascending, of the `count` best of the `n` slots just written by
   * {@link slotsFor}, by their sketches' estimate of the cosine to `query` (ties: the
   * earlier position). All positions when `n` ≤ `count`.
   */
  shortlist(query: ArrayLike<number>, n: number, count: number): Int32Array {
    if (n <= count) return Int32Array.from({ length: n }, (_, i) => i);
    this.writeTable(query);
    const slotsAt = this.scratchAt();
    const outAt = slotsAt + n * 4;
    this.scanFn(slotsAt, n, this.codesAt, this.bytes, 0, outAt);
    const scores = new Int32Array(this.memory.buffer, outAt, n);
    return bestPositions(scores, count);
  }

  /**
   * The query's table at address 0: for code byte `k` and byte value `v`, the sum over
   * its 8 bits of +q (bit set) or −q (clear) of the rotated query, scaled to i16. A scan
   * for the same query as the last (a dossier's collections, a widening search) reuses it.
   */
  private writeTable(query: ArrayLike<number>): void {
    const last = this.tableQuery;
    let same = last.length === query.length;
    for (let i = 0; same && i < query.length; i++) same = last[i] === query[i];
    if (same) return;
    const rq = this.rotate(query);
    // The largest |entry| of a byte's table is the sum of its bits' |q| (the entry whose
    // bits all agree with them), so the scale is known before the table is filled.
    let most = 0;
    for (let k = 0; k < this.bytes; k++) {
      let reach = 0;
      for (let bit = 0; bit < 8; bit++) reach += Math.abs(rq[k * 8 + bit]!);
      if (reach > most) most = reach;
    }
    const scale = most > 0 ? 32_767 / most : 0;
    const lut = new Int16Array(this.memory.buffer, 0, this.bytes * 256);
    // A byte's entry is the sum of its two nibbles' (16 values each), so 32 sums a byte
    // are built bit by bit and its 256 entries are one add each.
    const lo = this.nibbles[0]!;
    const hi = this.nibbles[1]!;
    for (let k = 0; k < this.bytes; k++) {
      for (const [half, sums] of [lo, hi].entries()) {
        const at = k * 8 + half * 4;
        sums[0] = -(rq[at]! + rq[at + 1]! + rq[at + 2]! + rq[at + 3]!);
        for (let v = 1; v < 16; v++) {
          const low = v & -v;
          sums[v] = sums[v ^ low]! + 2 * rq[at + 31 - Math.clz32(low)]!;
        }
      }
      const o = k * 256;
      // Math.round, as an add and a truncation: the entry plus 32,768.5 is positive.
      for (let v = 0; v < 256; v++) {
        lut[o + v] = (((lo[v & 15]! + hi[v >>> 4]!) * scale + 32_768.5) | 0) - 32_768;
      }
    }
    this.tableQuery = Float64Array.from(query);
  }
}

/** Positions, ascending, of the `count` highest scores (ties: the earlier position). */
const bestPositions = (scores: Int32Array, count: number): Int32Array => {
  // A min-heap of the best so far, its root the worst of them: a later position with an
  // equal score never displaces it.
  const hs = new Int32Array(count);
  const hp = new Int32Array(count);
  let size = 0;
  const worse = (a: number, b: number) => hs[a]! < hs[b]! || (hs[a] === hs[b] && hp[a]! > hp[b]!);
  const swap = (a: number, b: number) => {
    const s = hs[a]!;
    const p = hp[a]!;
    hs[a] = hs[b]!;
    hp[a] = hp[b]!;
    hs[b] = s;
    hp[b] = p;
  };
  for (let j = 0; j < scores.length; j++) {
    const s = scores[j]!;
    if (size < count) {
      let i = size++;
      hs[i] = s;
      hp[i] = j;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
    } else if (s > hs[0]!) {
      hs[0] = s;
      hp[0] = j;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let w = i;
        if (l < size && worse(l, w)) w = l;
        if (r < size && worse(r, w)) w = r;
        if (w === i) break;
        swap(i, w);
        i = w;
      }
    }
  }
  return hp.subarray(0, size).sort();
};
