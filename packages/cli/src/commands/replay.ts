/**
 * `hearsay replay --db PATH [--save ID] [--until SEQ | --until-day D] [--verify]
 * [--simulation PATH]`: replays a recorded run. Without --verify it refolds every
 * projection from the log into a scratch database, checking each Checkpoint's state hash
 * on the way (fast: no engine, no model). With --verify it runs the engine again from the
 * simulation definition — the scripted brain again, or the recorded answers; never a
 * live model — and compares every event with the log, stopping at the first difference
 * with its seq, game time, both events and the state hashes on both sides. The database
 * is opened read-only. Exit 1 on any mismatch.
 */
import { formatGameTime, type GameTime, ids } from "@hearsay/core";
import {
  type Divergence,
  lastSeqOfDay,
  loadRecordedSimulation,
  loadSimulation,
  ReplayRefused,
  refoldLog,
  requireSave,
  SimulationNotFound,
  tuneV8ForRuns,
  verifyLog,
} from "@hearsay/engine";
import { openForReading, SqliteEventLog } from "@hearsay/store";
import { Console, Effect, Option } from "effect";
import { Command, Flag } from "effect/cli";
import { attempt, CliFailure } from "../attempt.ts";
import { onDatabase } from "../onDatabase.ts";
import { progressBar } from "../Progress.ts";
import { dbFlag, NonNegative, saveFlag } from "../saveFlags.ts";

const short = (hash: string) => (hash.length > 16 ? `${hash.slice(0, 16)}…` : hash);

/** The divergence as the lines a person reads. */
const formatDivergence = (d: Divergence): string =>
  [
    `diverged at seq ${d.seq} (${formatGameTime(d.t as GameTime)}), ${d.type}: ${d.why}`,
    `  expected: ${d.expectedText}`,
    `  actual:   ${d.actualText}`,
    ...(d.paths.length > 0 ? [`  differs at: ${d.paths.join(", ")}`] : []),
    d.stateHashes.expected.throughSeq === d.stateHashes.actual.throughSeq
      ? `  state after seq ${d.stateHashes.actual.throughSeq}: expected ${short(d.stateHashes.expected.stateHash)}, actual ${short(d.stateHashes.actual.stateHash)}`
      : `  state: expected ${short(d.stateHashes.expected.stateHash)} after seq ${d.stateHashes.expected.throughSeq}, actual ${short(d.stateHashes.actual.stateHash)} after seq ${d.stateHashes.actual.throughSeq}`,
    d.lastCheckpoint === null
      ? "  no checkpoint agreed before it"
      : `  last agreeing checkpoint: seq ${d.lastCheckpoint.seq} (${short(d.lastCheckpoint.stateHash)})`,
    ...(d.missingAnswer === null ? [] : [`  brain: ${d.missingAnswer}`]),
  ].join("\n");

