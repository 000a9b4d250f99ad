/**
 * Keeps one collection's `VectorStore` in step with its SQLite table. `reconcile` scans
 * every row (rowid + fingerprint of its embedding text), drops vectors whose row is gone
 * and embeds rows that are new or whose text changed — a full rebuild is a reconcile of
 * an empty store. `update` does the same for a few rowids plus every row newer than the
 * last one seen in each save's key space (store/src/ItemKeys.ts), which is what a tick needs. Vectors come from the embedder (hashing:
 * recomputed; a live model: through the embeddings cache), in batches.
 *
 * An on-demand collection (`CollectionSpec.onDemand`: memories) with a pure embedder and
 * no graphs holds only the rows searches have read: a row is embedded when a search first
 * needs it (`fill`, called by the search with the rows it may read, from the view's
 * texts), and a reconcile or update only drops vectors whose row is gone or whose text
 * changed. A run records millions of memories, nearly all gone before any turn searches
 * them (a scripted brain never does); the vectors held are still exactly those an eager
 * index would hold for every row a search reads, so every search ranks the same.
 */
import { ITEM_KEY_SPACE, type SqliteDatabase } from "@hearsay/store";
import { Effect } from "effect";
import { type CollectionSpec, embeddingText, textFingerprint } from "./collections.ts";
import type { EmbedderError, EmbedderShape } from "./Embedder.ts";
import { type EmbeddingCache, vectorsFor } from "./EmbeddingCache.ts";
import { prepare, type Statement } from "./prepare.ts";
import type { FillRows, VectorStore } from "./VectorStore.ts";

/** Progress of index work, for a progress bar. */
export interface IndexProgress {
  readonly collection: string;
  readonly phase: "scan" | "embed" | "graph";
  readonly done: number;
  readonly total: number;
}

/** What one reconcile or update changed. */
export interface IndexChange {
  readonly added: number;
  readonly removed: number;
}

/**
 * The rows of one save a retrieval view made or changed, by rowid, as their `textColumns`
 * values (null: removed): what {@link CollectionIndex.update} embeds without a read.
 */
export interface GivenRows {
  readonly saveId: string;
  readonly rows: ReadonlyMap<number, ReadonlyArray<unknown> | null>;
}

interface Pending {
  readonly rowid: number;
  /** The save the row belongs to: each save's rows have graphs of their own. */
  readonly save: string;
  readonly fp: number;
  readonly text: string;
}

const EMBED_BATCH = 512;

/** Texts {@link CollectionIndex} remembers the row of, at most (then it starts over). */
const TEXT_ROWS_KEPT = 65_536;

/**
 * A batch's distinct texts in first-seen order; per row, the index of its text and the
 * first earlier row with the same text (-1: none).
 */
const distinctTexts = (
  rows: ReadonlyArray<Pending>,
): { texts: Array<string>; textOf: Int32Array; sameAs: Int32Array } => {
  const first = new Map<string, number>();
  const texts: Array<string> = [];
  const textOf = new Int32Array(rows.length);
  const sameAs = new Int32Array(rows.length).fill(-1);
  for (let j = 0; j < rows.length; j++) {
    const text = rows[j]!.text;
    const earlier = first.get(text);
    if (earlier === undefined) {
      first.set(text, j);
      textOf[j] = texts.length;
      texts.push(text);
    } else {
      textOf[j] = textOf[earlier]!;
      sameAs[j] = earlier;
    }
  }
  return { texts, textOf, sameAs };
};

/** True when every rowid is larger than the one before it. */
const ascending = (rowids: ReadonlyArray<number>): boolean => {
  for (let i = 1; i < rowids.length; i++) if (!(rowids[i]! > rowids[i - 1]!)) return false;
  return true;
};

export class CollectionIndex {
  private readonly scanStmt: Statement;
  private readonly countStmt: Statement;
  private readonly rowStmt: Statement;
  private readonly afterStmt: Statement;
  private readonly maxStmt: Statement;
  private readonly spacesStmt: Statement | null;
  /** Per key space, the largest key seen. */
  private readonly lastSeen = new Map<number, number>();
  /**
   * Texts put by {@link updateSync} with a pure embedder, each with the row first put for
   * it, which holds that text's vector as the store encodes it: a text met again in a
   * later update (a run's memories repeat a quarter of their texts from tick to tick) is
   * stored as a copy of that row, neither embedded nor encoded again. Forgotten whole
   * whenever a row is removed or replaced (it may be one named here), and past a bound.
   */
  private readonly rowOfText = new Map<string, number>();
  /**
   * True when rows are embedded only when a search asks for them (see the module's
   * note): an on-demand collection, a pure embedder (a search cannot wait on I/O) and no
   * graphs (a graph search would miss the rows not embedded).
   */
  readonly onDemand: boolean;

