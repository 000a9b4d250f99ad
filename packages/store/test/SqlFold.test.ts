/**
 * The share of a bulk fold that SQLite does itself (SqlFold.ts) against the projector's
 * event-by-event fold of appends, on logs built to hit its rules' edges: memory ids
 * recorded again (under another owner, earlier in game time), expiries before, between
 * and after records, knowledge of a memory by its own owner at the same time as the
 * record, repeated world event, turn, call and debate keys, activities and relationships
 * rewritten within a range and across ranges, floats that do not round-trip
 * through short decimals, JSON text with escapes — and Checkpoints anywhere, so every
 * range boundary is checked. Rebuilds, imports (from memory and from a file on disk) and
 * snapshot restores must give the incremental rows and digest, at every Checkpoint too.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { currentVersions, type Event, type EventType, ids } from "@hearsay/core";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { logBatches } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendRecordingCheckpoints, freshStore, newSave, runs } from "./harness.ts";

const npcs = ["ana", "bo", "cy"];
const memoryIds = ["m1", "m2", "m3"];
const texts = ["plain", 'quote " and \\ slash', "é ü 😀", "line\nbreak", "\u2028sep"];
const floats = [0, 1, 0.1, 1 / 3, 0.7 * 0.8, 2 ** -30];

/** One generated step: a type and small numbers picking its fields. */
const arbStep = fc.record({
  type: fc.constantFrom<EventType | "Cut">(
    "MemoryRecorded",
    "MemoryRecorded",
    "MemoryExpired",
    "MemoryExpired",
    "KnowledgeGained",
    "KnowledgeGained",
    "KnowledgeGained",
    "WorldEventOccurred",
    "ConversationTurn",
    "LlmCallRecorded",
    "DebateHeld",
    "SimulationWarning",
    "NpcActivityChanged",
    "NpcActivityChanged",
    "RelationshipChanged",
    "RelationshipChanged",
    "Checkpoint",
    "Cut",
  ),
  a: fc.nat({ max: 11 }),
  b: fc.nat({ max: 11 }),
  t: fc.nat({ max: 2 }),
});
type Step = typeof arbStep extends fc.Arbitrary<infer S> ? S : never;

const pick = <A>(xs: ReadonlyArray<A>, n: number): A => xs[n % xs.length]!;

