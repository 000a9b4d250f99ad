/**
 * The mirror rule for an NPC's own dossier rows: what its actor and the routing state
 * hold (`ActorDossierReads`) equals what the SQLite read models give (`DossierSource`),
 * for every NPC at every tick boundary of a scripted run, and for the NPC a turn's dossier
 * is for whenever the turn first reads it — mid-tick, after the tick's earlier steps
 * changed the actors but not yet the read models.
 */
import { type Event, type GameTime, ids, makeEvent, type NpcId } from "@hearsay/core";
import {
  ActorDossierReads,
  EngineState,
  NpcActors,
  type OwnDossierRows,
  retrievalDossiers,
} from "@hearsay/engine";
import { DossierSource } from "@hearsay/retrieval";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { freshLog, MAIN, ofType, run } from "./harness.ts";

/** Every own row of `npcId` as `rows` gives it, comparable whole. */
const ownRows = (rows: OwnDossierRows, npcId: string, t: number) => ({
  character: rows.character(MAIN, npcId),
  profile: (() => {
    const p = rows.profile(MAIN, npcId);
    return p === undefined ? undefined : (JSON.parse(p) as unknown);
  })(),
  activity: rows.activity(MAIN, npcId),
  edges: rows.edges(MAIN, npcId, t),
  tasks: rows.openTasks(MAIN, npcId, t),
});

describe("actor-backed dossier rows", () => {
  it("are what the read models held at the tick's start, whenever a turn asks", async () => {
    const log = freshLog();
    const sql = new DossierSource(log.db);
    let own: OwnDossierRows | null = null;
    let asks = 0;
    let changedTicks = 0;
    const check = (npcId: NpcId, t: number) => {
      asks += 1;
      // A run appends log rows only: the read models are caught up to compare with them.
      log.caughtUp(MAIN);
      expect(ownRows(own!, npcId, t), `${npcId} at ${t}`).toEqual(ownRows(sql, npcId, t));
    };
    await run(log, {
      days: 12,
      dossiers: (l, saveId) => {
        const inner = retrievalDossiers(l, saveId);
        return {
          ...inner,
          own: (rows) => {
            own = rows;
            inner.own!(rows);
          },
          dossier: (ask) => {
            check(ask.npcId, ask.t);
            return inner.dossier(ask);
          },
          deferred: (ask) => {
            check(ask.npcId, ask.t);
            return inner.deferred!(ask);
          },
        };
      },
      onAppend: (appended) => {
        if (
          appended.some((e) => e.type === "NpcActivityChanged" || e.type === "RelationshipChanged")
        )
          changedTicks += 1;
      },
    });
    expect(own).not.toBeNull();
    expect(asks).toBeGreaterThan(40);
    expect(changedTicks).toBeGreaterThan(20);
  });

  it("equal the read models' rows for every NPC at every tick boundary", async () => {
    const log = freshLog();
    const rows = new DossierSource(log.db);
    const state = new EngineState();
    let actors: NpcActors | null = null;
    let folded = 0;
    let checks = 0;
    /** Rows seen non-empty, per section: the check compared something. */
    const seen = { activity: 0, tasks: 0, profile: 0, edges: 0 };
    await run(log, {
      days: 4,
      dossiers: retrievalDossiers,
      onActors: (a) => {
        actors = a;
      },
      onProgress: ({ t, head }) => {
        for (const e of log.read(MAIN, { fromSeq: folded + 1 })) state.apply(e, e.seq);
        folded = head;
        log.caughtUp(MAIN);
        const reads = new ActorDossierReads(actors!, state);
        for (const id of state.npcs.keys()) {
          const npcId = id as NpcId;
          expect(reads.character(MAIN, npcId), `${npcId} character at ${t}`).toEqual(
            rows.character(MAIN, npcId),
          );
          expect(reads.activity(MAIN, npcId), `${npcId} activity at ${t}`).toEqual(
            rows.activity(MAIN, npcId),
          );
          expect(reads.openTasks(MAIN, npcId, t), `${npcId} tasks at ${t}`).toEqual(
            rows.openTasks(MAIN, npcId, t),
          );
          const sqlProfile = rows.profile(MAIN, npcId);
          const ownProfile = reads.profile(MAIN, npcId);
          expect(ownProfile === undefined, `${npcId} profile at ${t}`).toBe(
            sqlProfile === undefined,
          );
          if (sqlProfile !== undefined)
            expect(JSON.parse(ownProfile!), `${npcId} profile at ${t}`).toEqual(
              JSON.parse(sqlProfile),
            );
          expect(reads.edges(MAIN, npcId, t), `${npcId} edges at ${t}`).toEqual(
            rows.edges(MAIN, npcId, t),
          );
          checks += 1;
          if (rows.activity(MAIN, npcId) !== undefined) seen.activity += 1;
          if (rows.openTasks(MAIN, npcId, t).length > 0) seen.tasks += 1;
          if (sqlProfile !== undefined) seen.profile += 1;
          if (rows.edges(MAIN, npcId, t).length > 0) seen.edges += 1;
        }
      },
    });
    expect(checks).toBeGreaterThan(100);
    for (const [section, n] of Object.entries(seen)) expect(n, section).toBeGreaterThan(20);
    // The run exercised what the rows are made of.
    expect(ofType(log, "RelationshipChanged").length).toBeGreaterThan(0);
    expect(ofType(log, "ProfileGenerated").length).toBeGreaterThan(0);
    expect(ofType(log, "TaskProposed").length).toBeGreaterThan(0);
  });
});

