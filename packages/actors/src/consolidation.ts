/**
 * Which of an NPC's memories its periodic consolidation puts together, and what the one
 * memory they become is worth — decided from its live memories alone, like its cap.
 *
 * A memory's subject is what it is about (`about`), except a memory of a one-off
 * occasion — a scene, a talk — which is about the place it happened (each occasion is
 * its own `about`, so nothing else would ever share it): old evenings at the tavern are
 * put together as what the NPC keeps of the tavern.
 *
 * A memory is a candidate when it has a subject, is neither pinned nor a
 * promise or a secret (threads and talk refer to those by themselves), was recorded at
 * least `olderThanDays` ago, has not run out, and has faded below `below` but not below
 * the forgetting threshold (the daily job forgets those). Candidates about one subject
 * form a group once there are `minSources` of them (at least two); a group takes its
 * oldest `maxSources` (never fewer than `minSources`), and an NPC puts together at most `perNpc` groups per run of the job, the
 * largest first (then by subject), so a job's cost is bounded per NPC.
 */
import type { GameTime, MemoryCategory, MemoryId } from "@hearsay/core";
import { MINUTES_PER_DAY } from "@hearsay/core";
import { importanceAt, type MemoryDecay } from "./MemoryDecay.ts";
import type { LiveMemory } from "./NpcFacts.ts";

/** The consolidation rules a run uses (engine config `consolidation`). */
export interface Consolidation {
  /** Game days between two runs of the job (0: never). */
  readonly everyDays: number;
  /** The hour of the day it runs at. */
  readonly hour: number;
  readonly olderThanDays: number;
  readonly below: number;
  readonly minSources: number;
  readonly maxSources: number;
  readonly perNpc: number;
}

export const defaultConsolidation: Consolidation = {
  everyDays: 7,
  hour: 4,
  olderThanDays: 5,
  below: 0.35,
  minSources: 3,
  maxSources: 8,
  perNpc: 2,
};

/** Categories a consolidation never takes: who an NPC is, what it promised or keeps secret. */
const KEPT_APART: ReadonlySet<MemoryCategory> = new Set(["identity", "promise", "secret"]);

/** One group to put together: its subject and its sources, oldest first. */
export interface ConsolidationGroup {
  readonly about: { readonly kind: string; readonly id: string };
  readonly sources: ReadonlyArray<MemoryId>;
}

/** Occasions that happen once: their memories are about where they happened. */
const OCCASIONS: ReadonlySet<string> = new Set(["scene", "conversation"]);

/** What a memory is about, for putting memories together (null: nothing). */
export const subjectOf = (m: LiveMemory): { readonly kind: string; readonly id: string } | null =>
  m.about !== null && OCCASIONS.has(m.about.kind) && m.locationId !== null
    ? { kind: "location", id: m.locationId }
    : m.about;

const byAge = ([ida, a]: [MemoryId, LiveMemory], [idb, b]: [MemoryId, LiveMemory]): number =>
  a.recordedAt - b.recordedAt || (ida < idb ? -1 : ida > idb ? 1 : 0);

/** Whether `m` may be put together with others at `t`. */
export const consolidates = (
  m: LiveMemory,
  t: GameTime,
  decay: MemoryDecay,
  rules: Consolidation,
): boolean => {
  if (m.pinned || KEPT_APART.has(m.category) || subjectOf(m) === null) return false;
  if (t - m.recordedAt < rules.olderThanDays * MINUTES_PER_DAY) return false;
  if (m.expiresAt !== null && m.expiresAt <= t) return false;
  const now = importanceAt(decay, m, t);
  return now < rules.below && now >= decay.forgetBelow;
};

/** The groups an NPC holding `memories` puts together at `t`. */
export const consolidationGroups = (
  memories: ReadonlyMap<MemoryId, LiveMemory>,
  t: GameTime,
  decay: MemoryDecay,
  rules: Consolidation,
): ReadonlyArray<ConsolidationGroup> => {
  if (rules.perNpc <= 0) return [];
  const bySubject = new Map<string, Array<[MemoryId, LiveMemory]>>();
  for (const entry of memories) {
    if (!consolidates(entry[1], t, decay, rules)) continue;
    const about = subjectOf(entry[1])!;
    const key = `${about.kind}\u0000${about.id}`;
    const group = bySubject.get(key);
    if (group === undefined) bySubject.set(key, [entry]);
    else group.push(entry);
  }
  const groups: Array<{ key: string; members: Array<[MemoryId, LiveMemory]> }> = [];
  for (const [key, members] of bySubject)
    if (members.length >= Math.max(2, rules.minSources)) groups.push({ key, members });
  groups.sort((a, b) => b.members.length - a.members.length || (a.key < b.key ? -1 : 1));
  return groups.slice(0, rules.perNpc).map(({ members }) => {
    // Never fewer than the group needs, whatever `maxSources` says.
    const take = Math.max(2, rules.minSources, rules.maxSources);
    const sources = members.sort(byAge).slice(0, take);
    return { about: subjectOf(sources[0]![1])!, sources: sources.map(([id]) => id) };
  });
};

/** What the one memory a group becomes is recorded with. */
export interface Consolidated {
  readonly category: MemoryCategory;
  readonly importance: number;
  readonly expiresAt: GameTime | null;
}

/**
 * The consolidated memory's numbers: the category most of its sources have (a tie goes
 * to the one the oldest source has), the highest importance any of them has at `t` (it
 * matters as much as the most it summarises, no more), and the latest of their ends
 * (none when one of them never runs out).
 */
export const consolidatedOf = (
  sources: ReadonlyArray<LiveMemory>,
  t: GameTime,
  decay: MemoryDecay,
): Consolidated => {
  const counts = new Map<MemoryCategory, number>();
  for (const m of sources) counts.set(m.category, (counts.get(m.category) ?? 0) + 1);
  let category = sources[0]!.category;
  for (const m of sources)
    if (counts.get(m.category)! > counts.get(category)!) category = m.category;
  let importance = 0;
  let expiresAt: number | null = 0;
  for (const m of sources) {
    importance = Math.max(importance, importanceAt(decay, m, t));
    expiresAt =
      expiresAt === null || m.expiresAt === null ? null : Math.max(expiresAt, m.expiresAt);
  }
  return { category, importance, expiresAt: expiresAt as GameTime | null };
};
