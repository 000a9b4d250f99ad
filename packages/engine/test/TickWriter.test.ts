/**
 * A tick's Checkpoint opens its batch with its hash left to the store, so the run never
 * waits for the append worker to hash the read models.
 */
import type { GameTime } from "@hearsay/core";
import { describe, expect, it } from "vitest";
import { EngineState } from "../src/EngineState.ts";
import { NpcActors } from "../src/NpcActors.ts";
import { TickWriter } from "../src/TickWriter.ts";

describe("TickWriter.checkpoint", () => {
  it("opens the batch at its first seq, applied at once, with the hash left empty", () => {
    const state = new EngineState();
    const writer = new TickWriter(state, new NpcActors(), 60 as GameTime, state.seq);
    writer.checkpoint(0);
    // Applied at once, at the batch's first seq, before anything after it.
    expect(state.lastCheckpointSeq).toBe(1);
    writer.emit("ClockAdvanced", { from: 0 as GameTime, to: 60 as GameTime, mode: "tick" });
    const events = writer.drain();
    expect(events.map((e) => e.type)).toEqual(["Checkpoint", "ClockAdvanced"]);
    expect(events[0]).toMatchObject({
      id: "e1",
      t: 60,
      payload: { throughSeq: 0, stateHash: "" },
    });
  });

  it("refuses a checkpoint after the batch's first event (the store hashes only there)", () => {
    const state = new EngineState();
    const writer = new TickWriter(state, new NpcActors(), 60 as GameTime, state.seq);
    writer.emit("ClockAdvanced", { from: 0 as GameTime, to: 60 as GameTime, mode: "tick" });
    expect(() => writer.checkpoint(0)).toThrow(/opens its batch/);
  });
});
