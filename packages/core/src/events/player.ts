/**
 * What a player (or the game a player is in) did to a running world: the one input from
 * outside the simulation that is not a model's answer. Every change a talk makes — a
 * conversation turn, the end of a conversation, a game's world tick or action result, a
 * time skip — is written first in its batch as a `PlayerInput`, carrying exactly what it
 * takes to make that change again: what was asked and with which talk settings. Replay
 * verification re-drives the change from it (the brain's answers come from the recorded
 * `LlmCallRecorded` events, as for the engine) and compares what comes out. No read
 * model folds it: it is the cause of the events after it, not a fact of the world.
 */
import { Schema } from "effect";
import { NpcId } from "../ids.ts";
import { Visibility } from "../Visibility.ts";
import { defineEvent, Text, Unit } from "./defineEvent.ts";

/** One thing that happened in the game, as a world tick reports it. */
export const GameDiff = Schema.Struct({
  kind: Schema.String,
  text: Text,
  locationId: Schema.NullOr(Schema.String),
  factionId: Schema.NullOr(Schema.String),
  visibility: Visibility,
  importance: Unit,
  /** NPC ids who took part; the player's id may be among them. */
  participants: Schema.Array(Schema.String),
  entities: Schema.Array(Schema.String),
});
export type GameDiff = typeof GameDiff.Type;

/** The player said `message` to an NPC (a new conversation when `conversationId` is null). */
export const TurnInput = Schema.Struct({
  kind: Schema.tag("turn"),
  npcId: NpcId,
  conversationId: Schema.NullOr(Schema.String),
  message: Text,
  scene: Schema.NullOr(Text),
  /** The turn ends the conversation (everything is digested now). */
  end: Schema.Boolean,
});

/** The conversation was ended: what is not digested yet is digested now. */
export const EndConversationInput = Schema.Struct({
  kind: Schema.tag("end_conversation"),
  npcId: NpcId,
  conversationId: Schema.String,
});

/** The game reported things that happened in it. */
export const WorldTickInput = Schema.Struct({
  kind: Schema.tag("world_tick"),
  diffs: Schema.Array(GameDiff),
});

/** The game reported what became of a task an NPC proposed. */
export const ActionResultInput = Schema.Struct({
  kind: Schema.tag("action_result"),
  taskId: Schema.String,
  outcome: Schema.Literals(["accepted", "rejected", "completed", "failed"]),
  note: Schema.NullOr(Text),
});

/** The player let the world move on `days` days (the engine's ticks follow in their own batches). */
export const SkipInput = Schema.Struct({
  kind: Schema.tag("skip"),
  days: Schema.Int.check(Schema.isGreaterThan(0)),
});

export const PlayerInputBody = Schema.Union([
  TurnInput,
  EndConversationInput,
  WorldTickInput,
  ActionResultInput,
  SkipInput,
]);
export type PlayerInputBody = typeof PlayerInputBody.Type;

/** The talk settings in force when the input was applied. */
export const TalkSettings = Schema.Struct({
  /** The brain's name (`scripted`, `ollama`). */
  brain: Schema.String,
  /** Whether its calls were recorded in the log (a replay then answers from them). */
  recorded: Schema.Boolean,
  playerName: Schema.String,
  digestEvery: Schema.Int.check(Schema.isGreaterThan(0)),
  recentTurns: Schema.Int.check(Schema.isGreaterThan(0)),
  /** The checkpoint interval a skip's ticks run with. */
  checkpointEveryTicks: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
});
export type TalkSettings = typeof TalkSettings.Type;

export const PlayerInput = defineEvent("PlayerInput", 1, {
  input: PlayerInputBody,
  talk: TalkSettings,
  /** How many events follow it in its batch (a skip's ticks are separate batches: 0). */
  events: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
});
