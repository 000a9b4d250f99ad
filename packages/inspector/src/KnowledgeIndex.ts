/**
 * Who knew what after any seq: per item, every change core's knowledge fold
 * (`knowledgeStep`) reported to an NPC's fact about it — a first fact (a KnowledgeGained,
 * or the owner's record of a memory) or an earlier one — tagged with its seq, so
 * stepping event by event is exact. The index stores what the fold says and decides
 * nothing (test/KnowledgeAgreement.test.ts holds it to the fold). It keeps who came to
 * know an item, not whether the item still lives: a memory's knowers stay after it goes.
 */
import type {
  GameTime,
  ItemKind,
  KnowledgeChange,
  KnowledgeEvent,
  KnowledgeState,
  NpcId,
} from "@hearsay/core";
import { knowledgeEventTypes, knowledgeStep } from "@hearsay/core";
import type { SqliteDatabase, SqliteStatement } from "@hearsay/store";
import { SeqSeries } from "./SeqSeries.ts";

/** One NPC's fact about an item, as of the seq that set it. */
export interface Fact {
  readonly seq: number;
  readonly t: number;
  readonly npcId: string;
  readonly via: string;
  readonly fromNpcId: string | null;
  readonly confidence: number;
}

interface ItemHistory {
  /** Every change to an NPC's fact about the item, in seq order. */
  readonly changes: Array<Fact>;
  /** The seqs at which an NPC first came to know it, in order. */
  readonly firsts: Array<number>;
}

/** The last index of `xs` whose seq is at or before `seq` (-1: none). */
const lastAtOrBefore = <A>(xs: ReadonlyArray<A>, seqOf: (x: A) => number, seq: number): number => {
  let lo = 0;
  let hi = xs.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (seqOf(xs[mid]!) <= seq) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
};

const bySeq = (f: Fact) => f.seq;
const itself = (s: number) => s;

/**
 * The payload fields `asEvent` reads, in its column order, each with the event types it
 * is read from: SQLite pulls a field out of the rows of those types only.
 */
const fields: ReadonlyArray<readonly [string, ReadonlyArray<KnowledgeEvent["type"]>]> = [
  ["npcId", ["KnowledgeGained"]],
  ["itemKind", ["KnowledgeGained"]],
  ["itemId", ["KnowledgeGained"]],
  ["via", ["KnowledgeGained"]],
  ["fromNpcId", ["KnowledgeGained"]],
  ["confidence", ["KnowledgeGained"]],
  ["memoryId", ["MemoryRecorded", "MemoryExpired"]],
  ["ownerNpcId", ["MemoryRecorded"]],
  ["expiresAt", ["MemoryRecorded"]],
  ["worldEventId", ["WorldEventOccurred"]],
  ["lapsesAt", ["WorldEventOccurred"]],
];

const statements = new WeakMap<SqliteDatabase, SqliteStatement>();

/** The knowledge events of one save's own rows in [from, to], in seq order, fields pulled by SQLite. */
const knowledgeRows = (
  db: SqliteDatabase,
  saveId: string,
  from: number,
  to: number,
): IterableIterator<Array<unknown>> => {
  let stmt = statements.get(db);
  if (!stmt) {
    const cols = fields
      .map(
        ([f, types]) =>
          `CASE type ${types.map((t) => `WHEN '${t}' THEN json_extract(payload, '$.${f}')`).join(" ")} END`,
      )
      .join(", ");
    const types = knowledgeEventTypes.map((t) => `'${t}'`).join(", ");
    stmt = db
      .prepare(
        `SELECT seq, t, type, ${cols} FROM events
         WHERE save_id = ? AND type IN (${types}) AND seq >= ? AND seq <= ? ORDER BY seq`,
      )
      .raw(true) as SqliteStatement;
    statements.set(db, stmt);
  }
  return stmt.iterate(saveId, from, to) as IterableIterator<Array<unknown>>;
};

/** A row of `knowledgeRows` as the event core's fold reads. */
const asEvent = (r: ReadonlyArray<unknown>): KnowledgeEvent => {
  const [, t, type, npcId, itemKind, itemId, via, fromNpcId, confidence, memoryId, owner, exp] = r;
  const [worldEventId, lapsesAt] = r.slice(12);
  const at = t as GameTime;
  if (type === "KnowledgeGained") {
    return {
      type,
      t: at,
      payload: {
        npcId: npcId as NpcId,
        itemKind: itemKind as ItemKind,
        itemId: itemId as string,
        via: via as never,
        fromNpcId: fromNpcId as NpcId | null,
        confidence: confidence as number,
      },
    };
  }
  if (type === "MemoryRecorded") {
    return {
      type,
      t: at,
      payload: {
        memoryId: memoryId as never,
        ownerNpcId: owner as NpcId,
        expiresAt: exp as GameTime | null,
      },
    };
  }
  if (type === "WorldEventOccurred") {
    return {
      type,
      t: at,
      payload: {
        worldEventId: worldEventId as never,
        lapsesAt: (lapsesAt ?? null) as GameTime | null,
      },
    };
  }
  return { type: "MemoryExpired", t: at, payload: { memoryId: memoryId as never } };
};

