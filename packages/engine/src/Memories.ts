/**
 * Memory bookkeeping: writing an NPC's own memory (it is the only writer of its own
 * memories — the engine records them on its behalf), expiring memories whose time has
 * come, and keeping each NPC under its cap by dropping the least important, oldest first.
 * Identity memories are pinned: a cap never drops who an NPC is.
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
    importance: Math.min(1, Math.max(0, draft.importance)),
    expiresAt: minutes === null ? null : ((ctx.t + minutes) as GameTime),
    locationId: draft.locationId ?? null,
    entities: draft.entities ?? [],
    about: draft.about ?? null,
  });
  return id;
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
