/**
 * Level of detail for minds: which calls go to a model and which the scripted brain
 * answers, and in what order a model budget is spent. Each call gets a priority class —
 * from its purpose (configurable; the player's talk is `critical`, summaries `low`),
 * raised one step for a principal NPC, one for an NPC near the player or the camera
 * (within `nearHops` travel hops; the engine says who is near, per tick) and one for a
 * significant moment (a scene of many, a task due soon, a first meeting with the
 * player), never above `high` — and a reason naming what decided it. `scripted` never
 * goes to a model.
 *
 * Pure: the same request under the same policy and the same nearness always gets the
 * same class and reason, and neither depends on what else is asked or on time.
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
  summarize_shared_scene: "low",
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
    summarize_shared_scene: Schema.optionalKey(PriorityClass),
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
  /** An NPC within this many travel hops of the player or the camera is raised; null: never. */
  nearHops: Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 50 }))),
  /**
   * Who reads a speaker's memories of a talk in which it said one line (`scripted`: the
   * rules of the scripted brain, unless the NPC is principal or near): its own line it
   * chose itself, so only the answer it got is new to it.
   */
  speakerMemories: Schema.Literals(["model", "scripted"]),
  /**
   * Who reads a listener's memories of a talk when its own answer in the talk gave none
   * (`scripted`: the rules, unless raised): the model has read that talk for it in its
   * answer, and reads it again in its scene summary.
   */
  listenerMemories: Schema.Literals(["model", "scripted"]),
  /**
   * Who summarises a witness's view of a scene that is one line and no debate
   * (`scripted`: the rules, unless raised): its speaker wrote the line and said what it
   * keeps of it, its listener's answer read it; a summary of one line is that line. The
   * happenings a view holds are ones the witness already knows of (that is why they are
   * in it), so they add nothing new for a model to read.
   */
  oneLineScenes: Schema.Literals(["model", "scripted"]),
  /**
   * Who summarises a witness's view of a scene that is two lines and no debate
   * (`scripted`: the rules, unless raised): a line and its answer. A talker wrote one of
   * them and its answer read the other (a speaker's memories of the answer come from the
   * rules too); the summary of a line and its answer is those two lines.
   */
  twoLineScenes: Schema.Literals(["model", "scripted"]),
  /**
   * Who summarises a witness's view of a longer scene, no debate, in which it heard at
   * most two lines from others (`scripted`: the rules, unless raised; for a shared
   * summary, each of its witnesses heard at most two): the rules quote every line it
   * heard, and the lines it said it wrote itself and kept in its own answers' memories.
   */
  fewHeardScenes: Schema.Literals(["model", "scripted"]),
  /**
   * Who summarises a witness's view of a scene that holds debates, in which it heard at
   * most two lines from others (`scripted`: the rules, unless raised; for a shared summary,
   * each of its witnesses): a view holds only debates its witness took part in, and each
   * participant already keeps a memory of the debate's summary and outcome; the rules
   * quote those and every line heard.
   */
  debateScenes: Schema.Literals(["model", "scripted"]),
});
export type PolicyConfig = typeof PolicyConfig.Type;

export const defaultPolicy: PolicyConfig = {
  purposes: {},
  principalNpcs: [],
  sceneSize: 4,
  deadlineHours: 24,
  firstMeeting: true,
  nearHops: 1,
  speakerMemories: "scripted",
  listenerMemories: "scripted",
  oneLineScenes: "scripted",
  twoLineScenes: "scripted",
  fewHeardScenes: "scripted",
  debateScenes: "scripted",
};

/** The NPCs near the player or the camera, each with why ("near the camera at Market"). */
export type Nearness = ReadonlyMap<string, string>;

export const nobodyNear: Nearness = new Map();

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
    case "summarize_shared_scene":
      return many(request.input.present.length) ? `scene of ${request.input.present.length}` : null;
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

const baseOf = (policy: PolicyConfig, purpose: PurposeName): PriorityClass =>
  policy.purposes[purpose] ?? defaultPurposeClasses[purpose];

/** The NPCs a call speaks for: its NPC, or the witnesses of a shared scene summary. */
const npcsOf = (request: BrainRequest): ReadonlyArray<string> =>
  request.purpose === "summarize_shared_scene"
    ? request.input.witnesses.map((w) => w.id)
    : request.npcId === null
      ? []
      : [request.npcId];

