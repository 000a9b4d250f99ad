/**
 * A `/skip` in `chat` racing another writer (`serve`) on the same database file: the
 * skip's PlayerInput, any RunResumed and every tick it causes are committed together or
 * not at all, so whichever writer loses leaves nothing behind and `replay --verify` of
 * the log agrees event for event.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PLAYER_ID } from "@hearsay/core";
import {
  applyWorldTick,
  type DossierSource,
  loadSimulation,
  retrievalDossiers,
  runSimulation,
  TalkWorld,
  verifyLog,
  type WorldDiff,
} from "@hearsay/engine";
import { type BrainShape, ScriptedBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { afterEach, describe, expect, it } from "vitest";
import { MAIN, ofType } from "../harness.ts";

const sim = loadSimulation(join(import.meta.dirname, "..", "fixtures", "tiny"));
const dirs: Array<string> = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const fire: WorldDiff = {
  kind: "fire",
  text: "A barn burned down by the ford.",
  locationId: null,
  factionId: null,
  visibility: "global",
  importance: 0.7,
  participants: [PLAYER_ID],
  entities: ["barn"],
};

/** A file with a short run in it, and a TalkWorld over it on its own connection. */
const setUp = async () => {
  const dir = mkdtempSync(join(tmpdir(), "hearsay-race-"));
  dirs.push(dir);
  const path = join(dir, "w.db");
  const log = new SqliteEventLog(openDatabase(path));
  await runSimulation({
    ...sim,
    log,
    saveId: MAIN,
    days: 2,
    seed: 7,
    brain: ScriptedBrain.make(),
    recordBrain: false,
    dossiers: retrievalDossiers,
    resume: false,
    maxTicks: 6,
  });
  return { path, log };
};

/** The dossier source of `log`, calling `onRefresh` after each append of a skip. */
const hooked = (log: SqliteEventLog, onRefresh: (n: number) => void): DossierSource => {
  const inner = retrievalDossiers(log, MAIN);
  let n = 0;
  return {
    ...inner,
    refresh: () => {
      inner.refresh?.();
      onRefresh(++n);
    },
  };
};

/** The scripted brain behind the async port only: the skip awaits its answers, as a live one's. */
const asyncScripted = (): BrainShape => {
  const s = ScriptedBrain.make();
  return { name: s.name, decide: (r) => s.decide(r) };
};

const talkOver = (log: SqliteEventLog, dossiers?: DossierSource) =>
  new TalkWorld({
    simulation: sim,
    log,
    saveId: MAIN,
    brain: asyncScripted(),
    recordBrain: false,
    ...(dossiers ? { dossiers } : {}),
  });

const kinds = (log: SqliteEventLog) => ofType(log, "PlayerInput").map((e) => e.payload.input.kind);

describe("a skip racing another writer", () => {
  it("keeps the loser's input and everything it caused out of the log; verify passes", async () => {
    const { path, log } = await setUp();
    // The other process (serve): its own connection, and it gives up on a locked file soon.
    const otherDb = openDatabase(path);
    otherDb.pragma("busy_timeout = 100");
    const other = talkOver(new SqliteEventLog(otherDb));
    let racing: Promise<unknown> | null = null;
    const talk = talkOver(
      log,
      hooked(log, (n) => {
        // Mid-skip, after its RunResumed and before its ticks: the other writer tries its world tick.
        if (n === 1)
          racing = applyWorldTick(other, [fire]).then(
            () => "stored",
            (e: unknown) => e,
          );
      }),
    );
    const skipped = await talk.skipDays(2).then(
      () => "stored",
      (e: unknown) => e,
    );
    expect(racing).not.toBeNull();
    const raced = await racing!;
    // Exactly one of them won.
    expect([skipped, raced].filter((r) => r === "stored")).toHaveLength(1);
    const fresh = new SqliteEventLog(openDatabase(path));
    if (skipped === "stored") {
      // The loser is told, in one line naming the file, that another writer held it.
      expect((raced as { _tag?: string })._tag).toBe("DatabaseBusy");
      expect((raced as Error).message).toContain(path);
      expect(kinds(fresh)).toEqual(["skip"]);
      expect(ofType(fresh, "WorldEventOccurred").filter((e) => e.payload.kind === "fire")).toEqual(
        [],
      );
    } else {
      expect(kinds(fresh)).toEqual(["world_tick"]);
    }
    const report = await verifyLog({ log: fresh, saveId: MAIN, simulation: sim });
    expect(report.divergence).toBeNull();
    expect(report.ok).toBe(true);
  }, 120_000);

  it("a skip that fails half way leaves nothing behind, and the talk goes on", async () => {
    const { path, log } = await setUp();
    const before = log.head(MAIN);
    const talk = talkOver(
      log,
      hooked(log, (n) => {
        if (n === 1) throw new Error("disk full");
      }),
    );
    await expect(talk.skipDays(2)).rejects.toThrow(/disk full/);
    const fresh = new SqliteEventLog(openDatabase(path));
    expect(fresh.head(MAIN)).toBe(before);
    expect(kinds(fresh)).toEqual([]);
    expect(ofType(fresh, "RunResumed")).toEqual([]);
    // The same TalkWorld writes on from the head it really has.
    await applyWorldTick(talk, [fire]);
    expect(kinds(fresh)).toEqual(["world_tick"]);
    const report = await verifyLog({ log: fresh, saveId: MAIN, simulation: sim });
    expect(report.divergence).toBeNull();
  }, 120_000);
});