describe("an NPC's edges within a tick", () => {
  const people = ["a", "b", "c", "d"].map((n) => ids.npc(n));
  let seq = 0;
  const event = (type: string, t: number, payload: object): Event =>
    makeEvent(type as never, { id: ids.event(`e${++seq}`), t: t as GameTime, payload } as never);

  it("read as they stood at the tick's start, however often they change in it, and as they are once it is appended", () => {
    // Ticks of regard changes among four NPCs: who regards whom, and how much.
    const change = fc.record({
      from: fc.nat(3),
      to: fc.nat(3),
      trust: fc.integer({ min: -10, max: 10 }),
    });
    fc.assert(
      fc.property(fc.array(fc.array(change, { maxLength: 8 }), { maxLength: 6 }), (ticks) => {
        const state = new EngineState();
        const actors = new NpcActors();
        const reads = new ActorDossierReads(actors, state);
        const emit = (e: Event) => {
          reads.before(e);
          state.apply(e);
          actors.apply(e);
        };
        for (const id of people)
          emit(
            event("NpcRegistered", 0, {
              npcId: id,
              name: id,
              role: "smith",
              factionId: null,
              locationId: ids.location("square"),
              traits: [],
            }),
          );
        reads.settled();
        for (const [k, tick] of ticks.entries()) {
          const atStart = people.map((id) => reads.edges(MAIN, id, k));
          for (const c of tick) {
            if (c.from === c.to) continue;
            emit(
              event("RelationshipChanged", k, {
                fromId: people[c.from]!,
                toId: people[c.to]!,
                trust: c.trust / 10,
                respect: 0,
                suspicion: 0,
                summary: `tick ${k}`,
                reason: "spoke",
              }),
            );
            expect(people.map((id) => reads.edges(MAIN, id, k))).toEqual(atStart);
          }
          reads.settled();
          // Appended: the actors' edges, each NPC's sorted by whom it regards.
          for (const id of people) {
            const now = [...(actors.facts(id)?.regard ?? new Map())]
              .map(([to, r]) => ({ to_id: to, ...r }))
              .sort((x, y) => (x.to_id < y.to_id ? -1 : 1));
            expect(reads.edges(MAIN, id, k)).toEqual(now);
          }
        }
      }),
      { numRuns: process.env.HEARSAY_DEEP ? 1000 : 100 },
    );
  });
});
