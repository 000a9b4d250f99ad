/**
 * NPC profiles after any seq, folded from `ProfileGenerated` and the `ProfileRevised`
 * laid over it (core's `reviseProfile`), so an NPC's page shows the profile it had at
 * the cursor while the read model holds only the latest.
 */
import { type NpcProfile, type ProfileChanges, reviseProfile } from "@hearsay/core";
import type { SqliteDatabase } from "@hearsay/store";
import { eventRows } from "./EventRows.ts";

interface ProfileState {
  readonly seq: number;
  readonly profile: NpcProfile;
}

export class ProfileIndex {
  private readonly history = new Map<string, Array<ProfileState>>();

  ingest(db: SqliteDatabase, saveId: string, fromSeq: number, toSeq: number): void {
    // A generation carries the whole profile (and starts over); a revision only what changed.
    const rows: Array<readonly [number, string, string, boolean]> = [];
    for (const [seq, , npcId, json] of eventRows(db, saveId, "ProfileGenerated", fromSeq, toSeq, [
      "npcId",
      "profile",
    ]) as IterableIterator<[number, number, string, string]>)
      rows.push([seq, npcId, json, true]);
    for (const [seq, , npcId, json] of eventRows(db, saveId, "ProfileRevised", fromSeq, toSeq, [
      "npcId",
      "changes",
    ]) as IterableIterator<[number, number, string, string]>)
      rows.push([seq, npcId, json, false]);
    rows.sort((a, b) => a[0] - b[0]);
    for (const [seq, npcId, json, whole] of rows) {
      let h = this.history.get(npcId);
      const last = h?.[h.length - 1]?.profile;
      if (!whole && last === undefined) continue;
      const profile = whole
        ? (JSON.parse(json) as NpcProfile)
        : reviseProfile(last!, JSON.parse(json) as ProfileChanges);
      if (!h) {
        h = [];
        this.history.set(npcId, h);
      }
      h.push({ seq, profile });
    }
  }

  /** The NPC's profile as it stood after `seq`, or null before its first. */
  profileAt(npcId: string, seq: number): NpcProfile | null {
    let out: NpcProfile | null = null;
    for (const s of this.history.get(npcId) ?? []) {
      if (s.seq > seq) break;
      out = s.profile;
    }
    return out;
  }
}
