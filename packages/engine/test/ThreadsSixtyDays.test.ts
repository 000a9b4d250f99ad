/**
 * Continuity over months: a dossier taken on an NPC's first turn holds its gifted
 * identity, and one taken 60 game days later (across a 59-day jump) still holds the
 * threads it knows to be open — and none of the props of the happenings that have
 * closed since, except what was carried off.
 */
import { type Dossier, gameTime, type NpcId } from "@hearsay/core";
import { dossierAt, retrievalDossiers, sentencePieces } from "@hearsay/engine";
import { describe, expect, it } from "vitest";
import { threadWorld } from "./fixtures/threadWorld.ts";
import { freshLog, MAIN, ofType, run, tinyWorld } from "./harness.ts";

const texts = (d: Dossier) => d.sections.flatMap((s) => s.items.map((i) => i.text));

describe("a dossier 60 game days on", () => {
  it("keeps the NPC's open threads and drops the props of past happenings", async () => {
    const log = freshLog();
    await run(log, {
      world: threadWorld(),
      days: 61,
      skips: [{ atDay: 1, atHour: 0, mode: "jump", days: 59 }],
      config: { threadDropDays: 90, feudBelow: -0.4 },
    });
    // First turn (the first tick, 06:00 of day 0): who the NPC is, as the world file
    // gifted it — its own memories.
    for (const npc of tinyWorld().npcs) {
      const { dossier: d } = dossierAt({ log, saveId: MAIN, npcId: npc.id, day: 0, hour: 6 });
      const gifted = [
        `I am ${npc.name}, ${npc.role}. ${npc.identity}`,
        ...sentencePieces(npc.background),
        `How I speak: ${npc.speechStyle}`,
      ];
      expect(texts(d).some((t) => t.startsWith(`You are ${npc.name}`))).toBe(true);
      expect(
        texts(d).some((t) => gifted.some((g) => t.includes(g))),
        `${npc.id}'s first dossier`,
      ).toBe(true);
    }
    // Sixty days on.
    const t = gameTime(60, 12);
    expect(log.read(MAIN).at(-1)!.t).toBeGreaterThanOrEqual(t);
    const later = retrievalDossiers(log, MAIN);
    const acquired = new Set(
      ofType(log, "PropAcquired").map((a) => `${a.payload.happeningId}/${a.payload.propId}`),
    );
    const pastProps = ofType(log, "PropIntroduced").filter(
      (p) => !acquired.has(`${p.payload.happeningId}/${p.payload.propId}`),
    );
    expect(pastProps.map((p) => p.payload.name)).toEqual(["the quillwort boar"]);
    const openKnown = (npc: string) =>
      log.db
        .prepare(
          `SELECT th.thread_id FROM threads th JOIN knowledge k ON k.save_id = th.save_id
           AND k.item_kind = 'thread' AND k.item_id = th.thread_id
           WHERE th.save_id = ? AND k.npc_id = ? AND k.t <= ? AND th.opened_at <= ?
             AND (th.closed_at IS NULL OR th.closed_at > ?) ORDER BY th.thread_id`,
        )
        .pluck()
        .all(MAIN, npc, t, t, t) as Array<string>;
    for (const npc of tinyWorld().npcs) {
      const d = later.dossier({ npcId: npc.id as NpcId, t, query: null, scene: null })!;
      const shown = d.sections
        .flatMap((s) => s.items)
        .filter((i) => i.kind === "thread")
        .map((i) => i.id)
        .sort();
      const open = openKnown(npc.id);
      expect(shown.length, npc.id).toBe(Math.min(4, open.length));
      for (const id of shown) expect(open).toContain(id);
      for (const text of texts(d))
        for (const p of pastProps) expect(text).not.toContain(p.payload.name);
    }
    // The seeded debt is still open and in the dossier of everyone who knows of it.
    for (const npc of ["ada", "eli", "fay"]) {
      const d = later.dossier({ npcId: npc as NpcId, t, query: null, scene: null })!;
      expect(
        d.sections.find((s) => s.name === "threads")!.items.map((i) => i.id),
        npc,
      ).toContain("flour-debt");
    }
    const bram = later.dossier({ npcId: "bram" as NpcId, t, query: null, scene: null })!;
    expect(texts(bram).some((x) => x.includes("two sacks of flour"))).toBe(false);
  });
});
