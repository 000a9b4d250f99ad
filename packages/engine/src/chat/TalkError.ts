/**
 * What can go wrong when a player talks to the world: an NPC, conversation or task that
 * is not in the save, a task move its lifecycle forbids, or a reply no brain could give.
 * Each says what is missing and what to do, so `chat` and `serve` can say it plainly.
 */
import { Schema } from "effect";

/** The save has no NPC by that id. */
export class NpcNotFound extends Schema.TaggedError<NpcNotFound>()("NpcNotFound", {
  saveId: Schema.String,
  npcId: Schema.String,
}) {
  override get message(): string {
    return `save "${this.saveId}" has no NPC "${this.npcId}": pick one of its NPCs (see \`hearsay export\`)`;
  }
}

/** The conversation does not exist, or is not between the player and that NPC. */
export class ConversationNotFound extends Schema.TaggedError<ConversationNotFound>()(
  "ConversationNotFound",
  { saveId: Schema.String, npcId: Schema.String, conversationId: Schema.String },
) {
  override get message(): string {
    return `save "${this.saveId}" has no conversation "${this.conversationId}" between the player and "${this.npcId}": omit conversationId to start one`;
  }
}

/** The save has no task by that id. */
export class TaskNotFound extends Schema.TaggedError<TaskNotFound>()("TaskNotFound", {
  saveId: Schema.String,
  taskId: Schema.String,
}) {
  override get message(): string {
    return `save "${this.saveId}" has no task "${this.taskId}": use a taskId a conversation turn proposed`;
  }
}

/** The task's lifecycle does not allow that outcome from where it is. */
export class TaskMoveRefused extends Schema.TaggedError<TaskMoveRefused>()("TaskMoveRefused", {
  taskId: Schema.String,
  from: Schema.String,
  outcome: Schema.String,
}) {
  override get message(): string {
    return `task "${this.taskId}" is ${this.from}: it cannot be ${this.outcome} now`;
  }
}

/** No brain in the chain could answer: nothing of the turn was stored. */
export class ReplyFailed extends Schema.TaggedError<ReplyFailed>()("ReplyFailed", {
  npcId: Schema.String,
  reason: Schema.String,
}) {
  override get message(): string {
    return `"${this.npcId}" could not answer (${this.reason}); nothing was stored, try again`;
  }
}

/** The client went away before the turn was committed: nothing of it was stored. */
export class TurnAbandoned extends Schema.TaggedError<TurnAbandoned>()("TurnAbandoned", {
  npcId: Schema.String,
}) {
  override get message(): string {
    return `the turn with "${this.npcId}" was abandoned before it was stored`;
  }
}

/** A location or faction a game named that the world does not have. */
export class NotInWorld extends Schema.TaggedError<NotInWorld>()("NotInWorld", {
  kind: Schema.String,
  id: Schema.String,
}) {
  override get message(): string {
    return `the world has no ${this.kind} "${this.id}": use an id from the world definition`;
  }
}
