/**
 * Engine snapshots are a cache of the fold: a run that takes them writes the same log as
 * one that does not, a state restored from one plus the log's tail is the state the
 * whole log folds to (field by field, in iteration order), and a resume from a snapshot
 * goes on exactly as a resume from the log.
 */
import { ids } from "@hearsay/core";
import {
  branchSave,
  decodeState,
  EngineSnapshots,
  EngineState,
  encodeState,
  historyEvents,
  stateFingerprint,
} from "@hearsay/engine";
import { EngineSnapshotStore, type SqliteEventLog } from "@hearsay/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAIN, memoryLog, runHamlet } from "./replay/fixtures.ts";

const fold = (log: SqliteEventLog, fromSeq = 1, state = new EngineState()): EngineState => {
  for (const e of historyEvents({ log, saveId: MAIN, fromSeq })) state.apply(e, e.seq);
  return state;
};

type Encoded = Record<string, { $b?: Record<string, unknown> }>;
type Buckets = { $m: Array<[number, { $m: Array<unknown> }]> };

/**
 * The encoded state, with each DueIndex's day buckets as what is due on which day: the
 * live engine drops a day's bucket once it has taken what was due, a fold never takes
 * anything, so the two hold different empty buckets (and first days) for one schedule.
 */
const comparable = (state: EngineState): Encoded => {
  const out = JSON.parse(encodeState(state)) as Encoded;
  for (const part of Object.values(out)) {
    const buckets = part.$b?.buckets as Buckets | undefined;
    if (buckets === undefined) continue;
    buckets.$m = buckets.$m.filter(([, b]) => b.$m.length > 0).sort(([a], [b]) => a - b);
    delete part.$b!.firstDay;
  }
  return out;
};

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

    const restored = new EngineState();
    const from = new EngineSnapshots(withSnaps, MAIN, { everyEvents: 0, kept: 2 }).restore(
      restored,
      head,
    );
    expect(from).toBe(kept[1]!.seq);
    fold(withSnaps, from + 1, restored);
    expect(comparable(restored)).toEqual(comparable(fold(withSnaps)));

    // Resume both for two more days: the one from a snapshot writes what the other does.
    await runHamlet(withSnaps, { days: 5, resume: true, config: snap });
    await runHamlet(without, { days: 5, resume: true, config: { snapshotEveryEvents: 0 } });
    expect(withSnaps.head(MAIN)).toBeGreaterThan(head);
    expect(events(withSnaps)).toEqual(events(without));
    expect(withSnaps.projectionHash(MAIN)).toBe(without.projectionHash(MAIN));
  }, 120_000);

  it("a branch starts from its parent's snapshot taken before the branch point", async () => {
    const log = memoryLog();
    await runHamlet(log, { days: 3, config: { snapshotEveryEvents: 150, snapshotsKept: 20 } });
    const branched = branchSave({ log, from: MAIN, at: { day: 2 }, into: "b" });
    const parents = new EngineSnapshotStore(log.db).of(MAIN).filter((k) => k.seq <= branched.seq);
    expect(parents.length).toBeGreaterThan(0);
    const B = ids.save("b");
    const state = new EngineState();
    const from = new EngineSnapshots(log, B, { everyEvents: 0, kept: 2 }).restore(
      state,
      log.head(B),
    );
    expect(from).toBe(parents[parents.length - 1]!.seq);
    for (const e of historyEvents({ log, saveId: B, fromSeq: from + 1 })) state.apply(e, e.seq);
    const whole = new EngineState();
    for (const e of historyEvents({ log, saveId: B })) whole.apply(e, e.seq);
    expect(comparable(state)).toEqual(comparable(whole));
  }, 60_000);

  it("a snapshot whose seq holds another event is not used", async () => {
    const log = memoryLog();
    await runHamlet(log, { days: 2, config: { snapshotEveryEvents: 300, snapshotsKept: 1 } });
    const [k] = new EngineSnapshotStore(log.db).of(MAIN);
    expect(k).toBeDefined();
    const text = new EngineSnapshotStore(log.db).latest(MAIN, stateFingerprint(), k!.seq)!.text;
    new EngineSnapshotStore(log.db).write(
      MAIN,
      k!.seq,
      stateFingerprint(),
      `not-the-event-id${text.slice(text.indexOf("\n"))}`,
      1,
    );
    const snapshots = new EngineSnapshots(log, MAIN, { everyEvents: 0, kept: 1 });
    expect(snapshots.restore(new EngineState(), log.head(MAIN))).toBe(0);
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
          for (const [k, v] of pairs) state.debatesHeld.add(`${k}:${String(v)}`);
          for (const name of names) state.loreHashes.add(name);
          (state as unknown as { extra: unknown }).extra = {
            a: shared,
            b: shared,
            m: new Map(pairs),
          };
          const back = decodeState(encodeState(state));
          expect([...back.debatesHeld]).toEqual([...state.debatesHeld]);
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

  it("refuses a field it could not rebuild", () => {
    const state = new EngineState();
    (state as unknown as { odd: unknown }).odd = { when: new Date(0) };
    expect(() => encodeState(state)).toThrow(/odd\.when/);
  });
});
