/**
 * Engine snapshots are a cache of the fold: a run that takes them writes the same log as
 * one that does not, a state restored from one plus the log's tail is the state the
 * whole log folds to (field by field, in iteration order), and a resume from a snapshot
 * goes on exactly as a resume from the log.
 */
import { foldSchedule } from "@hearsay/actors";
import { type Event, type EventType, ids, makeEvent } from "@hearsay/core";
import {
  branchSave,
  decodeRoots,
  decodeState,
  EngineSnapshots,
  EngineState,
  emptyRunFold,
  encodeRoots,
  encodeState,
  historyEvents,
  NpcActors,
  type RunFold,
  runFoldFormat,
  TalkWorld,
} from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { EngineSnapshotStore, type SqliteEventLog } from "@hearsay/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hamlet, MAIN, memoryLog, runHamlet } from "./replay/fixtures.ts";

/** Folds a save's log from `fromSeq` on into `fold`, as a resume does. */
const foldLog = (
  log: SqliteEventLog,
  saveId: string,
  fromSeq = 1,
  fold: RunFold = emptyRunFold(),
): RunFold => {
  const actors = new NpcActors();
  actors.restore(fold.npcs);
  for (const e of historyEvents({ log, saveId: ids.save(saveId), fromSeq })) {
    fold.engine.apply(e, e.seq);
    foldSchedule(fold.clock, e);
    actors.apply(e);
  }
  return { ...fold, npcs: actors.folded() };
};

type Encoded = Record<string, { $b: Record<string, unknown> }>;

/**
 * The encoded fold without its due-time schedules (wake-ups, memory expiries, task
 * deadlines): the live engine takes from them what came due, a fold takes nothing, so
 * they legitimately differ between a live state and a refold — the resumes below show
 * they lead to the same run.
 */
const comparable = (fold: RunFold): Encoded => {
  const out = JSON.parse(encodeRoots(fold)) as Encoded;
  delete out.clock!.$b.wakes;
  delete out.npcs!.$b.expiries;
  delete out.npcs!.$b.deadlines;
  return out;
};

/** The conversation turns a talk wrote. */
const ofTalk = (log: SqliteEventLog) =>
  log.read(MAIN).filter((e) => e.type === "ConversationTurn" && e.payload.speakerId === "player");

const events = (log: SqliteEventLog) => log.read(MAIN).map(({ saveId: _, ...e }) => e);

