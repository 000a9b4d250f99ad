/**
 * The in-memory read model retrieval filters and scores with, for one save: every
 * searchable item's facts (`ItemTable` per collection), who knows what since when
 * (`KnownList` per NPC and kind), NPC names, places, factions and relationship edges,
 * each NPC's dialogue turns and the threads each knows of.
 *
 * It is loaded once from the projections with read-only SQL (one read transaction, at
 * the save's head seq) and then kept current by folding the log's new events. Who knows
 * what is core's `knowledgeStep`: the view answers what the step asks of it (a fact's
 * time, whether a memory was recorded or went) and writes the changes it reports into
 * its known lists and item tables; the agreement test (test/KnowledgeAgreement.test.ts)
 * holds the two to the same answers. A new item's row is made from its event, and its key
 * (the rowid the store gives it) by the store's own rule (`ItemKeyFold`, store/src/ItemKeys.ts),
 * so catching up reads no table; the words a dossier quotes of an item are kept with its
 * facts (`ItemTable.quoteOf`), so quoting a hit reads no table either.
 *
 * SQL per dossier would cost a query's overhead per known item; this makes the knowledge
 * filter a binary search.
 */
import {
  type GameTime,
  type KnowledgeChange,
  type KnowledgeState,
  knowledgeStep,
  type StoredEvent,
} from "@hearsay/core";
import {
  ItemKeyFold,
  type KeyChange,
  type KeyedTable,
  keySpaceBase,
  pairId,
  type SqliteDatabase,
} from "@hearsay/store";
import { type CollectionName, collectionNames } from "./collections.ts";
import type { TurnRow } from "./DossierSource.ts";
import { Interner } from "./Interner.ts";
import { ItemTable } from "./ItemTable.ts";
import {
  eventFacts,
  jsonList,
  loreFacts,
  memoryFacts,
  type Names,
  type Row,
  summaryFacts,
  summaryKey,
} from "./itemFacts.ts";
import { collectionOfKind, type FactKind, KnowledgeIndex } from "./KnowledgeIndex.ts";
import type { KnownList } from "./KnownList.ts";
import { KnownThreads, threadRow } from "./KnownThreads.ts";
import { keyedReads } from "./keyedReads.ts";
import { prepare, type Statement } from "./prepare.ts";
import type { ThreadRow } from "./ThreadSection.ts";
import { fillTurnRows, TurnList } from "./TurnRows.ts";

export { type FactKind, factKindOf } from "./KnowledgeIndex.ts";

const json = (v: unknown): string => JSON.stringify(v);

/** Rowids whose vectors may need adding, replacing or removing. */
export type Touched = Partial<Record<CollectionName, Array<number>>>;

/**
 * The rows a catch-up made or changed, by collection and rowid: the values of the
 * collection's `textColumns` (as its table holds them), or null for a row removed — what
 * `CollectionIndex.update` embeds without reading the table.
 */
export type TouchedRows = Partial<
  Record<CollectionName, Map<number, ReadonlyArray<unknown> | null>>
>;

export class SaveView implements Names {
  readonly npcs = new Interner();
  readonly places = new Interner();
  readonly factions = new Interner();
  /** Entity names, lower-cased. */
  readonly entities = new Interner();
  readonly tasks = new Interner();
  readonly sources = new Interner();
  readonly items: Readonly<Record<CollectionName, ItemTable>>;
  readonly npcName = new Map<number, string>();
  readonly npcFaction = new Map<number, number>();
  readonly npcLocation = new Map<number, number>();
  /** Directed relationship edges: from → to. */
  readonly relations = new Map<number, Set<number>>();
  /** Each NPC's dialogue turns, oldest first, the last few with their rows (`TurnRows`). */
  readonly turns = new Map<number, TurnList>();
  /** The threads and who knows of each (the dossier's threads section). */
  readonly threads = new KnownThreads();
  /** The last seq folded in. */
  seq = 0;
  private readonly facts = new KnowledgeIndex();
  /** What core's knowledge fold reads of the view (its facts and memories so far). */
  private readonly knowledge: KnowledgeState = {
    factTime: (npc, kind, id) => {
      if (kind === "thread") return this.threads.factTime(npc, id) as GameTime | undefined;
      const local = this.items[collectionOfKind[kind]].localOf(id);
      const n = this.npcs.find(npc);
      if (n < 0) return undefined;
      const t =
        local === undefined
          ? this.facts.parkedTime(kind, id, n)
          : (this.facts.list(n, kind)?.timeOf(local) ?? -1);
      return t < 0 ? undefined : (t as GameTime);
    },
    memoryRecorded: (id) => this.items.memories.localOf(id) !== undefined,
    memoryGone: (id) => {
      const local = this.items.memories.localOf(id);
      return local !== undefined && this.items.memories.goneAt[local]! >= 0;
    },
    worldEventRecorded: (id) => this.items.world_events.localOf(id) !== undefined,
  };
  private readonly s: Record<string, Statement>;
  /** The store's key rule, fed every row loaded and every event folded. */
  private keys = new ItemKeyFold(0);

