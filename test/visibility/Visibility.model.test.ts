/**
 * No NPC reads what it could not know. A model-based property (fast-check `commands`):
 * random small worlds, two independent saves in one database plus branches of them,
 * and random command sequences — moves, world events of every visibility, conversations
 * with something told, debates, rumours, memories with lifetimes, forgetting, time
 * skips, branches, tasks, regard, profiles — each appended through the store as one
 * transaction. After every command every NPC of every save gets a dossier and a search
 * from the retrieval engine the engine itself uses, and each item, each hit and every
 * canary token in the rendered prompt must be something that NPC knows at that time by
 * core's rule, folded independently from the model's log; expired memories must be
 * gone, no save may see another's rows, and a branch nothing its parent wrote after the
 * branch point.
 *
 * 1,000 runs by default, 20,000 under HEARSAY_DEEP. A failure prints fast-check's seed
 * and path; replay it with HEARSAY_FC_SEED and HEARSAY_FC_PATH.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { checkHistories, checkVisibility, visibilityCoverage } from "./checkVisibility.ts";
import { closeVisibilityReal, nextVisibilityReal, VisibilityRun } from "./VisibilityRun.ts";
import { arbVisibilityWorld } from "./VisibilityWorld.ts";
import { applyStep, arbStepParams, type StepParams } from "./visibilitySteps.ts";

const DEEP = process.env.HEARSAY_DEEP !== undefined && process.env.HEARSAY_DEEP !== "";
const replay = process.env.HEARSAY_FC_SEED
  ? {
      seed: Number(process.env.HEARSAY_FC_SEED),
      ...(process.env.HEARSAY_FC_PATH ? { path: process.env.HEARSAY_FC_PATH } : {}),
    }
  : {};

class Step implements fc.Command<VisibilityRun, VisibilityRun> {
  constructor(readonly p: StepParams) {}
  check(): boolean {
    return true;
  }
  run(_model: VisibilityRun, run: VisibilityRun): void {
    checkVisibility(run, this.p.probe, applyStep(run, this.p));
  }
  toString(): string {
    const { kind, save, dt, a, b, c, d, probe } = this.p;
    return `${kind}(save ${save}, dt ${dt}, ${a}/${b}/${c}/${d}; probe ${probe.query}/${probe.save}/${probe.npc}/${probe.seq})`;
  }
}

const arbSteps = fc.commands([arbStepParams.map((p) => new Step(p))], { maxCommands: 12 });

describe("visibility: every read of every NPC is what it knows", () => {
  afterAll(closeVisibilityReal);

  it(
    "dossiers, searches and prompt text never show an NPC what it could not know",
    () => {
      fc.assert(
        fc.property(arbVisibilityWorld, fc.integer(), arbSteps, (world, seed, steps) => {
          const { real, prefix } = nextVisibilityReal();
          const run = new VisibilityRun(world, real, seed, prefix);
          checkVisibility(run, { query: 0, save: 0, npc: 0, seq: 0 }, null);
          fc.modelRun(() => ({ model: run, real: run }), steps);
          checkHistories(run);
        }),
        { numRuns: DEEP ? 20_000 : 1_000, ...replay },
      );
      // A suite that checked nothing would pass: make sure every kind was really read
      // (not when replaying one case).
      if (process.env.HEARSAY_FC_SEED) return;
      const c = visibilityCoverage;
      expect(c.dossiers).toBeGreaterThan(1_000);
      for (const kind of [
        "memory",
        "world_event",
        "debate",
        "dialogue",
        "summary",
        "task",
        "lore",
      ]) {
        expect(c.items.get(kind) ?? 0, `dossier items of kind ${kind}`).toBeGreaterThan(0);
      }
      for (const kind of [
        "memory",
        "world_event",
        "debate",
        "dialogue",
        "summary",
        "task",
        "relationship",
        "profile",
        "lore",
      ]) {
        expect(c.canaries.get(kind) ?? 0, `canaries of ${kind} seen in prompts`).toBeGreaterThan(0);
      }
      expect(c.hits).toBeGreaterThan(0);
      expect(c.knownFacts).toBeGreaterThan(0);
    },
    DEEP ? 3_600_000 : 300_000,
  );
});
