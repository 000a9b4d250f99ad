/**
 * NPC turns. Only NPCs whose wake-up came due are touched (never a bare tick to all):
 * each gets a WAKE with what it needs for gating (its company, a seeded roll, and whom it
 * sees, for a planned step); one with a step of its agenda left takes it without a call.
 * Those that ask to decide get, in one batch, a dossier and an `act` call, whose answer
 * may plan the next steps, gives a first-meeting profile if the NPC has none, and revises
 * its profile when what happened to it calls for it (ProfileRevisions.ts); answers are
 * applied in id order. A run recorded before those were carried (`SimulationStarted.
 * carried`) asks `profile` and `revise_profile` calls of their own first. A
 * line spoken carries the memories its answer gave of saying it, for the talk to keep if
 * nobody answers (Conversations.ts). A failed call is a recorded warning and the NPC
 * falls back to its routine.
 */
import { type NpcId, Prng, type WorldEventId } from "@hearsay/core";
import {
  type ActInput,
  type BrainRequest,
  type ProfileDue,
  type ProfileNeed,
  validateAnswer,
} from "@hearsay/mind";
import { Result } from "effect";
import {
  actInputOf,
  awakeAt,
  companyCount,
  companyOf,
  profileInputOf,
  profileQuery,
  reviseInputOf,
  sceneOf,
} from "./Glimpses.ts";
import {
  type DueRevision,
  dueRevisions,
  recordRevision,
  reviseProfiles,
} from "./ProfileRevisions.ts";
import { type Reactions, react } from "./Reactions.ts";
import type { TickContext } from "./TickContext.ts";
import { sealDossiers, TurnDossier } from "./TurnDossier.ts";
import { turnQuery } from "./turnQuery.ts";

/** Wakes every NPC the clock says is due now; returns who asked to decide and who spoke. */
export const wakeDue = (ctx: TickContext, due: ReadonlyArray<NpcId>, into: Reactions): void => {
  // The world's events as the engine can describe them: the same for every NPC it wakes.
  const happening = (event: string) => ctx.state.worldEvents.get(event as WorldEventId) ?? null;
  for (const id of due) {
    const npc = ctx.state.npcs.get(id);
    if (!npc) continue;
    // Where it is once this wake-up ends a journey: whom it sees is who is there, awake.
    const here =
      npc.activity === "travelling" ? (npc.destination ?? npc.locationId) : npc.locationId;
    const emitted = ctx.actors.send(id, {
      type: "WAKE",
      t: ctx.t,
      company: companyCount(ctx, id, npc.locationId),
      roll: Prng.derive(ctx.seed, "wake", ctx.t, id).float(),
      sees: (other) => other !== id && awakeAt(ctx, other, here),
      happening,
    });
    react(ctx, id, emitted, into);
  }
};

/**
 * Generates first-meeting profiles for those who have none yet (once per NPC per save),
 * each from the NPC's dossier: the lore and events it knows that bear on who it is.
 */
export const ensureProfiles = async (
  ctx: TickContext,
  ids: ReadonlyArray<NpcId>,
): Promise<void> => {
  const missing = ids.filter((id) => (ctx.actors.facts(id)?.profile ?? null) === null);
  const requests = missing.map(
    (id): BrainRequest<"profile"> => ({
      purpose: "profile",
      npcId: id,
      t: ctx.t,
      seed: ctx.seed,
      dossier: new TurnDossier(ctx.dossiers, {
        npcId: id,
        t: ctx.t,
        query: profileQuery(ctx, id),
        scene: sceneOf(ctx, id),
      }),
      input: profileInputOf(ctx, id),
    }),
  );
  if (requests.length === 0) return;
  const outcomes = await ctx.brain.decideAll(requests, ctx.writer);
  sealDossiers(requests);
  for (const [i, id] of missing.entries()) {
    const outcome = outcomes[i]!;
    if (outcome.ok) {
      ctx.writer.emit("ProfileGenerated", { npcId: id, profile: outcome.answer.output });
    } else {
      warn(ctx, id, "profile_failed", outcome.error.message);
    }
  }
};

