/**
 * A tick's Checkpoint is emitted first but hashed when the batch is drained, so a tick
 * runs while the append worker writes the batch before it.
 */
import type { GameTime } from "@hearsay/core";
import { describe, expect, it } from "vitest";
import { EngineState } from "../src/EngineState.ts";
import { NpcActors } from "../src/NpcActors.ts";
import { TickWriter } from "../src/TickWriter.ts";

describe("TickWriter.checkpoint", () => {
  it("keeps the checkpoint's place and seq, and logs the hash taken at drain", () => {
    const state = new EngineState();
    const writer = new TickWriter(state, new NpcActors(), 60 as GameTime, state.seq);
    let hashed = 0;
    let hash = "before the tick";
    writer.checkpoint(0, () => {
      hashed += 1;
      return hash;
    });
    // Applied at once, at the batch's first seq, before anything after it.
    expect(state.lastCheckpointSeq).toBe(1);
    writer.emit("ClockAdvanced", { from: 0 as GameTime, to: 60 as GameTime, mode: "tick" });
    expect(hashed).toBe(0);
    hash = "after the tick";
    const events = writer.drain();
    expect(hashed).toBe(1);
    expect(events.map((e) => e.type)).toEqual(["Checkpoint", "ClockAdvanced"]);
    const [checkpoint] = events;
    expect(checkpoint).toMatchObject({
      id: "e1",
      t: 60,
      payload: { throughSeq: 0, stateHash: "after the tick" },
    });
    // A second drain has nothing left to complete.
    expect(writer.drain()).toEqual([]);
    expect(hashed).toBe(1);
  });
});