export const replayCommand = Command.make(
  "replay",
  {
    db: dbFlag("SQLite database of a recorded run (opened read-only)"),
    save: saveFlag("Save to replay"),
    until: Flag.Int("until").pipe(
      Flag.withSchema(NonNegative),
      Flag.withDescription("Replay through this seq"),
      Flag.optional,
    ),
    untilDay: Flag.Int("until-day").pipe(
      Flag.withSchema(NonNegative),
      Flag.withDescription("Replay through the end of this game day"),
      Flag.optional,
    ),
    verify: Flag.Boolean("verify").pipe(
      Flag.withDescription("Run the engine again and compare every event with the log"),
      Flag.withDefault(false),
    ),
    simulation: Flag.String("simulation").pipe(
      Flag.withDescription("Simulation folder for --verify (default: the one the run names)"),
      Flag.optional,
    ),
    quiet: Flag.Boolean("quiet").pipe(
      Flag.withDescription("No progress output"),
      Flag.withDefault(false),
    ),
  },
  Effect.fn(
    function* (args) {
      if (Option.isSome(args.until) && Option.isSome(args.untilDay)) {
        return yield* Effect.fail(
          new CliFailure({ message: "--until and --until-day contradict each other: pick one" }),
        );
      }
      const db = yield* attempt(() => openForReading(args.db));
      const log = new SqliteEventLog(db);
      const saveId = ids.save(args.save);
      const work = Effect.gen(function* () {
        const save = yield* attempt(() => requireSave(log, saveId, args.db));
        const untilSeq = Option.isSome(args.until)
          ? args.until.value
          : Option.isSome(args.untilDay)
            ? lastSeqOfDay(log, saveId, args.untilDay.value)
            : save.head;
        if (untilSeq < 1 || untilSeq > save.head) {
          return yield* Effect.fail(
            new CliFailure({
              message: `${Option.isSome(args.untilDay) ? `day ${args.untilDay.value} holds no event` : `seq ${untilSeq} is outside the log`} of save "${saveId}" (seq 1–${save.head}): choose a point within it`,
            }),
          );
        }
        const bar = progressBar(
          untilSeq,
          "{bar} seq {seq}/{last} | ETA {eta_formatted}",
          args.quiet,
        );
        const began = performance.now();
        const seconds = () => (performance.now() - began) / 1000;
        if (!args.verify) {
          const report = yield* attempt(() =>
            refoldLog({
              log,
              saveId,
              untilSeq,
              onProgress: (seq) => bar.update(seq, { seq, last: untilSeq }),
            }),
          ).pipe(Effect.ensuring(Effect.sync(() => bar.stop())));
          const secs = seconds();
          const rate = Math.round(report.folded / Math.max(secs, 1e-3));
          if (report.mismatch !== null) {
            const m = report.mismatch;
            yield* Console.log(
              [
                `checkpoint at seq ${m.seq} (${formatGameTime(m.t as GameTime)}) does not match the refold`,
                `  log:    ${m.expected} (through seq ${m.throughSeq})`,
                `  refold: ${m.actual} (through seq ${m.seq - 1})`,
                `  ${report.checkpoints} earlier checkpoint(s) matched`,
              ].join("\n"),
            );
            return yield* Effect.fail(
              new CliFailure({
                message: `replay of save "${saveId}" does not match its checkpoint at seq ${m.seq}: the projections fold events 1–${m.seq - 1} differently from when they were recorded`,
              }),
            );
          }
          yield* Console.log(
            `replayed save "${saveId}": ${report.folded} events (seq 1–${report.throughSeq}) refolded in ${secs.toFixed(2)} s (${rate} events/s); ${report.checkpoints} checkpoint(s) match; state hash ${report.stateHash}`,
          );
          return;
        }
        const loadNamed = (name: string) => {
          try {
            return loadRecordedSimulation(name);
          } catch (e) {
            if (e instanceof SimulationNotFound) {
              throw new ReplayRefused({
                reason: `the run names simulation "${name}", which is not found here`,
                fix: "pass --simulation with the folder it was recorded from",
              });
            }
            throw e;
          }
        };
        const path = args.simulation;
        const simulation = Option.isSome(path)
          ? yield* attempt(() => loadSimulation(path.value))
          : loadNamed;
        tuneV8ForRuns();
        const report = yield* Effect.tryPromise({
          try: () =>
            verifyLog({
              log,
              saveId,
              simulation,
              untilSeq,
              onProgress: (seq) => bar.update(seq, { seq, last: untilSeq }),
            }),
          catch: (e) => e,
        }).pipe(Effect.ensuring(Effect.sync(() => bar.stop())));
        const secs = seconds();
        if (report.divergence !== null) {
          yield* Console.log(formatDivergence(report.divergence));
          return yield* Effect.fail(
            new CliFailure({
              message: `replay of save "${saveId}" diverged from its log at seq ${report.divergence.seq} (${report.compared} events agreed before it)`,
            }),
          );
        }
        yield* Console.log(
          `verified save "${saveId}": ${report.compared} events (seq 1–${report.throughSeq}) re-run from "${report.simulation}" with ${report.brains.join(", then ")} are identical; ${report.checkpoints} checkpoint(s) equal; state hash ${report.stateHash}; ${secs.toFixed(1)} s (${Math.round(report.compared / Math.max(secs, 1e-3))} events/s)`,
        );
      });
      return yield* work.pipe(Effect.ensuring(Effect.sync(() => db.close())));
    },
    (effect, args) => onDatabase(args.db)(effect),
  ),
).pipe(
  Command.withDescription(
    "Replay a recorded run: refold and check its checkpoints, or --verify it",
  ),
);
