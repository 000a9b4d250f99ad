/**
 * Thread events: unresolved tensions that carry continuity across days and skips — a
 * promise, a feud, a debt, an open question. A thread opens, stays in the dossier of
 * every NPC who knows of it (knowledge is the ordinary `KnowledgeGained` fact with
 * `itemKind: "thread"`), and closes once: resolved, or dropped after going unmentioned.
 * The engine's rules for opening and closing them live in engine/src/Threads.ts.
 */
import { Schema } from "effect";
import { NpcId } from "../ids.ts";
import { defineEvent, Text } from "./defineEvent.ts";

/** Id of a thread (world-seeded ones keep their file id; engine-opened ones are minted). */
export const ThreadId = Schema.NonEmptyString.pipe(Schema.brand("ThreadId"));
export type ThreadId = typeof ThreadId.Type;

/** What sort of tension a thread is. */
export const ThreadKind = Schema.Literals(["promise", "feud", "debt", "question", "secret"]);
export type ThreadKind = typeof ThreadKind.Type;

/** How a thread ended: settled one way or another, or let go unmentioned. */
export const ThreadOutcome = Schema.Literals(["resolved", "dropped"]);
export type ThreadOutcome = typeof ThreadOutcome.Type;

export const ThreadOpened = defineEvent("ThreadOpened", 1, {
  threadId: ThreadId,
  kind: ThreadKind,
  /** One line, as those who know of it would put it. */
  text: Text,
  /** The NPCs it is between, in id order. */
  npcIds: Schema.Array(NpcId),
  /** What opened it (a task, a conversation, a relationship edge, the world file). */
  source: Schema.NullOr(Schema.Struct({ kind: Schema.String, id: Schema.String })),
});

export const ThreadClosed = defineEvent("ThreadClosed", 1, {
  threadId: ThreadId,
  outcome: ThreadOutcome,
  reason: Schema.String,
});
