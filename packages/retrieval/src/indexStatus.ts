/**
 * What the saved vector index of one database holds, collection by collection, checked
 * against SQLite without embedding or changing anything: how many rows, the model and
 * dimensions the vectors were made with, the HNSW graph segments and whether their files
 * are intact, the bytes on disk, and whether it is stale (rows added, changed or gone
 * since it was saved, or saved for another model or dimension). `hearsay index status`
 * prints it.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import type { SqliteDatabase } from "@hearsay/store";
import { CollectionIndex } from "./CollectionIndex.ts";
import { type CollectionName, collections, defaultGraphBlock } from "./collections.ts";
import type { EmbedderShape } from "./Embedder.ts";
import { prepare } from "./prepare.ts";
import { type IndexManifest, indexPaths, loadVectorFiles } from "./VectorFiles.ts";
import type { VectorStore } from "./VectorStore.ts";

/** One collection's index, as found. */
export interface CollectionStatus {
  readonly collection: CollectionName;
  /** Rows in SQLite. */
  readonly rows: number;
  /** Vectors in the saved index (0 when there is none). */
  readonly count: number;
  /**
   * True when the collection's rows are embedded when a search first reads them
   * (`CollectionIndex.onDemand`): the index holds only those, and is up to date when each
   * it holds matches its row.
   */
  readonly onDemand: boolean;
  readonly dimensions: number | null;
  /** The embedder the caller runs with and the model the saved vectors were made by. */
  readonly embedder: string;
  readonly model: string | null;
  /** Graph segments in the manifest, the rows they hold, and whether every file checks. */
  readonly graph: { readonly segments: number; readonly rows: number; readonly intact: boolean };
  readonly bytes: number;
  readonly stale: boolean;
  readonly reason: string;
}

const sha1 = (path: string): string => createHash("sha1").update(readFileSync(path)).digest("hex");

const sizeOf = (path: string): number => (existsSync(path) ? statSync(path).size : 0);

export const indexStatus = (
  db: SqliteDatabase,
  dbPath: string,
  embedder: EmbedderShape,
  wanted: ReadonlyArray<CollectionName>,
): Array<CollectionStatus> =>
  wanted.map((c): CollectionStatus => {
    const paths = indexPaths(dbPath, c);
    const spec = collections[c];
    const rows = Number(prepare(db, `SELECT count(*) FROM ${spec.table}`).pluck().get());
    const files = [paths.vectors, paths.manifest, ...paths.segmentFiles()];
    const bytes = files.reduce((a, f) => a + sizeOf(f), 0);
    let manifest: IndexManifest | null = null;
    try {
      manifest = JSON.parse(readFileSync(paths.manifest, "utf8")) as IndexManifest;
    } catch {
      manifest = null;
    }
    const segments = manifest?.segments ?? [];
    const graph = {
      segments: segments.length,
      rows: segments.reduce((a, s) => a + s.count, 0),
      intact: segments.every((s) => {
        const f = paths.segment(s);
        return existsSync(f) && sha1(f) === s.hash;
      }),
    };
    const base = {
      collection: c,
      rows,
      embedder: embedder.model,
      model: manifest?.model ?? null,
      dimensions: manifest?.dimensions ?? null,
      graph,
      bytes,
    };
    const loaded = loadVectorFiles(
      paths,
      { collection: c, model: embedder.model },
      { dimensions: embedder.dimensions, hnswMinSize: defaultGraphBlock(c), graph: false },
    );
    if (!loaded.ok) {
      return {
        ...base,
        count: 0,
        onDemand: false,
        stale: true,
        reason: `${loaded.problem}: ${loaded.detail}`,
      };
    }
    const index = new CollectionIndex(db, spec, loaded.store, embedder, null);
    const check = index.diff();
    const stale = check.added + check.removed > 0;
    const store: VectorStore = loaded.store;
    return {
      ...base,
      count: store.size,
      onDemand: index.onDemand,
      stale: stale || !graph.intact,
      reason: stale
        ? `${check.added} rows new or changed, ${check.removed} gone`
        : !graph.intact
          ? "a graph file is missing or damaged"
          : "up to date",
    };
  });
