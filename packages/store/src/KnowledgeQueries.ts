/**
 * Who knows what, asked of the read models. The rule is core's `knows`, mirrored in SQL
 * (held to it by test/KnowledgeAgreement.test.ts): an NPC knows an item at t if its
 * earliest knowledge fact is at or before t; a memory it knows is gone once
 * `expires_at <= t` or `gone_at <= t`; a world event it knows has lapsed once
 * `lapses_at <= t`; lore is public. A knowledge fact for a memory or world event the save
 * never recorded lives as long as the fact (as in `KnowledgeLedger`).
 */
import type { GameTime, ItemKind, NpcId, Via } from "@hearsay/core";
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";

/** One item an NPC knows, with how and when it first came to know it. */
export interface KnownItem {
  readonly kind: ItemKind;
  readonly id: string;
  /** When it first knew it. */
  readonly t: GameTime;
  readonly via: Via | "owner";
  readonly fromNpcId: NpcId | null;
  readonly confidence: number;
}

const alive = `(m.memory_id IS NULL OR ((m.expires_at IS NULL OR m.expires_at > @t)
  AND (m.gone_at IS NULL OR m.gone_at > @t)))
  AND (w.lapses_at IS NULL OR w.lapses_at > @t)`;

const joinMemory = `LEFT JOIN memories m ON k.item_kind = 'memory' AND m.save_id = k.save_id
  AND m.memory_id = k.item_id
  LEFT JOIN world_events w ON k.item_kind = 'world_event' AND w.save_id = k.save_id
  AND w.world_event_id = k.item_id`;

export class KnowledgeQueries {
  private readonly one: SqliteStatement;
  private readonly all: SqliteStatement;
  private readonly allOfKind: SqliteStatement;

  constructor(db: SqliteDatabase) {
    const select = `SELECT k.item_kind AS kind, k.item_id AS id, k.t AS t, k.via AS via,
      k.from_npc_id AS fromNpcId, k.confidence AS confidence FROM knowledge k ${joinMemory}`;
    this.one = db.prepare(
      `SELECT 1 FROM knowledge k ${joinMemory} WHERE k.save_id = @save AND k.npc_id = @npc
       AND k.item_kind = @kind AND k.item_id = @id AND k.t <= @t AND ${alive}`,
    );
    this.all = db.prepare(
      `${select} WHERE k.save_id = @save AND k.npc_id = @npc AND k.t <= @t AND ${alive}
       ORDER BY k.item_kind, k.item_id`,
    );
    this.allOfKind = db.prepare(
      `${select} WHERE k.save_id = @save AND k.npc_id = @npc AND k.item_kind = @kind AND k.t <= @t
       AND ${alive} ORDER BY k.item_id`,
    );
  }

  /** Does `npcId` know the item at `t`? Lore is always known. */
  knowsAt(
    saveId: string,
    npcId: string,
    itemKind: ItemKind | "lore",
    itemId: string,
    t: number,
  ): boolean {
    if (itemKind === "lore") return true;
    return this.one.get({ save: saveId, npc: npcId, kind: itemKind, id: itemId, t }) !== undefined;
  }

  /** Every item `npcId` knows at `t` (optionally of one kind), ordered by kind then id. */
  knownItems(saveId: string, npcId: string, t: number, kind?: ItemKind): ReadonlyArray<KnownItem> {
    return (
      kind === undefined
        ? this.all.all({ save: saveId, npc: npcId, t })
        : this.allOfKind.all({ save: saveId, npc: npcId, kind, t })
    ) as Array<KnownItem>;
  }
}
