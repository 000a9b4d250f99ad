/**
 * Choosing a moment to SIGKILL a running `hearsay run`, and killing it then. Moments are
 * drawn from a seeded PRNG so a failing crash replays:
 *
 * - `seq`: once the committed log reaches a random seq ahead of where the run started,
 *   wait a random few milliseconds (the run is then inside a later tick: deciding,
 *   appending, or both);
 * - `checkpoint`: just before a tick that writes a Checkpoint (the run is then hashing
 *   every projection row, or appending the batch that carries the hash);
 * - `time`: while nothing is committed yet, a random wall-clock delay after the start
 *   (start-up, migrations, genesis, or whatever the run reached by then), drawn as a
 *   share of how long the uninterrupted run took to commit its first events on this
 *   machine, so a slow or a fast machine alike is killed during its start-up;
 * - `end`: once the last tick is committed, a few milliseconds later — while the run
 *   saves its vector index beside the database (see {@link planEndKill}).
 *
 * The committed head is watched through a read-only connection, which can neither
 * write nor checkpoint the WAL, so watching does not change what the crash leaves.
 */
import { existsSync } from "node:fs";
import { Prng } from "@hearsay/core";
import Database from "better-sqlite3";
import type { CliProcess, CliResult } from "../support/hearsayCli.ts";
import { type CrashReference, SAVE } from "./crashReference.ts";

export type KillPlan =
  | { readonly kind: "seq"; readonly atSeq: number; readonly delayMs: number }
  | { readonly kind: "checkpoint"; readonly atSeq: number; readonly delayMs: number }
  | { readonly kind: "time"; readonly delayMs: number }
  | { readonly kind: "end"; readonly atSeq: number; readonly delayMs: number };

/**
 * A kill moment for a run whose log holds `head` events, drawn from `(seed, label)`.
 * `killsLeft` (this one included) spreads a chain's seq targets over what remains of the
 * run, so later kills do not crowd at its end.
 */
export const planKill = (
  seed: number,
  label: string,
  head: number,
  reference: CrashReference,
  killsLeft: number,
  startupMs: number,
): KillPlan => {
  const prng = Prng.derive(seed, "kill", label);
  const roll = prng.int(0, 99);
  const span = Math.max(1, Math.floor(((reference.head - head) * 2) / (killsLeft + 1)));
  const ahead = reference.checkpointSeqs.filter((s) => s - 1 > head && s - 1 <= head + span * 2);
  if (roll < 25 && ahead.length > 0) {
    return { kind: "checkpoint", atSeq: prng.pick(ahead) - 1, delayMs: prng.int(0, 12) };
  }
  // Start-up is only worth killing before anything is committed (migrations, genesis).
  if (roll < 60 && head === 0) {
    const delayMs = prng.int(Math.round(startupMs * 0.25), Math.round(startupMs * 1.25));
    return { kind: "time", delayMs };
  }
  return { kind: "seq", atSeq: head + prng.int(1, span), delayMs: prng.int(0, 30) };
};

/** The moment just after a run's last tick, when it saves its vector index. */
export const planEndKill = (seed: number, label: string, reference: CrashReference): KillPlan => ({
  kind: "end",
  atSeq: reference.head,
  delayMs: Prng.derive(seed, "end-kill", label).int(0, 25),
});

/** Reads a save's committed head without ever writing. */
class HeadWatcher {
  private db: Database.Database | null = null;

  constructor(private readonly path: string) {}

  head(): number | null {
    try {
      if (this.db === null) {
        if (!existsSync(this.path)) return null;
        this.db = new Database(this.path, { readonly: true, fileMustExist: true });
      }
      const row = this.db.prepare("SELECT head_seq FROM saves WHERE save_id = ?").get(SAVE) as
        | { head_seq: number }
        | undefined;
      return row?.head_seq ?? null;
    } catch {
      // Not a database yet, no schema yet, or busy: look again next time.
      this.close();
      return null;
    }
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** How a planned kill went. */
export interface KillOutcome {
  /** True when the SIGKILL ended the run (false: it had finished or failed first). */
  readonly killed: boolean;
  /** The head the watcher last saw before the kill. */
  readonly seenHead: number | null;
  readonly result: CliResult;
}

/**
 * Lets a run end by itself, and says how long after its start its first events were
 * committed (null if it committed none): the start-up `time` kills are drawn within.
 */
export const timeToFirstCommit = async (
  run: CliProcess,
  dbPath: string,
): Promise<{ readonly firstCommitMs: number | null; readonly result: CliResult }> => {
  const began = performance.now();
  const watcher = new HeadWatcher(dbPath);
  let firstCommitMs: number | null = null;
  try {
    while (!run.exited() && firstCommitMs === null) {
      if ((watcher.head() ?? 0) > 0) firstCommitMs = performance.now() - began;
      else await sleep(1);
    }
  } finally {
    watcher.close();
  }
  return { firstCommitMs, result: await run.done };
};

/** Waits for the planned moment, then SIGKILLs the run. */
export const killWhen = async (
  run: CliProcess,
  dbPath: string,
  plan: KillPlan,
): Promise<KillOutcome> => {
  const began = performance.now();
  const watcher = new HeadWatcher(dbPath);
  let seenHead: number | null = null;
  try {
    while (!run.exited()) {
      if (plan.kind === "time") {
        if (performance.now() - began >= plan.delayMs) break;
      } else {
        seenHead = watcher.head() ?? seenHead;
        if (seenHead !== null && seenHead >= plan.atSeq) {
          await sleep(plan.delayMs);
          break;
        }
      }
      await sleep(1);
    }
  } finally {
    watcher.close();
  }
  if (!run.exited()) run.child.kill("SIGKILL");
  const result = await run.done;
  return { killed: result.signal === "SIGKILL", seenHead, result };
};
