/** `hearsay chat` driven through its standard input, as a child process. */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { ids, PLAYER_ID } from "@hearsay/core";
import { runGraphCollections, workspaceRoot } from "@hearsay/engine";
import {
  collectionNames,
  indexStatus,
  makeHashingEmbedder,
  VectorIndexes,
} from "@hearsay/retrieval";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { tinyPath, tinyWorldDb } from "./talkFixture.ts";

const root = workspaceRoot();
const tsx = join(root, "node_modules", ".bin", "tsx");
const main = join(root, "packages", "cli", "src", "main.ts");

const chat = (db: string, npc: string): ChildProcess =>
  spawn(tsx, [main, "chat", "--db", db, "--npc", npc, "--simulation", tinyPath], {
    cwd: root,
    stdio: ["pipe", "pipe", "pipe"],
  });

const finished = (p: ChildProcess) => {
  let out = "";
  let err = "";
  p.stdout!.on("data", (d) => (out += d));
  p.stderr!.on("data", (d) => (err += d));
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    p.on("close", (code) => resolve({ code, out, err })),
  );
  return { done, out: () => out };
};

const stored = (db: string) => {
  const log = new SqliteEventLog(openDatabase(db));
  try {
    return log.read(ids.save("main"));
  } finally {
    log.db.close();
  }
};

/**
 * The collections an open of the world's vector files checks row by row: none when the
 * files were saved level with the database (`VectorIndexes`) — and then rightly, with
 * every row of the tables in them (`indexStatus` checks each).
 */
const scannedAtOpen = (db: string): Array<string> => {
  const handle = openDatabase(db);
  try {
    const stale = indexStatus(handle, db, makeHashingEmbedder(), collectionNames).filter(
      (s) => s.stale,
    );
    expect(stale).toEqual([]);
    const scanned = new Set<string>();
    Effect.runSync(
      VectorIndexes.open(handle, makeHashingEmbedder(), {
        graphCollections: runGraphCollections,
        onProgress: (p) => {
          if (p.phase === "scan") scanned.add(p.collection);
        },
      }),
    );
    return [...scanned];
  } finally {
    handle.close();
  }
};

describe.concurrent("hearsay chat", () => {
  it("streams replies, shows memories and the dossier, skips a day, and remembers the promise after it", async () => {
    const db = await tinyWorldDb();
    const p = chat(db, "ada");
    const run = finished(p);
    p.stdin!.end(
      [
        "Hello there!",
        "My name is Wren.",
        "I promise I'll defend the ford.",
        "/memories",
        "/dossier",
        "/skip 1d",
        "Do you remember what I promised?",
      ].join("\n"),
    );
    const { code, out } = await run.done;
    expect(code).toBe(0);
    expect(out).toMatch(/Ada Reed: .*you promised to defend the ford\./);
    expect(out).toMatch(
      /- \[promise, until day \d+, \d\d:\d\d\] The player promised to defend the ford\./,
    );
    expect(out).toMatch(/- \[known_info, permanent\] The player's name is Wren\./);
    expect(out).toMatch(/## Who you are/);
    expect(out).toMatch(/1 day passes — it is now day 1, 13:00/);
    expect(out).toMatch(/Ada Reed: I remember\. .*promised to defend the ford/);
    const events = stored(db);
    const turns = events.filter(
      (e) =>
        e.type === "ConversationTurn" &&
        (e.payload.speakerId === PLAYER_ID || e.payload.listenerIds.includes(PLAYER_ID)),
    );
    expect(turns).toHaveLength(8);
    expect(events.some((e) => e.type === "ClockAdvanced" && e.payload.mode === "jump")).toBe(true);
    expect(events.filter((e) => e.type === "ConversationSummarized").length).toBeGreaterThanOrEqual(
      2,
    );
    // The talk's end saved its rows' vectors level with the database: the next open trusts them.
    expect(scannedAtOpen(db)).toEqual([]);
  }, 60_000);

  it("exits cleanly on Ctrl-C, keeping every turn it answered whole", async () => {
    const db = await tinyWorldDb();
    const p = chat(db, "bram");
    const run = finished(p);
    p.stdin!.write("Good morning!\nI swear I will bring you salt.\n");
    while ((run.out().match(/Bram Holt: .*\n/g) ?? []).length < 2)
      await new Promise((r) => setTimeout(r, 50));
    p.kill("SIGINT");
    const { code } = await run.done;
    expect(code).toBe(130);
    const turns = stored(db).flatMap((e) =>
      e.type === "ConversationTurn" &&
      [e.payload.speakerId, ...e.payload.listenerIds].includes(PLAYER_ID)
        ? [e.payload.turnIndex]
        : [],
    );
    expect(turns).toEqual([0, 1, 2, 3]);
    expect(
      stored(db).some(
        (e) => e.type === "MemoryRecorded" && /promised to bring/.test(e.payload.text),
      ),
    ).toBe(true);
    expect(scannedAtOpen(db)).toEqual([]);
  }, 60_000);

  it("refuses an unknown NPC in one line, changing nothing", async () => {
    const db = await tinyWorldDb();
    const before = stored(db).length;
    const { code, err } = await finished(chat(db, "zed")).done;
    expect(code).toBe(1);
    expect(err.trim()).toBe(
      'hearsay: save "main" has no NPC "zed": pick one of its NPCs (see `hearsay export`)',
    );
    expect(stored(db)).toHaveLength(before);
  }, 60_000);
});
