/**
 * The inspector's days read through the log's indexes say what grouping the rows says:
 * each day's first and last seq and its events counted by type, refreshed in pieces as the
 * inspector follows a running save — for logs whose days follow their seqs, as a run's
 * do (where the indexes must be the way taken), and for logs whose days go back and forth.
 */
import { type Event, type GameTime, ids, MINUTES_PER_DAY, makeEvent } from "@hearsay/core";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DayIndex, type DayTypeRow, groupedDayCounts, indexedDayCounts } from "../src/DayIndex.ts";

const runs = (n: number) => (process.env.HEARSAY_DEEP ? n * 20 : n);

/** One event at minute `t` of type `kind` (0–2): three types, so counts differ by type. */
const eventAt = (n: number, t: number, kind: number): Event => {
  const id = ids.event(`e${n}`);
  const at = t as GameTime;
  if (kind === 0)
    return makeEvent("ClockAdvanced", { id, t: at, payload: { from: at, to: at, mode: "tick" } });
  if (kind === 1)
    return makeEvent("ClockAdvanced", { id, t: at, payload: { from: at, to: at, mode: "jump" } });
  return makeEvent("SimulationWarning", {
    id,
    t: at,
    payload: { code: "note", message: "a note", npcId: null },
  } as never);
};

/** A log's events as [day, kind] steps: days non-decreasing, or in any order. */
const arbSteps = (ordered: boolean) =>
  fc
    .array(fc.tuple(fc.nat({ max: 5 }), fc.nat({ max: MINUTES_PER_DAY - 1 }), fc.nat({ max: 2 })), {
      minLength: 1,
      maxLength: 60,
    })
    .map((xs) => (ordered ? [...xs].sort((a, b) => a[0] - b[0] || a[1] - b[1]) : xs));

/** What grouping every row says, day by day, as a DayIndex shows it. */
const expected = (events: ReadonlyArray<{ seq: number; day: number; type: string }>) => {
  const out = new Map<
    number,
    { firstSeq: number; lastSeq: number; counts: Record<string, number> }
  >();
  for (const e of events) {
    const d = out.get(e.day) ?? { firstSeq: e.seq, lastSeq: e.seq, counts: {} };
    d.firstSeq = Math.min(d.firstSeq, e.seq);
    d.lastSeq = Math.max(d.lastSeq, e.seq);
    d.counts[e.type] = (d.counts[e.type] ?? 0) + 1;
    out.set(e.day, d);
  }
  return [...out].sort((a, b) => a[0] - b[0]).map(([day, d]) => ({ day, ...d }));
};

const property = (ordered: boolean) =>
  fc.property(arbSteps(ordered), fc.nat(), fc.nat(), (steps, cutA, cutB) => {
    const db = openDatabase(":memory:");
    try {
      const log = new SqliteEventLog(db);
      log.createSave({ saveId: ids.save("s"), campaignId: ids.campaign("c"), name: "s" });
      const events = steps.map(([day, minute, kind], i) =>
        eventAt(i + 1, day * MINUTES_PER_DAY + minute, kind),
      );
      log.append("s", 0, events);
      const head = log.head("s");
      const stored = log.read("s", { fromSeq: 1 });
      const want = expected(
        stored.map((e) => ({ seq: e.seq, day: Math.floor(e.t / MINUTES_PER_DAY), type: e.type })),
      );
      // Refreshed in up to three pieces, as the inspector follows a running save.
      const [a, b] = [cutA % (head + 1), cutB % (head + 1)].sort((x, y) => x - y) as [
        number,
        number,
      ];
      const index = new DayIndex();
      for (const [from, to] of [
        [1, a],
        [a + 1, b],
        [b + 1, head],
      ] as const)
        index.ingest(db, "s", from, to);
      expect(index.all().map((d) => ({ ...d }))).toEqual(want);
      expect([...index.types].sort()).toEqual([...new Set(stored.map((e) => e.type))].sort());
      // The indexes are the way a run's log takes; only days that go back fall back to rows.
      const viaIndexes = indexedDayCounts(db, "s", 1, head);
      if (ordered) expect(viaIndexes).not.toBeNull();
      if (viaIndexes !== null) {
        const days = (rows: ReadonlyArray<DayTypeRow>) =>
          new Map(rows.map(([day, type, n]) => [`${day}/${type}`, n]));
        expect(days(viaIndexes)).toEqual(days(groupedDayCounts(db, "s", 1, head)));
      }
    } finally {
      db.close();
    }
  });

describe("the inspector's days", () => {
  it("property: read through the indexes, a log whose days follow its seqs gives each day's seqs and counts by type", () => {
    fc.assert(property(true), { numRuns: runs(80) });
  });

  it("property: a log whose days go back and forth gives them too, grouped from its rows", () => {
    fc.assert(property(false), { numRuns: runs(80) });
  });
});
