/**
 * Saving a collection's vectors beside the database file, and loading them back only
 * when they can be trusted. Three files per collection, each written to a temp name and
 * renamed (a crash leaves the old file or none, never half of one):
 *
 *   <db>.<collection>.vectors             rowids, text fingerprints, saves and f16 vectors
 *   <db>.<collection>.s<save>.g<L>-<lo>-<hi>.usearch
 *                                         one HNSW graph segment each (`GraphSegments`),
 *                                         per save; immutable, so each is written once
 *   <db>.<collection>.manifest.json       model, dimensions, count, checksum and the
 *                                         segments' layout and hashes — written last
 *
 * The vectors file is also where a store reads its f16 rows from (`HalfRows`): saving
 * and loading hand the store the file's descriptor, so its f16 rows are read from disk
 * (the page cache) instead of being held in memory, and both stream the rows in runs.
 *
 * A missing or unreadable file, a manifest for another model or dimension, or sizes that
 * disagree are reported as a problem; the caller rebuilds. Staleness against SQLite
 * (rows added, removed or changed) is the caller's check, by fingerprint.
 */
import { createHash, type Hash } from "node:crypto";
import {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { textFingerprint } from "./collections.ts";
import { type SegmentShape, segmentName } from "./GraphSegments.ts";
import { VectorStore, type VectorStoreConfig } from "./VectorStore.ts";

/** A saved graph segment: its save, its layout and the sha1 of its file. */
export interface SavedSegment extends SegmentShape {
  readonly save: string;
  readonly hash: string;
}

/** The manifest written beside the vectors. */
export interface IndexManifest {
  readonly format: 4;
  readonly collection: string;
  readonly model: string;
  readonly dimensions: number;
  readonly count: number;
  readonly checksum: string;
  /** sha1 of the vector bytes, so a flipped float is caught too. */
  readonly dataHash: string;
  readonly graph: boolean;
  /** The graph segments, oldest first; each file's sha1 is checked before USearch reads it. */
  readonly segments: ReadonlyArray<SavedSegment>;
  /** Rows scanned exactly because their vector changed after their segment was built. */
  readonly stale: ReadonlyArray<number>;
  /** The saves the vectors file's group numbers stand for. */
  readonly saves: ReadonlyArray<string>;
  /**
   * Where the database stood when these vectors were known to hold what its tables held
   * (`VectorIndexes`: the store's `databaseLevel` and how the collection's texts are
   * embedded). An open that finds the same level trusts them without reading a row;
   * absent when the writer could not tell (a run's periodic save, with appends in flight).
   */
  readonly level?: string;
}

/** Where one collection's files live. */
export interface IndexPaths {
  readonly vectors: string;
  /** The single graph file of format 1 (removed when seen). */
  readonly graph: string;
  readonly manifest: string;
  /** Where a save's graph segment's file goes. */
  readonly segment: (s: SegmentShape & { readonly save: string }) => string;
  /** Every graph segment file beside the database for this collection, by name. */
  readonly segmentFiles: () => Array<string>;
}

export const indexPaths = (dbPath: string, collection: string): IndexPaths => {
  const prefix = `${dbPath}.${collection}.`;
  return {
    vectors: `${prefix}vectors`,
    graph: `${prefix}usearch`,
    manifest: `${prefix}manifest.json`,
    segment: (s) => `${prefix}s${textFingerprint(s.save).toString(16)}.${segmentName(s)}.usearch`,
    segmentFiles: () => {
      const dir = dirname(prefix);
      const base = basename(prefix);
      try {
        return readdirSync(dir)
          .filter((f) => f.startsWith(`${base}s`) && f.endsWith(".usearch"))
          .map((f) => join(dir, f));
      } catch {
        return [];
      }
    },
  };
};

/** Segment files a store already wrote (path → hash), so immutable graphs are written once. */
const written = new WeakMap<VectorStore, Map<string, string>>();

/**
 * Per store, the hash of the f16 rows of the vectors file it reads from (the one it last
 * saved or was loaded from), as a SHA-1 state after those `rows` rows. A save rewrites
 * the file whole, but while none of those rows was written again
 * (`VectorStore.halvesFileIntact`) it hashes only the rows after them: the same bytes in
 * the same order, so the same hash. A run's saves are of a store that only grows, and
 * hashing all of it again was most of a save's CPU.
 */
const hashedRows = new WeakMap<VectorStore, { readonly state: Hash; readonly rows: number }>();

// Format 4 keeps each row's key as a float64 (item keys reach 2^53: store/src/ItemKeys.ts);
// older files are reported as a problem and rebuilt.
const MAGIC = "HSYVEC04";
/** Bytes per row before the f16 vectors: key (f64), fingerprint (u32), group (i32). */
const ROW_META = 16;
const HEADER = 32;

const mix = (x: number): number => {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
};

/** An order-independent checksum of (rowid, fingerprint) pairs. */
export const fingerprintChecksum = (
  rowids: ArrayLike<number>,
  fingerprints: ArrayLike<number>,
): string => {
  let a = 0;
  let b = 0;
  for (let i = 0; i < rowids.length; i++) {
    const r = rowids[i]!;
    const h = mix(mix(r >>> 0) ^ Math.floor(r / 2 ** 32) ^ fingerprints[i]!);
    a = (a + h) >>> 0;
    b = (b + mix(h ^ 0x5bd1e995)) >>> 0;
  }
  return `${rowids.length.toString(16)}-${a.toString(16).padStart(8, "0")}${b.toString(16).padStart(8, "0")}`;
};

const writeAll = (fd: number, view: ArrayBufferView): void => {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  let off = 0;
  while (off < bytes.length)
    off += writeSync(fd, bytes, off, Math.min(bytes.length - off, 1 << 26));
};

const readAll = (fd: number, view: ArrayBufferView, position: number): boolean => {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  let off = 0;
  while (off < bytes.length) {
    const n = readSync(fd, bytes, off, Math.min(bytes.length - off, 1 << 26), position + off);
    if (n <= 0) return false;
    off += n;
  }
  return true;
};

const writeAtomically = (path: string, write: (tmp: string) => void): void => {
  const tmp = `${path}.tmp`;
  write(tmp);
  renameSync(tmp, path);
};

/**
 * sha1 of a file's bytes, read in pieces of up to 64 MiB. The buffer is no larger than
 * the file: a graph segment is a few KiB to a few MiB, and a run hashes one per segment
 * it writes (a 64 MiB buffer each time was external memory the GC had to count).
 */
const fileHash = (path: string): string => {
  const h = createHash("sha1");
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.allocUnsafe(Math.max(1, Math.min(fstatSync(fd).size, 1 << 26)));
    for (let pos = 0; ; ) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n <= 0) break;
      h.update(buf.subarray(0, n));
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
  return h.digest("hex");
};

