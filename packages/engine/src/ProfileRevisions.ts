/**
 * Profiles that change. An NPC's facts keep what happened to it since its profile last
 * changed (`NpcFacts.sinceProfile`: tasks seen through, promises broken, feuds, memories
 * recorded). Each event weighs what `profileWeights` says; when the weights add up to
 * `profileThreshold`, or a long busy stretch has passed, the NPC's next decision revises
 * the profile from the profile as it stands and what made it due, and the fields that
 * changed go into a `ProfileRevised` event. The event resets the record, so what counted
 * once revises once. A run that carries `revise_profile` (`SimulationStarted.carried`, all
 * new runs) asks it in the NPC's own `act` call (its input's `revise`, its answer's
 * `revision`); a run recorded before asks a `revise_profile` call of its own first, with
 * a dossier searched for what made it due.
 */
import { eventTriggers, type NpcFacts, type SinceProfile } from "@hearsay/actors";
import {
  type GameTime,
  MINUTES_PER_DAY,
  MINUTES_PER_HOUR,
  type NpcId,
  type ProfileTrigger,
  profileChanges,
  reviseProfile,
} from "@hearsay/core";
import type { BrainRequest, ReviseProfileOutput } from "@hearsay/mind";
import type { EngineConfig, ProfileEventTrigger } from "./EngineConfig.ts";
import { reviseInputOf, revisionQuery, sceneOf } from "./Glimpses.ts";
import type { TickContext } from "./TickContext.ts";
import { sealDossiers, TurnDossier } from "./TurnDossier.ts";

type RevisionConfig = Pick<
  EngineConfig,
  | "profileTriggers"
  | "profileWeights"
  | "profileThreshold"
  | "profileBusyDays"
  | "profileBusyMemories"
  | "profileMinHours"
>;

/** How many events of a kind `since` records. */
const countOf = (since: SinceProfile, kind: ProfileEventTrigger): number =>
  kind === "task_completed"
    ? since.completed.length
    : kind === "promise_broken"
      ? since.broken.length
      : since.feuds.length;

/** What the enabled events since the last change weigh together. */
export const significanceOf = (
  since: SinceProfile,
  config: Pick<RevisionConfig, "profileTriggers" | "profileWeights">,
): number =>
  config.profileTriggers.reduce(
    (sum, kind) => sum + countOf(since, kind) * config.profileWeights[kind],
    0,
  );

/**
 * What makes `facts`' profile due for revision at `t` under `config` — the enabled kinds
 * of event it holds, when they weigh enough, and a busy stretch — or null when nothing does.
 */
export const revisionDue = (
  facts: NpcFacts,
  t: GameTime,
  config: RevisionConfig,
): Array<ProfileTrigger> | null => {
  const since = facts.sinceProfile;
  if (facts.profile === null || since.at === null) return null;
  const elapsed = t - since.at;
  if (elapsed < config.profileMinHours * MINUTES_PER_HOUR) return null;
  const triggers =
    significanceOf(since, config) >= config.profileThreshold
      ? eventTriggers(since).filter((x) =>
          (config.profileTriggers as ReadonlyArray<string>).includes(x),
        )
      : [];
  if (
    config.profileBusyDays > 0 &&
    elapsed >= config.profileBusyDays * MINUTES_PER_DAY &&
    since.memories >= config.profileBusyMemories
  )
    triggers.push("heavy_activity");
  return triggers.length === 0 ? null : triggers;
};

/** An NPC whose profile is due now, and why. */
export interface DueRevision {
  readonly facts: NpcFacts;
  readonly triggers: ReadonlyArray<ProfileTrigger>;
}

/** Those among `ids` (deciding now) whose profiles are due, in their order. */
export const dueRevisions = (ctx: TickContext, ids: ReadonlyArray<NpcId>): Array<DueRevision> => {
  const due: Array<DueRevision> = [];
  for (const id of ids) {
    const facts = ctx.actors.facts(id);
    const triggers = facts === undefined ? null : revisionDue(facts, ctx.t, ctx.config);
    if (facts !== undefined && triggers !== null) due.push({ facts, triggers });
  }
  return due;
};

/**
 * Records a brain's revision of `due`'s profile. Only what really differs is recorded,
 * whatever the brain sent back; a revision that changes nothing is still recorded, so
 * what made it due is settled.
 */
export const recordRevision = (
  ctx: TickContext,
  { facts, triggers }: DueRevision,
  { changes, reason }: ReviseProfileOutput,
): void => {
  const current = facts.profile!;
  ctx.writer.emit("ProfileRevised", {
    npcId: facts.npcId,
    changes: profileChanges(current, reviseProfile(current, changes)),
    triggers: [...triggers],
    reason: reason.slice(0, 300),
  });
};

/**
 * Revises, each in a `revise_profile` call of its own, the profiles of those among `ids`
 * (deciding now) that are due: runs that do not carry the purpose in the `act` answer.
 */
export const reviseProfiles = async (
  ctx: TickContext,
  ids: ReadonlyArray<NpcId>,
): Promise<void> => {
  const due = dueRevisions(ctx, ids);
  if (due.length === 0) return;
  const requests = due.map(
    ({ facts, triggers }): BrainRequest<"revise_profile"> => ({
      purpose: "revise_profile",
      npcId: facts.npcId,
      t: ctx.t,
      seed: ctx.seed,
      input: reviseInputOf(ctx, facts, triggers, ctx.t),
      dossier: new TurnDossier(ctx.dossiers, {
        npcId: facts.npcId,
        t: ctx.t,
        query: revisionQuery(ctx, facts),
        scene: sceneOf(ctx, facts.npcId),
      }),
    }),
  );
  const outcomes = await ctx.brain.decideAll(requests, ctx.writer);
  sealDossiers(requests);
  for (const [i, one] of due.entries()) {
    const outcome = outcomes[i]!;
    if (outcome.ok) recordRevision(ctx, one, outcome.answer.output);
    else
      ctx.writer.emit("SimulationWarning", {
        code: "profile_revision_failed",
        message: outcome.error.message.slice(0, 2000),
        npcId: one.facts.npcId,
      });
  }
};
