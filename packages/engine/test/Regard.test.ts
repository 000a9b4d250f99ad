/**
 * Regard between NPCs moves only for a reason given: by the brain's answer for a line it
 * speaks (and half as much, toward the speaker, for those who overheard it), by a debate
 * line toward the one it answers, by a happening's rule. Never by chance.
 */
import type { RelationshipChanged } from "@hearsay/core";
import { ScriptedBrain, type SyncBrain } from "@hearsay/mind";
import { describe, expect, it } from "vitest";
import { freshLog, ofType, run } from "./harness.ts";

type Change = ReturnType<typeof RelationshipChanged.make>["payload"] & { t: number };

const changes = async (brain?: SyncBrain, days = 3): Promise<ReadonlyArray<Change>> => {
  const log = freshLog();
  await run(log, { days, ...(brain === undefined ? {} : { brain }) });
  return ofType(log, "RelationshipChanged").map((e) => ({ ...e.payload, t: e.t }));
};

/** The scripted brain, with every line's regard taken out of its answers. */
const withoutRegard = (): SyncBrain => {
  const scripted = ScriptedBrain.make();
  return {
    ...scripted,
    decideSync: (request) => {
      const answer = scripted.decideSync(request);
      const { regard: _, ...rest } = answer.output as {
        regard?: unknown;
        agenda?: ReadonlyArray<object>;
      };
      // A planned line says nothing of regard either.
      const agenda = rest.agenda?.map(({ regard: _r, ...step }: { regard?: unknown }) => step);
      return { ...answer, output: { ...rest, ...(agenda ? { agenda } : {}) } as never };
    },
  };
};

const TALK =
  /^(answered what|shared news with|spoke of work with|passed the time with|overheard|disagreed with)/;

describe("regard", () => {
  it("changes only with a reason, and talk moves it by the reasons the lines gave", async () => {
    const all = await changes();
    expect(all.length).toBeGreaterThan(0);
    for (const c of all) expect(c.reason.trim()).not.toBe("");
    expect(all.filter((c) => TALK.test(c.reason)).length).toBeGreaterThan(0);
  });

  it("does not move for talk whose answers give no regard: no drift", async () => {
    const all = await changes(withoutRegard());
    expect(all.filter((c) => TALK.test(c.reason))).toEqual([]);
    // What is left is the world's starting edges (their own summary is their reason).
    expect(all.filter((c) => c.t === all[0]!.t).every((c) => c.reason === c.summary)).toBe(true);
  });

  it("moves a witness half as far as the speaker, toward the speaker", async () => {
    // The hamlet is quiet: by its eighth day someone has overheard a talk.
    const all = await changes(undefined, 8);
    const levels = new Map<string, { trust: number; respect: number; suspicion: number }>();
    const moved = new Map<string, number>();
    let overheard = 0;
    for (const c of all) {
      const key = `${c.fromId}>${c.toId}`;
      const prior = levels.get(key) ?? { trust: 0, respect: 0, suspicion: 0 };
      const delta =
        Math.abs(c.trust - prior.trust) +
        Math.abs(c.respect - prior.respect) +
        Math.abs(c.suspicion - prior.suspicion);
      levels.set(key, c);
      const said = /^overheard (.+) with (.+?): (.+)$/.exec(c.reason);
      if (said === null) {
        moved.set(`${c.t}|${c.reason}|${c.fromId}`, delta);
        continue;
      }
      overheard += 1;
      const speakerDelta = moved.get(`${c.t}|${said[3]}|${c.toId}`);
      expect(speakerDelta, c.reason).toBeDefined();
      expect(delta).toBeLessThanOrEqual(speakerDelta! / 2 + 0.002);
    }
    expect(overheard).toBeGreaterThan(0);
  });
});