  constructor(
    db: SqliteDatabase,
    readonly spec: CollectionSpec,
    readonly store: VectorStore,
    private readonly embedder: EmbedderShape,
    private readonly cache: EmbeddingCache | null,
  ) {
    const cols = spec.textColumns.join(", ");
    const head = `SELECT rowid, save_id, ${cols} FROM ${spec.table}`;
    this.scanStmt = prepare(db, `${head} ORDER BY rowid`).raw();
    this.countStmt = prepare(db, `SELECT count(*) FROM ${spec.table}`).pluck();
    this.rowStmt = prepare(db, `${head} WHERE rowid = ?`).raw();
    this.afterStmt = prepare(
      db,
      `${head} WHERE rowid > @after AND rowid < @base + ${ITEM_KEY_SPACE} ORDER BY rowid`,
    ).raw();
    this.maxStmt = prepare(
      db,
      `SELECT coalesce(max(rowid), @base) FROM ${spec.table} WHERE rowid > @base AND rowid < @base + ${ITEM_KEY_SPACE}`,
    ).pluck();
    // A file of an older schema (read, never migrated) keeps every row in space 0.
    const spaced = (db.pragma("table_info(saves)") as Array<{ name: string }>).some(
      (c) => c.name === "key_space",
    );
    this.spacesStmt = spaced
      ? prepare(db, "SELECT key_space FROM saves WHERE key_space IS NOT NULL").pluck()
      : null;
    this.onDemand =
      spec.onDemand === true &&
      embedder.pure === true &&
      typeof embedder.embedSync === "function" &&
      !store.keepsGraphs;
    if (this.onDemand) store.onDemand = this.fill;
  }

  /**
   * Embeds the rows a search may read that the store does not hold (an on-demand
   * collection's `VectorStore.onDemand`), in the order given, each text once.
   */
  private readonly fill: FillRows = (rowids, save, valuesOf) => {
    const embed = this.embedder.embedSync;
    if (embed == null) return;
    const batch: Array<Pending> = [];
    for (let i = 0; i < rowids.length; i++) {
      const rowid = rowids[i]!;
      if (!this.store.has(rowid)) batch.push(this.pendingOf(rowid, save, valuesOf(i)));
    }
    for (let i = 0; i < batch.length; i += EMBED_BATCH)
      this.putKnown(batch.slice(i, i + EMBED_BATCH), embed);
  };

  /**
   * An on-demand collection's share of a change: vectors of rows gone or changed are
   * dropped (a search embeds a changed row again when it needs it); nothing is embedded.
   */
  private dropStale(rows: Iterable<Pending>, gone: Array<number>): void {
    for (const p of rows) if (this.store.has(p.rowid)) gone.push(p.rowid);
  }

  /** The key spaces the file's saves have. */
  private spaces(): ReadonlyArray<number> {
    return this.spacesStmt ? (this.spacesStmt.all() as Array<number>) : [0];
  }

  /** The largest key seen in the space of `key` (its base when none). */
  private seenIn(key: number): number {
    const space = Math.floor(key / ITEM_KEY_SPACE);
    return this.lastSeen.get(space) ?? space * ITEM_KEY_SPACE;
  }

  private see(key: number): void {
    if (key > this.seenIn(key)) this.lastSeen.set(Math.floor(key / ITEM_KEY_SPACE), key);
  }

  /** Sees the last key of every key space in the table (one max(rowid) per save). */
  private seeTableEnds(): void {
    for (const space of this.spaces())
      this.see(Number(this.maxStmt.get({ base: space * ITEM_KEY_SPACE })));
  }

  private pending(row: Array<unknown>): Pending {
    return this.pendingOf(Number(row[0]), String(row[1]), row.slice(2));
  }

