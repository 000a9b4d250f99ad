/**
 * `hearsay skip --db PATH --days N [--mode jump|elision] [--save ID] [--simulation PATH]
 * [--brain …]`: moves a stored run N game days on without playing every tick (see the
 * engine's skipSave.ts for what each mode runs). Every step is recorded, so `replay
 * --verify` re-makes the skip; a skip past the run's end day extends the run. The world
 * is the simulation the run names (or `--simulation`); the run's seed is kept.
 */
import { formatGameTime, type GameTime, ids } from "@hearsay/core";
import {
  loadRecordedSimulation,
  loadSimulation,
  RunRefused,
  retrievalDossiersWith,
  SimulationNotFound,
  type SkipSummary,
  skipSave,
  tuneV8ForRuns,
} from "@hearsay/engine";
import { openForWriting, SqliteEventLog } from "@hearsay/store";
import { Console, Effect, Option, Schema } from "effect";
import { Command, Flag } from "effect/cli";
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

/** Why `save` cannot be skipped, or null when it holds a started run. */
const saveRefusal = (log: SqliteEventLog, save: string, db: string): string | null => {
  const saves = log.saves();
  const found = saves.find((s) => s.saveId === save);
  if (found === undefined) {
    const known = saves.map((s) => s.saveId);
    return `${db}: no save "${save}" to skip (${known.length === 0 ? "it holds none" : `saves: ${known.join(", ")}`}); pass --save with one of them, or start a run with hearsay run`;
  }
  if (found.head === 0) {
    return `${db}: save "${save}" never started, so there is no run to skip; start it with hearsay run`;
  }
  return null;
};

/** The simulation the run names, or the one given; a missing one says how to point at it. */
const simulationOf = (log: SqliteEventLog, save: string, given: Option.Option<string>) => {
  if (Option.isSome(given)) return loadSimulation(given.value);
  const started = log.read(save, { toSeq: 1 })[0];
  const name = started?.type === "SimulationStarted" ? started.payload.simulation : undefined;
  try {
    return loadRecordedSimulation(name);
  } catch (e) {
    if (e instanceof SimulationNotFound) {
      throw new RunRefused({
        reason: `the run names simulation "${name}", which is not found here`,
        fix: "pass --simulation with the folder it was started from",
      });
    }
    throw e;
  }
};

export const skipCommand = Command.make(
  "skip",
  {
    db: dbFlag("SQLite database of a run to move on"),
    save: saveFlag("Save to move on"),
    days: Flag.Int("days").pipe(
      Flag.withSchema(Days),
      Flag.withDescription("Game days to skip (1 or more)"),
    ),
    mode: Flag.Literals("mode", ["jump", "elision"]).pipe(
      Flag.withDescription(
        "jump: the clock moves a day at a time, applying only deadlines, expiries and decay (default); elision: NPCs act every 6 game hours",
      ),
      Flag.withDefault("jump"),
    ),
    simulation: Flag.String("simulation").pipe(
      Flag.withDescription("Simulation folder (default: the one the run names)"),
      Flag.optional,
    ),
    ...brainFlags,
    quiet: Flag.Boolean("quiet").pipe(
      Flag.withDescription("No progress output"),
      Flag.withDefault(false),
    ),
  },
  Effect.fn(
    function* (args) {
      const chosen = yield* chooseBrain({
        brain: args.brain,
        model: Option.getOrUndefined(args.model),
        configPath: Option.getOrUndefined(args.config),
        quiet: args.quiet,
      });
      const indexMode = yield* loadIndexMode({ configPath: Option.getOrUndefined(args.config) });
      // The writer lock is held until the skip ends: nothing else writes the save meanwhile.
      const db = yield* attempt(() => openForWriting(args.db, { mode: "existing" }));
      const log = new SqliteEventLog(db);
      const work = Effect.gen(function* () {
        const refusal = saveRefusal(log, args.save, args.db);
        if (refusal !== null) return yield* Effect.fail(new CliFailure({ message: refusal }));
        const sim = yield* attempt(() => simulationOf(log, args.save, args.simulation));
        const embedding = yield* chooseEmbedder({
          brain: args.brain,
          configPath: Option.getOrUndefined(args.config),
          quiet: args.quiet,
          log,
          saveId: args.save,
        });
        // Started with the skip's first step: taking up the run says what it does first.
        let bar: ReturnType<typeof progressBar> | null = null;
        const indexBar = indexProgress(args.quiet);
        tuneV8ForRuns();
        const began = performance.now();
        const summary: SkipSummary = yield* Effect.tryPromise({
          try: () =>
            skipSave({
              world: sim.world,
              worldHash: sim.worldHash,
              lore: sim.lore,
              log,
              saveId: ids.save(args.save),
              skipDays: args.days,
              mode: args.mode,
              brain: chosen.brain,
              recordBrain: chosen.record,
              dossiers: retrievalDossiersWith({
                embedding,
                indexMode,
                clock: () => performance.now(),
                onIndexProgress: indexBar.onProgress,
              }),
              onResumeStep: resumeNotes(args.quiet),
              onProgress: (skipped, events) => {
                indexBar.stop();
                bar ??= progressBar(
                  args.days,
                  "{bar} day {day}/{days} skipped | {events} events | ETA {eta_formatted}",
                  args.quiet,
                );
                const day = Math.min(args.days, Math.floor(skipped));
                bar.update(day, { day, days: args.days, events });
              },
            }),
          catch: (e) => e,
        }).pipe(
          Effect.ensuring(
            Effect.sync(() => {
              indexBar.stop();
              (bar as ReturnType<typeof progressBar> | null)?.stop();
            }),
          ),
        );
        const secs = (performance.now() - began) / 1000;
        yield* Console.log(formatSkip(summary, args.mode, args.db, secs));
      });
      return yield* work.pipe(Effect.ensuring(Effect.sync(() => db.close())));
    },
    (effect, args) => onDatabase(args.db)(effect),
  ),
).pipe(Command.withDescription("Move a stored run some game days on: a jump or an elision"));

const formatSkip = (s: SkipSummary, mode: string, db: string, secs: number): string => {
  const written = Object.values(s.eventsByType).reduce((a, b) => a + b, 0);
  return [
    `skipped save "${s.saveId}" from ${formatGameTime(s.from)} to ${formatGameTime(s.to as GameTime)} (${mode}) in ${secs.toFixed(1)} s: ${written} events written, ${s.head} in ${db}`,
    ...(s.endDay !== s.endDayBefore
      ? [`the run now ends on day ${s.endDay} (it ended on day ${s.endDayBefore})`]
      : []),
    `events:   ${
      Object.entries(s.eventsByType)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "none"
    }`,
    `debates:  ${s.debates} held in the run so far; memories: ${s.liveMemories} live`,
  ].join("\n");
};
