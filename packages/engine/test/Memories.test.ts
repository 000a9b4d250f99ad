/**
 * Skipping a memory the next cap would drop on arrival (`rememberKept`) is invisible
 * after the cap: two worlds start from the same memories, one records every draft of a
 * batch (`remember`), the other skips those `droppedOnArrival`; caps fall at random
 * points of the batch (as a conversation's does) and at its end (as the tick's does).
 * After every cap each owner keeps the same memories in both worlds — compared by text,
 * since skipped drafts mint no id.
 */
import { type GameTime, ids, type MemoryCategory, type NpcId } from "@hearsay/core";
import { EngineState, NpcActors } from "@hearsay/engine";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultEngineConfig } from "../src/EngineConfig.ts";
import { capMemories, type MemoryDraft, remember, rememberKept } from "../src/Memories.ts";
import type { TickContext } from "../src/TickContext.ts";
import { TickWriter } from "../src/TickWriter.ts";

const owners = ["ana", "bo", "cy"].map(ids.npc);
const categories: ReadonlyArray<MemoryCategory> = ["identity", "scene", "observation", "world"];

interface World {
  readonly state: EngineState;
  readonly actors: NpcActors;
  writer: TickWriter;
  ctx: TickContext;
}

const worldOf = (cap: number): World => {
  const state = new EngineState();
  const actors = new NpcActors();
  const writer = new TickWriter(state, actors, 0 as GameTime, 0);
  for (const npcId of owners)
    writer.emit("NpcRegistered", {
      npcId,
      name: npcId,
      role: "villager",
      factionId: null,
      locationId: ids.location("green"),
      traits: [],
    });
  const world = { state, actors, writer } as World;
  world.ctx = contextOf(world, cap, 0);
  return world;
};

const contextOf = (w: World, cap: number, t: number): TickContext =>
  ({
    state: w.state,
    actors: w.actors,
    writer: w.writer,
    t: t as GameTime,
    config: { ...defaultEngineConfig, memoryCap: cap },
  }) as unknown as TickContext;

/** Starts a new batch (a tick) at `t`: the writer's events so far are appended. */
const nextBatch = (w: World, cap: number, t: number): void => {
  w.writer.drain();
  w.writer = new TickWriter(w.state, w.actors, t as GameTime, w.state.seq);
  w.ctx = contextOf(w, cap, t);
};

const draftArb = fc.record({
  owner: fc.constantFrom(...owners),
  category: fc.constantFrom(...categories),
  // Few distinct values, so ties between importances are common.
  importance: fc.integer({ min: -1, max: 11 }).map((n) => n / 10),
});

const stepArb = fc.oneof(
  { weight: 6, arbitrary: draftArb.map((draft) => ({ kind: "draft" as const, draft })) },
  { weight: 1, arbitrary: fc.constant({ kind: "cap" as const }) },
);

describe("memories dropped on arrival", () => {
  it("are skipped without changing what any cap keeps", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.array(draftArb, { maxLength: 14 }),
        fc.integer({ min: 0, max: 6 }),
        fc.array(fc.array(stepArb, { maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        (startCap, before, cap, batches) => {
          const all = worldOf(startCap);
          const some = worldOf(startCap);
          const texts = new Map<string, string>();
          let n = 0;
          const record = (
            w: World,
            d: { owner: NpcId; category: MemoryCategory; importance: number },
            skip: boolean,
          ) => {
            const text = `m${n}`;
            const draft: MemoryDraft = {
              text,
              category: d.category,
              importance: d.importance,
              lifetime: "permanent",
            };
            const id = skip ? rememberKept(w.ctx, d.owner, draft) : remember(w.ctx, d.owner, draft);
            if (id !== null) texts.set(`${w === all ? "all" : "some"}:${id}`, text);
          };
          // The memories already held, capped at a start cap that may be above the batches' own.
          for (const d of before) {
            record(all, d, false);
            record(some, d, false);
            n += 1;
          }
          for (const w of [all, some]) capMemories(w.ctx, owners);
          const survivors = (w: World, tag: string) =>
            Object.fromEntries(
              owners.map((o) => [
                o,
                [...w.actors.facts(o)!.memories.keys()]
                  .map((id) => texts.get(`${tag}:${id}`))
                  .sort(),
              ]),
            );
          for (const [b, steps] of batches.entries()) {
            for (const w of [all, some]) nextBatch(w, cap, (b + 1) * 60);
            for (const step of steps) {
              if (step.kind === "draft") {
                record(all, step.draft, false);
                record(some, step.draft, true);
                n += 1;
              } else {
                // A mid-batch cap of everyone (a conversation caps its participants).
                for (const w of [all, some]) capMemories(w.ctx, owners);
                expect(survivors(some, "some")).toEqual(survivors(all, "all"));
              }
            }
            // The batch's own cap: the owners that recorded in it.
            for (const w of [all, some])
              capMemories(w.ctx, w.writer.memoryOwners() as ReadonlyArray<NpcId>);
            expect(survivors(some, "some")).toEqual(survivors(all, "all"));
          }
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 20_000 : 800 },
    );
  });

  it("are the unimportant ones at the cap: identity and anything that outranks a held memory is kept", () => {
    const w = worldOf(2);
    const ana = owners[0]!;
    const draft = (
      text: string,
      importance: number,
      category: MemoryCategory = "scene",
    ): MemoryDraft => ({
      text,
      category,
      importance,
      lifetime: "permanent",
    });
    expect(rememberKept(w.ctx, ana, draft("a", 0.5))).not.toBeNull();
    expect(rememberKept(w.ctx, ana, draft("b", 0.6))).not.toBeNull();
    capMemories(w.ctx, owners);
    nextBatch(w, 2, 60);
    // At the cap: below everything held is skipped, a tie is not.
    expect(rememberKept(w.ctx, ana, draft("c", 0.4))).toBeNull();
    expect(rememberKept(w.ctx, ana, draft("d", 0.5))).not.toBeNull();
    expect(rememberKept(w.ctx, ana, draft("e", 0.1, "identity"))).not.toBeNull();
    expect(w.writer.memoryOwners()).toEqual([ana]);
  });
});
