/**
 * `hearsay run [simulation] --days N --seed S --db PATH [--brain scripted] [--resume]
 * [--scale N] [--appends worker|inline]`: advances a world headless, with a progress bar (game day, ticks/s,
 * events/s, ETA) and an end summary with the run's own time (wall, ticks/s, µs per
 * NPC-day). `--days` is the length of the whole run; `--resume` continues from the last
 * committed tick and stops where an uninterrupted run would. `--scale N` runs the world
 * grown (or cut) to N NPCs, for stress runs; a resume must be scaled the same way.
 * `--appends` says where the ticks are written (default: a worker on more than one core).
 */
import { ids } from "@hearsay/core";
import {
  type IndexUpkeep,
  loadSimulation,
  type RunSummary,
  retrievalDossiersWith,
  runSimulation,
  scaleSimulation,
  tuneV8ForRuns,
} from "@hearsay/engine";
import { openForWriting, SqliteEventLog } from "@hearsay/store";
import { Console, Effect, Option, Schema } from "effect";
import { Argument, Command, Flag } from "effect/cli";
import { attempt, CliFailure } from "../attempt.ts";
import { brainFlags } from "../brainFlags.ts";
import { chooseBrain } from "../chooseBrain.ts";
import { chooseEmbedder } from "../chooseEmbedder.ts";
import { loadIndexMode } from "../indexMode.ts";
import { indexProgress } from "../indexProgress.ts";
import { onDatabase } from "../onDatabase.ts";
import { progressBar } from "../Progress.ts";
import { resumeNotes } from "../resumeNote.ts";
import { dbFlag, saveFlag } from "../saveFlags.ts";

const Days = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 36_500 }));
const Scale = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1_000_000 }));

export const runCommand = Command.make(
  "run",
  {
    simulation: Argument.String("simulation").pipe(
      Argument.withDescription("World folder or bundled simulation name (default: haskerry)"),
      Argument.optional,
    ),
    days: Flag.Int("days").pipe(
      Flag.withSchema(Days),
      Flag.withDescription(
        "Length of the whole run in game days (default 30; on --resume, the run's own)",
      ),
      Flag.optional,
    ),
    seed: Flag.Int("seed").pipe(
      Flag.withDescription("Seed for every random choice (default 1; on --resume, the run's own)"),
      Flag.optional,
    ),
    db: dbFlag("SQLite database file"),
    save: saveFlag("Save id within the database"),
    ...brainFlags,
    resume: Flag.Boolean("resume").pipe(
      Flag.withDescription("Continue the run already in --db"),
      Flag.withDefault(false),
    ),
    replace: Flag.Boolean("replace").pipe(
      Flag.withDescription("Delete an existing hearsay database at --db first and start over"),
      Flag.withDefault(false),
    ),
    checkpointEvery: Flag.Int("checkpoint-every").pipe(
      Flag.withSchema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
      Flag.withDescription(
        "A Checkpoint with the projection state hash every N ticks (default 24; 0: none)",
      ),
      Flag.optional,
    ),
    scale: Flag.Int("scale").pipe(
      Flag.withSchema(Scale),
      Flag.withDescription(
        "Run the world scaled to N NPCs (its places and people copied into districts), for stress runs",
      ),
      Flag.optional,
    ),
    appends: Flag.Literals("appends", ["worker", "inline"]).pipe(
      Flag.withDescription(
        "Where each tick's events are written: on a worker thread beside the next tick (default on more than one core) or inline",
      ),
      Flag.optional,
    ),
    quiet: Flag.Boolean("quiet").pipe(
      Flag.withDescription("No progress output"),
      Flag.withDefault(false),
    ),
  },
  Effect.fn(
    function* (args) {
      if (args.resume && args.replace) {
        return yield* Effect.fail(
          new CliFailure({ message: "--resume and --replace contradict each other: pick one" }),
        );
      }
      const loaded = yield* attempt(() => loadSimulation(Option.getOrUndefined(args.simulation)));
      const sim = Option.isSome(args.scale) ? scaleSimulation(loaded, args.scale.value) : loaded;
      const chosen = yield* chooseBrain({
        brain: args.brain,
        model: Option.getOrUndefined(args.model),
        configPath: Option.getOrUndefined(args.config),
        quiet: args.quiet,
      });
      const indexMode = yield* loadIndexMode({ configPath: Option.getOrUndefined(args.config) });
      // The writer lock is held from here until the run ends; --replace deletes the old
      // database only under it, and only when it is a hearsay database.
      const db = yield* attempt(() =>
        openForWriting(args.db, {
          mode: args.resume ? "existing" : args.replace ? "replace" : "create",
        }),
      );
      if (args.resume) {
        // Resuming needs a run to continue: its seed, length and world are in its log.
        const refusal = resumeRefusal(new SqliteEventLog(db), args.save, args.db);
        if (refusal !== null) {
          db.close();
          return yield* Effect.fail(new CliFailure({ message: refusal }));
        }
      }
      // No automatic whole-state snapshots: the read models already live in the database,
      // a resume rebuilds the engine from the log, and a snapshot is the whole state as one
      // JSON text — most of a long run's database, and for a large world more than the
      // longest string V8 can hold.
      const log = new SqliteEventLog(db);
      const embedding = yield* chooseEmbedder({
        brain: args.brain,
        configPath: Option.getOrUndefined(args.config),
        quiet: args.quiet,
        log,
        saveId: args.save,
      }).pipe(Effect.tapError(() => Effect.sync(() => db.close())));
      const startDay = sim.world.meta.start.day;
      let bar: ReturnType<typeof progressBar> | null = null;
      const indexBar = indexProgress(args.quiet);
      tuneV8ForRuns();
      const began = performance.now();
      const summary: RunSummary = yield* Effect.tryPromise({
        try: () =>
          runSimulation({
            world: sim.world,
            worldHash: sim.worldHash,
            lore: sim.lore,
            log,
            saveId: ids.save(args.save),
            ...(Option.isSome(args.days)
              ? { days: args.days.value }
              : args.resume
                ? {}
                : { days: 30 }),
            ...(Option.isSome(args.seed)
              ? { seed: args.seed.value }
              : args.resume
                ? {}
                : { seed: 1 }),
            brain: chosen.brain,
            recordBrain: chosen.record,
            dossiers: retrievalDossiersWith({
              embedding,
              indexMode,
              clock: () => performance.now(),
              onIndexProgress: indexBar.onProgress,
            }),
            resume: args.resume,
            ...(Option.isSome(args.appends)
              ? { appendInBackground: args.appends.value === "worker" }
              : {}),
            ...(Option.isSome(args.checkpointEvery)
              ? { config: { checkpointEveryTicks: args.checkpointEvery.value } }
              : {}),
            onResumeStep: resumeNotes(args.quiet),
            onProgress: (p) => {
              const secs = Math.max(1e-3, (performance.now() - began) / 1000);
              indexBar.stop();
              // The bar spans the days this call runs (a resumed run's from where it stopped).
              bar ??= progressBar(
                p.endDay - p.fromDay,
                "{bar} day {day}/{endDay} | {tps} ticks/s | {eps} events/s | ETA {eta_formatted}",
                args.quiet,
              );
              bar.update(p.day - p.fromDay, {
                day: p.day - startDay,
                endDay: p.endDay - startDay,
                tps: (p.ticks / secs).toFixed(0),
                eps: (p.events / secs).toFixed(0),
              });
            },
          }),
        catch: (e) => e,
      }).pipe(
        Effect.ensuring(
          Effect.sync(() => {
            indexBar.stop();
            (bar as ReturnType<typeof progressBar> | null)?.stop();
            db.close();
          }),
        ),
      );
      const secs = (performance.now() - began) / 1000;
      yield* Console.log(formatSummary(summary, args.db, secs));
      yield* Console.log(formatTime(summary, secs, sim.world));
    },
    (effect, args) => onDatabase(args.db)(effect),
  ),
).pipe(Command.withDescription("Run a simulation headless"));