/** Slots of f16 rows copied per write when saving (1.5 MiB at 384-d). */
const SAVE_RUN_ROWS = 2048;

const bytesOf = (v: ArrayBufferView): Uint8Array =>
  new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

/** Saves a store and its manifest (manifest last). */
export const saveVectorFiles = (
  store: VectorStore,
  paths: IndexPaths,
  meta: {
    readonly collection: string;
    readonly model: string;
    readonly level?: string | undefined;
  },
): IndexManifest => {
  const { rowids, fingerprints, groups, saves, halves, used } = store.slots();
  const d = store.dimensions;
  const prior = hashedRows.get(store);
  const hashedTo =
    prior !== undefined && prior.rows <= used && store.halvesFileIntact ? prior.rows : 0;
  const data = hashedTo > 0 ? prior!.state.copy() : createHash("sha1");
  // The new file is kept open: the store reads its f16 rows from it from now on.
  let kept = -1;
  try {
    writeAtomically(paths.vectors, (tmp) => {
      const fd = openSync(tmp, "w+");
      try {
        const header = Buffer.alloc(HEADER);
        header.write(MAGIC, 0, "latin1");
        header.writeUInt32LE(d, 8);
        header.writeUInt32LE(used, 12);
        writeAll(fd, header);
        // Each column in pieces, one a page of the store's slots (`VectorRows.slots`).
        for (const piece of [...rowids, ...fingerprints, ...groups]) writeAll(fd, piece);
        const run = new Uint16Array(Math.max(1, Math.min(used, SAVE_RUN_ROWS)) * d);
        for (let from = 0; from < used; from += SAVE_RUN_ROWS) {
          const bits = run.subarray(0, Math.min(SAVE_RUN_ROWS, used - from) * d);
          halves(from, bits.length / d, bits);
          // Rows before `hashedTo` are in the hash state already.
          const fresh = Math.max(0, hashedTo - from) * d;
          if (fresh < bits.length) data.update(bytesOf(bits.subarray(fresh)));
          writeAll(fd, bits);
        }
        kept = fd;
      } finally {
        if (kept < 0) closeSync(fd);
      }
    });
  } catch (e) {
    if (kept >= 0) closeSync(kept);
    throw e;
  }
  store.adoptHalves(kept, HEADER + used * ROW_META, used);
  hashedRows.set(store, { state: data.copy(), rows: used });
  const done = written.get(store) ?? new Map<string, string>();
  written.set(store, done);
  const segments: Array<SavedSegment> = store.graphShapes().map(({ at, ...shape }) => {
    const path = paths.segment(shape);
    let hash = done.get(path);
    if (hash === undefined || !existsSync(path)) {
      writeAtomically(path, (tmp) => {
        store.saveSegment(shape.save, at, tmp);
        hash = fileHash(tmp);
      });
      done.set(path, hash!);
    }
    return { ...shape, hash: hash! };
  });
  const keep = new Set(segments.map((s) => paths.segment(s)));
  rmSync(paths.graph, { force: true });
  const graph = segments.length > 0;
  const entries = store.entries();
  const manifest: IndexManifest = {
    format: 4,
    collection: meta.collection,
    model: meta.model,
    dimensions: store.dimensions,
    count: store.size,
    checksum: fingerprintChecksum(entries.rowids, entries.fingerprints),
    dataHash: data.digest("hex"),
    graph,
    saves: [...saves],
    segments,
    stale: store.staleRows(),
    ...(meta.level === undefined ? {} : { level: meta.level }),
  };
  writeManifest(paths, manifest);
  // Segments merged away since the last save.
  for (const f of paths.segmentFiles()) if (!keep.has(f)) rmSync(f, { force: true });
  for (const f of [...done.keys()]) if (!keep.has(f)) done.delete(f);
  return manifest;
};

