/**
 * Nothing committed is lost, and a crash leaves nothing half-done. `hearsay run` is
 * started as a child process on the default world and SIGKILLed at seeded random
 * moments; after every kill the database passes `PRAGMA integrity_check`, its log is a
 * prefix of an uninterrupted run's log ending at a whole tick, and its projections equal
 * a rebuild from the log. Kills come in chains — a fresh run, killed, then `--resume`,
 * killed again, … — so every crash is recovered from by a real `--resume` (a kill before
 * the first event leaves nothing to resume, and `--resume` refuses such a save: the run
 * is started again, as that refusal tells a user to), and every
 * chain ends with a `--resume` that runs to the end and must write a log identical
 * (canonical hash) to the uninterrupted run with the same seed, with a vector index
 * beside it that loads whole (a chain's last kill may land while the index is saved).
 *
 * Default: 20 kills. `HEARSAY_DEEP=1`: 60. `HEARSAY_CRASH_SEED` replays other moments.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { collectionNames } from "@hearsay/retrieval";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHearsay, spawnHearsay } from "../support/hearsayCli.ts";
import { type CrashReference, readReference } from "./crashReference.ts";
import { indexOutcomes, inspectCrash } from "./inspectCrash.ts";
import { type KillPlan, killWhen, planEndKill, planKill, timeToFirstCommit } from "./killWhen.ts";

const DEEP = process.env.HEARSAY_DEEP !== undefined && process.env.HEARSAY_DEEP !== "";
const CRASH_SEED = Number(process.env.HEARSAY_CRASH_SEED ?? 20_261_122);
const KILLS = DEEP ? 60 : 20;
const KILLS_PER_CHAIN = 10;
/**
 * A chain lands one kill per committed game day at most, and fewer when the append
 * worker commits the last days back to back (a machine whose run thread is far ahead of
 * its worker): chains are started until the kills have landed, up to one per kill.
 */
const MAX_CHAINS = KILLS;
const LANES = 2;
const RUN_ARGS = ["run", "haskerry", "--days", "6", "--seed", "7", "--quiet"] as const;

interface KillRecord {
  readonly label: string;
  readonly plan: KillPlan;
  readonly headBefore: number;
  readonly headAfter: number;
  readonly lastType: string | null;
}

const describePlan = (p: KillPlan): string =>
  p.kind === "time" ? `time +${p.delayMs}ms` : `${p.kind} seq>=${p.atSeq} +${p.delayMs}ms`;