/**
 * Why `request` goes to the rules under `policy` when nothing raised it: a talk's or a
 * scene's text the model has already read for the same NPC — or null.
 */
const restated = (policy: PolicyConfig, request: BrainRequest): string | null => {
  switch (request.purpose) {
    case "extract_memories": {
      const [speaker, listener] = request.input.participants;
      const said = request.input.turns.filter((l) => l.speakerId === request.npcId).length;
      if (policy.speakerMemories === "scripted" && speaker?.id === request.npcId && said === 1)
        return "speaker said one line";
      if (policy.listenerMemories === "scripted" && listener?.id === request.npcId)
        return "listener of the talk";
      return null;
    }
    case "summarize_scene":
    case "summarize_shared_scene": {
      const { lines, debates } = request.input;
      const witnesses =
        request.purpose === "summarize_shared_scene"
          ? request.input.witnesses.map((w) => w.id as string)
          : [request.input.self.id as string];
      const heard = (id: string) => lines.filter((l) => l.speakerId !== id).length;
      if (debates.length > 0)
        return policy.debateScenes === "scripted" && witnesses.every((id) => heard(id) <= 2)
          ? "debates taken part in, two lines heard or fewer"
          : null;
      if (policy.oneLineScenes === "scripted" && lines.length === 1) return "scene of one line";
      if (policy.twoLineScenes === "scripted" && lines.length === 2) return "scene of two lines";
      if (policy.fewHeardScenes === "scripted" && witnesses.every((id) => heard(id) <= 2))
        return "two lines heard or fewer";
      return null;
    }
    default:
      return null;
  }
};

/** The class of one call, and why (`near`: who is near the player or the camera now). */
export const routeOf = (
  policy: PolicyConfig,
  request: BrainRequest,
  near: Nearness = nobodyNear,
): Route => {
  const base = baseOf(policy, request.purpose);
  const reasons = [`${request.purpose} is ${base}`];
  let priority = base;
  if (priority === "scripted" || priority === "critical") return { priority, reason: reasons[0]! };
  if (npcsOf(request).some((id) => policy.principalNpcs.includes(id))) {
    priority = raise(priority);
    reasons.push("principal NPC");
  }
  const why =
    policy.nearHops === null
      ? undefined
      : npcsOf(request)
          .map((id) => near.get(id))
          .find((reason) => reason !== undefined);
  if (why !== undefined) {
    priority = raise(priority);
    reasons.push(why);
  }
  const moment = significance(policy, request);
  if (moment !== null) {
    priority = raise(priority);
    reasons.push(moment);
  }
  // Only when nothing raised it; and it only lowers a call, so `ceilingOf` stays a bound.
  const rule = reasons.length === 1 ? restated(policy, request) : null;
  if (rule !== null) return { priority: "scripted", reason: `${reasons[0]!}, ${rule}: by rule` };
  return { priority, reason: reasons.join(", ") };
};

/** Purposes whose calls a significant moment can raise, under this policy. */
const canBeSignificant = (policy: PolicyConfig, purpose: PurposeName): boolean => {
  switch (purpose) {
    case "act":
      return policy.sceneSize !== null || policy.deadlineHours !== null;
    case "summarize_scene":
    case "summarize_shared_scene":
    case "extract_memories":
    case "debate_turn":
    case "summarize_debate":
      return policy.sceneSize !== null;
    case "reply":
      return policy.firstMeeting;
    default:
      return false;
  }
};

/**
 * The highest class a call of `purpose` for `npcId` could get under this policy and this
 * nearness, whatever its input (`npcId` null: any NPC, or none). A tick's forecast counts
 * its calls at this class, so the forecast is never below what is asked.
 */
export const ceilingOf = (
  policy: PolicyConfig,
  purpose: PurposeName,
  npcId: string | null,
  near: Nearness = nobodyNear,
): PriorityClass => {
  let priority = baseOf(policy, purpose);
  if (priority === "scripted" || priority === "critical") return priority;
  // A shared scene summary speaks for all its witnesses: any of them may raise it.
  if (purpose === "summarize_shared_scene") npcId = null;
  if (npcId === null ? policy.principalNpcs.length > 0 : policy.principalNpcs.includes(npcId))
    priority = raise(priority);
  if (policy.nearHops !== null && (npcId === null ? near.size > 0 : near.has(npcId)))
    priority = raise(priority);
  if (canBeSignificant(policy, purpose)) priority = raise(priority);
  return priority;
};