describe("engine snapshots", () => {
  it("a run with snapshots writes the same log; restored plus tail equals the whole fold; resume goes on the same", async () => {
    const withSnaps = memoryLog();
    const without = memoryLog();
    const snap = { snapshotEveryEvents: 150, snapshotsKept: 2 };
    await runHamlet(withSnaps, { days: 3, config: snap });
    await runHamlet(without, { days: 3, config: { snapshotEveryEvents: 0 } });
    expect(events(withSnaps)).toEqual(events(without));

    const kept = new EngineSnapshotStore(withSnaps.db).of(MAIN);
    expect(kept).toHaveLength(2);
    expect(new EngineSnapshotStore(without.db).of(MAIN)).toHaveLength(0);
    const head = withSnaps.head(MAIN);
    // Snapshots sit where an append crossed a multiple of 150, the newest ones kept.
    for (const k of kept) expect(Math.floor(k.seq / 150)).toBeGreaterThan(0);
    expect(kept[1]!.seq).toBeGreaterThan(head - 150 - 200);

    const restored = new EngineSnapshots(withSnaps, MAIN, { everyEvents: 0, kept: 2 }).restore(
      head,
    );
    expect(restored?.seq).toBe(kept[1]!.seq);
    const tail = foldLog(withSnaps, MAIN, restored!.seq + 1, restored!.fold);
    expect(comparable(tail)).toEqual(comparable(foldLog(withSnaps, MAIN)));

    // Resume both for two more days: the one from a snapshot writes what the other does.
    await runHamlet(withSnaps, { days: 5, resume: true, config: snap });
    await runHamlet(without, { days: 5, resume: true, config: { snapshotEveryEvents: 0 } });
    expect(withSnaps.head(MAIN)).toBeGreaterThan(head);
    expect(events(withSnaps)).toEqual(events(without));
    expect(withSnaps.projectionHash(MAIN)).toBe(without.projectionHash(MAIN));
  }, 120_000);

  it("a talk over a save starts from its newest snapshot and goes on as over the whole log", async () => {
    const withSnaps = memoryLog();
    const without = memoryLog();
    await runHamlet(withSnaps, { days: 3, config: { snapshotEveryEvents: 150, snapshotsKept: 1 } });
    await runHamlet(without, { days: 3, config: { snapshotEveryEvents: 0 } });
    expect(new EngineSnapshotStore(withSnaps.db).of(MAIN)).toHaveLength(1);
    const talks = [withSnaps, without].map(
      (log) =>
        new TalkWorld({
          simulation: hamlet(),
          log,
          saveId: MAIN,
          brain: ScriptedBrain.make(),
          recordBrain: false,
        }),
    );
    // The same state, though one was folded from the snapshot and the other from seq 1.
    expect(encodeState(talks[0]!.state)).toBe(encodeState(talks[1]!.state));
    for (const talk of talks) {
      let conversationId: string | null = null;
      for (const [i, message] of ["Good day.", "What news from the quay?", "Farewell."].entries())
        conversationId = (
          await talk.takeTurn({ npcId: "ada", conversationId, message, end: i === 2 })
        ).conversationId;
    }
    expect(withSnaps.head(MAIN)).toBe(without.head(MAIN));
    expect(ofTalk(withSnaps).length).toBeGreaterThan(0);
    expect(events(withSnaps)).toEqual(events(without));
  }, 120_000);

  it("a branch starts from its parent's snapshot taken before the branch point", async () => {
    const log = memoryLog();
    await runHamlet(log, { days: 3, config: { snapshotEveryEvents: 150, snapshotsKept: 20 } });
    const branched = branchSave({ log, from: MAIN, at: { day: 2 }, into: "b" });
    const parents = new EngineSnapshotStore(log.db).of(MAIN).filter((k) => k.seq <= branched.seq);
    expect(parents.length).toBeGreaterThan(0);
    const B = ids.save("b");
    const restored = new EngineSnapshots(log, B, { everyEvents: 0, kept: 2 }).restore(log.head(B));
    expect(restored?.seq).toBe(parents[parents.length - 1]!.seq);
    const tail = foldLog(log, B, restored!.seq + 1, restored!.fold);
    expect(comparable(tail)).toEqual(comparable(foldLog(log, B)));
  }, 60_000);

  it("a snapshot whose seq holds another event is not used", async () => {
    const log = memoryLog();
    await runHamlet(log, { days: 2, config: { snapshotEveryEvents: 300, snapshotsKept: 1 } });
    const [k] = new EngineSnapshotStore(log.db).of(MAIN);
    expect(k).toBeDefined();
    const text = new EngineSnapshotStore(log.db).latest(MAIN, runFoldFormat(), k!.seq)!.text;
    new EngineSnapshotStore(log.db).write(
      MAIN,
      k!.seq,
      runFoldFormat(),
      `not-the-event-id${text.slice(text.indexOf("\n"))}`,
      1,
    );
    const snapshots = new EngineSnapshots(log, MAIN, { everyEvents: 0, kept: 1 });
    expect(snapshots.restore(log.head(MAIN))).toBeNull();
  }, 60_000);

  it("the codec keeps order, sharing, and numbers JSON has no word for", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string(), fc.oneof(fc.double(), fc.constant(undefined)))),
        fc.uniqueArray(fc.string()),
        (pairs, names) => {
          const state = new EngineState();
          const shared = { n: Number.POSITIVE_INFINITY, z: -0 };
          state.t = 42 as never;
          for (const [k, v] of pairs) state.loreHashes.add(`${k}:${String(v)}`);
          for (const name of names) state.loreHashes.add(name);
          (state as unknown as { extra: unknown }).extra = {
            a: shared,
            b: shared,
            m: new Map(pairs),
          };
          const back = decodeState(encodeState(state));
          expect([...back.loreHashes]).toEqual([...state.loreHashes]);
          const extra = (
            back as unknown as { extra: { a: object; b: object; m: Map<string, unknown> } }
          ).extra;
          expect(extra.a).toBe(extra.b);
          expect(extra.a).toEqual({ n: Number.POSITIVE_INFINITY, z: -0 });
          expect(Object.is((extra.a as { z: number }).z, -0)).toBe(true);
          expect([...extra.m]).toEqual([...new Map(pairs)]);
          expect(encodeState(back)).toBe(encodeState(state));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("property: the codec gives back nested records and lists as they were, flat ones too", () => {
    const leaf = fc.oneof(
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      fc.double(),
      fc.constant(-0),
      fc.constant(undefined),
    );
    const { value } = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.array(tie("value")),
        fc.array(leaf),
        fc.sparseArray(leaf),
        fc.dictionary(
          fc.string().filter((k) => k !== "__proto__"),
          tie("value"),
        ),
        fc.dictionary(
          fc.string().filter((k) => k !== "__proto__"),
          leaf,
        ),
      ),
    }));
    // Object.is on every leaf; a hole reads back as undefined, as it was read on the way in.
    const same = (a: unknown, b: unknown): boolean => {
      if (typeof a !== "object" || a === null) return Object.is(a, b);
      if (typeof b !== "object" || b === null || Array.isArray(a) !== Array.isArray(b))
        return false;
      if (Array.isArray(a)) {
        const bs = b as Array<unknown>;
        return a.length === bs.length && Array.from(a).every((x, i) => same(x, bs[i]));
      }
      const ka = Object.keys(a);
      const kb = Object.keys(b);
      return (
        ka.join("\u0000") === kb.join("\u0000") &&
        ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
      );
    };
    fc.assert(
      fc.property(value, (extra) => {
        const state = new EngineState();
        (state as unknown as { extra: unknown }).extra = extra;
        const text = encodeState(state);
        const back = decodeState(text);
        expect(same((back as unknown as { extra: unknown }).extra, extra)).toBe(true);
        expect(encodeState(back)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it("a restored NPC's open tasks are the tasks it holds, not copies: ending one closes it", () => {
    const ev = <T extends EventType>(type: T, n: number, payload: unknown): Event =>
      makeEvent(type, { id: ids.event(`e${n}`), t: n, payload } as never) as Event;
    const smith = ids.npc("smith");
    const before = new NpcActors();
    before.apply(ev("NpcRegistered", 1, { npcId: smith, name: "Smith", role: "smith" }));
    before.apply(
      ev("TaskProposed", 2, {
        taskId: "t1",
        title: "Fix the roof",
        description: "d",
        proposedBy: null,
        assignee: smith,
        locationId: null,
        factionId: null,
        deadline: null,
      }),
    );
    expect(before.openTasksOf(smith).map((k) => k.id)).toEqual(["t1"]);
    const fold = decodeRoots(
      encodeRoots({ ...emptyRunFold(), npcs: before.folded() }),
      emptyRunFold(),
    );
    const after = new NpcActors();
    after.restore(fold.npcs);
    const facts = after.facts(smith)!;
    expect(facts.open.get(ids.task("t1"))).toBe(facts.tasks.get(ids.task("t1")));
    after.apply(
      ev("TaskStatusChanged", 3, {
        taskId: "t1",
        from: "proposed",
        to: "completed",
        reason: "r",
        by: null,
      }),
    );
    expect(after.openTasksOf(smith)).toEqual([]);
    expect(after.task(ids.task("t1"))?.status).toBe("completed");
  });

  it("refuses a field it could not rebuild", () => {
    const state = new EngineState();
    (state as unknown as { odd: unknown }).odd = { when: new Date(0) };
    expect(() => encodeState(state)).toThrow(/odd\.when/);
  });

  it("names the whole path through maps, sets and arrays of a field it could not rebuild", () => {
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [{ a: [1, { b: new Date(0) }] }, "cannot snapshot the Date at engine.odd.a[1].b"],
      [new Map([["k", new Set([0, () => 1])]]), "cannot snapshot function at engine.odd[k]{1}"],
      [new Map([[new Date(0), 1]]), "cannot snapshot the Date at engine.odd<0>"],
      [[[Symbol("s")]], "cannot snapshot symbol at engine.odd[0][0]"],
    ];
    for (const [odd, message] of cases) {
      const state = new EngineState();
      (state as unknown as { odd: unknown }).odd = odd;
      expect(() => encodeState(state)).toThrow(message);
    }
  });
});
