/**
 * How a candidate is ranked. Every candidate has already passed the knowledge filter
 * (visibility is never a score); scoring only orders what the NPC may know. A score is
 * a sum of configurable weights for exact signals (same NPC, related NPC, faction,
 * location, entity mention, active task, importance, recency) plus weighted semantic
 * similarity and keyword relevance, minus a penalty for stale items.
 */
import { MINUTES_PER_DAY } from "@hearsay/core";

/** Weights of each signal (defaults from the retrieval design). */
export interface ScoreWeights {
  readonly sameNpc: number;
  readonly relatedNpc: number;
  readonly sameFaction: number;
  readonly sameLocation: number;
  readonly entityMention: number;
  readonly activeTask: number;
  readonly highImportance: number;
  readonly recent: number;
  /** Multiplies cosine similarity in [0, 1]. */
  readonly semantic: number;
  /** Multiplies keyword relevance in [0, 1] (1 = best bm25 match of the query). */
  readonly keyword: number;
  /** Added (it is negative) when an item is stale. */
  readonly stale: number;
}

export const defaultScoreWeights: ScoreWeights = {
  sameNpc: 50,
  relatedNpc: 35,
  sameFaction: 30,
  sameLocation: 25,
  entityMention: 25,
  activeTask: 20,
  highImportance: 20,
  recent: 15,
  semantic: 40,
  keyword: 15,
  stale: -20,
};

/** Thresholds that turn raw item facts into signals. */
export interface ScoringOptions {
  readonly weights: ScoreWeights;
  /** Importance at or above this earns `highImportance`. */
  readonly highImportance: number;
  /** Items younger than this (game minutes) earn `recent`. */
  readonly recentMinutes: number;
  /** Items older than this (game minutes) are stale. */
  readonly staleMinutes: number;
}

export const defaultScoringOptions: ScoringOptions = {
  weights: defaultScoreWeights,
  highImportance: 0.7,
  recentMinutes: MINUTES_PER_DAY,
  staleMinutes: 14 * MINUTES_PER_DAY,
};

/** What is known about one candidate relative to the asking NPC. */
export interface ScoreSignals {
  readonly sameNpc: boolean;
  readonly relatedNpc: boolean;
  readonly sameFaction: boolean;
  readonly sameLocation: boolean;
  readonly entityMention: boolean;
  readonly activeTask: boolean;
  /** 0..1. */
  readonly importance: number;
  /** Game minutes since the item happened (or was recorded). */
  readonly ageMinutes: number;
  /** Cosine similarity to the query (0 when there is none). */
  readonly similarity: number;
  /** Keyword relevance 0..1 (0 when the item did not match). */
  readonly keyword: number;
  /** True when the item is stale for another reason (a task that failed or expired). */
  readonly expired: boolean;
}

/** The score of one candidate: higher is more relevant. */
export const scoreCandidate = (
  s: ScoreSignals,
  o: ScoringOptions = defaultScoringOptions,
): number => scoreFrom(scoreBase(s, o), s.similarity, s.keyword, o);

/**
 * What a score adds before similarity and keyword relevance: a search ranking many
 * candidates works it out once each, whether or not it then needs their cosines.
 */
export const scoreBase = (
  s: Omit<ScoreSignals, "similarity" | "keyword">,
  o: ScoringOptions = defaultScoringOptions,
): number => {
  const w = o.weights;
  let score = 0;
  if (s.sameNpc) score += w.sameNpc;
  if (s.relatedNpc) score += w.relatedNpc;
  if (s.sameFaction) score += w.sameFaction;
  if (s.sameLocation) score += w.sameLocation;
  if (s.entityMention) score += w.entityMention;
  if (s.activeTask) score += w.activeTask;
  if (s.importance >= o.highImportance) score += w.highImportance;
  if (s.ageMinutes <= o.recentMinutes) score += w.recent;
  if (s.expired || s.ageMinutes > o.staleMinutes) score += w.stale;
  return score;
};

/** A score from its {@link scoreBase}: similarity, then keyword relevance, added in that order. */
export const scoreFrom = (
  base: number,
  similarity: number,
  keyword: number,
  o: ScoringOptions = defaultScoringOptions,
): number =>
  base +
  o.weights.semantic * Math.max(0, similarity) +
  o.weights.keyword * Math.min(1, Math.max(0, keyword));
