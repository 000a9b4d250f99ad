/**
 * Branching: a branch shares its parent's history up to a tick boundary (nothing
 * copied) and, continued with another seed, diverges only after the branch point; the
 * parent is untouched and still verifies; the branch verifies too (segment by segment).
 * A plain resume of a branch reproduces the parent exactly, wherever it was cut.
 * The first cases keep their log on disk, as `hearsay branch` does, so the branch's
 * refold folds both segments straight from the file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gameTime, ids, type StoredEvent } from "@hearsay/core";
import {
  branchSave,
  comparable,
  ReplayRefused,
  refoldLog,
  sameEvent,
  tickBoundaries,
  verifyLog,
} from "@hearsay/engine";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hamlet, MAIN, memoryLog, runHamlet } from "./fixtures.ts";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 7 : n });

const digest = (log: SqliteEventLog, saveId: string) =>
  JSON.stringify(log.read(saveId).map((e) => comparable(e)));

describe("a branch continued with another seed", () => {
  let log: SqliteEventLog;
  let parentLog: string;
  let parentHash: string;
  let parentHead: number;

  const dir = mkdtempSync(join(tmpdir(), "hearsay-branch-test-"));
  afterAll(() => {
    log.db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeAll(async () => {
    log = new SqliteEventLog(openDatabase(join(dir, "log.db")), { snapshotEvery: 0 });
    await runHamlet(log);
    parentLog = digest(log, MAIN);
    parentHash = log.projectionHash(MAIN);
    parentHead = log.head(MAIN);
  });

  it("starts where day 1 began, diverges only after that, and leaves the parent as it was", async () => {
    const branched = branchSave({ log, from: MAIN, at: { day: 1 }, into: "alt" });
    const at = log.read(MAIN, { fromSeq: branched.seq, toSeq: branched.seq })[0]!;
    expect(at.type).toBe("ClockAdvanced");
    expect(at.t).toBe(gameTime(1));
    expect(branched.save.parent).toEqual({ saveId: MAIN, seq: branched.seq });

    const alt = ids.save("alt");
    const summary = await runHamlet(log, { saveId: alt, resume: true, seed: 99 });
    expect(summary.finished).toBe(true);
    const parent = log.read(MAIN);
    const child = log.read(alt);
    for (let i = 0; i < branched.seq; i++) expect(sameEvent(child[i]!, parent[i]!)).toBe(true);
    expect(child[branched.seq]!.type).toBe("RunResumed");
    expect((child[branched.seq] as Extract<StoredEvent, { type: "RunResumed" }>).payload.seed).toBe(
      99,
    );
    const later = child.slice(branched.seq + 1);
    expect(
      later.some(
        (e, i) => !sameEvent(e, parent[branched.seq + 1 + i] ?? e) || !parent[branched.seq + 1 + i],
      ),
    ).toBe(true);

    expect(log.head(MAIN)).toBe(parentHead);
    expect(digest(log, MAIN)).toBe(parentLog);
    expect(log.projectionHash(MAIN)).toBe(parentHash);
  });

  it("the parent still verifies, and so does the branch, seed change and all", async () => {
    const parent = await verifyLog({ log, saveId: MAIN, simulation: hamlet() });
    expect(parent.divergence).toBeNull();
    expect(parent.stateHash).toBe(parentHash);
    const alt = ids.save("alt");
    const child = await verifyLog({ log, saveId: alt, simulation: hamlet() });
    expect(child.divergence).toBeNull();
    expect(child.segments).toBe(2);
    expect(child.stateHash).toBe(log.projectionHash(alt));
    const refold = refoldLog({ log, saveId: alt });
    expect(refold.mismatch).toBeNull();
    expect(refold.checkpoints).toBeGreaterThan(0);
    expect(refold.stateHash).toBe(log.projectionHash(alt));
  });

  it("refuses a seq inside a tick (naming the boundaries around it), a taken name, a seq past the head", () => {
    const b = tickBoundaries(log, MAIN, 200);
    const inside = b.atOrBefore + 1;
    const around = tickBoundaries(log, MAIN, inside);
    expect(around.atOrBefore).toBe(b.atOrBefore);
    const refusal = () => branchSave({ log, from: MAIN, at: { seq: inside }, into: "x" });
    expect(refusal).toThrow(ReplayRefused);
    expect(refusal).toThrow(`branch at seq ${around.atOrBefore} or ${around.after}`);
    expect(() => branchSave({ log, from: MAIN, at: { seq: b.atOrBefore }, into: "alt" })).toThrow(
      /already exists/,
    );
    expect(() => branchSave({ log, from: MAIN, at: { seq: parentHead + 1 }, into: "y" })).toThrow(
      /outside save/,
    );
    expect(log.saves().map((s) => s.saveId)).toEqual(["alt", "main"]);
  });
});

describe("tick boundaries", () => {
  let log: SqliteEventLog;
  let events: ReadonlyArray<StoredEvent>;
  beforeAll(async () => {
    log = memoryLog();
    await runHamlet(log, { days: 2 });
    events = log.read(MAIN);
  });

  it("are where a batch ends: the genesis, every ClockAdvanced, the head", () => {
    const genesisEnd = events.filter((e) => e.t === events[0]!.t).length;
    const expected = new Set([
      0,
      genesisEnd,
      ...events.filter((e) => e.type === "ClockAdvanced").map((e) => e.seq),
    ]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: events.length }), (seq) => {
        const { atOrBefore, after } = tickBoundaries(log, MAIN, seq);
        expect(expected.has(atOrBefore)).toBe(true);
        expect(atOrBefore).toBeLessThanOrEqual(seq);
        for (let s = atOrBefore + 1; s <= seq; s++) expect(expected.has(s)).toBe(false);
        if (after !== null) {
          expect(expected.has(after)).toBe(true);
          for (let s = seq + 1; s < after; s++) expect(expected.has(s)).toBe(false);
        }
      }),
      runs(60),
    );
  });

  it("a branch cut at any boundary and resumed plainly writes exactly the parent's log", async () => {
    const whole = digest(log, MAIN);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: events.length - 1 }), async (seq) => {
        const into = `cut${n++}`;
        const b = branchSave({
          log,
          from: MAIN,
          at: { seq: tickBoundaries(log, MAIN, seq).atOrBefore },
          into,
        });
        await runHamlet(log, { saveId: ids.save(into), resume: true, days: 2 });
        expect(digest(log, into)).toBe(whole);
        expect(log.read(into)[b.seq]?.type).not.toBe("RunResumed");
      }),
      runs(3),
    );
  });
});
