/**
 * The scripted `act` answer: the action the rules choose (`chooseAction`), what the NPC
 * will remember of it (`extractByRule`: of the talk it answers, or of a line of its own),
 * and its agenda — what the same rules would choose at the next few wake-ups were nothing
 * to change: the hours ahead, at the place the action leads to, with the same company
 * while it stays there and the same tasks. The plan ends at nightfall, or at a step that
 * is no plain action (giving up or renegotiating a task is decided when it comes).
 */
import { type DossierReader, type GameTime, hourOf, MINUTES_PER_HOUR, Prng } from "@hearsay/core";
import type { ActInput, ActOutput, AgendaStep } from "../purposes/ActPurpose.ts";
import { type ActTuning, chooseAction } from "./chooseAction.ts";
import { draftProfile } from "./draftProfile.ts";
import { extractByRule } from "./extractByRule.ts";
import { reviseProfileByRule } from "./reviseProfileByRule.ts";
import { voiceOf } from "./Voice.ts";

const NIGHT_START = 22;
const MORNING = 6;

export interface ActRequest {
  readonly input: ActInput;
  readonly t: GameTime;
  /** The run's seed and whose turn it is: a first profile's draws are the `profile` call's. */
  readonly seed: number;
  readonly npcId: string | null;
  readonly dossier: DossierReader | null;
}

/** What it will remember of saying `text` to `to`, as if the line went unanswered. */
const rememberSaying = (
  input: ActInput,
  to: string,
  text: string,
): ReadonlyArray<ReturnType<typeof extractByRule>[number]> | undefined => {
  const self = input.self;
  const partner = input.present.find((p) => p.id === to);
  if (partner === undefined) return undefined;
  const me = { id: self.id, name: self.name };
  return extractByRule({
    self: me,
    participants: [me, { id: partner.id, name: partner.name }],
    locationName: input.location.name,
    turns: [{ speakerId: self.id, speakerName: self.name, text }],
  });
};

/** The situation an action leaves for the next step: at its destination, with nobody known there. */
const after = (input: ActInput, action: ActOutput): ActInput => {
  if (action.action !== "move") return input;
  const there = input.reachable.find((p) => p.id === action.to);
  if (there === undefined) return input;
  return { ...input, location: there, reachable: [], present: [] };
};

const asStep = (action: ActOutput, input: ActInput): AgendaStep | null => {
  switch (action.action) {
    case "speak": {
      const memories = rememberSaying(input, action.to, action.text);
      return {
        action: "speak",
        to: action.to,
        text: action.text,
        ...(action.regard === undefined ? {} : { regard: action.regard }),
        ...(memories === undefined ? {} : { memories }),
        ...(action.ends === true ? { ends: true } : {}),
      };
    }
    case "move":
      return { action: "move", to: action.to, reason: action.reason };
    case "work":
      return { action: "work", taskId: action.taskId, note: action.note };
    case "rest":
      return { action: "rest", hours: action.hours };
    case "propose_task":
      return {
        action: "propose_task",
        title: action.title,
        description: action.description,
        assignee: action.assignee,
        deadlineDays: action.deadlineDays,
      };
    default:
      return null;
  }
};

const isNight = (t: GameTime): boolean => {
  const hour = hourOf(t);
  return hour >= NIGHT_START || hour < MORNING;
};

/** The steps after `first`, one an hour, from the rest of the same seeded stream. */
const planAfter = (
  request: ActRequest,
  first: ActOutput,
  prng: Prng,
  tuning: ActTuning,
): ReadonlyArray<AgendaStep> => {
  const steps: Array<AgendaStep> = [];
  const voice = voiceOf(request.input.self.traits, request.input.self.speechStyle);
  let input = after(request.input, first);
  for (let i = 1; i <= tuning.agendaSteps; i++) {
    const t = (request.t + i * MINUTES_PER_HOUR) as GameTime;
    if (isNight(t)) break;
    const next = chooseAction({ input, t, prng, voice, dossier: request.dossier, tuning });
    const step = asStep(next, input);
    if (step === null) break;
    steps.push(step);
    input = after(input, next);
  }
  return steps;
};

/**
 * A reader that reads each section of `dossier` once, however many lines draw on it: the
 * action's and its planned steps' lines share what one turn read.
 */
const readOnce = (dossier: DossierReader | null): DossierReader | null => {
  if (dossier === null) return null;
  const read = new Map<string, ReturnType<DossierReader["section"]>>();
  return {
    section: (name) => {
      if (!read.has(name)) read.set(name, dossier.section(name));
      return read.get(name);
    },
    whole: () => dossier.whole(),
  };
};

/** The scripted answer to an `act` request. */
export const actByRule = (asked: ActRequest, prng: Prng, tuning: ActTuning): ActOutput => {
  const answer = actionByRule(asked, prng, tuning);
  const { self, firstProfile: need, revise: due } = asked.input;
  // A first profile is drafted, and one due revised, by the same rules and draws as the
  // `profile` or `revise_profile` call would have been.
  const first =
    need === undefined
      ? {}
      : {
          profile: draftProfile(
            { self, ...need },
            Prng.derive(asked.seed, "profile", asked.npcId ?? "-", asked.t),
            voiceOf(self.traits, self.speechStyle),
          ),
        };
  const revised = due === undefined ? {} : { revision: reviseProfileByRule({ self, ...due }) };
  return { ...answer, ...first, ...revised };
};

const actionByRule = (asked: ActRequest, prng: Prng, tuning: ActTuning): ActOutput => {
  const request = { ...asked, dossier: readOnce(asked.dossier) };
  const self = request.input.self;
  const action = chooseAction({
    input: request.input,
    t: request.t,
    prng,
    voice: voiceOf(self.traits, self.speechStyle),
    // Read only if the NPC speaks: the engine builds a section on its first read.
    dossier: request.dossier,
    tuning,
  });
  const agenda = planAfter(request, action, prng, tuning);
  const planned = agenda.length > 0 ? { agenda } : {};
  const talk = request.input.conversation;
  const me = { id: self.id, name: self.name };
  // The rules read only what others said, so the answer's own line changes nothing.
  if (talk !== undefined)
    return { ...action, memories: extractByRule({ ...talk, self: me }), ...planned };
  if (action.action !== "speak") return { ...action, ...planned };
  // A line of its own: remembered as extract_memories would remember the talk if the
  // line goes unanswered (the engine keeps these only then).
  const memories = rememberSaying(request.input, action.to, action.text);
  return { ...action, ...(memories === undefined ? {} : { memories }), ...planned };
};
