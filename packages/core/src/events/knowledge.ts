/** Events of knowing and remembering: the facts every visibility check reads. */
import { Schema } from "effect";
import { GameTime } from "../GameTime.ts";
import { LocationId, MemoryId, NpcId } from "../ids.ts";
import { ItemKind, Via } from "../Visibility.ts";
import { defineEvent, Text, Unit } from "./defineEvent.ts";

export const KnowledgeGained = defineEvent("KnowledgeGained", 1, {
  npcId: NpcId,
  itemKind: ItemKind,
  itemId: Schema.String,
  via: Via,
  /** Who told it or passed the rumour on; null when seen first-hand. */
  fromNpcId: Schema.NullOr(NpcId),
  /** 1 for first-hand knowledge; falls with each rumour hop. */
  confidence: Unit,
});

export const MemoryCategory = Schema.Literals([
  "identity",
  "background",
  "observation",
  "conversation",
  "promise",
  "secret",
  "relationship",
  "known_info",
  "task",
  "debate",
  "location",
  "world",
  "scene",
]);
export type MemoryCategory = typeof MemoryCategory.Type;

export const MemoryRecorded = defineEvent("MemoryRecorded", 1, {
  memoryId: MemoryId,
  ownerNpcId: NpcId,
  text: Text,
  category: MemoryCategory,
  importance: Unit,
  /** Game time after which it is gone from every read; null: permanent. */
  expiresAt: Schema.NullOr(GameTime),
  locationId: Schema.NullOr(LocationId),
  /** Names it mentions, for exact-match retrieval. */
  entities: Schema.Array(Schema.String),
  /** The item it is a memory of, if any (a world event, a debate, a task…). */
  about: Schema.NullOr(Schema.Struct({ kind: Schema.String, id: Schema.String })),
});

export const MemoryExpired = defineEvent("MemoryExpired", 1, {
  memoryId: MemoryId,
  ownerNpcId: NpcId,
  /** `consolidated`: summarised into the memory its `MemoriesConsolidated` names. */
  reason: Schema.Literals(["expired", "forgotten", "capped", "consolidated"]),
});

/**
 * One NPC's old, faint memories of one subject were summarised into one memory
 * (`memoryId`, the `MemoryRecorded` just before this, owned by the same NPC); each of
 * `sources` then goes (`MemoryExpired`, reason `consolidated`). Ids in record order.
 */
export const MemoriesConsolidated = defineEvent("MemoriesConsolidated", 1, {
  ownerNpcId: NpcId,
  memoryId: MemoryId,
  about: Schema.Struct({ kind: Schema.String, id: Schema.String }),
  sources: Schema.Array(MemoryId).check(Schema.isMinLength(1)),
});

/**
 * Memories of one NPC that a brain read in its dossier this tick, each with the importance
 * it now has: raised from what it had faded to, and fading again from this event's time.
 * The new importance is written, not derived on reading, so a log folds alike whatever
 * decay parameters read it. One event per NPC per tick, ids in order.
 */
export const MemoryReinforced = defineEvent("MemoryReinforced", 1, {
  ownerNpcId: NpcId,
  memories: Schema.Array(Schema.Struct({ memoryId: MemoryId, importance: Unit })),
});