/** The batches (cut at `Cut` steps) a log of these steps is appended in. */
const build = (steps: ReadonlyArray<Step>): ReadonlyArray<ReadonlyArray<Event>> => {
  const { ev, push, cut, batches } = logBatches("e", npcs);
  for (const { type, a, b, t } of steps) {
    switch (type) {
      case "Cut":
        cut();
        break;
      case "MemoryRecorded":
        push(
          ev(type, t, {
            memoryId: pick(memoryIds, a),
            ownerNpcId: pick(npcs, b),
            text: pick(texts, a + b),
            category: "observation",
            importance: pick(floats, b),
            expiresAt: b % 3 === 0 ? null : t + b,
            locationId: b % 2 === 0 ? null : "square",
            entities: [pick(texts, b), "x"],
            about: a % 3 === 0 ? null : { kind: "world_event", id: `we${b % 3}` },
          }),
        );
        break;
      case "MemoryExpired":
        push(
          ev(type, t, {
            memoryId: pick(memoryIds, a),
            ownerNpcId: pick(npcs, b),
            reason: pick(["expired", "forgotten", "capped"], b),
          }),
        );
        break;
      case "KnowledgeGained":
        push(
          ev(type, t, {
            npcId: pick(npcs, a),
            itemKind: pick(["memory", "world_event"], b),
            itemId: b % 2 === 0 ? pick(memoryIds, a + b) : `we${a % 3}`,
            via: pick(["witnessed", "told", "rumor"], a + b),
            fromNpcId: a % 2 === 0 ? null : pick(npcs, b),
            confidence: pick(floats, a),
          }),
        );
        break;
      case "WorldEventOccurred":
        push(
          ev(type, t, {
            worldEventId: `we${a % 3}`,
            kind: "storm",
            text: pick(texts, b),
            locationId: null,
            factionId: null,
            visibility: "global",
            importance: pick(floats, a),
            participants: [pick(npcs, a)],
            entities: [pick(texts, a)],
            lapsesAt: b % 3 === 0 ? null : t + b,
          }),
        );
        break;
      case "ConversationTurn":
        push(
          ev(type, t, {
            conversationId: `c${a % 2}`,
            turnIndex: b % 3,
            speakerId: pick(npcs, a),
            listenerIds: [pick(npcs, b)],
            locationId: a % 2 === 0 ? null : "square",
            text: pick(texts, a),
          }),
        );
        break;
      case "LlmCallRecorded":
        push(
          ev(type, t, {
            callId: `call${a % 3}`,
            npcId: a % 2 === 0 ? null : pick(npcs, b),
            purpose: "turn",
            inputHash: `h${b}`,
            brain: "scripted",
            model: "none",
            output: null,
            error: b % 2 === 0 ? null : pick(texts, b),
            promptTokens: a * 10,
            outputTokens: b,
            latencyMs: pick(floats, b) * 1000,
            rejected: { answers: a % 2, promptTokens: (a % 2) * 7, outputTokens: (a % 2) * b },
            policy: a % 3 === 0 ? null : { priority: "normal", reason: pick(texts, a) },
          }),
        );
        break;
      case "DebateHeld":
        push(
          ev(type, t, {
            debateId: `d${a % 2}`,
            topic: pick(texts, a),
            participants: [pick(npcs, a), pick(npcs, b)],
            locationId: null,
            factionId: null,
            summary: pick(texts, b),
            outcome: "none",
          }),
        );
        break;
      case "SimulationWarning":
        push(ev(type, t, { code: "w", message: pick(texts, a), npcId: null }));
        break;
      case "NpcActivityChanged":
        push(
          ev(type, t, {
            npcId: pick(npcs, a),
            activity: pick(["idle", "travelling", "working"], b),
            locationId: pick(["square", "mill"], a + b),
            destination: b % 2 === 0 ? null : "mill",
            until: b % 3 === 0 ? null : t + b,
            taskId: a % 2 === 0 ? null : `task${b % 2}`,
            attendingTo: b % 2 === 0 ? [] : [pick(npcs, b)],
            holding: a % 3 === 0 ? [] : [pick(texts, a), "rope"],
            note: pick(texts, b),
          }),
        );
        break;
      case "RelationshipChanged":
        push(
          ev(type, t, {
            // Two pairs only, so ranges rewrite a pair often.
            fromId: pick(npcs, a % 2),
            toId: "cy",
            trust: pick(floats, a + b),
            respect: -pick(floats, b),
            suspicion: pick(floats, a),
            summary: pick(texts, a + b),
            reason: pick(texts, a),
          }),
        );
        break;
      case "Checkpoint":
        push(ev(type, t, { throughSeq: 0, stateHash: "not checked here" }));
        break;
      default:
        break;
    }
  }
  return batches();
};

/** Brings an event "written at version 0" (see the second property) back to its own. */
const upcastAged = (raw: unknown): unknown => {
  const e = raw as { type: EventType; version: number };
  return e.version === 0 ? { ...e, version: currentVersions.get(e.type) } : e;
};

const importChecking = (
  target: SqliteEventLog,
  source: SqliteEventLog,
  discard = false,
  upcast?: (raw: unknown) => unknown,
) => {
  const seen = new Map<string, string>();
  target.importHistory(source, {
    saveId: ids.save("s"),
    discard,
    ...(upcast ? { upcast: upcast as never } : {}),
    onCheckpoint: (e, probe) => {
      seen.set(e.id, probe.digest());
      return true;
    },
  });
  return seen;
};

const arbLog = fc.array(arbStep, { minLength: 1, maxLength: 50 }).map(build);

/** Longer logs, Checkpoints more often: SQLite has folded ranges before an aged event. */
const arbLongLog = fc
  .array(
    fc.oneof(
      { arbitrary: arbStep, weight: 5 },
      { arbitrary: fc.constant<Step>({ type: "Checkpoint", a: 0, b: 0, t: 0 }), weight: 1 },
    ),
    { minLength: 20, maxLength: 80 },
  )
  .map(build);