/** Asks every NPC that wants to decide, then applies the answers in id order. */
export const decide = async (
  ctx: TickContext,
  ids: ReadonlyArray<NpcId>,
  into: Reactions,
): Promise<void> => {
  const order = [...new Set(ids)].sort();
  if (order.length === 0) return;
  // A run that carries first profiles and revisions asks each in the NPC's `act` call,
  // below; one recorded before asks them in calls of their own first.
  const firsts = ctx.state.carried.has("profile");
  if (!firsts) await ensureProfiles(ctx, order);
  const carried = ctx.state.carried.has("revise_profile");
  if (!carried) await reviseProfiles(ctx, order);
  const due = new Map(
    carried ? dueRevisions(ctx, order).map((d) => [d.facts.npcId, d] as const) : [],
  );
  const needs = new Set(
    firsts ? order.filter((id) => (ctx.actors.facts(id)?.profile ?? null) === null) : [],
  );
  const requests = order.map((id): BrainRequest<"act"> => {
    const npc = ctx.state.npcs.get(id)!;
    const present = companyOf(ctx, id, npc.locationId);
    const locationId = npc.locationId;
    const revision = due.get(id);
    const act = actInputOf(ctx, id, present);
    // Most turns carry neither a first profile nor a revision: their input is `act` itself.
    const input: ActInput =
      !needs.has(id) && revision === undefined
        ? act
        : {
            ...act,
            ...(needs.has(id) ? { firstProfile: profileNeedOf(ctx, id) } : {}),
            ...(revision === undefined ? {} : { revise: profileDueOf(ctx, revision) }),
          };
    // Taken now, before this tick's answers change the state the query is built from.
    const query = turnQuery(ctx, id, input);
    return {
      purpose: "act",
      npcId: id,
      t: ctx.t,
      seed: ctx.seed,
      input,
      dossier: new TurnDossier(ctx.dossiers, {
        npcId: id,
        t: ctx.t,
        query,
        scene: { locationId, present },
        npcTurn: true,
      }),
    };
  });
  const outcomes = await ctx.brain.decideAll(requests, ctx.writer);
  sealDossiers(requests);
  for (const [i, id] of order.entries()) {
    const outcome = outcomes[i]!;
    const request = requests[i]!;
    const checked = outcome.ok ? validateAnswer("act", request.input, outcome.answer.output) : null;
    if (outcome.ok && checked !== null && Result.isSuccess(checked)) {
      const action = outcome.answer.output;
      const revision = due.get(id);
      // An answer that leaves the profile or the revision out leaves it to be asked again
      // at the NPC's next turn of its own.
      if (needs.has(id) && action.profile !== undefined)
        ctx.writer.emit("ProfileGenerated", { npcId: id, profile: action.profile });
      if (revision !== undefined && action.revision !== undefined)
        recordRevision(ctx, revision, action.revision);
      react(ctx, id, ctx.actors.send(id, { type: "DECIDED", t: ctx.t, action }), into);
    } else {
      const why = !outcome.ok
        ? outcome.error.message
        : checked !== null && Result.isFailure(checked)
          ? checked.failure.message
          : "no answer";
      warn(ctx, id, "decision_failed", why);
      react(ctx, id, ctx.actors.send(id, { type: "DECLINED", t: ctx.t }), into);
    }
  }
};

/** What a first profile's `act` call is given: `profile`'s input but `self`. */
const profileNeedOf = (ctx: TickContext, id: NpcId): ProfileNeed => {
  const { self: _self, ...need } = profileInputOf(ctx, id);
  return need;
};

/** What a due revision's `act` call is given: `revise_profile`'s input but `self`. */
const profileDueOf = (ctx: TickContext, { facts, triggers }: DueRevision): ProfileDue => {
  const { self: _self, ...due } = reviseInputOf(ctx, facts, triggers, ctx.t);
  return due;
};

export const warn = (
  ctx: TickContext,
  npcId: NpcId | null,
  code: string,
  message: string,
): void => {
  ctx.writer.emit("SimulationWarning", { code, message: message.slice(0, 2000), npcId });
};
