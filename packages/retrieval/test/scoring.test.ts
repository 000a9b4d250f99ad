import {
  defaultScoreWeights,
  defaultScoringOptions,
  type ScoreSignals,
  type ScoringOptions,
  scoreBase,
  scoreCandidate,
  scoreFrom,
} from "@hearsay/retrieval";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** Every signal's weight added one by one, left to right, in the order a score has always added them. */
const oneByOne = (s: ScoreSignals, o: ScoringOptions): number => {
  const w = o.weights;
  const terms: ReadonlyArray<number> = [
    s.sameNpc ? w.sameNpc : 0,
    s.relatedNpc ? w.relatedNpc : 0,
    s.sameFaction ? w.sameFaction : 0,
    s.sameLocation ? w.sameLocation : 0,
    s.entityMention ? w.entityMention : 0,
    s.activeTask ? w.activeTask : 0,
    s.importance >= o.highImportance ? w.highImportance : 0,
    s.ageMinutes <= o.recentMinutes ? w.recent : 0,
    s.expired || s.ageMinutes > o.staleMinutes ? w.stale : 0,
    w.semantic * Math.max(0, s.similarity),
    w.keyword * Math.min(1, Math.max(0, s.keyword)),
  ];
  return terms.reduce((sum, x) => sum + x, 0);
};

const weight = fc.double({ min: -100, max: 100, noNaN: true });
const arbOptions = fc.record({
  weights: fc.record({
    sameNpc: weight,
    relatedNpc: weight,
    sameFaction: weight,
    sameLocation: weight,
    entityMention: weight,
    activeTask: weight,
    highImportance: weight,
    recent: weight,
    semantic: weight,
    keyword: weight,
    stale: weight,
  }),
  highImportance: fc.double({ min: 0, max: 1, noNaN: true }),
  recentMinutes: fc.integer({ min: 0, max: 5000 }),
  staleMinutes: fc.integer({ min: 0, max: 50_000 }),
});
const arbSignals = fc.record({
  sameNpc: fc.boolean(),
  relatedNpc: fc.boolean(),
  sameFaction: fc.boolean(),
  sameLocation: fc.boolean(),
  entityMention: fc.boolean(),
  activeTask: fc.boolean(),
  importance: fc.double({ min: 0, max: 1, noNaN: true }),
  ageMinutes: fc.integer({ min: 0, max: 60_000 }),
  similarity: fc.double({ min: -1, max: 1.001, noNaN: true }),
  keyword: fc.double({ min: 0, max: 2, noNaN: true }),
  expired: fc.boolean(),
});

const none: ScoreSignals = {
  sameNpc: false,
  relatedNpc: false,
  sameFaction: false,
  sameLocation: false,
  entityMention: false,
  activeTask: false,
  importance: 0,
  ageMinutes: 2 * 1440,
  similarity: 0,
  keyword: 0,
  expired: false,
};

describe("scoreCandidate", () => {
  it("adds each signal's default weight", () => {
    const w = defaultScoreWeights;
    expect(scoreCandidate(none)).toBe(0);
    expect(scoreCandidate({ ...none, sameNpc: true })).toBe(50);
    expect(scoreCandidate({ ...none, relatedNpc: true })).toBe(35);
    expect(scoreCandidate({ ...none, sameFaction: true })).toBe(30);
    expect(scoreCandidate({ ...none, sameLocation: true })).toBe(25);
    expect(scoreCandidate({ ...none, entityMention: true })).toBe(25);
    expect(scoreCandidate({ ...none, activeTask: true })).toBe(20);
    expect(scoreCandidate({ ...none, importance: 0.7 })).toBe(20);
    expect(scoreCandidate({ ...none, importance: 0.69 })).toBe(0);
    expect(scoreCandidate({ ...none, ageMinutes: 60 })).toBe(15);
    expect(scoreCandidate({ ...none, ageMinutes: 15 * 1440 })).toBe(-20);
    expect(scoreCandidate({ ...none, expired: true })).toBe(-20);
    expect(scoreCandidate({ ...none, similarity: 0.5 })).toBeCloseTo(w.semantic * 0.5);
    expect(scoreCandidate({ ...none, keyword: 2 })).toBe(w.keyword);
  });

  it("uses configured weights", () => {
    const o = { ...defaultScoringOptions, weights: { ...defaultScoreWeights, sameNpc: 7 } };
    expect(scoreCandidate({ ...none, sameNpc: true }, o)).toBe(7);
  });
});

describe("scoreBase and scoreFrom", () => {
  it("make the very score of adding every signal one by one", () => {
    fc.assert(
      fc.property(arbSignals, arbOptions, (s, o) => {
        const base = scoreBase(s, o);
        expect(scoreFrom(base, s.similarity, s.keyword, o)).toBe(oneByOne(s, o));
        expect(scoreCandidate(s, o)).toBe(oneByOne(s, o));
      }),
      { numRuns: 2000 },
    );
  });
});
