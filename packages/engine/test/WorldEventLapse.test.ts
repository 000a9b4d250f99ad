/**
 * World events lapse by importance: each is recorded with the time its lifetime (engine
 * config `worldEventLifetimes`) ends, and from then on it is in nobody's dossier — the
 * dossier command's, built from the log alone — while the log and who knew it stay.
 */
import {
  type Dossier,
  type GameTime,
  MINUTES_PER_DAY,
  type StoredEvent,
  worldEventLapsesAt,
} from "@hearsay/core";
import { dossierAt } from "@hearsay/engine";
import { describe, expect, it } from "vitest";
import { hamlet, MAIN, memoryLog, runHamlet } from "./replay/fixtures.ts";

// Short lives, so a three-day run sees many lapse: the most important never do.
const lifetimes = {
  bands: [
    { atLeast: 0.9, days: null },
    { atLeast: 0.5, days: 1 },
  ],
  belowDays: 0.25,
  pinned: [],
};

const worldEvents = (d: Dossier) =>
  d.sections.find((s) => s.name === "world_events")!.items.map((i) => i.id);

describe("world event lifetimes in a run", () => {
  it("each event carries the lapse its importance gives; no dossier holds one after it", async () => {
    const log = memoryLog();
    await runHamlet(log, { days: 3, config: { worldEventLifetimes: lifetimes } });
    const events = log.read(MAIN);
    const happened = events.filter(
      (e): e is Extract<StoredEvent, { type: "WorldEventOccurred" }> =>
        e.type === "WorldEventOccurred",
    );
    expect(happened.length).toBeGreaterThan(0);
    for (const e of happened) {
      const p = e.payload;
      expect(p.lapsesAt).toBe(
        worldEventLapsesAt(lifetimes, { id: p.worldEventId, importance: p.importance }, e.t),
      );
    }
    const lapse = new Map(happened.map((e) => [e.payload.worldEventId, e.payload.lapsesAt]));
    const npcs = hamlet().world.npcs.map((n) => n.id);
    let held = 0;
    let lapsedKnown = 0;
    for (const day of [1, 2]) {
      const t = (day * MINUTES_PER_DAY + 18 * 60) as GameTime;
      for (const npcId of npcs) {
        const { dossier } = dossierAt({ log, saveId: MAIN, npcId, day, hour: 18 });
        for (const id of worldEvents(dossier)) {
          const at = lapse.get(id as never) ?? null;
          expect(at === null || at > t, `${npcId} day ${day}: ${id} lapsed at ${at}`).toBe(true);
          held += 1;
        }
        // Events the NPC learnt that had lapsed by then: the log still says it knew them.
        lapsedKnown += events.filter(
          (e) =>
            e.type === "KnowledgeGained" &&
            e.payload.npcId === npcId &&
            e.payload.itemKind === "world_event" &&
            e.t <= t &&
            (lapse.get(e.payload.itemId as never) ?? Number.POSITIVE_INFINITY) <= t,
        ).length;
      }
    }
    // Both sides were exercised: events held while current, and known ones that lapsed.
    expect(held).toBeGreaterThan(0);
    expect(lapsedKnown).toBeGreaterThan(0);
  }, 300_000);
});
