/**
 * Memory bookkeeping: writing an NPC's own memory (it is the only writer of its own
 * memories — the engine records them on its behalf), and logging what each NPC's actor
 * decides it forgets: memories whose time has come, and — beyond its cap — the least
 * important, oldest first (`MemoryPolicy` in @hearsay/actors). Identity memories are
 * pinned: a cap never drops who an NPC is.
 *
 * A memory the next cap would drop as soon as it arrives is not recorded at all
 * (`rememberKept`): an NPC at its cap does not note a passing thing that matters less
 * to it than everything it already holds. The survivors after the cap are the same as if
 * it had been recorded and dropped; the log is spared the pair of events.
 */
import { droppedOnArrival, isPinned } from "@hearsay/actors";
import {
  type GameTime,
  type Lifetime,
  type LocationId,
  lifetimeMinutes,
  type MemoryCategory,
  type MemoryId,
  type NpcId,
} from "@hearsay/core";
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
    droppedOnArrival(facts.memories, ctx.config.memoryCap, ctx.writer.recordedFor(owner), {
      pinned: isPinned(draft.category),
      importance: importanceOf(draft),
    })
  )
    return null;
  return remember(ctx, owner, draft);
};

/** MemoryExpired for every memory whose lifetime ended by now, in id order. */
export const expireMemories = (ctx: TickContext): void => {
  for (const { memoryId, owner } of ctx.actors.expired(ctx.t))
    ctx.writer.emit("MemoryExpired", { memoryId, ownerNpcId: owner, reason: "expired" });
};

/** MemoryExpired for what each NPC's cap drops, NPCs in id order. */
export const capMemories = (ctx: TickContext, npcIds: Iterable<NpcId>): void => {
  for (const npcId of [...new Set(npcIds)].sort()) {
    for (const memoryId of ctx.actors.capped(npcId, ctx.t, ctx.config.memoryCap))
      ctx.writer.emit("MemoryExpired", { memoryId, ownerNpcId: npcId, reason: "capped" });
  }
};
