/**
 * `hearsay run [simulation] --days N --seed S --db PATH [--brain scripted] [--resume]`:
 * advances a world headless, with a progress bar (game day, ticks/s, events/s, ETA) and
 * an end summary. `--days` is the length of the whole run; `--resume` continues from the
 * last committed tick and stops where an uninterrupted run would.
 */
import { existsSync, rmSync } from "node:fs";
import { ids } from "@hearsay/core";
import {
  loadSimulation,
  type RunSummary,
  retrievalDossiersWith,
  runSimulation,
} from "@hearsay/engine";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { Console, Effect, Option, Schema } from "effect";
import { Argument, Command, Flag } from "effect/cli";
import { attempt, CliFailure } from "../attempt.ts";
import { brainFlags } from "../brainFlags.ts";
import { chooseBrain } from "../chooseBrain.ts";
import { loadIndexMode } from "../indexMode.ts";
import { progressBar } from "../Progress.ts";
import { dbFlag, saveFlag } from "../saveFlags.ts";

const Days = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 36_500 }));

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
    quiet: Flag.Boolean("quiet").pipe(
      Flag.withDescription("No progress output"),
      Flag.withDefault(false),
    ),
  },
  Effect.fn(function* (args) {
    if (args.resume && args.replace) {
      return yield* Effect.fail(
        new CliFailure({ message: "--resume and --replace contradict each other: pick one" }),
      );
    }
    const sim = yield* attempt(() => loadSimulation(Option.getOrUndefined(args.simulation)));
    if (args.replace && existsSync(args.db)) {
      // Refuses (NotADatabase) rather than deleting a file that is not a hearsay database.
      yield* attempt(() => openDatabase(args.db).close());
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${args.db}${suffix}`, { force: true });
    }
    const chosen = yield* chooseBrain({
      brain: args.brain,
      model: Option.getOrUndefined(args.model),
      configPath: Option.getOrUndefined(args.config),
      quiet: args.quiet,
    });
    const indexMode = yield* loadIndexMode({ configPath: Option.getOrUndefined(args.config) });
    const db = yield* attempt(() => openDatabase(args.db));
    // No automatic whole-state snapshots: the read models already live in the database,
    // a resume rebuilds the engine from the log, and a snapshot is the whole state as one
    // JSON text — a 60-NPC year took 10 of them, 303 MB of its 536 MB, and a 1,000-NPC
    // world's state outgrows the longest string V8 can hold within months.
    const log = new SqliteEventLog(db);
    const startDay = sim.world.meta.start.day;
    let bar: ReturnType<typeof progressBar> | null = null;
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
          dossiers: retrievalDossiersWith({ indexMode }),
          resume: args.resume,
          ...(Option.isSome(args.checkpointEvery)
            ? { config: { checkpointEveryTicks: args.checkpointEvery.value } }
            : {}),
          onProgress: (p) => {
            const secs = Math.max(1e-3, (performance.now() - began) / 1000);
            bar ??= progressBar(
              p.endDay - startDay,
              "{bar} day {day}/{endDay} | {tps} ticks/s | {eps} events/s | ETA {eta_formatted}",
              args.quiet,
            );
            bar.update(p.day - startDay, {
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
          (bar as ReturnType<typeof progressBar> | null)?.stop();
          db.close();
        }),
      ),
    );
    const secs = (performance.now() - began) / 1000;
    yield* Console.log(formatSummary(summary, args.db, secs));
  }),
).pipe(Command.withDescription("Run a simulation headless"));

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
    }`,
    `memories: ${s.liveMemories} live`,
    `brain:    ${s.brainCalls} calls (${
      Object.entries(s.brainCallsByPurpose)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "none"
    }), ${s.brainFailures} failed`,
  ];
  return lines.join("\n");
};
