/**
 * The scripted `act` rules. An NPC sleeps at night (at home if it can get there), works
 * by day (on its most urgent task where the task is, or at its workplace), spends the
 * evening where people gather — its faction's hall, a tavern, the market — and talks to
 * the people present it likes, now and then proposing a task. By day it may first give
 * up, withdraw or ask more time for a task (`taskTermsByRule`). Every choice is drawn
 * from a seeded stream and names only ids the input offers.
 */
import { type DossierReader, type GameTime, hourOf, type Prng } from "@hearsay/core";
import type { ActInput, ActOutput, OwnTask, Place } from "../purposes/ActPurpose.ts";
import type { NpcGlimpse } from "../purposes/Fields.ts";
import { composeLine } from "./composeLine.ts";
import { proposeTask } from "./proposeTask.ts";
import { taskTermsByRule } from "./taskTermsByRule.ts";
import { fill, type Voice } from "./Voice.ts";

const SOCIAL_TAGS = ["tavern", "inn", "market", "square", "hall", "plaza", "temple", "social"];
const NIGHT_START = 22;
const MORNING = 6;
const WORK_START = 8;
const WORK_END = 17;

/** Knobs for how busy the scripted world is; the defaults make a lively town. */
export interface ActTuning {
  readonly talkChance: number;
  readonly proposeChance: number;
  readonly eveningOutChance: number;
  /** Whether NPCs give up, withdraw or ask more time for tasks (`taskTermsByRule`). */
  readonly renegotiate: boolean;
  /** How many steps an answer plans beyond its action (`actByRule`); 0: none. */
  readonly agendaSteps: number;
}

export const defaultActTuning: ActTuning = {
  talkChance: 0.3,
  proposeChance: 0.04,
  eveningOutChance: 0.6,
  renegotiate: true,
  agendaSteps: 3,
};

const restHours = (hour: number): number => {
  const until = (MORNING - hour + 24) % 24;
  return Math.min(12, Math.max(1, until));
};

/** Its own active task that is due first (then by id), if any. */
const mostUrgent = (tasks: ReadonlyArray<OwnTask>, self: string): OwnTask | undefined =>
  tasks
    .filter(
      (task) => task.assignee === self && (task.status === "active" || task.status === "proposed"),
    )
    .sort(
      (a, b) =>
        (a.deadline ?? Number.MAX_SAFE_INTEGER) - (b.deadline ?? Number.MAX_SAFE_INTEGER) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )[0];

/** A partner chosen by regard: friends often, strangers sometimes, enemies rarely. */
const pickPartner = (prng: Prng, input: ActInput): NpcGlimpse | undefined => {
  if (input.present.length === 0) return undefined;
  const weights = input.present.map((p) => {
    const base = Math.max(0.05, p.regard + 1) ** 2;
    const kin = p.factionId !== null && p.factionId === input.self.factionId ? 0.5 : 0;
    return base + kin;
  });
  let roll = prng.float() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < weights.length; i++) {
    roll -= weights[i] ?? 0;
    if (roll < 0) return input.present[i];
  }
  return input.present[input.present.length - 1];
};

const isSocial = (place: Place, factionTag: string | null): boolean =>
  place.tags.some((tag) => SOCIAL_TAGS.includes(tag) || tag === factionTag);

const workNotes = [
  "Kept steadily at {task}.",
  "Made good progress on {task}.",
  "Put in a hard hour on {task}.",
  "Went over {task} again, carefully.",
];

export interface ActContext {
  readonly input: ActInput;
  readonly t: GameTime;
  readonly prng: Prng;
  readonly voice: Voice;
  readonly dossier: DossierReader | null;
  readonly tuning: ActTuning;
}

/** The scripted choice of action. */
export const chooseAction = (ctx: ActContext): ActOutput => {
  const { input, prng, tuning } = ctx;
  const hour = hourOf(ctx.t);
  const here = input.location.id;
  const reachable = (id: string | null): Place | undefined =>
    id === null ? undefined : input.reachable.find((p) => p.id === id);
  const speak = (partner: NpcGlimpse, taskTitle: string | null): ActOutput => {
    const line = composeLine({
      prng,
      voice: ctx.voice,
      partnerName: partner.name,
      placeName: input.location.name,
      taskTitle,
      dossier: ctx.dossier,
    });
    return {
      action: "speak",
      to: partner.id,
      text: line.text,
      regard: line.regard,
      ...(line.ends ? { ends: true } : {}),
    };
  };

  if (hour >= NIGHT_START || hour < MORNING) {
    const home = reachable(input.home);
    if (home !== undefined && here !== input.home)
      return { action: "move", to: home.id, reason: "Heading home for the night." };
    return { action: "rest", hours: restHours(hour) };
  }

  const terms = tuning.renegotiate ? taskTermsByRule(input, ctx.t, prng) : null;
  if (terms !== null) return terms;

  const task = mostUrgent(input.tasks, input.self.id);
  const working = hour >= WORK_START && hour < WORK_END;
  if (task !== undefined && (working || (task.deadline !== null && task.deadline - ctx.t < 1440))) {
    if (task.locationId === null || task.locationId === here) {
      if (prng.chance(0.85))
        return {
          action: "work",
          taskId: task.id,
          note: fill(prng.pick(workNotes), { task: task.title }),
        };
    } else {
      const there = reachable(task.locationId);
      if (there !== undefined)
        return { action: "move", to: there.id, reason: `To see to ${task.title}.` };
    }
  }

  const partner = pickPartner(prng, input);
  if (working) {
    const workplace = reachable(input.workplace);
    if (workplace !== undefined && here !== input.workplace && prng.chance(0.9))
      return { action: "move", to: workplace.id, reason: "Time to get to work." };
    if (partner !== undefined && prng.chance(tuning.talkChance))
      return speak(partner, task?.title ?? null);
    const propose = task === undefined ? tuning.proposeChance * 4 : tuning.proposeChance;
    if (prng.chance(propose)) return proposeTask({ input, prng, voice: ctx.voice });
    return { action: "rest", hours: 1 };
  }

  if (hour >= WORK_END) {
    const factionTag = input.self.factionId === null ? null : `faction:${input.self.factionId}`;
    if (!isSocial(input.location, factionTag) && prng.chance(tuning.eveningOutChance)) {
      const own = input.reachable.filter((p) => factionTag !== null && p.tags.includes(factionTag));
      const social = input.reachable.filter((p) => isSocial(p, factionTag));
      const options = own.length > 0 && prng.chance(0.4) ? own : social;
      if (options.length > 0)
        return {
          action: "move",
          to: prng.pick(options).id,
          reason: "Looking for company this evening.",
        };
    }
    if (partner !== undefined && prng.chance(Math.min(1, tuning.talkChance * 2)))
      return speak(partner, task?.title ?? null);
    return { action: "rest", hours: 1 };
  }

  // Early morning: a word with whoever is about, then off to work.
  if (partner !== undefined && prng.chance(tuning.talkChance))
    return speak(partner, task?.title ?? null);
  const workplace = reachable(input.workplace);
  if (workplace !== undefined && here !== input.workplace)
    return { action: "move", to: workplace.id, reason: "Off to work." };
  return { action: "rest", hours: 1 };
};
