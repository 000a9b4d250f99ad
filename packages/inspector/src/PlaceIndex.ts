/**
 * Where every NPC was and what it was doing after any seq: one series per NPC folded
 * from `NpcActivityChanged` (the log's record of each activity, with its location), and
 * the running count of wake-ups that asked the brain or were gated (see `Gating.ts`).
 */

import type { SqliteDatabase } from "@hearsay/store";
import { eventRows } from "./EventRows.ts";
import { turnKind } from "./Gating.ts";
import { Interner } from "./Interner.ts";
import { SeqSeries } from "./SeqSeries.ts";

/** Columns of a place series. */
const LOC = 0;
const ACT = 1;
const DEST = 2;
const NOTE = 3;
const T = 4;

/** An NPC's place and activity after some seq. */
export interface Place {
  readonly locationId: string;
  readonly activity: string;
  readonly destination: string | null;
  readonly note: string;
  readonly t: number;
}

export class PlaceIndex {
  private readonly strings = new Interner();
  private readonly byNpc = new Map<string, SeqSeries>();
  /** Running totals per wake-up: [asked, gated]. */
  readonly turns = new SeqSeries(2, 1024);

  /**
   * Folds a segment's activity changes. `failed` holds `npc@t` of every
   * `decision_failed` warning, `stepped` of every planned step taken.
   */
  ingest(
    db: SqliteDatabase,
    saveId: string,
    fromSeq: number,
    toSeq: number,
    failed: ReadonlySet<string>,
    stepped: ReadonlySet<string> = new Set(),
  ): void {
    const fields = ["npcId", "activity", "locationId", "destination", "note"];
    for (const r of eventRows(db, saveId, "NpcActivityChanged", fromSeq, toSeq, fields)) {
      const [seq, t, npc, activity, loc, dest, note] = r as [
        number,
        number,
        string,
        string,
        string,
        string | null,
        string,
      ];
      let series = this.byNpc.get(npc);
      const placement = series === undefined;
      if (!series) {
        series = new SeqSeries(5);
        this.byNpc.set(npc, series);
      }
      const s = this.strings;
      series.push(seq, s.id(loc), s.id(activity), dest === null ? -1 : s.id(dest), s.id(note), t);
      const at = `${npc}@${t}`;
      const kind = turnKind(note, placement, failed.has(at), stepped.has(at));
      if (kind === "asked") this.turns.pushDelta(seq, 1, 0);
      else if (kind === "gated") this.turns.pushDelta(seq, 0, 1);
    }
  }

  /** The NPC's place after `seq`, or null before its first activity. */
  at(npcId: string, seq: number): Place | null {
    const series = this.byNpc.get(npcId);
    const i = series ? series.indexAt(seq) : -1;
    if (!series || i < 0) return null;
    const dest = series.value(i, DEST);
    return {
      locationId: this.strings.text(series.value(i, LOC)),
      activity: this.strings.text(series.value(i, ACT)),
      destination: dest < 0 ? null : this.strings.text(dest),
      note: this.strings.text(series.value(i, NOTE)),
      t: series.value(i, T),
    };
  }

  /** Running [asked, gated] wake-up counts after `seq`. */
  turnsAt(seq: number): { readonly asked: number; readonly gated: number } {
    const i = this.turns.indexAt(seq);
    return i < 0
      ? { asked: 0, gated: 0 }
      : { asked: this.turns.value(i, 0), gated: this.turns.value(i, 1) };
  }
}