describe("crash recovery: SIGKILL at random moments, then --resume", () => {
  let dir: string;
  let reference: CrashReference;
  let startupMs: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "hearsay-crash-"));
    const refDb = join(dir, "reference.db");
    const { firstCommitMs, result: ref } = await timeToFirstCommit(
      spawnHearsay([...RUN_ARGS, "--db", refDb]),
      refDb,
    );
    expect(ref.stderr, "the uninterrupted reference run").toBe("");
    expect(ref.code).toBe(0);
    expect(firstCommitMs, "the reference run's first commit was seen").not.toBe(null);
    startupMs = firstCommitMs ?? 0;
    reference = readReference(refDb);
    expect(reference.head).toBeGreaterThan(reference.genesisLength);
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    `survives ${KILLS} kills (seed ${CRASH_SEED}) and resumes to the uninterrupted log`,
    async () => {
      const kills: Array<KillRecord> = [];
      /** Every planned kill, landed or not: printed when too few land. */
      const attempts: Array<string> = [];
      let nextChain = 0;
      let unplanned = KILLS;
      let endKills = 0;

      /** One chain of up to `want` kills; returns how many landed. */
      const chain = async (c: number, want: number): Promise<number> => {
        const db = join(dir, `chain-${c}.db`);
        let head = 0;
        let landed = 0;
        let finished = false;
        // A kill after the last commit leaves a whole log: nothing is left to kill in.
        for (let k = 0; k < want && head < reference.head; k++) {
          const label = `chain ${c} kill ${k}`;
          const where = `${label} (HEARSAY_CRASH_SEED=${CRASH_SEED})`;
          const plan = planKill(CRASH_SEED, `${c}.${k}`, head, reference, want - k, startupMs);
          const run = spawnHearsay([...RUN_ARGS, "--db", db, ...(head === 0 ? [] : ["--resume"])]);
          const outcome = await killWhen(run, db, plan);
          attempts.push(
            `${label}: ${describePlan(plan)} from head ${head}, last seen ${outcome.seenHead}: ` +
              (outcome.killed ? "killed" : "finished first"),
          );
          if (!outcome.killed) {
            // The run ended before the moment came: it must have ended well.
            expect(outcome.result.stderr, `${where}: ${describePlan(plan)}`).toBe("");
            expect(outcome.result.code, `${where}: ${describePlan(plan)}`).toBe(0);
            finished = true;
            break;
          }
          landed += 1;
          const state = inspectCrash(db, reference);
          const what = `${where}: ${describePlan(plan)}, head ${head} -> ${state.head}`;
          expect(state.integrity, `${what}: integrity_check`).toBe("ok");
          expect(
            state.firstDifference,
            `${what}: the log is a prefix of the uninterrupted log`,
          ).toBe(null);
          expect(
            state.wholeTick,
            `${what}: the log ends at a whole tick (last ${state.lastType})`,
          ).toBe(true);
          expect(state.rebuiltHash, `${what}: projections equal a rebuild`).toBe(
            state.projectionHash,
          );
          expect(state.head, `${what}: committed events are never lost`).toBeGreaterThanOrEqual(
            head,
          );
          kills.push({
            label,
            plan,
            headBefore: head,
            headAfter: state.head,
            lastType: state.lastType,
          });
          head = state.head;
        }
        const where = `chain ${c} final --resume (HEARSAY_CRASH_SEED=${CRASH_SEED})`;
        if (!finished) {
          // The last resume is killed once more just after its last tick, while it saves
          // the vector index (an extra kill: it may come too late, and then it finished).
          const plan = planEndKill(CRASH_SEED, String(c), reference);
          const last = await killWhen(
            spawnHearsay([...RUN_ARGS, "--db", db, ...(head === 0 ? [] : ["--resume"])]),
            db,
            plan,
          );
          if (last.killed) {
            const state = inspectCrash(db, reference);
            const what = `${where}: ${describePlan(plan)}`;
            expect(state.integrity, `${what}: integrity_check`).toBe("ok");
            expect(state.firstDifference, `${what}: the log`).toBe(null);
            expect(state.rebuiltHash, `${what}: projections`).toBe(state.projectionHash);
            endKills += 1;
            const resumed = await runHearsay([...RUN_ARGS, "--db", db, "--resume"]);
            expect(resumed.stderr, where).toBe("");
            expect(resumed.code, where).toBe(0);
          } else {
            expect(last.result.stderr, where).toBe("");
            expect(last.result.code, where).toBe(0);
            expect(last.result.stdout, where).toMatch(/^finished at day 6\b/);
          }
        }
        const final = inspectCrash(db, reference);
        expect(final.head, `${where}: head`).toBe(reference.head);
        expect(final.firstDifference, `${where}: the log equals the uninterrupted run's`).toBe(
          null,
        );
        expect(final.projectionHash, `${where}: projection hash`).toBe(reference.projectionHash);
        // Whatever a kill left of the vector index, the files are whole and current now.
        expect(indexOutcomes(db), `${where}: the vector index`).toEqual(
          collectionNames.map((c) => `${c} loaded`),
        );
        for (const f of readdirSync(dir)) if (f.startsWith(`chain-${c}.db`)) rmSync(join(dir, f));
        return landed;
      };

      // Kills are handed out in chains; a chain whose run finishes early gives its
      // unused kills back for another chain.
      const lane = async (): Promise<void> => {
        while (unplanned > 0 && nextChain < MAX_CHAINS) {
          const want = Math.min(KILLS_PER_CHAIN, unplanned);
          unplanned -= want;
          const landed = await chain(nextChain++, want);
          unplanned += want - landed;
        }
      };
      await Promise.all(Array.from({ length: LANES }, lane));

      const byKind = new Map<string, number>();
      for (const k of kills) byKind.set(k.plan.kind, (byKind.get(k.plan.kind) ?? 0) + 1);
      const advanced = kills.filter((k) => k.headAfter > k.headBefore).length;
      console.info(
        `crash recovery: ${kills.length} kills (${[...byKind].map(([k, n]) => `${k} ${n}`).join(", ")}); ` +
          `${advanced} after new commits; ${endKills} more while saving the index; ` +
          `${attempts.length - kills.length} runs finished first; ` +
          `reference ${reference.head} events, first commit after ${Math.round(startupMs)} ms`,
      );
      expect(kills.length, `kills that landed, of:\n${attempts.join("\n")}`).toBe(KILLS);
    },
    DEEP ? 1_800_000 : 400_000,
  );
});