export class KnowledgeIndex implements KnowledgeState {
  private readonly byItem = new Map<string, ItemHistory>();
  /** `kind:id` NUL npc → the time of the NPC's fact now. */
  private readonly current = new Map<string, number>();
  private readonly recorded = new Set<string>();
  private readonly gone = new Set<string>();
  private readonly lapsing = new Set<string>();
  /** Running count of first facts. */
  readonly total = new SeqSeries(1, 1024);
  /** Running count of memories recorded and not yet gone (expiresAt aside: no event marks it). */
  readonly liveMemories = new SeqSeries(1, 1024);

  factTime(npc: NpcId, kind: ItemKind, id: string): GameTime | undefined {
    return this.current.get(`${kind}:${id}\u0000${npc}`) as GameTime | undefined;
  }

  memoryRecorded(id: string): boolean {
    return this.recorded.has(id);
  }

  memoryGone(id: string): boolean {
    return this.gone.has(id);
  }

  /** World events are read for their lapse only, which history ignores (see `write`). */
  worldEventRecorded(id: string): boolean {
    return this.lapsing.has(id);
  }

  /** Folds the save's own knowledge events with seq in [fromSeq, toSeq] (after those before). */
  ingest(db: SqliteDatabase, saveId: string, fromSeq: number, toSeq: number): void {
    for (const r of knowledgeRows(db, saveId, fromSeq, toSeq)) {
      const seq = r[0] as number;
      for (const c of knowledgeStep(this, asEvent(r))) this.write(seq, c);
    }
  }

  private write(seq: number, c: KnowledgeChange): void {
    switch (c.type) {
      case "recorded":
        this.recorded.add(c.memoryId);
        this.liveMemories.pushDelta(seq, 1);
        return;
      case "died":
        this.gone.add(c.memoryId);
        this.liveMemories.pushDelta(seq, -1);
        return;
      case "lapses":
        // Who knew what stays history when the news lapses: only noted, so a repeat is
        // told apart from the first record.
        this.lapsing.add(c.worldEventId);
        return;
      case "fact": {
        const item = `${c.itemKind}:${c.itemId}`;
        this.current.set(`${item}\u0000${c.npcId}`, c.fact.t);
        let h = this.byItem.get(item);
        if (!h) {
          h = { changes: [], firsts: [] };
          this.byItem.set(item, h);
        }
        const f = c.fact;
        h.changes.push({
          seq,
          t: f.t,
          npcId: c.npcId,
          via: f.via,
          fromNpcId: f.fromNpcId,
          confidence: f.confidence,
        });
        if (c.first) {
          h.firsts.push(seq);
          this.total.pushDelta(seq, 1);
        }
        return;
      }
    }
  }

  /** Each NPC's fact about `kind:id` as of `seq`, in the order they came to know it. */
  knowers(kind: string, id: string, seq: number): ReadonlyArray<Fact> {
    const changes = this.byItem.get(`${kind}:${id}`)?.changes ?? [];
    const now = new Map<string, Fact>();
    const last = lastAtOrBefore(changes, bySeq, seq);
    for (let i = 0; i <= last; i++) now.set(changes[i]!.npcId, changes[i]!);
    return [...now.values()];
  }

  /** How many NPCs knew `kind:id` at `seq`. */
  count(kind: string, id: string, seq: number): number {
    return lastAtOrBefore(this.byItem.get(`${kind}:${id}`)?.firsts ?? [], itself, seq) + 1;
  }

  /** The NPC's fact about `kind:id` as of `seq`, if any. */
  factOf(kind: string, id: string, npcId: string, seq: number): Fact | undefined {
    const changes = this.byItem.get(`${kind}:${id}`)?.changes ?? [];
    for (let i = lastAtOrBefore(changes, bySeq, seq); i >= 0; i--) {
      if (changes[i]!.npcId === npcId) return changes[i];
    }
    return undefined;
  }

  /** Every item known by anyone, as `kind:id` keys. */
  items(): IterableIterator<string> {
    return this.byItem.keys();
  }
}