describe("the SQL share of a bulk fold", () => {
  it("equals the incremental fold: rebuilds, restores, and imports at every Checkpoint", () => {
    const dir = mkdtempSync(join(tmpdir(), "hearsay-sqlfold-"));
    let k = 0;
    try {
      fc.assert(
        fc.property(arbLog, (batches) => {
          const path = join(dir, `source-${++k}.db`);
          const source = new SqliteEventLog(openDatabase(path), { snapshotEvery: 5 });
          try {
            newSave(source, "s");
            const incremental = appendRecordingCheckpoints(source, "s", batches);
            const hash = source.projectionHash("s");
            const state = source.projectionState("s");

            // Replay's refold from a file (attached: SQLite reads the source itself)…
            const fromDisk = freshStore();
            expect(importChecking(fromDisk.log, source)).toEqual(incremental);
            expect(fromDisk.log.projectionState("s")).toEqual(state);
            expect(fromDisk.log.projectionHash("s")).toBe(hash);
            // …the same, folding straight from the file into a target to throw away…
            const checkOnly = freshStore();
            expect(importChecking(checkOnly.log, source, true)).toEqual(incremental);
            expect(checkOnly.log.projectionState("s")).toEqual(state);
            expect(checkOnly.log.projectionHash("s")).toBe(hash);
            expect(checkOnly.log.db.prepare("SELECT count(*) FROM events").pluck().get()).toBe(0);
            // …and from another connection in memory (rows copied one by one).
            const copy = freshStore();
            copy.log.importHistory(source, { saveId: ids.save("s") });
            const fromMemory = freshStore();
            expect(importChecking(fromMemory.log, copy.log)).toEqual(incremental);
            expect(fromMemory.log.projectionState("s")).toEqual(state);

            source.rebuildProjections("s");
            expect(source.projectionState("s")).toEqual(state);
            expect(source.projectionHash("s")).toBe(hash);
            const half = Math.floor(source.head("s") / 2);
            if (source.loadSnapshot("s", half) !== undefined) {
              source.restoreFromSnapshot("s", half);
              expect(source.projectionState("s")).toEqual(state);
              expect(source.projectionHash("s")).toBe(hash);
            }
          } finally {
            source.db.close();
          }
        }),
        { numRuns: runs(20) },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it("takes SQLite's share back where an event at an older version needs the projector", () => {
    // The log is the same, but some events are stored at a version 0 the upcaster knows:
    // from the first such event of SQLite's types on, the projector folds everything.
    const dir = mkdtempSync(join(tmpdir(), "hearsay-sqlfold-aged-"));
    let k = 0;
    try {
      fc.assert(
        fc.property(
          arbLongLog,
          fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
          (batches, at) => {
            const onDisk = new SqliteEventLog(openDatabase(join(dir, `source-${++k}.db`)));
            const inMemory = freshStore().log;
            try {
              for (const source of [onDisk, inMemory]) {
                newSave(source, "s");
                const incremental = appendRecordingCheckpoints(source, "s", batches);
                const state = source.projectionState("s");
                const head = source.head("s");
                const age = source.db.prepare(
                  "UPDATE events SET version = 0 WHERE save_id = 's' AND seq = ?",
                );
                // Mostly late in the log, after ranges SQLite has folded.
                for (const x of at) age.run(head - (x % Math.ceil(head / 2)));
                // Attached (copying the rows, or folding from the file) and read row by row.
                for (const discard of source === onDisk ? [false, true] : [false]) {
                  const target = freshStore().log;
                  expect(importChecking(target, source, discard, upcastAged)).toEqual(incremental);
                  expect(target.projectionState("s")).toEqual(state);
                  if (!discard) {
                    expect(
                      target.db
                        .prepare("SELECT count(*) FROM events WHERE version = 0")
                        .pluck()
                        .get(),
                    ).toBe(0);
                  }
                }
              }
            } finally {
              onDisk.db.close();
            }
          },
        ),
        { numRuns: runs(20) },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
