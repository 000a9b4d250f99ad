/**
 * An NPC whose last cap answer still holds is not asked again (`NpcActors.capped`): the
 * answer it would give is none. Whatever happens between caps — memories recorded,
 * reinforced (even one that had faded away), expired, time passing, the cap changing, a
 * cap's drops written or not, a cap asked as of an earlier time — `capped` must answer what the pure rule (`cappedOut`) answers
 * on the NPC's facts at that time.
 */
import { cappedOut, defaultMemoryDecay, type MemoryDecay } from "@hearsay/actors";
import { type GameTime, ids, type MemoryCategory, type MemoryId } from "@hearsay/core";
import { EngineState, NpcActors } from "@hearsay/engine";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TickWriter } from "../src/TickWriter.ts";

const owner = ids.npc("ana");
const categories: ReadonlyArray<MemoryCategory> = ["identity", "scene", "observation", "world"];

/** Half-lives of hours, not days: memories fade away (and are revived) within a few steps. */
const fast: MemoryDecay = {
  ...defaultMemoryDecay,
  halfLifeDays: Object.fromEntries(
    Object.entries(defaultMemoryDecay.halfLifeDays).map(([c, d]) => [
      c,
      d === null ? null : d / 50,
    ]),
  ) as unknown as MemoryDecay["halfLifeDays"],
};

const stepArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("record" as const),
      category: fc.constantFrom(...categories),
      importance: fc.integer({ min: 0, max: 10 }).map((n) => n / 10),
      lifetimeHours: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("reinforce" as const),
      pick: fc.nat(),
      importance: fc.integer({ min: 0, max: 10 }).map((n) => n / 10),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("expire" as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("later" as const),
      minutes: fc.integer({ min: 0, max: 6 * 60 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("cap" as const),
      // Mostly the run's cap; now and then another.
      other: fc.integer({ min: 0, max: 9 }).map((n) => (n === 0 ? 1 : n === 1 ? -1 : 0)),
      written: fc.integer({ min: 0, max: 9 }).map((n) => n > 0),
      // Asked as of a time before now, at times (the clock never goes back; the rule must hold anyway).
      back: fc.integer({ min: 0, max: 19 }).map((n) => (n === 0 ? 6 * 60 : 0)),
    }),
  },
);

describe("a cap answer held", () => {
  it("property: capped answers what cappedOut answers on the facts, every time", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.array(stepArb, { minLength: 10, maxLength: 60, size: "max" }),
        (cap, steps) => {
          const state = new EngineState();
          const actors = new NpcActors(fast);
          let t = 0;
          let writer = new TickWriter(state, actors, t as GameTime, 0);
          writer.emit("NpcRegistered", {
            npcId: owner,
            name: "Ana",
            role: "villager",
            factionId: null,
            locationId: ids.location("green"),
            traits: [],
          });
          const held = (): ReadonlyArray<MemoryId> => [...actors.facts(owner)!.memories.keys()];
          let n = 0;
          for (const step of steps) {
            if (step.kind === "record") {
              writer.emit("MemoryRecorded", {
                memoryId: `m${n++}` as MemoryId,
                ownerNpcId: owner,
                text: "x",
                category: step.category,
                importance: step.importance,
                expiresAt:
                  step.lifetimeHours === null ? null : ((t + step.lifetimeHours * 60) as GameTime),
                locationId: null,
                entities: [],
                about: null,
              });
            } else if (step.kind === "reinforce" || step.kind === "expire") {
              const ids = held();
              if (ids.length === 0) continue;
              const memoryId = ids[step.pick % ids.length]!;
              if (step.kind === "expire")
                writer.emit("MemoryExpired", { memoryId, ownerNpcId: owner, reason: "forgotten" });
              else
                writer.emit("MemoryReinforced", {
                  ownerNpcId: owner,
                  memories: [{ memoryId, importance: step.importance }],
                });
            } else if (step.kind === "later") {
              t += step.minutes;
              writer.drain();
              writer = new TickWriter(state, actors, t as GameTime, state.seq);
            } else {
              const memories = actors.facts(owner)!.memories;
              const at = Math.max(0, t - step.back) as GameTime;
              const asked = Math.max(0, cap + step.other);
              const want = cappedOut(memories, asked, { t: at, decay: actors.decay });
              const got = actors.capped(owner, at, asked);
              expect(got).toEqual(want);
              if (step.written)
                for (const memoryId of got)
                  writer.emit("MemoryExpired", { memoryId, ownerNpcId: owner, reason: "capped" });
            }
          }
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 20_000 : 1_000 },
    );
  });
});