/** Why `--resume` of `save` cannot go on, or null when there is a started run to continue. */
const resumeRefusal = (log: SqliteEventLog, save: string, db: string): string | null => {
  const saves = log.saves();
  const found = saves.find((s) => s.saveId === save);
  if (found === undefined) {
    const known = saves.map((s) => s.saveId);
    return `${db}: no save "${save}" to resume (${known.length === 0 ? "it holds none" : `saves: ${known.join(", ")}`}); pass --save with one of them, or start a run without --resume`;
  }
  if (found.head === 0) {
    return `${db}: save "${save}" never started (it was stopped before its first event), so there is no seed or length to continue; start it again without --resume, with --days and --seed`;
  }
  return null;
};

/** The run's own time: wall seconds, ticks per second and wall µs per simulated NPC-day. */
const formatTime = (
  s: RunSummary,
  secs: number,
  world: { readonly npcs: ReadonlyArray<unknown>; readonly meta: { readonly tickMinutes: number } },
): string => {
  const npcDays = (world.npcs.length * s.ticks * world.meta.tickMinutes) / 1440;
  const perNpcDay = npcDays > 0 ? `${((secs * 1e6) / npcDays).toFixed(0)} µs` : "n/a";
  return `time:     ${secs.toFixed(1)} s wall, ${(s.ticks / Math.max(secs, 1e-9)).toFixed(1)} ticks/s, ${perNpcDay} per NPC-day (${world.npcs.length} NPCs × ${(npcDays / Math.max(1, world.npcs.length)).toFixed(1)} days)`;
};

/** What the index jobs wrote to the vector index files (`RunSummary.indexUpkeep`). */
const indexLine = (u: IndexUpkeep): string =>
  `index:    ${u.jobs} job${u.jobs === 1 ? "" : "s"} on disk, ${u.writes} wrote ${u.rows} rows behind and ${u.segments} new graph segment${u.segments === 1 ? "" : "s"}${
    u.writes === 0 ? "" : ` (${u.bytes.toLocaleString("en")} bytes on disk)`
  }${u.seconds === null ? "" : ` in ${u.seconds.toFixed(2)} s`}`;

const formatSummary = (s: RunSummary, db: string, secs: number): string => {
  const lines = [
    `${s.finished ? "finished" : "stopped"} at day ${Math.floor(s.t / 1440)} — ${s.ticks} ticks in ${secs.toFixed(1)} s, ${s.head} events in ${db} (save ${s.saveId})${s.resumed ? ", resumed" : ""}`,
    `events:   ${
      Object.entries(s.eventsByType)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "none this run"
    }`,
    `debates:  ${s.debates}`,
    `tasks:    ${
      Object.entries(s.tasksByStatus)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "none"
    }; deadlines moved this run ${s.eventsByType.TaskDeadlineMoved ?? 0}`,
    `memories: ${s.liveMemories} live; this run ${
      Object.entries(s.memoriesGone)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "none gone"
    }, reinforced ${s.memoriesReinforced}`,
    `jobs:     ${
      Object.entries(s.jobsRun)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "none this run"
    }`,
    ...(s.indexUpkeep === null ? [] : [indexLine(s.indexUpkeep)]),
    `brain:    ${s.brainCalls} calls (${
      Object.entries(s.brainCallsByPurpose)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "none"
    }), ${s.brainFailures} failed, ${s.brainFellBack} answered by a fallback, ${s.brainRejected} model answers refused`,
  ];
  return lines.join("\n");
};
