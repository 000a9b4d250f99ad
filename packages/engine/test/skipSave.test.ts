/**
 * A headless skip that reaches the run's end: the run is extended past it, `run
 * --resume` lives the day after it as any other, and `verifyLog` re-makes every step.
 */
import { ids } from "@hearsay/core";
import {
  loadSimulation,
  retrievalDossiers,
  runSimulation,
  skipSave,
  verifyLog,
} from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { describe, expect, it } from "vitest";
import { memoryLog } from "./replay/fixtures.ts";

const MAIN = ids.save("main");

describe("skipSave", () => {
  it("a 10-day jump past the end holds no debate in its span, extends the run, and verifies", async () => {
    const sim = loadSimulation();
    const log = memoryLog();
    const base = {
      world: sim.world,
      worldHash: sim.worldHash,
      lore: sim.lore,
      log,
      saveId: MAIN,
      brain: ScriptedBrain.make(),
      recordBrain: false,
      dossiers: retrievalDossiers,
    };
    await runSimulation({ ...base, days: 2, seed: 1, resume: false });
    const summary = await skipSave({ ...base, skipDays: 10, mode: "jump" });
    expect(summary.to - summary.from).toBe(10 * 1440);
    expect(summary.endDay).toBe(Math.floor(summary.to / 1440) + 1);
    const debates = log.read(MAIN).filter((e) => e.type === "DebateHeld");
    expect(debates.some((e) => e.t > summary.from && e.t <= summary.to)).toBe(false);
    // The run goes on to its new end: the day after the jump is lived.
    await runSimulation({
      ...base,
      days: summary.endDay - sim.world.meta.start.day,
      seed: 1,
      resume: true,
    });
    const after = log.read(MAIN).filter((e) => e.t > summary.to);
    expect(after.some((e) => e.type === "NpcActivityChanged")).toBe(true);
    expect(Math.max(...after.map((e) => e.t))).toBeGreaterThan(summary.to + 12 * 60);
    const report = await verifyLog({ log, saveId: MAIN, simulation: sim });
    expect(report.divergence).toBeNull();
  }, 180_000);
});