  private pendingOf(rowid: number, save: string, values: ReadonlyArray<unknown>): Pending {
    const text = embeddingText(this.spec.name, values);
    return { rowid, save, fp: textFingerprint(text), text };
  }

  /** Embeds and stores pending rows in batches (a missing graph is built by the caller when `bulk`). */
  private embedAll(
    rows: ReadonlyArray<Pending>,
    onProgress?: (p: IndexProgress) => void,
    bulk = false,
  ): Effect.Effect<number, EmbedderError> {
    const self = this;
    return Effect.gen(function* () {
      for (let i = 0; i < rows.length; i += EMBED_BATCH) {
        const batch = rows.slice(i, i + EMBED_BATCH);
        // Many rows of a batch share their text (a scene's witnesses each record the
        // same memory): each text is embedded once, and its vector stored once then copied.
        self.forgetIfReplacing(batch);
        const distinct = distinctTexts(batch);
        const vectors = yield* vectorsFor(self.embedder, self.cache, distinct.texts);
        self.putBatch(batch, distinct, (t) => vectors[t]!, bulk);
        onProgress?.({
          collection: self.spec.name,
          phase: "embed",
          done: i + batch.length,
          total: rows.length,
        });
      }
      return rows.length;
    });
  }

  /**
   * {@link embedAll} by a synchronous embedder (`embed`: its `syncVectors`), not bulk; a
   * pure one's through the texts' rows ({@link putKnown}).
   */
  private embedAllSync(
    rows: ReadonlyArray<Pending>,
    embed: (texts: ReadonlyArray<string>) => ReadonlyArray<Float32Array>,
  ): number {
    const pure = this.embedder.pure === true ? (this.embedder.embedSync ?? null) : null;
    for (let i = 0; i < rows.length; i += EMBED_BATCH) {
      const batch = rows.length <= EMBED_BATCH ? rows : rows.slice(i, i + EMBED_BATCH);
      this.forgetIfReplacing(batch);
      if (pure !== null) {
        this.putKnown(batch, pure);
        continue;
      }
      const distinct = distinctTexts(batch);
      const vectors = embed(distinct.texts);
      this.putBatch(batch, distinct, (t) => vectors[t]!, false);
    }
    return rows.length;
  }

  /**
   * Stores a batch's rows by a pure embedder (`embed`: its `embedSync`), each text embedded
   * once: a row whose text has a row in `rowOfText` — put by an earlier update, or earlier
   * in this batch (a scene's witnesses each record the same memory) — is a copy of that
   * row; a new text's row is embedded, and remembered for it.
   */
  private putKnown(batch: ReadonlyArray<Pending>, embed: (text: string) => Float32Array): void {
    const known = this.rowOfText;
    const copyOf = new Float64Array(batch.length);
    for (let j = 0; j < batch.length; j++) {
      const { text, rowid } = batch[j]!;
      const row = known.get(text);
      copyOf[j] = row ?? -1;
      if (row !== undefined) continue;
      if (known.size >= TEXT_ROWS_KEPT) known.clear();
      known.set(text, rowid);
    }
    // A row copied from is held when the copy is put (an earlier row of the batch is put
    // first); were it not, the row's own text is embedded (`putRows`).
    this.store.putRows(
      batch.map((r) => r.rowid),
      batch.map((r) => r.fp),
      batch.map((r) => r.save),
      copyOf,
      (j) => embed(batch[j]!.text),
    );
  }

  /** Forgets the texts' rows when the batch replaces a held row: it may be one of them. */
  private forgetIfReplacing(batch: ReadonlyArray<Pending>): void {
    if (this.rowOfText.size === 0) return;
    for (let j = 0; j < batch.length; j++) {
      if (this.store.has(batch[j]!.rowid)) {
        this.rowOfText.clear();
        return;
      }
    }
  }

  /**
   * Stores a batch's rows, each with its text's vector (`vectorOf`, by the text's index in
   * `distinctTexts`): a row whose text repeats an earlier row's is a copy of it.
   */
  private putBatch(
    batch: ReadonlyArray<Pending>,
    { textOf, sameAs }: { readonly textOf: Int32Array; readonly sameAs: Int32Array },
    vectorOf: (text: number) => Float32Array,
    bulk: boolean,
  ): void {
    const copyOf = new Float64Array(batch.length);
    for (let j = 0; j < batch.length; j++) {
      const same = sameAs[j]!;
      copyOf[j] = same >= 0 ? batch[same]!.rowid : -1;
    }
    this.store.putRows(
      batch.map((r) => r.rowid),
      batch.map((r) => r.fp),
      batch.map((r) => r.save),
      copyOf,
      (j) => vectorOf(textOf[j]!),
      !bulk,
    );
  }

