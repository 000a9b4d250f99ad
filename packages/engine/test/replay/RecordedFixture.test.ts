/**
 * The committed recorded log (test/fixtures/recorded/hamlet/log.jsonl) keeps replaying:
 * a run answered by a stand-in live model (every call recorded, a few failed), continued
 * once with another seed, and holding events written at an older schema version that
 * only an upcaster makes readable. If an engine change is meant to change what a run
 * writes, re-record it: `NODE_OPTIONS=--conditions=@hearsay/source npx tsx packages/engine/test/replay/recordFixture.ts`.
 */
import { currentVersions, type EventType } from "@hearsay/core";
import { exportJsonl, ReplayRefused, refoldLog, verifyLog } from "@hearsay/engine";
import { describe, expect, it } from "vitest";
import { hamlet, MAIN, parseJsonl, recordedFixture } from "./fixtures.ts";
import { upcastWithOldVersions } from "./oldVersions.ts";
import { STAND_IN } from "./standInBrain.ts";

const RERECORD =
  "if the engine change is meant, re-record: NODE_OPTIONS=--conditions=@hearsay/source npx tsx packages/engine/test/replay/recordFixture.ts";

describe("the recorded fixture", () => {
  const { text, log } = recordedFixture();
  const lines = parseJsonl(text);

  it("is a recorded, continued run holding events at an older version", () => {
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
    const old = lines.filter((l) => l.version === 0);
    expect(new Set(old.map((l) => l.type))).toEqual(
      new Set(["MemoryExpired", "RelationshipChanged"]),
    );
    expect(lines.filter((l) => l.type === "LlmCallRecorded").length).toBeGreaterThan(50);
    expect(lines.filter((l) => l.type === "RunResumed")).toHaveLength(1);
    expect(lines.filter((l) => l.type === "Checkpoint").length).toBeGreaterThanOrEqual(5);
  });

  it("refolds with every checkpoint matching, once its old events are upcast", () => {
    const report = refoldLog({ log, saveId: MAIN, upcast: upcastWithOldVersions });
    expect(report.mismatch).toBeNull();
    expect(report.folded).toBe(lines.length);
    expect(report.checkpoints).toBe(lines.filter((l) => l.type === "Checkpoint").length);
  });

  it("re-runs to the same events from its recordings alone, both segments, no call left over", async () => {
    const report = await verifyLog({
      log,
      saveId: MAIN,
      simulation: hamlet(),
      upcast: upcastWithOldVersions,
    });
    expect(report.divergence, RERECORD).toBeNull();
    expect(report.ok).toBe(true);
    expect(report.compared).toBe(lines.length);
    expect(report.brains).toEqual([`${STAND_IN} (recorded)`, `${STAND_IN} (recorded)`]);
    expect(report.unusedRecordings).toBe(0);
  });

  it("exports every event at its current version: the old ones upcast, the rest byte for byte", () => {
    const exported = [...exportJsonl({ log, saveId: MAIN, upcast: upcastWithOldVersions })].join(
      "",
    );
    const out = parseJsonl(exported);
    const raw = text.split("\n").filter((l) => l !== "");
    expect(out).toHaveLength(lines.length);
    for (const [i, line] of lines.entries()) {
      if (line.version < currentVersions.get(line.type as EventType)!) {
        expect(out[i]!.version).toBe(currentVersions.get(line.type as EventType));
        expect(upcastWithOldVersions(line)).toEqual(out[i]);
      } else {
        expect(exported.split("\n")[i]).toBe(raw[i]);
      }
    }
  });

  it("does not replay without the upcaster: the fold refuses the old event, verify names it", async () => {
    const firstOld = lines.find((l) => l.version === 0)!;
    expect(() => refoldLog({ log, saveId: MAIN })).toThrow(ReplayRefused);
    expect(() => refoldLog({ log, saveId: MAIN })).toThrow(
      new RegExp(`${firstOld.type} event at seq ${firstOld.seq} \\(version 0\\)`),
    );
    const report = await verifyLog({ log, saveId: MAIN, simulation: hamlet() });
    expect(report.divergence?.seq).toBe(firstOld.seq);
    expect(report.divergence?.paths).toContain("version");
    expect(report.divergence?.stateHashes.expected.stateHash).toMatch(/cannot be refolded/);
  });
});
