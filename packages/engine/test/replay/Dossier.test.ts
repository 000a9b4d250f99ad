/**
 * Dossier inspection: at any moment of a recorded run, `dossierAt` gives exactly the
 * dossier the engine handed the NPC then (built from the log as it stood when that tick
 * began, not from the head), and every item's id is the id the export uses for it.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Dossier, dayOf, formatGameTime, hourOf, type StoredEvent } from "@hearsay/core";
import {
  dossierAt,
  ReplayRefused,
  retrievalDossiers,
  runGraphCollections,
  type SimulationSpec,
} from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { makeHashingEmbedder, VectorIndexes } from "@hearsay/retrieval";
import { openDatabase, openForReading, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { beforeAll, describe, expect, it } from "vitest";
import { MAIN, memoryLog, runHamlet } from "./fixtures.ts";

interface Seen {
  readonly npcId: string;
  readonly t: number;
  readonly query: string | null;
  readonly scene: { readonly locationId: string; readonly present: ReadonlyArray<string> } | null;
  readonly npcTurn: boolean;
  readonly dossier: Dossier;
}

let log: SqliteEventLog;
const seen: Array<Seen> = [];

beforeAll(async () => {
  log = memoryLog();
  const dossiers: SimulationSpec["dossiers"] = (l, s) => {
    const { deferred, ...real } = retrievalDossiers(l, s);
    // Every turn's dossier is read whole, so turns may as well be given it whole.
    void deferred;
    return {
      ...real,
      dossier: (req) => {
        const d = real.dossier(req);
        if (d !== null)
          seen.push({
            npcId: req.npcId,
            t: req.t,
            query: req.query,
            scene: req.scene,
            npcTurn: req.npcTurn === true,
            dossier: d,
          });
        return d;
      },
    };
  };
  // Dossiers are built when a brain reads them, section by section; the scripted brain
  // reads a few only to speak, so this one reads every turn's in full (as a live model
  // does) to see them all.
  const scripted = ScriptedBrain.make();
  const brain = {
    ...scripted,
    decideSync: ((request) => {
      request.dossier?.whole();
      return scripted.decideSync(request);
    }) as typeof scripted.decideSync,
  };
  await runHamlet(log, { days: 5, dossiers, brain });
});

/** Every id the export gives each kind of item. */
const exportIds = (events: ReadonlyArray<StoredEvent>): Record<string, Set<string>> => {
  const ids: Record<string, Set<string>> = {};
  const add = (kind: string, id: string) => {
    ids[kind] ??= new Set();
    ids[kind].add(id);
  };
  for (const e of events) {
    switch (e.type) {
      case "NpcRegistered":
        add("profile", e.payload.npcId);
        add("scene", e.payload.locationId);
        break;
      case "NpcActivityChanged":
        add("scene", e.payload.locationId);
        break;
      case "MemoryRecorded":
        add("memory", e.payload.memoryId);
        break;
      case "WorldEventOccurred":
        add("world_event", e.payload.worldEventId);
        break;
      case "LoreImported":
        for (const c of e.payload.chunks) add("lore", c.chunkId);
        break;
      case "DebateHeld":
        add("debate", e.payload.debateId);
        break;
      case "TaskProposed":
        add("task", e.payload.taskId);
        break;
      case "ConversationSummarized":
        add("summary", e.payload.conversationId);
        break;
      case "ConversationTurn":
        add("dialogue", `${e.payload.conversationId}#${e.payload.turnIndex}`);
        break;
      case "RelationshipChanged":
        add("relationship", `${e.payload.fromId}->${e.payload.toId}`);
        break;
      case "ThreadOpened":
        add("thread", e.payload.threadId);
        break;
      default:
        break;
    }
  }
  return ids;
};

