/**
 * Level of detail for minds: which calls go to a model and which the scripted brain
 * answers, and in what order a model budget is spent. Each call gets a priority class —
 * from its purpose (configurable; the player's talk is `critical`, summaries `low`),
 * raised one step for a principal NPC and one for a significant moment (a scene of
 * many, a task due soon, a first meeting with the player), never above `high` — and a
 * reason naming what decided it. `scripted` never goes to a model.
 *
 * Pure: the same request under the same policy always gets the same class and reason,
 * and neither depends on what else is asked or on time.
 */
import { MINUTES_PER_HOUR } from "@hearsay/core";
import { Schema } from "effect";
import type { BrainRequest } from "../Brain.ts";
import type { PurposeName } from "../Purpose.ts";

/** Lowest first; `scripted` is below every model class. */
export const priorityClasses = ["scripted", "low", "normal", "high", "critical"] as const;
export const PriorityClass = Schema.Literals(priorityClasses);
export type PriorityClass = typeof PriorityClass.Type;

export const rankOf = (c: PriorityClass): number => priorityClasses.indexOf(c);

/** The class of each purpose when the config names none. */
export const defaultPurposeClasses: Readonly<Record<PurposeName, PriorityClass>> = {
  reply: "critical",
  extract_facts: "high",
  summarize_talk: "high",
  act: "normal",
  debate_turn: "normal",
  profile: "normal",
  revise_profile: "low",
  extract_memories: "low",
  summarize_scene: "low",
  summarize_debate: "low",
  consolidate_memories: "low",
};

export const PolicyConfig = Schema.Struct({
  /** A class per purpose, over the defaults (`scripted`: never the model). */
  purposes: Schema.Struct({
    act: Schema.optionalKey(PriorityClass),
    profile: Schema.optionalKey(PriorityClass),
    revise_profile: Schema.optionalKey(PriorityClass),
    extract_memories: Schema.optionalKey(PriorityClass),
    debate_turn: Schema.optionalKey(PriorityClass),
    summarize_debate: Schema.optionalKey(PriorityClass),
    reply: Schema.optionalKey(PriorityClass),
    extract_facts: Schema.optionalKey(PriorityClass),
    summarize_talk: Schema.optionalKey(PriorityClass),
    summarize_scene: Schema.optionalKey(PriorityClass),
    consolidate_memories: Schema.optionalKey(PriorityClass),
  } satisfies Record<PurposeName, unknown>),
  /** NPCs whose calls rank one class higher. */
  principalNpcs: Schema.Array(Schema.String.check(Schema.isMinLength(1))),
  /** A scene (or talk, or debate) of at least this many raises a call; null: never. */
  sceneSize: Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 2, maximum: 1000 }))),
  /** A task due within this many game hours raises the NPC's act call; null: never. */
  deadlineHours: Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 8760 }))),
  /** The first talk with the player (no summary of earlier ones) raises its reply. */
  firstMeeting: Schema.Boolean,
});
export type PolicyConfig = typeof PolicyConfig.Type;

export const defaultPolicy: PolicyConfig = {
  purposes: {},
  principalNpcs: [],
  sceneSize: 4,
  deadlineHours: 24,
  firstMeeting: true,
};

/** What the policy made of one call. */
export interface Route {
  readonly priority: PriorityClass;
  /** What decided it: the purpose's class, then each raise, then (if so) why it fell back. */
  readonly reason: string;
}

const raise = (c: PriorityClass): PriorityClass =>
  c === "low" ? "normal" : c === "normal" ? "high" : c;

/** The significant moment a request is, if any. */
const significance = (policy: PolicyConfig, request: BrainRequest): string | null => {
  const many = (n: number) => policy.sceneSize !== null && n >= policy.sceneSize;
  switch (request.purpose) {
    case "act": {
      const { input } = request;
      if (many(input.present.length + 1)) return `scene of ${input.present.length + 1}`;
      if (policy.deadlineHours !== null) {
        const within = policy.deadlineHours * MINUTES_PER_HOUR;
        const due = input.tasks.find(
          (t) =>
            (t.status === "active" || t.status === "proposed") &&
            t.deadline !== null &&
            t.deadline >= request.t &&
            t.deadline - request.t <= within,
        );
        if (due !== undefined) return `task due within ${policy.deadlineHours} h`;
      }
      return null;
    }
    case "summarize_scene":
      return many(request.input.company.length + 1)
        ? `scene of ${request.input.company.length + 1}`
        : null;
    case "extract_memories":
    case "debate_turn":
    case "summarize_debate":
      return many(request.input.participants.length)
        ? `scene of ${request.input.participants.length}`
        : null;
    case "reply":
      return policy.firstMeeting && request.input.summary === null ? "first meeting" : null;
    default:
      return null;
  }
};

/** The class of one call, and why. */
export const routeOf = (policy: PolicyConfig, request: BrainRequest): Route => {
  const base = policy.purposes[request.purpose] ?? defaultPurposeClasses[request.purpose];
  const reasons = [`${request.purpose} is ${base}`];
  let priority = base;
  if (priority === "scripted" || priority === "critical") return { priority, reason: reasons[0]! };
  if (request.npcId !== null && policy.principalNpcs.includes(request.npcId)) {
    priority = raise(priority);
    reasons.push("principal NPC");
  }
  const moment = significance(policy, request);
  if (moment !== null) {
    priority = raise(priority);
    reasons.push(moment);
  }
  return { priority, reason: reasons.join(", ") };
};