  /** Removes rows' vectors; the texts' rows are forgotten (a removed row may be one). */
  private removeRows(rowids: ReadonlyArray<number>): void {
    if (rowids.length === 0) return;
    this.rowOfText.clear();
    this.store.remove(rowids);
  }

  /**
   * Brings the store in line with every row of the table: removes vectors of deleted
   * rows, embeds new and changed rows, then builds the HNSW graph if it is due.
   */
  reconcile(onProgress?: (p: IndexProgress) => void): Effect.Effect<IndexChange, EmbedderError> {
    const self = this;
    return Effect.gen(function* () {
      // Every row may be put again (a re-embedding removed them all first).
      self.rowOfText.clear();
      const { rowids } = self.store.entries();
      const seen = new Set<number>();
      const todo: Array<Pending> = [];
      let scanned = 0;
      // Counted first, so that a bar knows how far the scan has to go.
      const total = onProgress === undefined ? 0 : Number(self.countStmt.get());
      const scan = (done: number) =>
        onProgress?.({ collection: self.spec.name, phase: "scan", done, total });
      scan(0);
      for (const row of self.scanStmt.iterate() as Iterable<Array<unknown>>) {
        const rowid = Number(row[0]);
        seen.add(rowid);
        self.see(rowid);
        if (++scanned % 50_000 === 0) scan(scanned);
        // An on-demand collection checks only the rows it holds.
        if (self.onDemand && !self.store.has(rowid)) continue;
        const p = self.pending(row);
        if (self.store.fingerprint(p.rowid) !== p.fp) todo.push(p);
      }
      scan(scanned);
      const gone = Array.from(rowids).filter((r) => !seen.has(r));
      if (self.onDemand) self.dropStale(todo.splice(0), gone);
      self.removeRows(gone);
      const added = yield* self.embedAll(todo, onProgress, true);
      self.store.syncGraphs((done, total) =>
        onProgress?.({ collection: self.spec.name, phase: "graph", done, total }),
      );
      return { added, removed: gone.length };
    });
  }

  /**
   * What {@link reconcile} leaves when the table is known to hold the store's rows (the
   * database is at the level the files were saved at): each key space's last key taken
   * from the store and a due graph built, no row read.
   */
  trust(): IndexChange {
    this.rowOfText.clear();
    for (const rowid of this.store.entries().rowids) this.see(rowid);
    // An on-demand collection's files hold only the rows searched: its last keys are the table's.
    if (this.onDemand) this.seeTableEnds();
    this.store.syncGraphs();
    return { added: 0, removed: 0 };
  }

  /**
   * Updates the given rowids (re-read; gone rows removed) and every row newer than the
   * last seen. With `given` — the rows of one save a retrieval view made or changed, by
   * rowid, as their `textColumns` values (null: removed), covering every rowid given —
   * nothing is read: the view holds what the table holds (the agreement tests), so the
   * vectors are those a read would give, and the table may lag the log.
   */
  update(
    rowids: ReadonlyArray<number> = [],
    given?: GivenRows,
  ): Effect.Effect<IndexChange, EmbedderError> {
    const { todo, removed } = this.plan(rowids, given);
    return Effect.map(this.embedAll(todo), (added) => ({ added, removed }));
  }

  /**
   * {@link update} by a synchronous embedder, with no effect to run: the same rows
   * embedded (`embed`: the embedder's `syncVectors`) and stored in the same order.
   */
  updateSync(
    rowids: ReadonlyArray<number>,
    given: GivenRows | undefined,
    embed: (texts: ReadonlyArray<string>) => ReadonlyArray<Float32Array>,
  ): IndexChange {
    const { todo, removed } = this.plan(rowids, given);
    return { added: this.embedAllSync(todo, embed), removed };
  }

