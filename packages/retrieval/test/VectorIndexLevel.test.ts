/**
 * Vector files noted level with the database (`IndexManifest.level`): an open that finds
 * the database still at that level trusts them without reading a row, and any write
 * through the store makes the next open check every row again. The tests see which of
 * the two an open did by changing a memory's text where the store's digest cannot see it
 * (its trigger dropped), which no hearsay write does: only a row-by-row check notices.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  collectionNames,
  type IndexManifest,
  indexPaths,
  makeHashingEmbedder,
  textFingerprint,
  VectorIndexes,
} from "@hearsay/retrieval";
import { Effect } from "effect";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ev,
  globalRumour,
  memoryEvents,
  npcEvents,
  openWorld,
  Prng,
  sentence,
  type TestWorld,
} from "./fixtures.ts";

const embedder = makeHashingEmbedder();
let dir: string;
let dbPath: string;
let world: TestWorld;

const open = () => Effect.runSync(VectorIndexes.open(world.db, embedder, {}));
const manifest = (c = "memories"): IndexManifest =>
  JSON.parse(readFileSync(indexPaths(dbPath, c).manifest, "utf8")) as IndexManifest;
const firstMemory = (): number =>
  world.db.prepare("SELECT min(rowid) FROM memories").pluck().get() as number;

/** Rewrites a memory's text with its digest trigger dropped: the database's level stays. */
const unseenEdit = (rowid: number, text: string): void => {
  const trigger = world.db
    .prepare("SELECT sql FROM sqlite_master WHERE name = 'memories_digest_update'")
    .pluck()
    .get() as string;
  world.db.exec("DROP TRIGGER memories_digest_update");
  world.db.prepare("UPDATE memories SET text = ? WHERE rowid = ?").run(text, rowid);
  world.db.exec(trigger);
};

/** An event that writes a read model but no row of any collection. */
const move = (t: number) => ev("NpcMoved", t, { npcId: "npc-0", from: "square", to: "mill" });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hearsay-level-"));
  dbPath = join(dir, "world.db");
  world = openWorld(dbPath);
  world.append(npcEvents(6));
  world.append(memoryEvents(Prng.derive(3, "level"), 6, 120));
});