  private constructor(
    db: SqliteDatabase,
    readonly saveId: string,
  ) {
    const items = {} as Record<CollectionName, ItemTable>;
    for (const c of collectionNames) items[c] = new ItemTable();
    // A memory's key is the one its id has in the store's rule: no map of a run's ids.
    items.memories = new ItemTable((id) => this.keys.keyOf("memories", id));
    this.items = items;
    const p = (sql: string) => prepare(db, sql);
    // A file of an older schema (read, never migrated) has no key spaces: its one save's
    // rows were keyed from 1, as space 0's (ItemKeys.ts).
    const spaced = (db.pragma("table_info(saves)") as Array<{ name: string }>).some(
      (c) => c.name === "key_space",
    );
    this.s = {
      head: p("SELECT head_seq FROM saves WHERE save_id = ?"),
      space: p(
        spaced ? "SELECT key_space FROM saves WHERE save_id = ?" : "SELECT 0 WHERE ? IS NOT NULL",
      ).pluck(),
      characters: p(
        "SELECT npc_id, name, faction_id, location_id FROM characters WHERE save_id = ?",
      ),
      // A save's keyed rows, in key order, as values (`keyedReads`).
      memories: p(keyedReads.memories.sql).raw(),
      events: p(keyedReads.events.sql).raw(),
      lore: p(keyedReads.lore.sql).raw(),
      debates: p(keyedReads.debates.sql).raw(),
      summaries: p(keyedReads.summaries.sql).raw(),
      knowledge: p("SELECT npc_id, item_kind, item_id, t FROM knowledge WHERE save_id = ?").raw(),
      threads: p(
        "SELECT thread_id, kind, text, npc_ids, opened_at, closed_at FROM threads WHERE save_id = ?",
      ),
      relations: p("SELECT from_id, to_id FROM relationships WHERE save_id = ?").raw(),
      turns: p(
        "SELECT rowid, t, speaker_id, listener_ids, conversation_id, turn_index FROM conversation_turns WHERE save_id = ? ORDER BY t, rowid",
      ).raw(),
      turnRow: p(
        "SELECT conversation_id, turn_index, speaker_id, text, t FROM conversation_turns WHERE rowid = ?",
      ),
    };
  }

  /** Loads a save's view from its projections, at its current head. */
  static load(db: SqliteDatabase, saveId: string): SaveView {
    const view = new SaveView(db, saveId);
    db.transaction(() => view.loadAll())();
    return view;
  }

