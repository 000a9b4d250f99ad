import { gameTime, MINUTES_PER_DAY } from "@hearsay/core";
import { type Progress, type ResumeStep, RunRefused } from "@hearsay/engine";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { describe, expect, it } from "vitest";
import { freshLog, logHash, logOf, MAIN, ofType, run } from "./harness.ts";

const PAGE = 64;

/** A log that, while `paging`, refuses reads longer than a page and notes the longest. */
class PageOnlyLog extends SqliteEventLog {
  paging = false;
  longest = 0;
  override read(
    saveId: string,
    range: { readonly fromSeq?: number; readonly toSeq?: number } = {},
  ) {
    const events = super.read(saveId, range);
    if (!this.paging) return events;
    if (events.length > PAGE) throw new Error(`read ${events.length} events at once`);
    this.longest = Math.max(this.longest, events.length);
    return events;
  }
}

describe("a run", () => {
  it("is reproducible: same world and seed give the same log, byte for byte", async () => {
    const a = freshLog();
    const b = freshLog();
    await run(a);
    await run(b);
    expect(logOf(a).length).toBeGreaterThan(300);
    expect(logHash(a)).toBe(logHash(b));
    expect(a.projectionHash(MAIN)).toBe(b.projectionHash(MAIN));
  });

  it("another seed gives another history", async () => {
    const a = freshLog();
    const b = freshLog();
    await run(a, { seed: 7 });
    await run(b, { seed: 8 });
    expect(logHash(a)).not.toBe(logHash(b));
  });

  it("resumed after an interruption, ends identical to an uninterrupted run", async () => {
    const whole = freshLog();
    await run(whole);
    for (const stopAfter of [1, 13, 40]) {
      const broken = freshLog();
      const first = await run(broken, { maxTicks: stopAfter });
      expect(first.finished).toBe(false);
      const rest = await run(broken, { resume: true });
      expect(rest.finished).toBe(true);
      expect(rest.resumed).toBe(true);
      expect(logHash(broken)).toBe(logHash(whole));
    }
  });

  it("says each step of taking up a resumed run, and counts its days from where it stopped", async () => {
    const log = freshLog();
    const steps: Array<ResumeStep> = [];
    const days: Array<Progress> = [];
    const first = await run(log, {
      maxTicks: 40,
      onResumeStep: (s) => steps.push(s),
      onProgress: (p) => days.push(p),
    });
    // A new run takes nothing up, and its days count from the world's first.
    expect(steps).toEqual([]);
    expect(days[0]!.fromDay).toBe(days[0]!.startDay);
    const head = log.head(MAIN);
    const stoppedOn = Math.floor(first.t / MINUTES_PER_DAY);
    expect(stoppedOn).toBeGreaterThan(days[0]!.startDay);
    days.length = 0;
    await run(log, {
      resume: true,
      onResumeStep: (s) => steps.push(s),
      onProgress: (p) => days.push(p),
    });
    expect(steps.map((s) => s.step)).toEqual(["actors", "retrieval"]);
    expect(steps[0]!.events).toBeGreaterThan(0);
    expect(steps[0]!.events).toBeLessThanOrEqual(head);
    expect(steps[1]!.events).toBe(head);
    expect(days.length).toBeGreaterThan(0);
    for (const p of days) expect(p.fromDay).toBe(stoppedOn);
  });

  it("resumes reading its log a page at a time, never the whole history at once", async () => {
    const whole = freshLog();
    await run(whole);
    // A log that refuses any read longer than a page: a 1,000-NPC year (~10M events)
    // read as one array does not fit Node's default heap.
    const pageOnly = new PageOnlyLog(openDatabase(":memory:"));
    await run(pageOnly, { maxTicks: 40 });
    expect(pageOnly.head(MAIN)).toBeGreaterThan(4 * PAGE);
    pageOnly.paging = true;
    const rest = await run(pageOnly, { resume: true, config: { resumePageSize: PAGE } });
    pageOnly.paging = false;
    expect(rest.resumed).toBe(true);
    expect(pageOnly.longest).toBe(PAGE);
    expect(logHash(pageOnly)).toBe(logHash(whole));
  });

  it("stops at the game day the whole run ends on, and a resumed finished run adds nothing", async () => {
    const log = freshLog();
    const summary = await run(log, { days: 2 });
    expect(summary.t).toBe(gameTime(2));
    const head = log.head(MAIN);
    const again = await run(log, { days: 2, resume: true });
    expect(again.ticks).toBe(0);
    expect(log.head(MAIN)).toBe(head);
  });

  it("refuses a resume that would embed or rank otherwise before it says a step or opens its source", async () => {
    const log = freshLog();
    await run(log, { maxTicks: 10 });
    const head = log.head(MAIN);
    for (const setup of [{ embedder: "other-model@8" }, { indexMode: "disabled" as const }]) {
      const steps: Array<ResumeStep> = [];
      let opened = 0;
      const dossiers = Object.assign(
        () => {
          opened += 1;
          return { ...setup, dossier: () => null };
        },
        { setup },
      );
      await expect(
        run(log, { resume: true, dossiers, onResumeStep: (s) => steps.push(s) }),
      ).rejects.toBeInstanceOf(RunRefused);
      expect(steps).toEqual([]);
      expect(opened).toBe(0);
      // A source that says nothing before it opens is still refused, once it has.
      await expect(
        run(log, {
          resume: true,
          dossiers: () => {
            opened += 1;
            return { ...setup, dossier: () => null };
          },
        }),
      ).rejects.toBeInstanceOf(RunRefused);
      expect(opened).toBe(1);
    }
    expect(log.head(MAIN)).toBe(head);
  });

  it("refuses to start over a database that already holds a run", async () => {
    const log = freshLog();
    await run(log, { days: 1 });
    await expect(run(log, { days: 1 })).rejects.toBeInstanceOf(RunRefused);
  });

  it("commits one tick per transaction: the log ends with ClockAdvanced at every tick", async () => {
    const log = freshLog();
    await run(log, { days: 1 });
    const clock = ofType(log, "ClockAdvanced");
    expect(clock.length).toBe(19); // 05:00 → 24:00
    for (const [i, c] of clock.entries()) {
      expect(c.payload.to - c.payload.from).toBe(60);
      if (i > 0) expect(c.payload.from).toBe(clock[i - 1]!.payload.to);
    }
    expect(logOf(log).at(-1)!.type).toBe("ClockAdvanced");
  });

  it("continuing with another seed is recorded, and a later plain resume keeps that seed", async () => {
    const a = freshLog();
    await run(a, { days: 3, maxTicks: 10 });
    await run(a, { days: 3, resume: true, seed: 99, maxTicks: 10 });
    await run(a, { resume: true, seed: undefined as never, days: undefined as never });
    const b = freshLog();
    await run(b, { days: 3, maxTicks: 10 });
    await run(b, { days: 3, resume: true, seed: 99 });
    const resumed = ofType(a, "RunResumed");
    expect(resumed).toHaveLength(1);
    expect(resumed[0]!.payload.seed).toBe(99);
    expect(logHash(a)).toBe(logHash(b));
    const plain = freshLog();
    await run(plain, { days: 3 });
    expect(logHash(plain)).not.toBe(logHash(a));
  });
});
