/**
 * What an NPC forgets, decided from its live memories alone: memories whose lifetime has
 * ended, memories whose importance has faded below the run's threshold (`MemoryDecay`),
 * and — beyond its cap — the least important, oldest first (then by id, so the choice
 * never depends on the order they are held in). Identity memories are pinned: neither a
 * cap nor decay drops who an NPC is.
 */
import type { GameTime, MemoryId } from "@hearsay/core";
import { fadedTo, fadesOutAt, halfLifeMinutes, type MemoryDecay } from "./MemoryDecay.ts";
import type { LiveMemory, NpcFacts } from "./NpcFacts.ts";

/** Why a memory goes: the `reason` of the MemoryExpired it is logged as. */
export type ForgetReason = "expired" | "forgotten" | "capped";

/**
 * When a memory goes by itself, as a number, for a memory whose half-life the caller has:
 * the earlier of its lifetime's end and the time it fades below the threshold (its
 * lifetime wins a tie); Infinity when it stays until a cap. The scans over every memory of
 * an NPC use it: no object per memory, and one half-life lookup shared with what they read
 * of its importance.
 */
const endTime = (m: LiveMemory, decay: MemoryDecay, half: number | null): number => {
  const fades = fadesOutAt(decay, m, half);
  if (m.expiresAt !== null && (fades === null || m.expiresAt <= fades)) return m.expiresAt;
  return fades === null ? Number.POSITIVE_INFINITY : fades;
};

/** Why a memory that ends at `at` (`endTime`) goes: its lifetime's end wins a tie. */
const reasonAt = (m: LiveMemory, at: number): "expired" | "forgotten" =>
  at === m.expiresAt ? "expired" : "forgotten";

/** When a memory goes by itself (`endTime`), and why. Null: it stays until a cap. */
export const endOf = (
  m: LiveMemory,
  decay: MemoryDecay,
): { readonly at: GameTime; readonly reason: "expired" | "forgotten" } | null => {
  const at = endTime(m, decay, halfLifeMinutes(decay, m));
  return at === Number.POSITIVE_INFINITY ? null : { at: at as GameTime, reason: reasonAt(m, at) };
};

/**
 * Whether a memory has ended by `t` (`endOf`): its lifetime ran out or it faded away.
 * The daily maintenance job removes it; until then nothing else counts it — a cap
 * neither keeps nor drops it, and reading it does not reinforce it.
 */
export const endedAt = (m: LiveMemory, decay: MemoryDecay, t: GameTime): boolean =>
  endTime(m, decay, halfLifeMinutes(decay, m)) <= t;

/** Memories that end (`endOf`) at or before `t`, each with why, in id order. */
export const endedBy = (
  memories: ReadonlyMap<MemoryId, LiveMemory>,
  t: GameTime,
  decay: MemoryDecay,
): Array<{ readonly memoryId: MemoryId; readonly reason: "expired" | "forgotten" }> =>
  endsAround(memories, t, decay).ended;

/** The first time after `t` one of `memories` ends (`endOf`), or null when none will. */
export const nextEndAfter = (
  memories: ReadonlyMap<MemoryId, LiveMemory>,
  t: GameTime,
  decay: MemoryDecay,
): GameTime | null => endsAround(memories, t, decay).next;

/** `endedBy` and `nextEndAfter` in one pass over the memories. */
const endsAround = (
  memories: ReadonlyMap<MemoryId, LiveMemory>,
  t: GameTime,
  decay: MemoryDecay,
): {
  readonly ended: Array<{ readonly memoryId: MemoryId; readonly reason: "expired" | "forgotten" }>;
  readonly next: GameTime | null;
} => {
  const ended: Array<{ memoryId: MemoryId; reason: "expired" | "forgotten" }> = [];
  let next = Number.POSITIVE_INFINITY;
  memories.forEach((m, memoryId) => {
    const at = endTime(m, decay, halfLifeMinutes(decay, m));
    if (at <= t) ended.push({ memoryId, reason: reasonAt(m, at) });
    else if (at < next) next = at;
  });
  ended.sort((a, b) => (a.memoryId < b.memoryId ? -1 : a.memoryId > b.memoryId ? 1 : 0));
  return { ended, next: next === Number.POSITIVE_INFINITY ? null : (next as GameTime) };
};

/** Memories whose lifetime ended at or before `t`, in id order. */
export const expiredBy = (
  memories: ReadonlyMap<MemoryId, LiveMemory>,
  t: GameTime,
): Array<MemoryId> => {
  const out: Array<MemoryId> = [];
  for (const [id, m] of memories) if (m.expiresAt !== null && m.expiresAt <= t) out.push(id);
  return out.sort();
};

/** The first time after `t` one of `memories` expires, or null when none will. */
export const nextExpiryAfter = (
  memories: ReadonlyMap<MemoryId, LiveMemory>,
  t: GameTime,
): GameTime | null => {
  let next: GameTime | null = null;
  for (const m of memories.values())
    if (m.expiresAt !== null && m.expiresAt > t && (next === null || m.expiresAt < next))
      next = m.expiresAt;
  return next;
};

/** When, and under which decay, a cap ranks memories: by what each matters then. */
export interface RankedAt {
  readonly t: GameTime;
  readonly decay: MemoryDecay;
}

/**
 * The memories a cap of `cap` drops at `at.t`: lowest importance then (as faded since its
 * last reinforcement) first, then oldest, then id. Memories that ended by then
 * (`endedAt`) are the daily job's: the cap counts only the others.
 */