  private loadAll(): void {
    const save = this.saveId;
    const head = this.s.head!.get(save) as { head_seq: number } | undefined;
    this.seq = head?.head_seq ?? 0;
    const base = keySpaceBase(Number(this.s.space!.get(save) ?? 0));
    this.keys = new ItemKeyFold(base);
    const keys = this.keys;
    const own = { base, save };
    for (const r of this.s.characters!.iterate(save) as Iterable<Row>) this.setNpc(r);
    type Values = Iterable<ReadonlyArray<unknown>>;
    for (const v of this.s.memories!.iterate(own) as Values) {
      const r = keyedReads.memories.row(v);
      keys.load("memories", String(r.id), Number(r.rowid));
      this.addMemory(r);
    }
    for (const v of this.s.events!.iterate(own) as Values) {
      const r = keyedReads.events.row(v);
      keys.load("world_events", String(r.id), Number(r.rowid));
      this.addEvent("world_events", r);
    }
    for (const v of this.s.lore!.iterate(own) as Values) {
      const r = keyedReads.lore.row(v);
      keys.load("lore_chunks", String(r.id), Number(r.rowid), String(r.source_id));
      this.addLore(r);
    }
    for (const v of this.s.debates!.iterate(own) as Values) {
      const r = keyedReads.debates.row(v);
      keys.load("background_debates", String(r.id), Number(r.rowid));
      this.addEvent("background_debates", r);
    }
    for (const v of this.s.summaries!.iterate(own) as Values) {
      const r = keyedReads.summaries.row(v);
      keys.load("conversation_summaries", summaryKey(r), Number(r.rowid));
      this.addSummary(r);
    }
    const loaded: Array<{ npc: number; kind: FactKind; local: number; t: number }> = [];
    for (const [npcId, kind, itemId, t] of this.s.knowledge!.iterate(save) as Iterable<
      [string, FactKind, string, number]
    >) {
      if ((kind as string) === "thread") {
        this.threads.learn(npcId, itemId, t);
        continue;
      }
      const npc = this.npcs.intern(npcId);
      const table = this.items[collectionOfKind[kind]];
      if (!table) continue;
      const local = table.localOf(itemId);
      if (local === undefined) this.facts.learn(kind, itemId, undefined, npc, t);
      else loaded.push({ npc, kind, local, t });
    }
    this.facts.load(loaded);
    for (const r of this.s.threads!.iterate(save) as Iterable<ThreadRow & Row>) {
      const { closed_at, ...row } = r;
      this.threads.opened(row, closed_at === null ? null : Number(closed_at));
    }
    for (const [from, to] of this.s.relations!.iterate(save) as Iterable<[string, string]>) {
      this.relate(from, to);
    }
    for (const [rowid, t, speaker, listeners, conversation, index] of this.s.turns!.iterate(
      save,
    ) as Iterable<[number, number, string, string, string, number]>) {
      keys.loadTurn(conversation, index, rowid);
      this.addTurn(rowid, t, speaker, listeners, undefined);
    }
    fillTurnRows(this.turns.values(), (rowid) => this.s.turnRow!.get(rowid) as TurnRow);
  }

  // --- folding rows in ---------------------------------------------------------------

  private setNpc(r: Row): void {
    const npc = this.npcs.intern(String(r.npc_id));
    this.npcName.set(npc, String(r.name));
    this.npcFaction.set(
      npc,
      r.faction_id === null ? -1 : this.factions.intern(String(r.faction_id)),
    );
    this.npcLocation.set(npc, this.places.intern(String(r.location_id)));
    this.entities.intern(String(r.name).toLowerCase());
  }

  private addMemory(r: Row): number {
    return this.items.memories.add(memoryFacts(r, this));
  }

  private addEvent(c: "world_events" | "background_debates", r: Row): number {
    return this.items[c].add(eventFacts(r, this));
  }

  private addLore(r: Row): number {
    return this.items.lore.add(loreFacts(r, this));
  }

  /** A summary is rewritten in place as the talk goes on: same row, later time. */
  private addSummary(r: Row): number {
    const table = this.items.conversation_summaries;
    const existing = table.localOf(summaryKey(r));
    if (existing === undefined) return table.add(summaryFacts(r, this));
    const facts = summaryFacts(r, this);
    table.t[existing] = facts.t;
    table.setQuote(existing, facts.quote);
    return existing;
  }

  private relate(from: string, to: string): void {
    const f = this.npcs.intern(from);
    let set = this.relations.get(f);
    if (!set) {
      set = new Set();
      this.relations.set(f, set);
    }
    set.add(this.npcs.intern(to));
  }

  private addTurn(
    rowid: number,
    t: number,
    speaker: string,
    listeners: string | ReadonlyArray<string>,
    row: TurnRow | undefined,
  ): void {
    // A loaded row's listeners are JSON; an event's are its list.
    const who = new Set([
      speaker,
      ...(typeof listeners === "string" ? jsonList(listeners) : listeners),
    ]);
    for (const id of who) {
      const npc = this.npcs.intern(id);
      let list = this.turns.get(npc);
      if (!list) {
        list = new TurnList();
        this.turns.set(npc, list);
      }
      list.push(t, rowid, row);
    }
  }

  private learn(kind: FactKind, itemId: string, npc: number, t: number): void {
    this.facts.learn(kind, itemId, this.items[collectionOfKind[kind]].localOf(itemId), npc, t);
  }

  // --- catching up with the log ------------------------------------------------------

  /** The save's head seq in the database now. */
  headSeq(): number {
    return (this.s.head!.get(this.saveId) as { head_seq: number } | undefined)?.head_seq ?? 0;
  }

