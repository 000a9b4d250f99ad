/**
 * The projector's fold of thread and planned-happening events (issue 8) into the
 * `threads`, `happenings` and `happening_props` read models (migration 3). Kept apart
 * from Projector.ts, which hands these events here. Fold rules:
 * - ThreadOpened inserts once (a thread id seen before changes nothing);
 * - ThreadClosed closes an open thread once (`status` becomes its outcome);
 * - HappeningPlanned inserts once; HappeningStatusChanged sets status, reason and attendees;
 * - PropIntroduced inserts once; PropAcquired records the first holder only.
 * The closed happening's rows are its record: props never leave these tables except as
 * the holder's inventory, which the engine writes as activity.
 */
import type { EventOf, StoredEvent } from "@hearsay/core";
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";

/** The event types this fold handles. */
export const narrativeEventTypes = [
  "ThreadOpened",
  "ThreadClosed",
  "HappeningPlanned",
  "HappeningStatusChanged",
  "PropIntroduced",
  "PropAcquired",
] as const;
export type NarrativeEvent = EventOf<(typeof narrativeEventTypes)[number]>;

const handled = new Set<string>(narrativeEventTypes);

/** Whether `e` is one of the events {@link NarrativeProjector} folds. */
export const isNarrativeEvent = (e: StoredEvent): e is StoredEvent & NarrativeEvent =>
  handled.has(e.type);

export class NarrativeProjector {
  private readonly s: Readonly<Record<string, SqliteStatement>>;

  constructor(db: SqliteDatabase) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      threadOpened: p(`INSERT INTO threads
        (save_id, campaign_id, thread_id, kind, text, npc_ids, source_kind, source_id, opened_at, status, reason, closed_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', NULL, NULL) ON CONFLICT DO NOTHING`),
      threadClosed: p(`UPDATE threads SET status = ?, reason = ?, closed_at = ?
        WHERE save_id = ? AND thread_id = ? AND status = 'open'`),
      planned: p(`INSERT INTO happenings
        (save_id, campaign_id, happening_id, name, kind, description, location_id, faction_id, host_id,
         visibility, starts_at, ends_at, status, reason, attendees, planned_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'planned', '', '[]', ?, ?) ON CONFLICT DO NOTHING`),
      status: p(`UPDATE happenings SET status = ?, reason = ?, attendees = ?, updated_at = ?
        WHERE save_id = ? AND happening_id = ?`),
      prop: p(`INSERT INTO happening_props
        (save_id, campaign_id, happening_id, prop_id, name, description, acquirable, introduced_at, holder_id, acquired_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL) ON CONFLICT DO NOTHING`),
      acquired: p(`UPDATE happening_props SET holder_id = ?, acquired_at = ?
        WHERE save_id = ? AND happening_id = ? AND prop_id = ? AND holder_id IS NULL`),
    };
  }

  /** Folds one thread or happening event into `saveId`'s read models. */
  apply(e: StoredEvent & NarrativeEvent, saveId: string, campaignId: string): void {
    const s = this.s;
    switch (e.type) {
      case "ThreadOpened": {
        const p = e.payload;
        s.threadOpened!.run(
          saveId,
          campaignId,
          p.threadId,
          p.kind,
          p.text,
          JSON.stringify(p.npcIds),
          p.source?.kind ?? null,
          p.source?.id ?? null,
          e.t,
        );
        return;
      }
      case "ThreadClosed":
        s.threadClosed!.run(e.payload.outcome, e.payload.reason, e.t, saveId, e.payload.threadId);
        return;
      case "HappeningPlanned": {
        const p = e.payload;
        s.planned!.run(
          saveId,
          campaignId,
          p.happeningId,
          p.name,
          p.kind,
          p.description,
          p.locationId,
          p.factionId,
          p.hostId,
          p.visibility,
          p.startsAt,
          p.endsAt,
          e.t,
          e.t,
        );
        return;
      }
      case "HappeningStatusChanged": {
        const p = e.payload;
        s.status!.run(p.to, p.reason, JSON.stringify(p.attendees), e.t, saveId, p.happeningId);
        return;
      }
      case "PropIntroduced": {
        const p = e.payload;
        s.prop!.run(
          saveId,
          campaignId,
          p.happeningId,
          p.propId,
          p.name,
          p.description,
          p.acquirable ? 1 : 0,
          e.t,
        );
        return;
      }
      case "PropAcquired": {
        const p = e.payload;
        s.acquired!.run(p.npcId, e.t, saveId, p.happeningId, p.propId);
        return;
      }
    }
  }
}
