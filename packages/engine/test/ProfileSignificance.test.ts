/**
 * When a profile is due for revision: only when what happened since its last change
 * weighs enough (or a long busy stretch passed), never before the least gap, and what
 * counts is only the kinds of event the config enables. Pure, so checked on any record.
 */
import { emptyNpcFacts, type NpcFacts, type SinceProfile } from "@hearsay/actors";
import { type GameTime, ids, MINUTES_PER_HOUR } from "@hearsay/core";
import {
  defaultEngineConfig,
  type EngineConfig,
  revisionDue,
  significanceOf,
} from "@hearsay/engine";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

type Kind = "task_completed" | "promise_broken" | "feud";
const kinds: ReadonlyArray<Kind> = ["task_completed", "promise_broken", "feud"];

const facts = (since: SinceProfile): NpcFacts => ({
  ...emptyNpcFacts(ids.npc("ada")),
  profile: {
    backstory: "b",
    personality: "p",
    speechStyle: "s",
    goals: [],
    fears: [],
    loyalties: [],
    relationshipSeed: "r",
  },
  sinceProfile: since,
});

/** A record as the NPC's facts keep it: at most four of each kind, newest last. */
const since = fc.record({
  at: fc.constant(0 as GameTime),
  completed: fc.array(fc.constantFrom("Mend", "Haul", "Watch"), { maxLength: 4 }),
  broken: fc.array(fc.constantFrom("Ferry", "Fence"), { maxLength: 4 }),
  feuds: fc.array(
    fc.constantFrom("bo", "cy").map((x) => ids.npc(x)),
    { maxLength: 4 },
  ),
  memories: fc.nat({ max: 80 }),
});

type Config = Pick<
  EngineConfig,
  | "profileTriggers"
  | "profileWeights"
  | "profileThreshold"
  | "profileBusyDays"
  | "profileBusyMemories"
  | "profileMinHours"
>;

const config: fc.Arbitrary<Config> = fc.record({
  profileTriggers: fc.subarray([...kinds]),
  profileWeights: fc.record({
    task_completed: fc.nat({ max: 5 }),
    promise_broken: fc.nat({ max: 5 }),
    feud: fc.nat({ max: 5 }),
  }),
  profileThreshold: fc.integer({ min: 1, max: 12 }),
  profileBusyDays: fc.nat({ max: 12 }),
  profileBusyMemories: fc.nat({ max: 60 }),
  profileMinHours: fc.nat({ max: 72 }),
});

/** Minutes from the last change: up to 15 days. */
const elapsed = fc.nat({ max: 15 * 24 * 60 }).map((m) => m as GameTime);

const busy = (s: SinceProfile, c: Config, t: number): boolean =>
  c.profileBusyDays > 0 && t >= c.profileBusyDays * 24 * 60 && s.memories >= c.profileBusyMemories;

describe("profile revision significance", () => {
  it("is due exactly when the enabled events weigh enough or a busy stretch passed, after the least gap", () => {
    fc.assert(
      fc.property(since, config, elapsed, (s, c, t) => {
        const due = revisionDue(facts(s), t, c);
        const weighs = significanceOf(s, c) >= c.profileThreshold;
        const expected = t >= c.profileMinHours * MINUTES_PER_HOUR && (weighs || busy(s, c, t));
        // Weighing enough with nothing enabled present cannot happen (threshold ≥ 1).
        expect(due !== null).toBe(expected);
        if (due === null) return;
        // It names the enabled kinds present when they weigh enough, and a busy stretch.
        const present = kinds.filter(
          (k) =>
            c.profileTriggers.includes(k) &&
            (k === "task_completed" ? s.completed : k === "promise_broken" ? s.broken : s.feuds)
              .length > 0,
        );
        expect(due).toEqual([
          ...(weighs ? present : []),
          ...(busy(s, c, t) ? ["heavy_activity"] : []),
        ]);
      }),
    );
  });

  it("never becomes not due as more happens: one more event of any kind only adds weight", () => {
    fc.assert(
      fc.property(since, config, elapsed, fc.constantFrom(...kinds), (s, c, t, kind) => {
        const more: SinceProfile =
          kind === "task_completed"
            ? { ...s, completed: [...s.completed, "More"].slice(-4) }
            : kind === "promise_broken"
              ? { ...s, broken: [...s.broken, "More"].slice(-4) }
              : { ...s, feuds: [...s.feuds, ids.npc("dee")].slice(-4) };
        expect(significanceOf(more, c)).toBeGreaterThanOrEqual(significanceOf(s, c));
        if (revisionDue(facts(s), t, c) !== null)
          expect(revisionDue(facts(more), t, c)).not.toBeNull();
      }),
    );
  });

  it("a kind the config does not enable weighs nothing", () => {
    fc.assert(
      fc.property(since, config, fc.constantFrom(...kinds), (s, c, kind) => {
        const without = { ...c, profileTriggers: c.profileTriggers.filter((k) => k !== kind) };
        const cleared: SinceProfile =
          kind === "task_completed"
            ? { ...s, completed: [] }
            : kind === "promise_broken"
              ? { ...s, broken: [] }
              : { ...s, feuds: [] };
        expect(significanceOf(s, without)).toBe(significanceOf(cleared, without));
      }),
    );
  });

  it("by default a feud is enough, and so is a pattern of broken promises; work alone is not", () => {
    const day = (24 * 60) as GameTime;
    const empty: SinceProfile = {
      at: 0 as GameTime,
      completed: [],
      broken: [],
      feuds: [],
      memories: 5,
    };
    const at = (s: Partial<SinceProfile>) =>
      revisionDue(facts({ ...empty, ...s }), day, defaultEngineConfig);
    expect(at({ completed: ["Mend"] })).toBeNull();
    expect(at({ completed: ["Mend", "Haul", "Watch", "Sweep"] })).toBeNull();
    expect(at({ completed: ["Mend"], broken: ["Ferry", "Fence"] })).toBeNull();
    expect(at({ feuds: [ids.npc("bo")] })).toEqual(["feud"]);
    expect(at({ broken: ["Ferry", "Fence", "Gate"] })).toEqual(["promise_broken"]);
    expect(at({ completed: ["Mend", "Haul"], broken: ["Ferry", "Fence"] })).toEqual([
      "task_completed",
      "promise_broken",
    ]);
  });
});