afterEach(() => {
  world.db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("vector files noted level with the database", () => {
  it("are trusted unread at that level and checked row by row once the database moves", () => {
    open();
    expect(manifest().level).toEqual(expect.any(String));
    const rowid = firstMemory();
    const before = open().index.store("memories")!.fingerprint(rowid);
    const edited = "A text the digest never saw.";
    unseenEdit(rowid, edited);
    const trusted = open();
    expect(trusted.reports.find((r) => r.collection === "memories")?.outcome).toBe("loaded");
    expect(trusted.index.store("memories")!.fingerprint(rowid)).toBe(before);
    // Any write moves the level: the next open reads every row and finds the edit.
    world.append([move(500)]);
    const checked = open();
    expect(checked.reports.find((r) => r.collection === "memories")).toMatchObject({
      outcome: "repaired",
      added: 1,
    });
    expect(checked.index.store("memories")!.fingerprint(rowid)).toBe(textFingerprint(edited));
  });

  it("are noted by an open that found them up to date at a new level, by their manifest alone", () => {
    open();
    world.append([move(500)]);
    const vectors = indexPaths(dbPath, "memories").vectors;
    const written = statSync(vectors);
    const level = manifest().level;
    // The rows were checked and found as saved: only the manifest is written again.
    expect(open().reports.find((r) => r.collection === "memories")?.outcome).toBe("loaded");
    expect(manifest().level).not.toBe(level);
    expect(statSync(vectors).mtimeMs).toBe(written.mtimeMs);
    const rowid = firstMemory();
    unseenEdit(rowid, "Another unseen text.");
    expect(open().index.store("memories")!.fingerprint(rowid)).not.toBe(
      textFingerprint("Another unseen text."),
    );
  });

  it("are not trusted after a save that cannot vouch for them, and are after one that can", () => {
    const { index } = open();
    world.append([...memoryEvents(Prng.derive(4, "more"), 6, 10, 900, "late"), move(950)]);
    // What a run's periodic save does: the vectors are behind the log, so nothing is noted.
    index.save();
    expect(manifest().level).toBeUndefined();
    const rowid = firstMemory();
    unseenEdit(rowid, "Seen by the row check.");
    const opened = open();
    expect(opened.reports.find((r) => r.collection === "memories")?.added).toBe(11);
    expect(opened.index.store("memories")!.fingerprint(rowid)).toBe(
      textFingerprint("Seen by the row check."),
    );
    // A vouched save of rows the caller knows are saved writes the manifest alone, noted level.
    world.append([move(990)]);
    const vectors = statSync(indexPaths(dbPath, "memories").vectors).mtimeMs;
    opened.index.save({ level: true, asSaved: new Set(collectionNames) });
    expect(statSync(indexPaths(dbPath, "memories").vectors).mtimeMs).toBe(vectors);
    unseenEdit(rowid, "Never seen.");
    expect(open().index.store("memories")!.fingerprint(rowid)).toBe(
      textFingerprint("Seen by the row check."),
    );
  });
});

describe("vector files of a later moment", () => {
  it("give a database of an earlier moment the index a rebuild of it gives, writing nothing", () => {
    const summary = (text: string, t: number) =>
      ev("ConversationSummarized", t, {
        conversationId: "c1",
        npcId: "npc-0",
        partnerId: "npc-1",
        throughTurn: 3,
        summary: text,
      });
    const rumours = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) =>
        globalRumour(`r${from + i}`, 200 + from + i, sentence(Prng.derive(from + i, "r"), i)),
      );
    // The earlier moment: the world so far, 150 rumours and a summary as it then read.
    const early = [rumours(0, 150), [summary("We talked about the flood on the river.", 400)]];
    const later = [
      rumours(150, 150),
      memoryEvents(Prng.derive(5, "later"), 6, 80, 600, "later"),
      [summary("We argued about the sword and the forge.", 900)],
    ];
    for (const batch of [...early, ...later]) world.append(batch);
    open();
    const files = () =>
      collectionNames.flatMap((c) => {
        const p = indexPaths(dbPath, c);
        return [p.vectors, p.manifest, ...p.segmentFiles()].map((f) => [f, statSync(f).mtimeMs]);
      });
    const before = files();
    // The same log up to the earlier moment, in a file of its own.
    const thenPath = join(dir, "then.db");
    const then = openWorld(thenPath);
    then.append(npcEvents(6));
    then.append(memoryEvents(Prng.derive(3, "level"), 6, 120));
    for (const batch of early) then.append(batch);
    const graphCollections = ["world_events", "lore", "background_debates"] as const;
    const started = Effect.runSync(
      VectorIndexes.open(then.db, embedder, { from: dbPath, graphCollections }),
    );
    const rebuilt = Effect.runSync(
      VectorIndexes.rebuild(then.db, embedder, { dbPath: ":memory:", graphCollections }),
    );
    // Memories without graphs are embedded when searched: a rebuild holds none of them, and
    // the rows the later file held are those a rebuild of every row gives.
    const everyRow = Effect.runSync(
      VectorIndexes.rebuild(then.db, embedder, { dbPath: ":memory:" }),
    );
    try {
      expect(rebuilt.index.store("memories")!.size).toBe(0);
      for (const c of collectionNames) {
        const a = started.index.store(c)!;
        const b = rebuilt.index.store(c)!;
        const rows = c === "memories" ? everyRow.index.store(c)! : b;
        expect(a.entries(), c).toEqual(rows.entries());
        expect(a.graphShapes(), c).toEqual(b.graphShapes());
      }
      // The later rows were dropped and the summary embedded as it read then.
      expect(started.reports.find((r) => r.collection === "world_events")).toMatchObject({
        removed: 150,
        added: 0,
      });
      expect(started.reports.find((r) => r.collection === "memories")).toMatchObject({
        removed: 80,
        added: 0,
      });
      expect(started.reports.find((r) => r.collection === "conversation_summaries")).toMatchObject({
        added: 1,
      });
      expect(started.index.store("world_events")!.hasGraph).toBe(true);
      // Nothing beside the earlier file, nothing changed beside the later one.
      expect(existsSync(indexPaths(thenPath, "memories").manifest)).toBe(false);
      expect(files()).toEqual(before);
    } finally {
      then.db.close();
    }
  });
});