/** Writes a manifest in place of the one there (atomically). */
export const writeManifest = (paths: IndexPaths, manifest: IndexManifest): void =>
  writeAtomically(paths.manifest, (tmp) => {
    const fd = openSync(tmp, "w");
    try {
      writeAll(fd, Buffer.from(JSON.stringify(manifest, null, 2)));
    } finally {
      closeSync(fd);
    }
  });

/** Why saved files were not used. */
export type LoadProblem = "missing" | "corrupt" | "mismatch";

export type LoadResult =
  | {
      readonly ok: true;
      readonly store: VectorStore;
      readonly manifest: IndexManifest;
      readonly graphLoaded: boolean;
    }
  | { readonly ok: false; readonly problem: LoadProblem; readonly detail: string };

/** A saved manifest, or null when it is missing, unreadable or of another format. */
export const readManifest = (path: string): IndexManifest | null => {
  try {
    const fd = openSync(path, "r");
    try {
      const size = statSync(path).size;
      const buf = Buffer.alloc(size);
      if (!readAll(fd, buf, 0)) return null;
      const m = JSON.parse(buf.toString("utf8")) as IndexManifest;
      return m.format === 4 &&
        typeof m.checksum === "string" &&
        Array.isArray(m.segments) &&
        Array.isArray(m.saves)
        ? m
        : null;
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
};

/**
 * Loads a collection's saved store, if its files exist, agree with each other and were
 * made by `model` at `config.dimensions`. A graph that fails to load is rebuilt from
 * the vectors (the vectors are still good). With `graphs` false the graph segments are
 * neither read nor built: the caller changes the rows first and builds them after.
 */
export const loadVectorFiles = (
  paths: IndexPaths,
  expect: { readonly collection: string; readonly model: string },
  config: VectorStoreConfig,
  options: { readonly graphs?: boolean } = {},
): LoadResult => {
  if (!existsSync(paths.manifest) || !existsSync(paths.vectors)) {
    return { ok: false, problem: "missing", detail: "no saved index" };
  }
  const manifest = readManifest(paths.manifest);
  if (!manifest)
    return { ok: false, problem: "corrupt", detail: `${paths.manifest} is unreadable` };
  if (
    manifest.model !== expect.model ||
    manifest.dimensions !== config.dimensions ||
    manifest.collection !== expect.collection
  ) {
    return {
      ok: false,
      problem: "mismatch",
      detail: `saved for ${manifest.model}/${manifest.dimensions}, need ${expect.model}/${config.dimensions}`,
    };
  }
  const d = config.dimensions;
  let fd: number;
  try {
    fd = openSync(paths.vectors, "r");
  } catch (e) {
    return { ok: false, problem: "corrupt", detail: String(e) };
  }
  try {
    const header = Buffer.alloc(HEADER);
    if (!readAll(fd, header, 0) || header.toString("latin1", 0, 8) !== MAGIC) {
      return { ok: false, problem: "corrupt", detail: `${paths.vectors} has no vector header` };
    }
    const dims = header.readUInt32LE(8);
    const used = header.readUInt32LE(12);
    const size = statSync(paths.vectors).size;
    if (dims !== d || size !== HEADER + used * ROW_META + used * d * 2) {
      return { ok: false, problem: "corrupt", detail: `${paths.vectors} has the wrong size` };
    }
    const rowids = new Float64Array(used);
    const fps = new Uint32Array(used);
    const groups = new Int32Array(used);
    if (
      !readAll(fd, rowids, HEADER) ||
      !readAll(fd, fps, HEADER + used * 8) ||
      !readAll(fd, groups, HEADER + used * 12)
    ) {
      return { ok: false, problem: "corrupt", detail: `${paths.vectors} is truncated` };
    }
    if (groups.some((g) => g < 0 || g >= manifest.saves.length)) {
      return { ok: false, problem: "corrupt", detail: `${paths.vectors} names an unknown save` };
    }
    // The store reads its f16 rows from this file from now on: it takes the descriptor.
    const store = new VectorStore(config);
    const data = createHash("sha1");
    try {
      store.restore(
        rowids,
        fps,
        { fd, base: HEADER + used * ROW_META, onRead: (bits) => data.update(bytesOf(bits)) },
        groups,
        manifest.saves,
      );
    } catch (e) {
      store.close();
      return { ok: false, problem: "corrupt", detail: `${paths.vectors}: ${String(e)}` };
    } finally {
      fd = -1;
    }
    const entries = store.entries();
    const state = data.copy();
    const problem =
      data.digest("hex") !== manifest.dataHash
        ? `${paths.vectors} vectors do not match their hash`
        : store.size !== manifest.count ||
            fingerprintChecksum(entries.rowids, entries.fingerprints) !== manifest.checksum
          ? `${paths.vectors} does not match its manifest`
          : null;
    if (problem !== null) {
      store.close();
      return { ok: false, problem: "corrupt", detail: problem };
    }
    hashedRows.set(store, { state, rows: used });
    if (options.graphs === false) return { ok: true, store, manifest, graphLoaded: false };
    // A damaged graph could crash the native reader, so its bytes are checked first.
    const loaded =
      config.graph === false
        ? 0
        : store.loadSegments(
            manifest.segments,
            (seg) => {
              const path = paths.segment(seg);
              return existsSync(path) && fileHash(path) === seg.hash ? path : null;
            },
            manifest.stale,
          );
    const graphLoaded = loaded === manifest.segments.length;
    if (graphLoaded) {
      const done = new Map<string, string>();
      for (const seg of manifest.segments) done.set(paths.segment(seg), seg.hash);
      written.set(store, done);
    }
    store.syncGraphs();
    return { ok: true, store, manifest, graphLoaded };
  } finally {
    if (fd >= 0) closeSync(fd);
  }
};