  /** What {@link update} embeds, in rowid order; the gone rows are removed now. */
  private plan(
    rowids: ReadonlyArray<number>,
    given: GivenRows | undefined,
  ): { readonly todo: Array<Pending>; readonly removed: number } {
    if (given !== undefined) return this.planGiven(rowids, given.saveId, given.rows);
    const todo = new Map<number, Pending>();
    const gone: Array<number> = [];
    if (this.onDemand) {
      // Only rows held can be stale; new rows wait for a search.
      for (const rowid of rowids) {
        if (!this.store.has(rowid)) continue;
        const row = this.rowStmt.get(rowid) as Array<unknown> | undefined;
        if (!row || this.store.fingerprint(rowid) !== this.pending(row).fp) gone.push(rowid);
      }
      this.seeTableEnds();
      this.removeRows(gone);
      return { todo: [], removed: gone.length };
    }
    // Every row past the last one seen in its space is read by the scan of new rows below
    // (and no vector is held for such a rowid), so only older touched rows are read one by one.
    for (const rowid of rowids) {
      if (rowid > this.seenIn(rowid)) continue;
      const row = this.rowStmt.get(rowid) as Array<unknown> | undefined;
      if (!row) {
        if (this.store.has(rowid)) gone.push(rowid);
        continue;
      }
      const p = this.pending(row);
      if (this.store.fingerprint(p.rowid) !== p.fp) todo.set(p.rowid, p);
    }
    for (const space of this.spaces()) {
      const base = space * ITEM_KEY_SPACE;
      const after = this.lastSeen.get(space) ?? base;
      for (const row of this.afterStmt.all({ after, base }) as Array<Array<unknown>>) {
        const p = this.pending(row);
        if (this.store.fingerprint(p.rowid) !== p.fp) todo.set(p.rowid, p);
        this.see(p.rowid);
      }
    }
    this.removeRows(gone);
    return { todo: [...todo.values()].sort((a, b) => a.rowid - b.rowid), removed: gone.length };
  }

  /** {@link plan} from rows a view gave (see {@link update}). */
  private planGiven(
    rowids: ReadonlyArray<number>,
    saveId: string,
    rows: ReadonlyMap<number, ReadonlyArray<unknown> | null>,
  ): { readonly todo: Array<Pending>; readonly removed: number } {
    // Each rowid once, ascending, is what a view gives; any other list is put so first
    // (the rows are a map: a rowid given twice is given the same both times).
    const order = ascending(rowids) ? rowids : [...new Set(rowids)].sort((a, b) => a - b);
    const todo: Array<Pending> = [];
    const gone: Array<number> = [];
    for (let i = 0; i < order.length; i++) {
      const rowid = order[i]!;
      const values = rows.get(rowid);
      if (values === undefined) throw new Error(`CollectionIndex: no row given for ${rowid}`);
      if (values === null) {
        if (this.store.has(rowid)) gone.push(rowid);
        continue;
      }
      this.see(rowid);
      // An on-demand collection embeds nothing here: a row it holds is dropped if changed.
      if (this.onDemand && !this.store.has(rowid)) continue;
      const p = this.pendingOf(rowid, saveId, values);
      if (this.store.fingerprint(rowid) !== p.fp) todo.push(p);
    }
    if (this.onDemand) this.dropStale(todo.splice(0), gone);
    this.removeRows(gone);
    return { todo, removed: gone.length };
  }

  /**
   * What {@link reconcile} would change, without embedding anything: rows new or whose
   * text changed, and vectors whose row is gone.
   */
  diff(): IndexChange {
    const seen = new Set<number>();
    let added = 0;
    for (const row of this.scanStmt.iterate() as Iterable<Array<unknown>>) {
      const rowid = Number(row[0]);
      seen.add(rowid);
      if (this.onDemand && !this.store.has(rowid)) continue;
      if (this.store.fingerprint(rowid) !== this.pending(row).fp) added++;
    }
    let removed = 0;
    for (const r of this.store.entries().rowids) if (!seen.has(r)) removed++;
    return { added, removed };
  }

  /** True when rows newer than the last seen exist (cheap: one max(rowid) per save). */
  hasNewRows(): boolean {
    return this.spaces().some((space) => {
      const base = space * ITEM_KEY_SPACE;
      return Number(this.maxStmt.get({ base })) > (this.lastSeen.get(space) ?? base);
    });
  }
}
