import { ids } from "@hearsay/core";
import { InvalidBranchPoint } from "@hearsay/store";
import { arbEventSequence, buildSequence, smallWorld } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkFts, freshStore, newSave, runs } from "./harness.ts";

const strip = <E extends { saveId: unknown; campaignId: unknown }>({
  saveId: _s,
  campaignId: _c,
  ...e
}: E) => e;

describe("branches", () => {
  it("a branch sees its parent's events only up to the branch seq; appending to it leaves the parent untouched", () => {
    fc.assert(
      fc.property(
        arbEventSequence({ maxSteps: 30 }).chain((events) =>
          fc.tuple(
            fc.constant(events),
            fc.integer({ min: 0, max: events.length }),
            fc.integer({ min: 0, max: 5 }),
            fc.boolean(),
          ),
        ),
        ([events, k, extra, snapshotFirst]) => {
          const { db, log } = freshStore();
          newSave(log, "p");
          log.append("p", 0, events.slice(0, k));
          if (snapshotFirst && k > 0) log.takeSnapshot("p");
          log.append("p", k, events.slice(k));
          const parentEvents = log.read("p");
          const parentState = log.projectionState("p");
          // Reference: a fresh save holding only the first k events.
          newSave(log, "ref");
          log.append("ref", 0, events.slice(0, k));
          const prefixState = log.projectionState("ref");

          log.createSave({
            saveId: ids.save("b"),
            campaignId: ids.campaign("campaign-1"),
            name: "branch",
            parent: { saveId: ids.save("p"), seq: k },
          });
          expect(log.head("b")).toBe(k);
          expect(log.read("b").map(strip)).toEqual(parentEvents.slice(0, k).map(strip));
          expect(log.projectionState("b")).toEqual(prefixState);

          // The branch's own events: new ones, plus one it already shares (skipped) and
          // one only the parent has after the cut (stored: not in the branch's history).
          const own = buildSequence(smallWorld(4), [], { everyType: false })
            .slice(0, extra)
            .map((e, i) => ({ ...e, id: ids.event(`branch-${i}`) }));
          const shared = k > 0 ? [events[k - 1]!] : [];
          const after = k < events.length ? [events[k]!] : [];
          const r = log.append("b", k, [...own, ...shared, ...after]);
          expect(r.skipped).toBe(shared.length);
          expect(r.appended.map((e) => e.seq)).toEqual(own.concat(after).map((_, i) => k + 1 + i));
          expect(
            log
              .read("b")
              .slice(k)
              .map((e) => e.id),
          ).toEqual([...own, ...after].map((e) => e.id));

          // The parent is untouched.
          expect(log.read("p")).toEqual(parentEvents);
          expect(log.projectionState("p")).toEqual(parentState);
          // The branch's read models are its own history's fold.
          const branchState = log.projectionState("b");
          log.rebuildProjections("b");
          expect(log.projectionState("b")).toEqual(branchState);
          checkFts(db);

          // A branch of the branch, cut inside the grandparent's part, sees that prefix.
          const cut = Math.floor(k / 2);
          log.createSave({
            saveId: ids.save("bb"),
            campaignId: ids.campaign("campaign-1"),
            name: "grandchild",
            parent: { saveId: ids.save("b"), seq: cut },
          });
          expect(log.read("bb").map((e) => e.id)).toEqual(events.slice(0, cut).map((e) => e.id));
        },
      ),
      { numRuns: runs(25) },
    );
  });

  it("uses an ancestor's snapshot only from before the branch point", () => {
    const events = buildSequence(smallWorld(4), [], { everyType: true });
    expect(events.length).toBeGreaterThan(20);
    const { log } = freshStore();
    newSave(log, "p");
    log.append("p", 0, events.slice(0, 5));
    log.takeSnapshot("p"); // seq 5: shared with the branch
    log.append("p", 5, events.slice(5, 15));
    log.takeSnapshot("p"); // seq 15: after the branch point, not the branch's past
    log.append("p", 15, events.slice(15, 20));
    log.createSave({
      saveId: ids.save("b"),
      campaignId: ids.campaign("c"),
      name: "b",
      parent: { saveId: ids.save("p"), seq: 10 },
    });
    const own = events.slice(10, 20).map((e, i) => ({ ...e, id: ids.event(`b-${i}`) }));
    log.append("b", 10, own);
    expect(log.loadSnapshot("b")?.seq).toBe(5);
    const hash = log.projectionHash("b");
    expect(log.restoreFromSnapshot("b")).toEqual({ fromSeq: 5, folded: 15 });
    expect(log.projectionHash("b")).toBe(hash);
    log.rebuildProjections("b");
    expect(log.projectionHash("b")).toBe(hash);
  });

  it("refuses a branch point outside the parent's log", () => {
    const { log } = freshStore();
    newSave(log, "p");
    const spec = (seq: number) => ({
      saveId: ids.save(`b${seq}`),
      campaignId: ids.campaign("c"),
      name: "b",
      parent: { saveId: ids.save("p"), seq },
    });
    expect(() => log.createSave(spec(1))).toThrow(InvalidBranchPoint);
    expect(() => log.createSave(spec(-1))).toThrow(InvalidBranchPoint);
    expect(log.saves().map((s) => s.saveId)).toEqual(["p"]);
  });
});