export const cappedOut = (
  memories: ReadonlyMap<MemoryId, LiveMemory>,
  cap: number,
  at: RankedAt,
): Array<MemoryId> => {
  // Ended memories only lower the excess: it is at most `over`.
  const over = memories.size - cap;
  if (over <= 0) return [];
  // Few to drop (a cap at its limit drops one or two of some fifty): keep the `over`
  // lowest in rank order as the scan goes, so a memory that ranks above them all costs a
  // comparison, not an entry in a list of every memory.
  const keep = over <= PICK_AT_MOST ? over : Number.POSITIVE_INFINITY;
  let live = 0;
  const order: Array<Ranked> = [];
  memories.forEach((m, id) => {
    const half = halfLifeMinutes(at.decay, m);
    if (endTime(m, at.decay, half) <= at.t) return;
    live += 1;
    if (m.pinned) return;
    const faded = fadedTo(m, half, at.t);
    const last = order.length === keep ? order[keep - 1]! : undefined;
    if (last !== undefined && rankOrder(id, m, faded, last[0], last[1], last[2]) >= 0) return;
    insertRanked(order, keep, [id, m, faded]);
  });
  const excess = live - cap;
  if (excess <= 0) return [];
  if (keep === Number.POSITIVE_INFINITY) order.sort(byRank);
  return order.slice(0, excess).map(([id]) => id);
};

/** A memory a cap may drop, with what it matters at the cap's time. */
type Ranked = [MemoryId, LiveMemory, number];

/** The cap's order: least important then, then oldest, then id (a total order). */
const byRank = ([ida, a, ia]: Ranked, [idb, b, ib]: Ranked): number =>
  rankOrder(ida, a, ia, idb, b, ib);

/**
 * The cap's order of two memories, by what they matter at its time, then the older, then
 * the id: below zero when the first goes first. Taken apart so a scan can compare a
 * memory with the last kept before making it a `Ranked`.
 */
const rankOrder = (
  ida: MemoryId,
  a: LiveMemory,
  ia: number,
  idb: MemoryId,
  b: LiveMemory,
  ib: number,
): number => ia - ib || a.recordedAt - b.recordedAt || (ida < idb ? -1 : ida > idb ? 1 : 0);

/** Below this many to drop, picking them beats sorting them all. */
const PICK_AT_MOST = 8;

/**
 * Puts `r` into `order`, kept in `byRank`'s order when `keep` is finite (then at most
 * `keep` long: the last falls off when full) and unsorted otherwise.
 */
const insertRanked = (order: Array<Ranked>, keep: number, r: Ranked): void => {
  if (keep === Number.POSITIVE_INFINITY) {
    order.push(r);
    return;
  }
  let i = order.length === keep ? keep - 1 : order.length;
  while (i > 0 && byRank(r, order[i - 1]!) < 0) {
    order[i] = order[i - 1]!;
    i -= 1;
  }
  order[i] = r;
};

/**
 * Whether a memory of `importance` arriving at `at.t` would be the first a cap at that
 * time drops, so recording it changes nothing that survives the cap. True when the NPC
 * holds at least its cap and the newcomer matters strictly less than every memory a cap
 * may drop matters then; then, however many memories arrive after it before the cap,
 * the cap's excess reaches it (it is the newest, and only later arrivals can rank below
 * it). An NPC over its cap must already be due a cap (`dueACap`), or a lowered cap would
 * first trim it when the memory arrives. Pinned memories are always recorded. Memories
 * that ended by then count for nothing (`cappedOut` passes them over).
 */
export const droppedOnArrival = (
  memories: ReadonlyMap<MemoryId, LiveMemory>,
  cap: number,
  dueACap: boolean,
  arriving: { readonly pinned: boolean; readonly importance: number },
  at: RankedAt,
): boolean => {
  // One that arrives already faded away is the daily job's to forget, like any ended one.
  if (arriving.pinned || memories.size < cap || arriving.importance < at.decay.forgetBelow)
    return false;
  let size = 0;
  for (const m of memories.values()) {
    const half = halfLifeMinutes(at.decay, m);
    if (endTime(m, at.decay, half) <= at.t) continue;
    size += 1;
    if (!m.pinned && fadedTo(m, half, at.t) <= arriving.importance) return false;
  }
  return size >= cap && (size === cap || dueACap);
};

/** What an NPC forgets on being asked: what ran out by `t`, or what a cap of `cap` drops. */
export type ForgetAsk =
  | { readonly type: "EXPIRE"; readonly t: GameTime; readonly decay: MemoryDecay }
  | {
      readonly type: "CAP";
      readonly t: GameTime;
      readonly cap: number;
      readonly decay: MemoryDecay;
    };

export interface Forgetting {
  readonly type: "forget";
  /** In id order (an EXPIRE: expired or forgotten) or drop order (a CAP: capped). */
  readonly memories: ReadonlyArray<{ readonly memoryId: MemoryId; readonly reason: ForgetReason }>;
  /** After an EXPIRE: when its next memory ends (null: none will, or a CAP). */
  readonly nextExpiry: GameTime | null;
}

/** The answer to a `ForgetAsk`: the npc machine's, and the same for an NPC with no actor. */
export const forgetting = (facts: NpcFacts, ask: ForgetAsk): Forgetting => {
  if (ask.type === "EXPIRE") {
    const { ended, next } = endsAround(facts.memories, ask.t, ask.decay);
    return { type: "forget", memories: ended, nextExpiry: next };
  }
  return {
    type: "forget",
    memories: cappedOut(facts.memories, ask.cap, ask).map((memoryId) => ({
      memoryId,
      reason: "capped" as const,
    })),
    nextExpiry: null,
  };
};
