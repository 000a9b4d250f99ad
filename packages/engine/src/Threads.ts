/**
 * Active threads: unresolved tensions that stay in the dossier of every NPC who knows of
 * them until they are resolved or dropped. Rule-driven and cheap — no brain calls:
 *
 * - the world file's `threads` open when the run starts, known to their NPCs and `knownBy`;
 * - a promise an NPC takes from a conversation (an extracted memory of category
 *   `promise`) opens a `promise` thread between the talkers, known to both;
 * - a proposed task opens a `question` (will it be done?), known to proposer and
 *   assignee; it is resolved when the task is completed or fails, and dropped when it is
 *   cancelled, rejected or expires;
 * - an edge whose regard (trust − suspicion / 2) drops below `feudBelow` opens a `feud`
 *   between the pair, known to whoever's regard dropped; it is resolved once neither
 *   regards the other below `feudRecoverAt`;
 * - any thread unmentioned (see ThreadBook) for `threadDropDays` game days is dropped.
 *
 * Knowledge of a thread is the ordinary KnowledgeGained fact (`itemKind: "thread"`).
 */
import { MINUTES_PER_DAY, type NpcId, type ThreadId, type ThreadKind } from "@hearsay/core";
import { pairKey, type ThreadTrigger } from "./ThreadBook.ts";
import type { TickContext } from "./TickContext.ts";

interface Opening {
  readonly id?: ThreadId;
  readonly kind: ThreadKind;
  readonly text: string;
  readonly npcIds: ReadonlyArray<NpcId>;
  readonly source: { readonly kind: string; readonly id: string } | null;
  readonly knowers: ReadonlyArray<NpcId>;
}

const sorted = (ids: Iterable<NpcId>): Array<NpcId> => [...new Set(ids)].sort();

/** Opens a thread and tells its knowers; returns its id. */
export const openThread = (ctx: TickContext, o: Opening): ThreadId => {
  const threadId = o.id ?? (ctx.writer.mint("th") as ThreadId);
  ctx.writer.emit("ThreadOpened", {
    threadId,
    kind: o.kind,
    text: o.text,
    npcIds: sorted(o.npcIds),
    source: o.source,
  });
  for (const npc of sorted(o.knowers)) learn(ctx, threadId, npc, o.npcIds.includes(npc));
  return threadId;
};

const learn = (ctx: TickContext, threadId: ThreadId, npc: NpcId, involved: boolean): void => {
  if (!ctx.state.npcs.has(npc)) return;
  ctx.writer.emit("KnowledgeGained", {
    npcId: npc,
    itemKind: "thread",
    itemId: threadId,
    via: involved ? "participant" : "told",
    fromNpcId: null,
    confidence: 1,
  });
};

/** Closes an open thread once. */
export const closeThread = (
  ctx: TickContext,
  threadId: ThreadId,
  outcome: "resolved" | "dropped",
  reason: string,
): void => {
  if (!ctx.state.threads.open.has(threadId)) return;
  ctx.writer.emit("ThreadClosed", { threadId, outcome, reason });
};

/** Opens the world file's threads not opened yet (all of them, on the first tick). */
const openSeeded = (ctx: TickContext): void => {
  for (const seed of ctx.world.threads ?? []) {
    if (ctx.state.threads.seen.has(seed.id)) continue;
    openThread(ctx, {
      id: seed.id,
      kind: seed.kind,
      text: seed.text,
      npcIds: seed.npcIds,
      source: { kind: "world", id: seed.id },
      knowers: [...seed.npcIds, ...seed.knownBy],
    });
  }
};

const handle = (ctx: TickContext, trigger: ThreadTrigger): void => {
  const book = ctx.state.threads;
  const name = (id: NpcId) => ctx.names.npcName(id);
  switch (trigger.type) {
    case "promise": {
      const source = `conversation:${trigger.conversationId}`;
      const existing = book.bySource.get(source);
      if (existing !== undefined) {
        if (!book.open.get(existing)!.knowers.has(trigger.owner))
          learn(ctx, existing, trigger.owner, true);
        return;
      }
      const talkers = book.talkers(trigger.conversationId);
      const npcIds = talkers.length > 0 ? talkers : [trigger.owner];
      openThread(ctx, {
        kind: "promise",
        text: `Between ${npcIds.map(name).join(" and ")}: ${trigger.text}`,
        npcIds,
        source: { kind: "conversation", id: trigger.conversationId },
        knowers: npcIds,
      });
      return;
    }
    case "taskProposed": {
      const involved = sorted(
        [trigger.proposedBy, trigger.assignee].filter((n): n is NpcId => n !== null),
      );
      if (involved.length === 0 || book.bySource.has(`task:${trigger.taskId}`)) return;
      const { proposedBy: by, assignee: to } = trigger;
      const who =
        by === null || to === null
          ? ""
          : by === to
            ? ` ${name(by)} took it on.`
            : ` ${name(by)} asked ${name(to)} to see to it.`;
      openThread(ctx, {
        kind: "question",
        text: `Will "${trigger.title}" get done?${who}`,
        npcIds: involved,
        source: { kind: "task", id: trigger.taskId },
        knowers: involved,
      });
      return;
    }
    case "taskEnded": {
      const id = book.bySource.get(`task:${trigger.taskId}`);
      if (id === undefined) return;
      const settled = trigger.to === "completed" || trigger.to === "failed";
      closeThread(ctx, id, settled ? "resolved" : "dropped", `the task was ${trigger.to}`);
      return;
    }
    case "edge": {
      const { feudBelow, feudRecoverAt } = ctx.config;
      const key = pairKey(trigger.from, trigger.to);
      const feud = book.bySource.get(key);
      const dropped =
        trigger.after < feudBelow && (trigger.before === null || trigger.before >= feudBelow);
      if (dropped) {
        if (feud === undefined) {
          openThread(ctx, {
            kind: "feud",
            text: `${name(trigger.from)} and ${name(trigger.to)} are at odds. ${trigger.summary}`.trim(),
            npcIds: [trigger.from, trigger.to],
            source: { kind: "edge", id: key.slice("edge:".length) },
            knowers: [trigger.from],
          });
        } else if (!book.open.get(feud)!.knowers.has(trigger.from)) {
          learn(ctx, feud, trigger.from, true);
        }
        return;
      }
      if (feud === undefined || trigger.after < feudRecoverAt) return;
      const back = book.regard.get(`${trigger.to}->${trigger.from}`);
      if (back === undefined || back >= feudRecoverAt)
        closeThread(ctx, feud, "resolved", "they are on better terms again");
      return;
    }
  }
};

/** Drops threads nobody has mentioned for `threadDropDays` game days, in id order. */
const dropStale = (ctx: TickContext): void => {
  const limit = ctx.config.threadDropDays * MINUTES_PER_DAY;
  const stale = [...ctx.state.threads.open.values()]
    .filter((th) => ctx.t - th.lastMention >= limit)
    .map((th) => th.id)
    .sort();
  for (const id of stale) {
    closeThread(ctx, id, "dropped", `not mentioned for ${ctx.config.threadDropDays} days`);
  }
};

/**
 * The tick's thread step: seeded threads open, this tick's triggers open and close
 * threads, stale ones drop. Runs last before ClockAdvanced, so nothing it reads is lost.
 */
export const tendThreads = (ctx: TickContext): void => {
  openSeeded(ctx);
  for (let batch = ctx.state.threads.drain(); batch.length > 0; ) {
    for (const trigger of batch) handle(ctx, trigger);
    batch = ctx.state.threads.drain();
  }
  dropStale(ctx);
};
