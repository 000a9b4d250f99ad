/**
 * A background debate: gather → rounds → summary → outcome. The engine spawns one when a
 * debate topic comes due, answers its requests (who joins, each speaker's line, the
 * summary) and reads its output. Its ask for the last turn says so (`last`), so the
 * engine may have that speaker's answer carry the summary. It stores no transcript
 * beyond its own run: what survives is the summary and the outcome (ARCHITECTURE.md,
 * "Brains").
 *
 *   gathering ──GATHERED (≥ min)──▶ rounds ──LINE × participants × rounds──▶ summarising
 *        │                                                                    │ SUMMARY
 *        └──GATHERED (< min)──▶ cancelled                          concluded ◀┘
 */
import type { NpcId } from "@hearsay/core";
import { assign, emit, setup } from "xstate";

export interface DebateLine {
  readonly npcId: NpcId;
  readonly round: number;
  readonly line: string;
  readonly stance: "for" | "against" | "undecided";
}

export interface DebateInput {
  readonly debateId: string;
  readonly topic: string;
  readonly rounds: number;
  readonly minParticipants: number;
}

export interface DebateContext extends DebateInput {
  readonly participants: ReadonlyArray<NpcId>;
  readonly lines: ReadonlyArray<DebateLine>;
  readonly summary: string;
  readonly outcome: string;
}

export interface DebateOutput {
  readonly debateId: string;
  readonly topic: string;
  readonly participants: ReadonlyArray<NpcId>;
  readonly lines: ReadonlyArray<DebateLine>;
  /** Null when too few gathered and the debate never took place. */
  readonly summary: string | null;
  readonly outcome: string | null;
}

export type DebateEvent =
  | { readonly type: "GATHERED"; readonly participants: ReadonlyArray<NpcId> }
  | { readonly type: "LINE"; readonly line: DebateLine }
  | { readonly type: "SUMMARY"; readonly summary: string; readonly outcome: string };

export type DebateEmitted =
  | {
      readonly type: "turn";
      readonly npcId: NpcId;
      readonly round: number;
      readonly lines: ReadonlyArray<DebateLine>;
      /** This is the debate's last turn: the summary is asked next. */
      readonly last: boolean;
    }
  | { readonly type: "summarise"; readonly lines: ReadonlyArray<DebateLine> };

/** Who speaks next, in which round, and whether theirs is the last line; null: none. */
const nextSpeaker = (ctx: DebateContext): { npcId: NpcId; round: number; last: boolean } | null => {
  const n = ctx.lines.length;
  const total = ctx.participants.length * ctx.rounds;
  if (n >= total) return null;
  return {
    npcId: ctx.participants[n % ctx.participants.length]!,
    round: Math.floor(n / ctx.participants.length),
    last: n === total - 1,
  };
};

export const debateMachine = setup({
  types: {
    context: {} as DebateContext,
    events: {} as DebateEvent,
    input: {} as DebateInput,
    emitted: {} as DebateEmitted,
    output: {} as DebateOutput,
  },
  guards: {
    enoughGathered: ({ context, event }) =>
      event.type === "GATHERED" && event.participants.length >= context.minParticipants,
    isExpectedSpeaker: ({ context, event }) => {
      const next = nextSpeaker(context);
      return (
        event.type === "LINE" &&
        next !== null &&
        event.line.npcId === next.npcId &&
        event.line.round === next.round
      );
    },
    roundsDone: ({ context }) => nextSpeaker(context) === null,
  },
  actions: {
    seat: assign(({ event }) =>
      event.type === "GATHERED" ? { participants: [...event.participants] } : {},
    ),
    record: assign(({ context, event }) =>
      event.type === "LINE" ? { lines: [...context.lines, event.line] } : {},
    ),
    askNext: emit(({ context }) => {
      const next = nextSpeaker(context)!;
      return {
        type: "turn" as const,
        npcId: next.npcId,
        round: next.round,
        lines: context.lines,
        last: next.last,
      };
    }),
    askSummary: emit(({ context }) => ({ type: "summarise" as const, lines: context.lines })),
    conclude: assign(({ event }) =>
      event.type === "SUMMARY" ? { summary: event.summary, outcome: event.outcome } : {},
    ),
  },
}).createMachine({
  id: "debate",
  context: ({ input }) => ({ ...input, participants: [], lines: [], summary: "", outcome: "" }),
  initial: "gathering",
  states: {
    gathering: {
      on: {
        GATHERED: [
          { guard: "enoughGathered", target: "rounds", actions: "seat" },
          { target: "cancelled", actions: "seat" },
        ],
      },
    },
    rounds: {
      entry: "askNext",
      on: { LINE: { guard: "isExpectedSpeaker", target: "speaking", actions: "record" } },
    },
    speaking: {
      always: [{ guard: "roundsDone", target: "summarising" }, { target: "rounds" }],
    },
    summarising: {
      entry: "askSummary",
      on: { SUMMARY: { target: "concluded", actions: "conclude" } },
    },
    concluded: { type: "final" },
    cancelled: { type: "final" },
  },
  output: ({ context }) => ({
    debateId: context.debateId,
    topic: context.topic,
    participants: context.participants,
    lines: context.lines,
    summary: context.summary === "" ? null : context.summary,
    outcome: context.outcome === "" ? null : context.outcome,
  }),
});

export type DebateMachine = typeof debateMachine;