describe("dossierAt", () => {
  it("gives the very dossier the engine built at that moment, from a log in memory or on disk", () => {
    // Enough turns over the three days to pick from (agendas leave a few dozen).
    expect(seen.length).toBeGreaterThan(40);
    // On disk, as `hearsay dossier` opens it: read-only, and folded from where it lies.
    const dir = mkdtempSync(join(tmpdir(), "hearsay-dossier-"));
    const path = join(dir, "run.db");
    log.db.prepare("VACUUM INTO ?").run(path);
    // With the vector files a run leaves beside its file, as of its end: a dossier of an
    // earlier moment starts from them, and must still be the one built then.
    const writable = openDatabase(path);
    Effect.runSync(
      VectorIndexes.open(writable, makeHashingEmbedder(), {
        graphCollections: runGraphCollections,
      }),
    );
    writable.close();
    const onDisk = new SqliteEventLog(openForReading(path));
    const embedded = (from: SqliteEventLog, s: Seen, collection: string): number => {
      let rows = 0;
      dossierAt({
        log: from,
        saveId: MAIN,
        npcId: s.npcId,
        day: dayOf(s.t as never),
        hour: hourOf(s.t as never),
        onIndex: (p) => {
          if (p.phase === "embed" && p.collection === collection && p.done === p.total)
            rows += p.total;
        },
      });
      return rows;
    };
    // Dossiers at whole hours on later days: one per NPC and hour, eight spread evenly over the run.
    const later = seen.filter((s) => s.t % 60 === 0 && s.t > 24 * 60);
    const every = Math.max(1, Math.floor(later.length / 8));
    const picks = later.filter((_, i) => i % every === 0).slice(0, 8);
    expect(picks.length).toBeGreaterThan(3);
    try {
      for (const s of picks) {
        for (const from of [log, onDisk]) {
          const got = dossierAt({
            log: from,
            saveId: MAIN,
            npcId: s.npcId,
            day: dayOf(s.t as never),
            hour: hourOf(s.t as never),
            query: s.query,
            npcTurn: s.npcTurn,
            ...(s.scene ? { scene: s.scene } : {}),
          });
          expect(got.t).toBe(s.t);
          expect(got.dossier).toEqual(s.dossier);
          expect(
            log.read(MAIN, { fromSeq: got.throughSeq + 1, toSeq: got.throughSeq + 1 })[0]!.t,
          ).toBeGreaterThanOrEqual(s.t);
        }
      }
      // A world event's text never changes, so from the files none is embedded again.
      expect(embedded(log, picks[0]!, "world_events")).toBeGreaterThan(0);
      expect(embedded(onDisk, picks[0]!, "world_events")).toBe(0);
      // Memories are embedded by the search that reads them, never by opening the index.
      expect(embedded(log, picks[0]!, "memories")).toBe(0);
      // The scene by default: where the NPC was and who was there awake, from either.
      const at = { saveId: MAIN, npcId: "ada", day: 1, hour: 14 };
      expect(dossierAt({ log: onDisk, ...at }).dossier).toEqual(dossierAt({ log, ...at }).dossier);
    } finally {
      onDisk.db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("names every item by the id the export uses for it", () => {
    const ids = exportIds(log.read(MAIN));
    const kinds = new Set<string>();
    for (const s of seen) {
      for (const section of s.dossier.sections) {
        for (const item of section.items) {
          kinds.add(item.kind);
          expect(ids[item.kind]?.has(item.id), `${item.kind} ${item.id}`).toBe(true);
        }
      }
    }
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining([
        "dialogue",
        "lore",
        "memory",
        "profile",
        "relationship",
        "scene",
        "world_event",
      ]),
    );
  });

  it("by default sets the scene where the NPC was, with who was there awake", () => {
    const d = dossierAt({ log, saveId: MAIN, npcId: "ada", day: 1, hour: 14 }).dossier;
    const scene = d.sections.find((s) => s.name === "scene")!.items[0]!;
    expect(scene.kind).toBe("scene");
    // A turn among NPCs under the stable rules: the time is the dossier's (the prompt
    // states it after the dossier), not the scene's text, which would change every turn.
    expect(scene.text).toMatch(/^You are at /);
    expect(formatGameTime(d.t)).toBe("day 1, 14:00");
    expect(d.npcId).toBe("ada");
    expect(d.totalTokens).toBeLessThanOrEqual(d.budget);
  });

  it("refuses an unknown NPC (naming the known ones) and a day outside the run", () => {
    expect(() => dossierAt({ log, saveId: MAIN, npcId: "zed", day: 1 })).toThrow(ReplayRefused);
    expect(() => dossierAt({ log, saveId: MAIN, npcId: "zed", day: 1 })).toThrow(
      /use one of ada, bram, cora/,
    );
    expect(() => dossierAt({ log, saveId: MAIN, npcId: "ada", day: 9 })).toThrow(
      /choose --day from 0 to 5/,
    );
  });
});
