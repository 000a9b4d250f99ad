/**
 * One open database as the API sees it: the read-only connection, an index per save
 * (built on first use, refreshed when the save grows), the dossier source, and the
 * per-request context every view reads — which save, and the cursor `at` (a seq).
 */
import { formatGameTime, type GameTime, type SaveId } from "@hearsay/core";
import type { DossierSource } from "@hearsay/engine";
import { type SqliteDatabase, SqliteEventLog } from "@hearsay/store";
import type { Cursor } from "./ApiTypes.ts";
import { BadRequest, NoSuchSave } from "./InspectorError.ts";
import type { Params } from "./Params.ts";
import { type IndexingProgress, SaveIndex } from "./SaveIndex.ts";
import { rowSaveOf, segmentsOf } from "./Segments.ts";
import { summarise } from "./summarise.ts";

/** Builds the dossier source for a save (the engine's `retrievalDossiers` signature). */
export type DossierFactory = (log: SqliteEventLog, saveId: SaveId) => DossierSource;

/** What a view gets for one request. */
export interface ViewContext {
  readonly db: SqliteDatabase;
  readonly dbPath: string;
  readonly saveId: string;
  readonly index: SaveIndex;
  /** The cursor's seq: views show the world right after this event. */
  readonly at: number;
  readonly cursor: Cursor;
  /** The dossier source of this save, or why there is none. */
  dossiers(): DossierSource | string;
}

/** A raw event row. */
export interface RawEvent {
  readonly seq: number;
  readonly id: string;
  readonly t: number;
  readonly type: string;
  readonly payload: unknown;
}

export class Inspection {
  private readonly indexes = new Map<string, SaveIndex>();
  private readonly sources = new Map<string, DossierSource | string>();
  private log: SqliteEventLog | null = null;

  constructor(
    readonly db: SqliteDatabase,
    readonly dbPath: string,
    readonly defaultSave: string,
    private readonly dossierFactory: DossierFactory | null,
  ) {}

  /** Every save id in the database. */
  saveIds(): ReadonlyArray<string> {
    return this.db
      .prepare("SELECT save_id FROM saves ORDER BY save_id")
      .pluck()
      .all() as Array<string>;
  }

  /** The save's index, refreshed to its head. @throws NoSuchSave */
  index(saveId: string, onIndexing?: IndexingProgress): SaveIndex {
    let ix = this.indexes.get(saveId);
    if (!ix) {
      const known = this.saveIds();
      if (!known.includes(saveId)) throw new NoSuchSave({ path: this.dbPath, saveId, known });
      ix = new SaveIndex(this.db, saveId);
      this.indexes.set(saveId, ix);
    }
    ix.refresh(onIndexing);
    return ix;
  }

  /** The event at `seq` of the save's history, or undefined. */
  event(saveId: string, seq: number): RawEvent | undefined {
    const rowSave = rowSaveOf(segmentsOf(this.db, saveId), seq);
    if (rowSave === undefined) return undefined;
    const r = this.db
      .prepare("SELECT seq, event_id, t, type, payload FROM events WHERE save_id = ? AND seq = ?")
      .raw(true)
      .get(rowSave, seq) as [number, string, number, string, string] | undefined;
    return r && { seq: r[0], id: r[1], t: r[2], type: r[3], payload: JSON.parse(r[4]) };
  }

  /** The scrubber's view of one event. */
  cursorOf(index: SaveIndex, e: RawEvent): Cursor {
    return {
      seq: e.seq,
      t: e.t,
      day: Math.floor(e.t / 1440),
      time: formatGameTime(e.t as GameTime),
      type: e.type,
      summary: summarise(e.type, e.payload, (id) => index.nameOf(id)),
    };
  }

  /** The context of one request: `save` (default: the chosen save) and `at` (default: head). */
  context(params: Params): ViewContext {
    const saveId = params.str("save") ?? this.defaultSave;
    const index = this.index(saveId);
    if (index.head === 0)
      throw new BadRequest({ status: 404, detail: `save "${saveId}" holds no events yet` });
    const at = params.intOr("at", index.head, 1, index.head);
    const e = this.event(saveId, at);
    if (!e) throw new BadRequest({ status: 404, detail: `no event ${at} in save "${saveId}"` });
    return {
      db: this.db,
      dbPath: this.dbPath,
      saveId,
      index,
      at,
      cursor: this.cursorOf(index, e),
      dossiers: () => this.dossierSource(saveId),
    };
  }

  private dossierSource(saveId: string): DossierSource | string {
    let source = this.sources.get(saveId);
    if (source === undefined) {
      if (this.dossierFactory === null)
        source = "this inspector was started without a dossier builder";
      else {
        try {
          this.log ??= new SqliteEventLog(this.db);
          source = this.dossierFactory(this.log, saveId as SaveId);
        } catch (e) {
          source = `the dossier builder could not start: ${e instanceof Error ? e.message : String(e)}`;
        }
      }
      this.sources.set(saveId, source);
    }
    return source;
  }
}