  /**
   * Folds events after `seq` (in log order) into the view. Returns the rowids whose
   * vectors may need work, and puts their embedded columns in `rows` when given. Events at or before `seq` are ignored. A new item's facts come
   * from its event and its key from the store's rule (`ItemKeyFold`): nothing is read.
   */
  catchUp(events: ReadonlyArray<StoredEvent>, rows?: TouchedRows): Touched {
    const touched: Touched = {};
    const touch: Touch = (c, rowid, values) => {
      const list = touched[c];
      if (list) list.push(rowid);
      else touched[c] = [rowid];
      if (rows === undefined) return;
      let byRowid = rows[c];
      if (!byRowid) {
        byRowid = new Map();
        rows[c] = byRowid;
      }
      byRowid.set(rowid, values);
    };
    for (const e of events) this.fold(e, touch);
    return touched;
  }

  /** Folds one event (skipped when at or before `seq`). */
  private fold(e: StoredEvent, touch: Touch): void {
    if (e.seq <= this.seq) return;
    const changes = this.keys.step(e);
    switch (e.type) {
      case "NpcRegistered": {
        const p = e.payload;
        this.setNpc({
          npc_id: p.npcId,
          name: p.name,
          faction_id: p.factionId,
          location_id: p.locationId,
        });
        break;
      }
      case "NpcMoved":
        this.npcLocation.set(this.npcs.intern(e.payload.npcId), this.places.intern(e.payload.to));
        break;
      case "NpcActivityChanged":
        this.npcLocation.set(
          this.npcs.intern(e.payload.npcId),
          this.places.intern(e.payload.locationId),
        );
        break;
      case "MemoryRecorded":
      case "MemoryExpired":
      case "KnowledgeGained":
        for (const c of knowledgeStep(this.knowledge, e)) this.foldKnowledge(c, e, touch);
        break;
      case "WorldEventOccurred": {
        const key = added(changes, "world_events");
        if (key === undefined) break;
        const p = e.payload;
        const local = this.addEvent("world_events", {
          rowid: key,
          id: p.worldEventId,
          t: e.t,
          location_id: p.locationId,
          faction_id: p.factionId,
          importance: p.importance,
          participants: p.participants,
          entities: p.entities,
          lapses_at: p.lapsesAt ?? null,
          text: p.text,
        });
        this.facts.arrived("world_event", p.worldEventId, local);
        touch("world_events", key, [p.text]);
        break;
      }
      case "DebateHeld": {
        const key = added(changes, "background_debates");
        if (key === undefined) break;
        const p = e.payload;
        const local = this.addEvent("background_debates", {
          rowid: key,
          id: p.debateId,
          t: e.t,
          location_id: p.locationId,
          faction_id: p.factionId,
          participants: p.participants,
          topic: p.topic,
          summary: p.summary,
          outcome: p.outcome,
        });
        this.facts.arrived("debate", p.debateId, local);
        touch("background_debates", key, [p.topic, p.summary, p.outcome]);
        break;
      }
      case "LoreImported": {
        const table = this.items.lore;
        const p = e.payload;
        const chunks = new Map<string, (typeof p.chunks)[number]>(
          p.chunks.map((c) => [c.chunkId, c]),
        );
        for (const c of changes) {
          if (c.type === "removed") {
            const local = table.localOfRowid.get(c.key);
            if (local !== undefined && table.kill(local) >= 0) touch("lore", c.key, null);
            continue;
          }
          const chunk = chunks.get(c.id)!;
          this.addLore({
            rowid: c.key,
            id: c.id,
            source_id: p.sourceId,
            entities: chunk.entities,
            heading_path: json(chunk.headingPath),
            text: chunk.text,
          });
          touch("lore", c.key, [json(chunk.headingPath), chunk.text]);
        }
        break;
      }
      case "ConversationSummarized": {
        const p = e.payload;
        const key = this.keys.keyOf("conversation_summaries", pairId(p.conversationId, p.npcId));
        if (key === undefined) break;
        this.addSummary({
          rowid: key,
          conversation_id: p.conversationId,
          npc_id: p.npcId,
          partner_id: p.partnerId,
          t: e.t,
          summary: p.summary,
        });
        touch("conversation_summaries", key, [p.summary]);
        break;
      }
      case "ConversationTurn": {
        const key = added(changes, "conversation_turns");
        const p = e.payload;
        if (key === undefined) break;
        // The row the store writes (`conversation_turns`), for the dossiers' dialogue.
        const row: TurnRow = {
          conversation_id: p.conversationId,
          turn_index: p.turnIndex,
          speaker_id: p.speakerId,
          text: p.text,
          t: e.t,
        };
        this.addTurn(key, e.t, p.speakerId, p.listenerIds, row);
        break;
      }
      case "RelationshipChanged":
        this.relate(e.payload.fromId, e.payload.toId);
        break;
      case "ThreadOpened": {
        const p = e.payload;
        this.threads.opened(threadRow(p.threadId, p.kind, p.text, p.npcIds, e.t));
        break;
      }
      case "ThreadClosed":
        this.threads.closed(e.payload.threadId, e.t);
        break;
      default:
        break;
    }
    this.seq = e.seq;
  }

