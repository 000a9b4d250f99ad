/**
 * The index job's work (`MaintenanceRan` with job `index`): writing a run's vector index
 * files beside its database when they have fallen behind what the run holds in memory.
 * The in-memory index is kept level with SQLite by every append, so the files are what
 * lags: opening saves them (rebuilt when missing, of another model or dimensions, or
 * repaired when stale) and so does the end of a run, but a run killed in between
 * would reopen an index stale by everything since it started. The job writes them when
 * a file is missing (vectors, manifest or a graph segment), the manifest names another model or dimensions, or at least
 * `minRows` rows differ from what was last written.
 *
 * Those rows are counted from a mark the keeper takes on each store when its files are
 * written (`VectorStore.mark`): in the rows changed since, not the rows held — the job
 * runs daily on stores that reach a year's 1.3 million memories. The count is what
 * diffing the entries written and now would give (`rowsApart`).
 *
 * What it finds depends on the disk (a resume, a deleted file, `replay --verify` in an
 * in-memory database that has no files), so none of it enters the log: the job's event
 * says only that it ran, and its counts go to the run's summary.
 */
import { existsSync, statSync } from "node:fs";
import {
  type CollectionName,
  collectionNames,
  type IndexManifest,
  indexPaths,
  readManifest,
  saveVectorFiles,
  type VectorIndexes,
  type VectorStore,
} from "@hearsay/retrieval";

/** What the index jobs of a run did, for its summary. */
export interface IndexUpkeep {
  /** Index jobs that found the index kept on disk (none in memory or with it disabled). */
  readonly jobs: number;
  /** Of them, the ones that wrote files. */
  readonly writes: number;
  /** Rows the files were behind by when written (added, changed or gone), summed. */
  readonly rows: number;
  /** Graph segment files new since the collection's previous write. */
  readonly segments: number;
  /** The index files' size after the last write. */
  readonly bytes: number;
  /** Time spent writing (null when the source was given no clock). */
  readonly seconds: number | null;
}

/** What a collection's files were last written with: a mark on the store, and its rows then. */
interface Written {
  readonly store: VectorStore;
  readonly token: number;
  readonly rows: number;
}

const sizeOf = (path: string): number => (existsSync(path) ? statSync(path).size : 0);

export class IndexKeeper {
  private readonly written = new Map<CollectionName, Written>();
  private jobs = 0;
  private writes = 0;
  private rows = 0;
  private segments = 0;
  private bytes = 0;
  private seconds: number | null;

  /** `dbPath` null: an in-memory database, whose index has no files to keep. */
  constructor(
    private readonly dbPath: string | null,
    private readonly clock: (() => number) | null,
  ) {
    this.seconds = clock === null ? null : 0;
  }

  /** Notes what the files hold: `index` was just opened (which saves what it repaired) or saved. */
  wrote(index: VectorIndexes): void {
    for (const c of collectionNames) {
      const store = index.store(c);
      if (store !== null) this.marked(c, store, store.mark());
    }
  }

  /** Keeps `token` (a mark just taken on `store`) as what `c`'s files hold, the old mark let go. */
  private marked(c: CollectionName, store: VectorStore, token: number): void {
    const last = this.written.get(c);
    last?.store.release(last.token);
    this.written.set(c, { store, token, rows: store.size });
  }

  /**
   * Rows `store` is apart from what `c`'s files were last written with, and how many
   * rows that was: all its rows, and none, when they were never written from it (a store
   * the keeper did not mark: every reopen is followed by {@link wrote}).
   */
  private behind(c: CollectionName, store: VectorStore): { behind: number; rows: number } {
    const last = this.written.get(c);
    const apart = last?.store === store ? store.rowsApartSince(last.token) : null;
    return apart === null || last === undefined
      ? { behind: store.size, rows: 0 }
      : { behind: apart, rows: last.rows };
  }

  /**
   * The job: writes each collection whose files are missing, foreign, or behind by at
   * least `minRows` rows and `minShare` of the rows last written.
   */
  keep(index: VectorIndexes, minRows: number, minShare: number): void {
    if (this.dbPath === null || index.mode === "disabled") return;
    this.jobs += 1;
    const began = this.clock?.() ?? 0;
    let wrote = false;
    for (const c of collectionNames) {
      const store = index.store(c);
      if (store === null) continue;
      const paths = indexPaths(this.dbPath, c);
      const { behind, rows } = this.behind(c, store);
      const manifest = this.onDisk(c, index, store);
      const share = Math.ceil(Math.max(0, minShare) * rows);
      if (manifest !== null && behind < Math.max(1, minRows, share)) continue;
      const before = new Set((manifest?.segments ?? []).map((s) => s.hash));
      // Marked before the save, as the rows it writes; kept once it is written.
      const token = store.mark();
      let saved: IndexManifest;
      try {
        saved = saveVectorFiles(store, paths, { collection: c, model: index.model });
      } catch (e) {
        store.release(token);
        throw e;
      }
      this.marked(c, store, token);
      this.rows += behind;
      this.segments += saved.segments.filter((s) => !before.has(s.hash)).length;
      wrote = true;
    }
    if (!wrote) return;
    this.writes += 1;
    this.bytes = this.filesBytes();
    if (this.clock !== null && this.seconds !== null) this.seconds += (this.clock() - began) / 1000;
  }

  /**
   * The manifest of `c`'s files when they are all on disk and for this index's model and
   * dimensions; null when one is missing or foreign (they must be written whole).
   */
  private onDisk(
    c: CollectionName,
    index: VectorIndexes,
    store: VectorStore,
  ): IndexManifest | null {
    const paths = indexPaths(this.dbPath!, c);
    const manifest = existsSync(paths.vectors) ? readManifest(paths.manifest) : null;
    return manifest === null ||
      manifest.model !== index.model ||
      manifest.dimensions !== store.dimensions ||
      manifest.segments.some((s) => !existsSync(paths.segment(s)))
      ? null
      : manifest;
  }

  /**
   * The collections whose files hold their rows as they are now: on disk for this model,
   * and no row changed since this keeper last noted what they hold (`VectorIndexes.save`
   * then writes only their manifests).
   */
  asSaved(index: VectorIndexes): ReadonlySet<CollectionName> {
    const out = new Set<CollectionName>();
    if (this.dbPath === null || index.mode === "disabled") return out;
    for (const c of collectionNames) {
      const store = index.store(c);
      const last = this.written.get(c);
      if (store === null || last?.store !== store) continue;
      if (store.rowsApartSince(last.token) !== 0 || this.onDisk(c, index, store) === null) continue;
      out.add(c);
    }
    return out;
  }

  private filesBytes(): number {
    if (this.dbPath === null) return 0;
    let total = 0;
    for (const c of collectionNames) {
      const p = indexPaths(this.dbPath, c);
      for (const f of [p.vectors, p.manifest, ...p.segmentFiles()]) total += sizeOf(f);
    }
    return total;
  }

  /** The run's totals so far. */
  upkeep(): IndexUpkeep {
    return {
      jobs: this.jobs,
      writes: this.writes,
      rows: this.rows,
      segments: this.segments,
      bytes: this.bytes,
      seconds: this.seconds,
    };
  }
}
