/**
 * Memory bookkeeping: writing an NPC's own memory (it is the only writer of its own
 * memories — the engine records them on its behalf), expiring memories whose time has
 * come, and keeping each NPC under its cap by dropping the least important, oldest first.
 * Identity memories are pinned: a cap never drops who an NPC is.
 *
 * A memory the next cap would drop as soon as it arrives is not recorded at all
 * (`rememberKept`): an NPC at its cap does not note a passing thing that matters less
 * to it than everything it already holds. The survivors after the cap are the same as if
 * it had been recorded and dropped; the log is spared the pair of events.
 */
import {
  type GameTime,
  type Lifetime,
  type LocationId,
  lifetimeMinutes,
  type MemoryCategory,
  type MemoryId,
  type NpcId,
} from "@hearsay/core";
import { isPinned, type MemoryLife } from "./EngineState.ts";
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
 * Whether the next cap would drop `draft` on arrival, so recording it changes nothing
 * that survives the cap. True when the owner holds at least its cap and the draft
 * matters strictly less than every memory a cap may drop; then, however many memories
 * arrive after it before the cap, the cap's excess reaches it (a memory recorded now
 * is the newest, and only later arrivals can rank below it). An owner over its cap
 * must already be due a cap in this batch, or a lowered cap would first trim it when
 * the memory arrives. Identity memories are pinned and always recorded.
 */
const droppedOnArrival = (
  memories: ReadonlyMap<MemoryId, MemoryLife>,
  cap: number,
  dueACap: boolean,
  draft: MemoryDraft,
): boolean => {
  if (isPinned(draft.category)) return false;
  const size = memories.size;
  if (size < cap || (size > cap && !dueACap)) return false;
  const importance = importanceOf(draft);
  for (const m of memories.values()) if (!m.pinned && m.importance <= importance) return false;
  return true;
};

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
  const npc = ctx.state.npcs.get(owner);
  if (
    npc &&
    droppedOnArrival(npc.memories, ctx.config.memoryCap, ctx.writer.recordedFor(owner), draft)
  )
    return null;
  return remember(ctx, owner, draft);
};

/** MemoryExpired for every memory whose lifetime ended by now, in id order. */
export const expireMemories = (ctx: TickContext): void => {
  for (const memoryId of ctx.state.expiries.takeDue(ctx.t)) {
    const owner = ctx.state.memoryOwners.get(memoryId);
    if (owner) ctx.writer.emit("MemoryExpired", { memoryId, ownerNpcId: owner, reason: "expired" });
  }
};

/** Drops memories beyond the cap: lowest importance first, then oldest, then id. */
export const capMemories = (ctx: TickContext, npcIds: Iterable<NpcId>): void => {
  for (const npcId of [...new Set(npcIds)].sort()) {
    const npc = ctx.state.npcs.get(npcId);
    if (!npc || npc.memories.size <= ctx.config.memoryCap) continue;
    const order = [...npc.memories.entries()]
      .filter(([, m]) => !m.pinned)
      .sort(
        ([ida, a], [idb, b]) =>
          a.importance - b.importance || a.recordedAt - b.recordedAt || (ida < idb ? -1 : 1),
      );
    const excess = npc.memories.size - ctx.config.memoryCap;
    for (const [memoryId] of order.slice(0, excess)) {
      ctx.writer.emit("MemoryExpired", { memoryId, ownerNpcId: npcId, reason: "capped" });
    }
  }
};
