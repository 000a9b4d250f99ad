import { projectionDigestColumns, readDigest, recomputeDigest } from "@hearsay/store";
import { arbEventBatches } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendBatches, freshStore, newSave, runs } from "./harness.ts";

describe("the incremental projection digest", () => {
  it("always equals the digest recomputed from the rows, after appends, rebuilds and restores", () => {
    fc.assert(
      fc.property(arbEventBatches(), (batches) => {
        const { db, log } = freshStore(7);
        newSave(log, "s");
        appendBatches(log, "s", batches);
        expect(readDigest(db, "s")).toBe(recomputeDigest(db, "s", projectionDigestColumns));
        log.rebuildProjections("s");
        expect(readDigest(db, "s")).toBe(recomputeDigest(db, "s", projectionDigestColumns));
        if (log.snapshots("s").length > 0) {
          log.restoreFromSnapshot("s");
          expect(readDigest(db, "s")).toBe(recomputeDigest(db, "s", projectionDigestColumns));
        }
      }),
      { numRuns: runs(25) },
    );
  });

  it("is the same for the same events in another save, and changes when the state changes", () => {
    fc.assert(
      fc.property(arbEventBatches(), (batches) => {
        const { log } = freshStore();
        newSave(log, "a", "campaign-a");
        newSave(log, "b", "campaign-b");
        const all = batches.flat();
        const half = Math.floor(all.length / 2);
        log.append("a", 0, all.slice(0, half));
        log.append("b", 0, all);
        const partial = log.projectionHash("a");
        log.append("a", log.head("a"), all.slice(half));
        expect(log.projectionHash("a")).toBe(log.projectionHash("b"));
        if (all.slice(half).some((e) => e.type !== "Checkpoint")) {
          expect(log.projectionHash("a")).not.toBe(partial);
        }
      }),
      { numRuns: runs(25) },
    );
  });

  it("an empty save's digest is all zeros", () => {
    const { db, log } = freshStore();
    newSave(log, "s");
    expect(readDigest(db, "s")).toBe("0".repeat(24));
  });
});
