/**
 * A headless skip that reaches the run's end: the skip's last day still happens — its
 * debates included, which need the world clock still running — and the run is extended
 * past it; `verifyLog` re-makes every step.
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
  it("a 10-day jump past the end holds the last day's debate and verifies", async () => {
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
    const lastDay = log
      .read(MAIN)
      .filter((e) => e.type === "DebateHeld" && e.t > summary.to - 1440 && e.t <= summary.to);
    // The default world holds a debate on the last day of this span (day 11).
    expect(lastDay.length).toBeGreaterThan(0);
    const report = await verifyLog({ log, saveId: MAIN, simulation: sim });
    expect(report.divergence).toBeNull();
  }, 180_000);
});
