/**
 * Relationship edges after any seq, folded from `RelationshipChanged`. Edges are
 * directed: how A regards B changes only by its own events, apart from B's view of A.
 */
import type { SqliteDatabase } from "@hearsay/store";
import { eventRows } from "./EventRows.ts";

/** One directed edge's value after some event. */
export interface EdgeState {
  readonly seq: number;
  readonly t: number;
  readonly from: string;
  readonly to: string;
  readonly trust: number;
  readonly respect: number;
  readonly suspicion: number;
  readonly summary: string;
}

export class EdgeIndex {
  private readonly history = new Map<string, Array<EdgeState>>();
  private readonly touching = new Map<string, Set<string>>();

  ingest(db: SqliteDatabase, saveId: string, fromSeq: number, toSeq: number): void {
    const fields = ["fromId", "toId", "trust", "respect", "suspicion", "summary"];
    for (const r of eventRows(db, saveId, "RelationshipChanged", fromSeq, toSeq, fields)) {
      const [seq, t, from, to, trust, respect, suspicion, summary] = r as [
        number,
        number,
        string,
        string,
        number,
        number,
        number,
        string,
      ];
      const key = `${from}\u0000${to}`;
      let h = this.history.get(key);
      if (!h) {
        h = [];
        this.history.set(key, h);
        for (const npc of [from, to]) {
          let s = this.touching.get(npc);
          if (!s) {
            s = new Set();
            this.touching.set(npc, s);
          }
          s.add(key);
        }
      }
      h.push({ seq, t, from, to, trust, respect, suspicion, summary });
    }
  }

  /** Every edge from or to `npcId` as it stood after `seq`, outgoing first, by id. */
  edgesOf(npcId: string, seq: number): ReadonlyArray<EdgeState> {
    const out: Array<EdgeState> = [];
    for (const key of this.touching.get(npcId) ?? []) {
      const h = this.history.get(key)!;
      let last: EdgeState | undefined;
      for (const e of h) {
        if (e.seq > seq) break;
        last = e;
      }
      if (last) out.push(last);
    }
    return out.sort(
      (a, b) =>
        Number(b.from === npcId) - Number(a.from === npcId) ||
        (a.from + a.to < b.from + b.to ? -1 : 1),
    );
  }
}
