import {
  defaultScoreWeights,
  defaultScoringOptions,
  type ScoreSignals,
  scoreCandidate,
} from "@hearsay/retrieval";
import { describe, expect, it } from "vitest";

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