  /** Writes one change core's knowledge fold reported into the view's tables and lists. */
  private foldKnowledge(c: KnowledgeChange, e: StoredEvent, touch: Touch) {
    switch (c.type) {
      case "recorded": {
        const key = this.keys.keyOf("memories", c.memoryId);
        if (key === undefined || e.type !== "MemoryRecorded") return;
        const p = e.payload;
        const local = this.addMemory({
          rowid: key,
          id: p.memoryId,
          owner_npc_id: p.ownerNpcId,
          recorded_at: e.t,
          expires_at: p.expiresAt,
          gone_at: null,
          location_id: p.locationId,
          importance: p.importance,
          entities: p.entities,
          about_kind: p.about?.kind ?? null,
          about_id: p.about?.id ?? null,
          text: p.text,
        });
        this.facts.arrived("memory", c.memoryId, local);
        touch("memories", key, [p.text]);
        return;
      }
      case "died": {
        const local = this.items.memories.localOf(c.memoryId);
        if (local !== undefined) this.items.memories.setGone(local, c.t);
        return;
      }
      case "fact":
        if (c.itemKind === "thread") {
          this.threads.learn(c.npcId, c.itemId, c.fact.t);
          return;
        }
        this.learn(c.itemKind, c.itemId, this.npcs.intern(c.npcId), c.fact.t);
        return;
    }
  }

  // --- the rule ----------------------------------------------------------------------

  /** The NPC's facts of one kind (undefined when it has none). */
  knownList(npc: number, kind: FactKind): KnownList | undefined {
    return this.facts.list(npc, kind);
  }

  /** Items of one kind known by many NPCs (`KnowledgeIndex.common`), as locals. */
  commonItems(kind: FactKind): ReadonlyArray<number> {
    return this.facts.common(kind);
  }

  /**
   * {@link knows} for one NPC, collection and time, with the NPC's fact list looked up
   * once: the predicate a search applies to thousands of candidates.
   */
  knower(npc: number, c: CollectionName, t: number): (local: number) => boolean {
    const kind = c === "memories" ? "memory" : c === "world_events" ? "world_event" : null;
    if (kind === null) return (local) => this.knows(npc, c, local, t);
    const table = this.items[c];
    const list = this.facts.list(npc, kind);
    if (!list) return () => false;
    return (local) => {
      if (local < 0 || local >= table.length || table.dead[local]) return false;
      const ft = list.timeOf(local);
      return ft >= 0 && ft <= t && table.aliveAt(local, t);
    };
  }

  /**
   * Does the NPC know item `local` of collection `c` at `t`? The same rule as core's
   * `knows` and the store's `knowsAt`: a fact at or before `t` (memories also alive at
   * `t`, world events not lapsed by `t`); lore is public; a conversation summary is known
   * to its holder once written.
   */
  knows(npc: number, c: CollectionName, local: number, t: number): boolean {
    const table = this.items[c];
    if (local < 0 || local >= table.length || table.dead[local]) return false;
    switch (c) {
      case "lore":
        return true;
      case "conversation_summaries":
        return table.owner[local] === npc && table.t[local]! <= t;
      case "memories": {
        const ft = this.facts.list(npc, "memory")?.timeOf(local) ?? -1;
        return ft >= 0 && ft <= t && table.aliveAt(local, t);
      }
      case "world_events": {
        const ft = this.facts.list(npc, "world_event")?.timeOf(local) ?? -1;
        return ft >= 0 && ft <= t && table.aliveAt(local, t);
      }
      case "background_debates": {
        const ft = this.facts.list(npc, "debate")?.timeOf(local) ?? -1;
        return ft >= 0 && ft <= t;
      }
    }
  }
}

/** Records a touched row: its collection, rowid and embedded columns (null: removed). */
type Touch = (c: CollectionName, rowid: number, values: ReadonlyArray<unknown> | null) => void;

/** The key a change list gave a new row of `table`, if it made one. */
const added = (changes: ReadonlyArray<KeyChange>, table: KeyedTable): number | undefined => {
  for (const c of changes) if (c.type === "added" && c.table === table) return c.key;
  return undefined;
};
