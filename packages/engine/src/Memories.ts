/**
 * Memory bookkeeping: writing an NPC's own memory (it is the only writer of its own
 * memories — the engine records them on its behalf), and logging what each NPC's actor
 * decides its cap drops: the least important, oldest first (`MemoryPolicy` in
 * @hearsay/actors). Memories whose time has come end in the daily maintenance job
 * (`Maintenance.ts`), the one place that decides it. Identity memories are
 * pinned: a cap never drops who an NPC is.
 *
 * A memory the next cap would drop as soon as it arrives is not recorded at all
 * (`rememberKept`): an NPC at its cap does not note a passing thing that matters less
 * to it than everything it already holds. The survivors after the cap are the same as if
 * it had been recorded and dropped; the log is spared the pair of events.
 */
import {
  droppedOnArrival,
  endedAt,
  isPinned,
  type LiveMemory,
  reinforced,
  reinforcesAt,
} from "@hearsay/actors";
import {
  type GameTime,
  type Lifetime,
  type LocationId,
  lifetimeMinutes,
  type MemoryCategory,
  type MemoryId,
  type NpcId,
} from "@hearsay/core";
import type { DossierReads } from "./DossierReads.ts";
import type { TickContext } from "./TickContext.ts";

export interface MemoryDraft {
  readonly text: string;
  readonly category: MemoryCategory;
  readonly importance: number;
  readonly lifetime: Lifetime;
  readonly entities?: ReadonlyArray<string>;
  readonly about?: { readonly kind: string; readonly id: string } | null;
  readonly locationId?: LocationId | null;
}

/** Records a memory owned by `owner`; returns its id. */
export const remember = (ctx: TickContext, owner: NpcId, draft: MemoryDraft): MemoryId => {
  const id = ctx.writer.mint("m") as MemoryId;
  const minutes = lifetimeMinutes(draft.lifetime);
  ctx.writer.emit("MemoryRecorded", {
    memoryId: id,
    ownerNpcId: owner,
    text: draft.text,
    category: draft.category,
    importance: importanceOf(draft),
    expiresAt: minutes === null ? null : ((ctx.t + minutes) as GameTime),
    locationId: draft.locationId ?? null,
    entities: draft.entities ?? [],
    about: draft.about ?? null,
  });
  return id;
};

/** Clamps a draft's importance the way `remember` records it. */
const importanceOf = (draft: MemoryDraft): number => Math.min(1, Math.max(0, draft.importance));

/**
 * Records a memory unless the next cap would drop it on arrival (`droppedOnArrival`);
 * returns its id, or null when it was not recorded. For memories nothing refers to by
 * id afterwards: scene, leaving, conversation and world memories.
 */
export const rememberKept = (
  ctx: TickContext,
  owner: NpcId,
  draft: MemoryDraft,
): MemoryId | null => {
  const facts = ctx.actors.facts(owner);
  if (
    facts &&
    droppedOnArrival(
      facts.memories,
      ctx.config.memoryCap,
      ctx.writer.recordedFor(owner),
      { pinned: isPinned(draft.category), importance: importanceOf(draft) },
      { t: ctx.t, decay: ctx.actors.decay },
    )
  )
    return null;
  return remember(ctx, owner, draft);
};

/** MemoryExpired for what each NPC's cap drops, NPCs in id order. */
export const capMemories = (ctx: TickContext, npcIds: Iterable<NpcId>): void => {
  for (const npcId of [...new Set(npcIds)].sort()) {
    for (const memoryId of ctx.actors.capped(npcId, ctx.t, ctx.config.memoryCap))
      ctx.writer.emit("MemoryExpired", { memoryId, ownerNpcId: npcId, reason: "capped" });
  }
};

/**
 * Notes, for everyone in this batch's conversation turns, its memories about each other
 * participant: a talk brings to mind what one remembers of the other. The scripted brain
 * reads no memories to speak, so with it this is what reinforces memories of people.
 */
const recallTalk = (ctx: TickContext, reads: DossierReads): void => {
  const turns: Array<TalkTurn> = [];
  for (const e of ctx.writer.emitted()) if (e.type === "ConversationTurn") turns.push(e.payload);
  const recalled = recalledInTalk(turns, (id) => ctx.actors.facts(id)?.memories);
  for (const [self, about] of recalled) reads.recall(self, about);
};

/** Who spoke in a turn, and to whom. */
export interface TalkTurn {
  readonly speakerId: string;
  readonly listenerIds: ReadonlyArray<string>;
}

/**
 * For everyone in `turns`, its memories (`memoriesOf`) about anyone else it shared a turn
 * with: each NPC's memories are scanned once, however many turns it took part in.
 */
export const recalledInTalk = (
  turns: ReadonlyArray<TalkTurn>,
  memoriesOf: (npcId: NpcId) => ReadonlyMap<MemoryId, Pick<LiveMemory, "about">> | undefined,
): Map<NpcId, Array<MemoryId>> => {
  const talkedWith = new Map<NpcId, Set<string>>();
  for (const turn of turns) {
    const people = [turn.speakerId, ...turn.listenerIds];
    for (const self of people) {
      let others = talkedWith.get(self as NpcId);
      if (others === undefined) {
        others = new Set();
        talkedWith.set(self as NpcId, others);
      }
      for (const other of people) if (other !== self) others.add(other);
    }
  }
  const out = new Map<NpcId, Array<MemoryId>>();
  for (const [self, others] of talkedWith) {
    const memories = memoriesOf(self);
    if (memories === undefined) continue;
    const about: Array<MemoryId> = [];
    // `forEach` makes no entry pair per memory.
    memories.forEach((m, id) => {
      if (m.about?.kind === "npc" && others.has(m.about.id)) about.push(id);
    });
    out.set(self, about);
  }
  return out;
};

/**
 * MemoryReinforced, one per NPC in id order, for the memories its brain read in a
 * dossier since the last call (`DossierReads`), or recalled in this batch's talk, that
 * are still held, have not ended (`endedAt`) and are due a reinforcement (`reinforcesAt`): each at what it had faded to
 * plus `reinforceBy`.
 */
export const reinforceMemories = (ctx: TickContext): void => {
  if (ctx.reads === undefined) return;
  recallTalk(ctx, ctx.reads);
  const reads = ctx.reads.take();
  if (reads.size === 0) return;
  const decay = ctx.config.memoryDecay;
  for (const npcId of [...reads.keys()].sort()) {
    const facts = ctx.actors.facts(npcId);
    if (facts === undefined) continue;
    const memories: Array<{ memoryId: MemoryId; importance: number }> = [];
    for (const memoryId of [...reads.get(npcId)!].sort()) {
      const m = facts.memories.get(memoryId);
      // One that ended by now is the daily job's to remove, not to revive.
      if (m === undefined || !reinforcesAt(decay, m, ctx.t) || endedAt(m, decay, ctx.t)) continue;
      memories.push({ memoryId, importance: reinforced(decay, m, ctx.t).importance });
    }
    if (memories.length > 0) ctx.writer.emit("MemoryReinforced", { ownerNpcId: npcId, memories });
  }
};
