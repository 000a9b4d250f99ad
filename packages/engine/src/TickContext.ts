/**
 * Everything one tick's steps share: the world definition, the engine state (a fold of
 * the log), the tick's writer, the brain, dossiers and the NPC actors. Steps are plain
 * functions of this context, run in a fixed order by `runTick`.
 */
import type {
  DeferredDossier,
  Dossier,
  DossierRules,
  GameTime,
  LocationId,
  MaintenanceJob,
  NpcId,
  SaveId,
  StoredEvent,
  World,
} from "@hearsay/core";
import type { SqliteEventLog } from "@hearsay/store";
import type { OwnDossierRows } from "./ActorDossierReads.ts";
import type { BrainRunner } from "./BrainRunner.ts";
import type { DossierReads } from "./DossierReads.ts";
import type { EngineConfig, IndexJob } from "./EngineConfig.ts";
import type { EngineState } from "./EngineState.ts";
import type { Focus } from "./Focus.ts";
import type { IndexUpkeep } from "./IndexKeeper.ts";
import type { NpcActors } from "./NpcActors.ts";
import type { Routes } from "./Routes.ts";
import type { TickWriter } from "./TickWriter.ts";
import type { WorldIndex } from "./WorldIndex.ts";

/** Whose dossier, when, about what and in whose company. */
export interface DossierAsk {
  readonly npcId: NpcId;
  readonly t: GameTime;
  readonly query: string | null;
  readonly scene: {
    readonly locationId: LocationId;
    readonly present: ReadonlyArray<NpcId>;
  } | null;
  /**
   * A turn of an NPC among NPCs (its own, or its reply to another's line), not a question
   * put to it by the player or a tool: its lore is then its backdrop (core's `DossierRules`).
   */
  readonly npcTurn?: true;
}

/** Something the dossier source wants recorded in the log (a `SimulationWarning`). */
export interface DossierWarning {
  readonly code: string;
  readonly message: string;
}

/** What an NPC is handed for a turn; the retrieval service behind it reads the store. */
export interface DossierSource {
  /** The run's embedder when it is not the default hashing one (recorded at the start). */
  readonly embedder?: string;
  /** `disabled` when the source keeps no vector index (recorded at the start). */
  readonly indexMode?: "disabled";
  /** Core's `DossierRules` the source chooses items by, unless `moment` (recorded at the start). */
  readonly dossierRules?: Exclude<DossierRules, "moment">;
  /** Warnings since the last call, oldest first; the engine records them. */
  takeWarnings?(): ReadonlyArray<DossierWarning>;
  dossier(request: DossierAsk): Dossier | null;
  /**
   * The same dossier as a reader building each section on its first read (core's
   * `deferDossier`), for a tick's turns: their brain reads it before anything is
   * appended, and the phase seals it after (`TurnDossier`). Absent: turns take `dossier`.
   */
  deferred?(request: DossierAsk): DeferredDossier | null;
  /**
   * Gives the source the run's own rows of each NPC (`ActorDossierReads`): a dossier
   * reads the NPC's character, profile, activity, edges and open tasks from them, not
   * from the read models. Absent: the source reads its own (a talk, the tests' sources).
   */
  own?(rows: OwnDossierRows): void;
  /** Persists whatever the source caches (the vector index files); called at the end of a run. */
  flush?(): void;
  /**
   * The index job's work: writes the vector index files if they are missing, foreign or
   * behind by the job's `minRows` and `minShare` (`IndexKeeper`). Disk only: it changes no dossier.
   */
  keepIndex?(job: IndexJob): void;
  /** What the index jobs wrote this run, for its summary. */
  indexUpkeep?(): IndexUpkeep;
  /**
   * Catches up with the log now; the engine calls it after each append, with the events
   * the append stored (so the source need not read them back), so the next tick's first
   * turn does not pay for folding in (and embedding) the last tick's events.
   */
  refresh?(appended?: ReadonlyArray<StoredEvent>): void;
  /**
   * Forgets everything it folded in: appends it saw were rolled back (a talk change that
   * failed part way), so it must read the log afresh.
   */
  reset?(): void;
}

/**
 * Opens a run's dossier source over its log. `setup`, when given, is what the source
 * will say of itself (its embedder and index mode), known without opening it: a resume
 * that would rank or embed otherwise than its log began is then refused before any
 * step is taken or said.
 */
export type DossierFactory = ((log: SqliteEventLog, saveId: SaveId) => DossierSource) & {
  readonly setup?: Pick<DossierSource, "embedder" | "indexMode">;
};

export interface TickContext {
  readonly world: World;
  readonly config: EngineConfig;
  readonly seed: number;
  readonly state: EngineState;
  readonly routes: Routes;
  readonly writer: TickWriter;
  readonly brain: BrainRunner;
  readonly dossiers: DossierSource;
  /** The memories brains read in `dossiers` (absent: nothing is reinforced, as in a talk). */
  readonly reads?: DossierReads;
  readonly actors: NpcActors;
  /** The tick's time: the clock has advanced from `from` to `t`. */
  readonly from: GameTime;
  readonly t: GameTime;
  /** True while a time skip runs the world's steps without NPC turns. */
  readonly skipping: boolean;
  /** World lookups by id. */
  readonly names: WorldIndex;
  /** Where the player and the camera are: NPCs near them rank higher for the model. */
  readonly focus?: ReadonlyArray<Focus>;
  /** Wraps each maintenance job as it runs (a bench times them); absent: run as is. */
  readonly aroundJob?: <T>(job: MaintenanceJob, run: () => Promise<T>) => Promise<T>;
  /** The text and names of memories recorded in earlier batches, by id (the store's). */
  readonly memoryTexts?: (
    ids: ReadonlyArray<string>,
  ) => ReadonlyMap<string, { readonly text: string; readonly entities: ReadonlyArray<string> }>;
}
