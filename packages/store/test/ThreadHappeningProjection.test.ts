/**
 * The thread and planned-happening read models (migration 3): their fold rules (first
 * open wins, a thread closes once, the first holder of a prop wins), a database written
 * at version 2 migrating with its digest intact, and — over random sequences that mix
 * these events with every other — incremental projection equal to a rebuild.
 */

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Event,
  gameTime,
  type HappeningId,
  ids,
  makeEvent,
  type ThreadId,
} from "@hearsay/core";
import {
  migrations,
  openDatabase,
  projectionDigestColumns,
  readDigest,
  recomputeDigest,
  SCHEMA_VERSION,
  SqliteEventLog,
} from "@hearsay/store";
import { arbEventBatches } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendBatches, freshStore, newSave, runs } from "./harness.ts";

let n = 0;
const ev = <T extends Event["type"]>(type: T, t: number, payload: unknown): Event =>
  makeEvent(type, { id: ids.event(`e-${++n}`), t: gameTime(0, 0, t), payload } as never);

const thread = "debt-1" as ThreadId;
const feast = "feast" as HappeningId;
const story: ReadonlyArray<Event> = [
  ev("ThreadOpened", 1, {
    threadId: thread,
    kind: "debt",
    text: "Eli owes Ada flour.",
    npcIds: ["ada", "eli"],
    source: null,
  }),
  ev("ThreadOpened", 2, {
    threadId: thread,
    kind: "feud",
    text: "A second opening changes nothing.",
    npcIds: ["ada"],
    source: null,
  }),
  ev("ThreadClosed", 3, { threadId: thread, outcome: "resolved", reason: "paid" }),
  ev("ThreadClosed", 4, { threadId: thread, outcome: "dropped", reason: "too late" }),
  ev("HappeningPlanned", 5, {
    happeningId: feast,
    name: "The Feast",
    kind: "feast",
    description: "Tables.",
    locationId: "green",
    factionId: null,
    hostId: "ada",
    visibility: "local",
    startsAt: 60,
    endsAt: 120,
  }),
  ev("HappeningStatusChanged", 6, {
    happeningId: feast,
    from: "planned",
    to: "active",
    reason: "on",
    attendees: ["ada", "eli"],
  }),
  ev("PropIntroduced", 7, {
    happeningId: feast,
    propId: "cup",
    name: "the cup",
    description: "A cup.",
    acquirable: true,
  }),
  ev("PropAcquired", 8, { happeningId: feast, propId: "cup", npcId: "eli" }),
  ev("PropAcquired", 9, { happeningId: feast, propId: "cup", npcId: "ada" }),
  ev("HappeningStatusChanged", 10, {
    happeningId: feast,
    from: "active",
    to: "completed",
    reason: "over",
    attendees: ["eli"],
  }),
];

describe("thread and happening projections", () => {
  it("fold: the first opening wins, a thread closes once, a prop's first holder keeps it", () => {
    const { db, log } = freshStore();
    newSave(log, "s");
    log.append("s", 0, story);
    expect(db.prepare("SELECT kind, status, reason, closed_at FROM threads").get()).toEqual({
      kind: "debt",
      status: "resolved",
      reason: "paid",
      closed_at: 3,
    });
    expect(db.prepare("SELECT status, attendees FROM happenings").get()).toEqual({
      status: "completed",
      attendees: '["eli"]',
    });
    expect(
      db.prepare("SELECT holder_id, acquired_at, acquirable FROM happening_props").get(),
    ).toEqual({ holder_id: "eli", acquired_at: 8, acquirable: 1 });
    expect(readDigest(db, "s")).toBe(recomputeDigest(db, "s", projectionDigestColumns));
  });

  it("a version-2 database migrates to this build's version and keeps its digest true", () => {
    const path = join(mkdtempSync(join(tmpdir(), "hearsay-threads-")), "v2.db");
    openDatabase(path, { migrations: migrations.filter((m) => m.version <= 2) }).close();
    const db = openDatabase(path);
    expect(db.prepare("SELECT max(version) FROM schema_migrations").pluck().get()).toBe(
      SCHEMA_VERSION,
    );
    const log = new SqliteEventLog(db);
    newSave(log, "s");
    log.append("s", 0, story);
    expect(readDigest(db, "s")).toBe(recomputeDigest(db, "s", projectionDigestColumns));
    const digest = log.projectionHash("s");
    log.rebuildProjections("s");
    expect(log.projectionHash("s")).toBe(digest);
    db.close();
  });

  it("property: incremental equals a rebuild with threads and happenings in every sequence", () => {
    fc.assert(
      fc.property(arbEventBatches({ minSteps: 20 }), (batches) => {
        const { db, log } = freshStore();
        newSave(log, "s");
        appendBatches(log, "s", batches);
        const state = log.projectionState("s");
        expect(state.threads.length).toBeGreaterThan(0);
        expect(state.happenings.length).toBeGreaterThan(0);
        log.rebuildProjections("s");
        expect(log.projectionState("s")).toEqual(state);
        expect(readDigest(db, "s")).toBe(recomputeDigest(db, "s", projectionDigestColumns));
      }),
      { numRuns: runs(20) },
    );
  });
});
