/**
 * What a save's log and read models answer without writing: its events by seq and by
 * game day, the canonical state of its read models and their digest, and the texts of
 * its memories. Who knows what is asked of `KnowledgeQueries`.
 */
import type { StoredEvent } from "@hearsay/core";
import type { EventHistory } from "./EventHistory.ts";
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";
import { readDigest } from "./ProjectionDigest.ts";
import type { ProjectionState, ProjectionStateIO } from "./ProjectionState.ts";

export class SaveReads {
  private memoryText: SqliteStatement | undefined;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly history: EventHistory,
    private readonly stateIO: ProjectionStateIO,
  ) {}

  /** The save's history with seq in [fromSeq, toSeq] (default: all), in seq order. */
  read(
    saveId: string,
    range: { readonly fromSeq?: number; readonly toSeq?: number } = {},
  ): ReadonlyArray<StoredEvent> {
    const save = this.history.get(saveId);
    return this.history.read(save, range.fromSeq ?? 1, range.toSeq ?? save.head);
  }

  /** The save's history on game days [fromDay, toDay] (both included), in seq order. */
  readDays(saveId: string, fromDay: number, toDay: number): ReadonlyArray<StoredEvent> {
    return this.history.readDays(this.history.get(saveId), fromDay, toDay);
  }

  /** The canonical state of every projection row of the save. @throws UnknownSave */
  projectionState(saveId: string): ProjectionState {
    this.history.get(saveId);
    return this.stateIO.read(saveId);
  }

  /** `stateHash` of {@link projectionState}: what Checkpoint events carry. */
  projectionHash(saveId: string): string {
    this.history.get(saveId);
    return readDigest(this.db, saveId);
  }

  /**
   * The text and names of the save's memories among `memoryIds` (those its read model
   * holds: recorded in an earlier append), by id.
   */
  memoryTexts(
    saveId: string,
    memoryIds: ReadonlyArray<string>,
  ): ReadonlyMap<string, { readonly text: string; readonly entities: ReadonlyArray<string> }> {
    const out = new Map<string, { text: string; entities: ReadonlyArray<string> }>();
    if (memoryIds.length === 0) return out;
    this.memoryText ??= this.db.prepare(
      "SELECT text, entities FROM memories WHERE save_id = ? AND memory_id = ?",
    );
    for (const id of memoryIds) {
      const row = this.memoryText.get(saveId, id) as
        | { readonly text: string; readonly entities: string }
        | undefined;
      if (row !== undefined)
        out.set(id, { text: row.text, entities: JSON.parse(row.entities) as Array<string> });
    }
    return out;
  }
}
