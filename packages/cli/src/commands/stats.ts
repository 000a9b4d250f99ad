/**
 * `hearsay stats --db PATH [--save ID] [--json]`: what a run spent on its brain — calls,
 * tokens and latency per purpose, per brain and model, per NPC, per priority class of
 * the brain policy (with how many of each fell back) and per game day — read from the
 * log's read model, and the engine snapshots a resume starts from (how many, their size).
 * Runs with the scripted brain record no calls (their answers follow from the seed), so
 * they report none.
 */

import { defaultEngineConfig, requireSave } from "@hearsay/engine";
import {
  type CallFigures,
  type EngineSnapshotFigures,
  engineSnapshotFigures,
  llmCallStats,
  openForReading,
  SqliteEventLog,
} from "@hearsay/store";
import { Console, Effect } from "effect";
import { Command, Flag } from "effect/cli";
import { attempt } from "../attempt.ts";
import { onDatabase } from "../onDatabase.ts";

const n = (x: number, width: number) => String(x).padStart(width);
const row = (label: string, f: CallFigures) =>
  `${label.padEnd(28)} ${n(f.calls, 7)} ${n(f.fellBack, 9)} ${n(f.failed, 6)} ${n(f.rejected, 8)} ${n(f.promptTokens, 10)} ${n(f.outputTokens, 10)} ${f.meanLatencyMs.toFixed(0).padStart(9)} ${f.maxLatencyMs.toFixed(0).padStart(9)}`;
const header = `${"".padEnd(28)} ${"calls".padStart(7)} ${"fell back".padStart(9)} ${"failed".padStart(6)} ${"rejected".padStart(8)} ${"prompt tok".padStart(10)} ${"output tok".padStart(10)} ${"mean ms".padStart(9)} ${"max ms".padStart(9)}`;
/** Tokens are everything sent and received; the line under the table says what refusals cost. */
const refusedLine = (f: CallFigures) =>
  `refused answers: ${f.rejected} (${f.rejectedPromptTokens} prompt and ${f.rejectedOutputTokens} output tokens of the totals); answered by a fallback: ${f.fellBack}; answered by none: ${f.failed}`;

/** What a resume starts from: the save's engine snapshots, their number and size. */
const snapshotLine = (f: EngineSnapshotFigures): string =>
  f.count === 0
    ? `engine snapshots: none (a resume folds the whole log; one is taken every ${defaultEngineConfig.snapshotEveryEvents.toLocaleString("en")} events)`
    : `engine snapshots: ${f.count}, ${(f.bytes / 2 ** 20).toFixed(1)} MiB stored, newest at seq ${f.newestSeq} (a resume folds only the log after it)`;

export const statsCommand = Command.make(
  "stats",
  {
    db: Flag.String("db").pipe(Flag.withDescription("SQLite database file of a run")),
    save: Flag.String("save").pipe(Flag.withDescription("Save id"), Flag.withDefault("main")),
    json: Flag.Boolean("json").pipe(Flag.withDescription("Print JSON"), Flag.withDefault(false)),
    top: Flag.Int("top").pipe(Flag.withDescription("NPCs to list"), Flag.withDefault(10)),
  },
  Effect.fn(
    function* (args) {
      const db = yield* attempt(() => openForReading(args.db));
      const { stats, snapshots } = yield* attempt(() => {
        // A save that is not there is an error, not a save with no calls.
        requireSave(new SqliteEventLog(db), args.save, args.db);
        return {
          stats: llmCallStats(db, args.save),
          snapshots: engineSnapshotFigures(db, args.save),
        };
      }).pipe(Effect.ensuring(Effect.sync(() => db.close())));
      if (args.json) {
        return yield* Console.log(
          JSON.stringify({ ...stats, engineSnapshots: snapshots }, null, 2),
        );
      }
      if (stats.total.calls === 0) {
        return yield* Console.log(
          [
            `no recorded brain calls in save "${args.save}" (a scripted run records none)`,
            snapshotLine(snapshots),
          ].join("\n"),
        );
      }
      yield* Console.log(
        [
          header,
          row("all", stats.total),
          "by purpose",
          ...stats.byPurpose.map((p) => row(`  ${p.purpose}`, p)),
          "by brain",
          ...stats.byBrain.map((b) => row(`  ${b.brain} ${b.model}`, b)),
          `by NPC (top ${args.top})`,
          ...stats.byNpc.slice(0, args.top).map((n) => row(`  ${n.npcId ?? "(world)"}`, n)),
          ...(stats.byPriority.some((p) => p.priority !== null)
            ? [
                "by priority class (brain policy)",
                ...stats.byPriority.map((p) => row(`  ${p.priority ?? "(none recorded)"}`, p)),
                "why each class fell back",
                ...stats.fallbacksByPriority.map(
                  (f) =>
                    `  ${(f.priority ?? "(none recorded)").padEnd(26)} held for higher classes of the tick ${f.held}, budget spent ${f.budget}, model failed ${f.model}`,
                ),
              ]
            : []),
          "by game day",
          ...stats.byDay.map((d) => row(`  day ${d.day}`, d)),
          refusedLine(stats.total),
          snapshotLine(snapshots),
        ].join("\n"),
      );
    },
    (effect, args) => onDatabase(args.db)(effect),
  ),
).pipe(Command.withDescription("Brain calls, tokens and latency of a run"));
