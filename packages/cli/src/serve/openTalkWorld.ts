/**
 * Opens a save for talking to: checks the database file and the save exist (never
 * creating either), finds the simulation the save was started from (by `--simulation`
 * or the name its log records), and picks the brain and how replies stream — a live
 * Ollama model streams its words as they come; the scripted brain hands its answer on
 * word by word. `chat` and `serve` share it.
 */
import { ids, type SaveId } from "@hearsay/core";
import {
  type LoadedSimulation,
  loadRecordedSimulation,
  loadSimulation,
  recordedIndexMode,
  retrievalDossiers,
  saveEmbedding,
  type TalkOptions,
  TalkWorld,
} from "@hearsay/engine";
import { loadMindConfig, type ReplyStreamer, streamOllamaReply } from "@hearsay/mind";
import { openForWriting, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { attempt, CliFailure } from "../attempt.ts";
import { chooseBrain } from "../chooseBrain.ts";

export interface BrainChoice {
  readonly brain: "scripted" | "ollama";
  readonly model: string | undefined;
  readonly configPath: string | undefined;
  readonly quiet: boolean;
}

/**
 * The database and its event log, refusing a path that holds no hearsay database, and
 * holding the file's writer lock until the log's connection is closed.
 */
export const openLog = (path: string) =>
  Effect.gen(function* () {
    const db = yield* attempt(() => openForWriting(path, { mode: "existing" }));
    return new SqliteEventLog(db);
  });

/** The simulation a save was started from. */
export const simulationOf = (log: SqliteEventLog, saveId: SaveId, override: string | undefined) =>
  Effect.gen(function* () {
    if (override !== undefined) return yield* attempt(() => loadSimulation(override));
    const first = log.read(saveId, { toSeq: 1 })[0];
    if (first?.type !== "SimulationStarted")
      return yield* Effect.fail(
        new CliFailure({
          message: `save "${saveId}" was not started by \`hearsay run\`; pass --simulation`,
        }),
      );
    const name = first.payload.simulation;
    return yield* Effect.mapError(
      attempt(() => loadRecordedSimulation(name)),
      () =>
        new CliFailure({
          message: `save "${saveId}" was started from simulation "${name}", which is not under simulations/: pass --simulation <folder>`,
        }),
    );
  });

/** The brain and the reply streamer for it. */
export const brainFor = (choice: BrainChoice) =>
  Effect.gen(function* () {
    const chosen = yield* chooseBrain(choice);
    let streamer: ReplyStreamer | undefined;
    if (choice.brain === "ollama") {
      const config = yield* loadMindConfig(
        choice.configPath === undefined ? {} : { path: choice.configPath },
      );
      streamer = streamOllamaReply({
        config: choice.model === undefined ? config : { ...config, chatModel: choice.model },
        fallback: chosen.brain,
      });
    }
    return { ...chosen, streamer };
  });

/**
 * The dossier source a TalkWorld over the save uses: ranked by the embedder the save's
 * run recorded (a live model through the configured server, or hashing).
 */
export const talkDossiers = (log: SqliteEventLog, saveId: SaveId, configPath: string | undefined) =>
  Effect.map(loadMindConfig(configPath === undefined ? {} : { path: configPath }), (config) =>
    retrievalDossiers(log, saveId, {
      embedding: saveEmbedding(log, saveId, config.ollamaUrl, config.timeoutMs),
      indexMode: recordedIndexMode(log, saveId),
    }),
  );

/**
 * A TalkWorld over a save whose simulation is loaded: its dossiers ranked as its run was,
 * answered by `brain` (the one place chat and serve build one).
 */
export const talkWorldOf = (
  log: SqliteEventLog,
  saveId: SaveId,
  simulation: LoadedSimulation,
  brain: Effect.Success<ReturnType<typeof brainFor>>,
  configPath: string | undefined,
  options?: Partial<TalkOptions>,
) =>
  Effect.map(
    talkDossiers(log, saveId, configPath),
    (dossiers) =>
      new TalkWorld({
        simulation,
        log,
        saveId,
        dossiers,
        brain: brain.brain,
        recordBrain: brain.record,
        ...(brain.streamer === undefined ? {} : { streamer: brain.streamer }),
        ...(options === undefined ? {} : { options }),
      }),
  );

/** A TalkWorld over one save of an open log. */
export const openTalkWorld = (
  log: SqliteEventLog,
  save: string,
  opts: {
    readonly simulation: string | undefined;
    readonly choice: BrainChoice;
    readonly options?: Partial<TalkOptions>;
  },
) =>
  Effect.gen(function* () {
    const saveId = ids.save(save);
    if (!log.saves().some((s) => s.saveId === saveId))
      return yield* Effect.fail(
        new CliFailure({
          message: `no save "${save}" in this database (saves: ${
            log
              .saves()
              .map((s) => s.saveId)
              .join(", ") || "none"
          }); pass --save`,
        }),
      );
    const simulation: LoadedSimulation = yield* simulationOf(log, saveId, opts.simulation);
    const brain = yield* brainFor(opts.choice);
    return yield* talkWorldOf(log, saveId, simulation, brain, opts.choice.configPath, opts.options);
  });
