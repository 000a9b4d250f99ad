/**
 * The hnswlib-node peer index, saved beside the world database and reused: its
 * single-threaded build of 1M points takes over 1,000 s here, so a run (or
 * `retrievalPeerBuild.ts` ahead of one) writes it with `writeIndexSync` and a JSON sidecar
 * holding how long the build took, and a `--reuse-index` run reads it back instead of
 * building it again — the table still reports that build time. The files are named by a
 * sha256 of everything the index depends on (the rowids in order, every vector as added,
 * the space, dimensions and build parameters, hnswlib-node's version), so a changed world,
 * sample or parameter never loads a stale index.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import type { VectorStore } from "@hearsay/retrieval";
import hnswlib from "hnswlib-node";
import { timed } from "./retrievalBaseline.ts";

/** What the peer index is built with. */
export interface PeerBuild {
  readonly m: number;
  readonly efConstruction: number;
}

/** What the sidecar holds. */
interface Sidecar {
  readonly key: string;
  readonly buildMs: number;
  /** The build's CPU time (one thread: what the wall time is on an idle machine). */
  readonly buildCpuMs: number;
  /** The 1-minute load average when the build began and ended. */
  readonly load: readonly [number, number];
  readonly indexed: number;
  readonly m: number;
  readonly efConstruction: number;
  readonly hnswlib: string;
}

const SPACE = "cosine";

/** hnswlib-node's installed version (part of the key: its file format is its own). */
export const hnswlibVersion = (): string =>
  (createRequire(import.meta.url)("hnswlib-node/package.json") as { version: string }).version;

/** The sha256 naming an index over `rowids` (in this order) of `store`'s vectors. */
export const peerIndexKey = (store: VectorStore, rowids: Float64Array, o: PeerBuild): string => {
  const h = createHash("sha256");
  h.update(
    JSON.stringify({
      space: SPACE,
      dimensions: store.dimensions,
      m: o.m,
      efConstruction: o.efConstruction,
      hnswlib: hnswlibVersion(),
      rows: rowids.length,
    }),
  );
  h.update(new Uint8Array(rowids.buffer, rowids.byteOffset, rowids.byteLength));
  const v = new Float32Array(store.dimensions);
  const bytes = new Uint8Array(v.buffer);
  for (const r of rowids) {
    if (!store.vectorInto(r, v, 0)) throw new Error(`peer index: rowid ${r} has no vector`);
    h.update(bytes);
  }
  return h.digest("hex");
};

/** The index file and its sidecar for a world database and key. */
export const peerIndexPaths = (dbPath: string, key: string) => {
  const file = `${dbPath}.hnswlib-${key.slice(0, 16)}.bin`;
  return { file, sidecar: `${file}.json` };
};

/**
 * The peer index over `rowids`: read from beside `dbPath` when `reuse` and a saved one has
 * the same key, else built (timed, single-threaded) and saved for the next run. `buildMs`
 * is this build's or the saved one's; `loaded` says which.
 */
export const peerIndex = (
  store: VectorStore,
  rowids: Float64Array,
  o: PeerBuild,
  dbPath: string,
  reuse: boolean,
  log: (line: string) => void = (line) => console.error(line),
) => {
  const key = peerIndexKey(store, rowids, o);
  const { file, sidecar } = peerIndexPaths(dbPath, key);
  const index = new hnswlib.HierarchicalNSW(SPACE, store.dimensions);
  if (reuse && existsSync(file) && existsSync(sidecar)) {
    const saved = JSON.parse(String(readFileSync(sidecar))) as Sidecar;
    if (saved.key === key) {
      const read = timed(() => index.readIndexSync(file));
      log(`peer index: read ${file} in ${Math.round(read.wall)} ms (built in ${saved.buildMs} ms)`);
      return {
        index,
        buildMs: saved.buildMs,
        buildCpuMs: saved.buildCpuMs ?? Number.NaN,
        buildLoad: saved.load ?? null,
        loaded: true,
        key,
        file,
      };
    }
  }
  const load0 = loadavg()[0]!;
  const build = timed(() => {
    index.initIndex({ maxElements: rowids.length, m: o.m, efConstruction: o.efConstruction });
    const step = Math.max(1, Math.floor(rowids.length / 20));
    const v = new Float32Array(store.dimensions);
    for (let i = 0; i < rowids.length; i++) {
      const r = rowids[i]!;
      store.vectorInto(r, v, 0);
      index.addPoint(Array.from(v), r);
      if (i % step === step - 1) log(`peer index: ${i + 1}/${rowids.length} points added`);
    }
  });
  const buildMs = Math.round(build.wall);
  const buildCpuMs = Math.round(build.cpu);
  const load = [load0, loadavg()[0]!] as const;
  // Written under a temporary name and renamed, so a killed run leaves no half file.
  index.writeIndexSync(`${file}.part`);
  renameSync(`${file}.part`, file);
  const meta: Sidecar = {
    key,
    buildMs,
    buildCpuMs,
    load,
    indexed: rowids.length,
    m: o.m,
    efConstruction: o.efConstruction,
    hnswlib: hnswlibVersion(),
  };
  writeFileSync(sidecar, JSON.stringify(meta));
  log(
    `peer index: built in ${buildMs} ms (${buildCpuMs} ms CPU, load ${load.join("→")}), saved to ${file}`,
  );
  return { index, buildMs, buildCpuMs, buildLoad: load, loaded: false, key, file };
};
