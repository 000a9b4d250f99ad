/**
 * Dossier inspection: what one NPC would be handed at a moment of a recorded run. A turn
 * at game time t is decided on the world as the log stood when its tick began, so the
 * save's history before t is refolded into a scratch database (every read model — where
 * the NPC is, its tasks, what it knows — as it was then, not as it is at the head) and
 * folded into an engine state for the scene (who is here and awake, by the engine's own
 * rule); the dossier is then built by the same retrieval service, embedder and budgets
 * a run uses, for time t. The user's database is only read.
 */
import {
  type Dossier,
  dayOf,
  type EventType,
  formatGameTime,
  type GameTime,
  MINUTES_PER_DAY,
  MINUTES_PER_HOUR,
  type NpcId,
  type SaveId,
  type Upcast,
} from "@hearsay/core";
import {
  type IndexProgress,
  makeHashingEmbedder,
  RetrievalEngine,
  VectorIndexes,
} from "@hearsay/retrieval";
import type { SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { EngineState } from "../EngineState.ts";
import { companyOf } from "../Glimpses.ts";
import { recordedDossierRules } from "../recordedDossierRules.ts";
import { runGraphCollections, runSearchOptions } from "../retrievalDossiers.ts";
import type { TickContext } from "../TickContext.ts";
import { lastSeqAtOrBefore } from "./historyPoints.ts";
import { ReplayRefused } from "./ReplayError.ts";
import { eventAt } from "./readHistory.ts";
import { refoldLog } from "./refoldLog.ts";
import { recordedIndexMode, replayEmbedding } from "./replayEmbedding.ts";

/** The events that place an NPC and say whether it is awake (`EngineState`'s `npcs` and `presence`). */
const SCENE_EVENTS: ReadonlyArray<EventType> = ["NpcRegistered", "NpcActivityChanged", "NpcMoved"];

export interface DossierAtOptions {
  readonly log: SqliteEventLog;
  readonly saveId: SaveId;
  readonly npcId: string;
  readonly day: number;
  /** The hour of that day (default: the day's last minute, 23:59). */
  readonly hour?: number;
  /** Query text (default: none; the dossier is built from the scene, as a turn's is). */
  readonly query?: string | null;
  /**
   * A turn among NPCs (its own or a reply), whose lore is its backdrop rather than the
   * query's under the stable dossier rules (default: when no query is given).
   */
  readonly npcTurn?: boolean;
  /** Total token budget (default: the engine's). */
  readonly budget?: number;
  /** The scene, when the caller knows it (default: the NPC's place and who is there awake). */
  readonly scene?: { readonly locationId: string; readonly present: ReadonlyArray<string> };
  readonly upcast?: Upcast;
  /** Refolding the history before t: called after each page with the last seq folded and the last to fold. */
  readonly onRefold?: (seq: number, last: number) => void;
  /** Building the vector index of the rows at t. */
  readonly onIndex?: (p: IndexProgress) => void;
  /** Loading the retrieval view of the save at t (what every NPC knows), before the dossier. */
  readonly onView?: (events: number) => void;
}

export interface DossierInspection {
  readonly dossier: Dossier;
  /** The last seq the dossier is built from (the last event before `t`). */
  readonly throughSeq: number;
  readonly t: GameTime;
}

/** The dossier the NPC would be given at that moment. @throws ReplayRefused */
export const dossierAt = (opts: DossierAtOptions): DossierInspection => {
  const { log, saveId } = opts;
  const head = log.head(saveId);
  if (head === 0) {
    throw new ReplayRefused({ reason: `save "${saveId}" is empty`, fix: "name another --save" });
  }
  const t = (
    opts.hour === undefined
      ? (opts.day + 1) * MINUTES_PER_DAY - 1
      : opts.day * MINUTES_PER_DAY + opts.hour * MINUTES_PER_HOUR
  ) as GameTime;
  const first = eventAt(log, saveId, 1, opts.upcast)!.t as GameTime;
  const last = eventAt(log, saveId, head, opts.upcast)!.t as GameTime;
  if (t <= first || opts.day > dayOf(last)) {
    throw new ReplayRefused({
      reason: `${formatGameTime(t)} is outside save "${saveId}" (${formatGameTime(first)} to ${formatGameTime(last)})`,
      fix: `choose --day from ${dayOf(first)} to ${dayOf(last)}`,
    });
  }
  const throughSeq = lastSeqAtOrBefore(log, saveId, t - 1);
  const state = new EngineState();
  const refold = refoldLog({
    log,
    saveId,
    untilSeq: throughSeq,
    checkpoints: false,
    keepScratch: true,
    // The dossier reads the read models and their search, never the events themselves.
    keepEvents: false,
    // Where each NPC is and whether it is awake: all the scene reads of the engine state.
    onEvent: (e) => state.apply(e, e.seq),
    onEventTypes: SCENE_EVENTS,
    ...(opts.upcast ? { upcast: opts.upcast } : {}),
    ...(opts.onRefold ? { onProgress: opts.onRefold } : {}),
  });
  const npc = state.npcs.get(opts.npcId as NpcId);
  if (npc === undefined) {
    const known = [...state.npcs.keys()].sort();
    const shown = known.slice(0, 8).join(", ") + (known.length > 8 ? `, … (${known.length})` : "");
    throw new ReplayRefused({
      reason: `no NPC "${opts.npcId}" in save "${saveId}" at ${formatGameTime(t)}`,
      fix: `use one of ${shown || "none"}`,
    });
  }
  // companyOf reads only the engine state: who is at a place and awake.
  const scene = opts.scene ?? {
    locationId: npc.locationId,
    present: companyOf({ state } as TickContext, npc.id, npc.locationId),
  };
  const scratch = refold.scratch!;
  // A run that ranked by a live model is inspected with its cached vectors (never the server).
  const embedding = replayEmbedding(log, saveId);
  const embedder =
    embedding === null
      ? makeHashingEmbedder()
      : embedding.make(
          scratch.db,
          () => throughSeq,
          () => {},
        );
  // The graphs built here from the rows at t are the ones the run searched at t. The
  // vectors start from the ones saved beside the log's file, if any: every row at t is
  // there unless changed since (checked row by row), and embedding them all again is most
  // of what this step costs on a long run.
  const saved = log.db.name === "" || log.db.name === ":memory:" ? null : log.db.name;
  const { index } = Effect.runSync(
    VectorIndexes.open(scratch.db, embedder, {
      mode: recordedIndexMode(log, saveId),
      graphCollections: runGraphCollections,
      ...(saved === null ? {} : { from: saved }),
      ...(opts.onIndex ? { onProgress: opts.onIndex } : {}),
    }),
  );
  const engine = new RetrievalEngine(scratch.db, {
    log: scratch,
    embedder,
    index,
    ...runSearchOptions,
  });
  opts.onView?.(throughSeq);
  const dossier = engine.dossier({
    saveId,
    npcId: npc.id,
    t,
    query: opts.query ?? null,
    scene,
    rules: recordedDossierRules(log, saveId) ?? "moment",
    ...((opts.npcTurn ?? opts.query == null) ? { npcTurn: true } : {}),
    ...(opts.budget === undefined ? {} : { budget: opts.budget }),
  });
  scratch.db.close();
  if (dossier === null) {
    throw new ReplayRefused({
      reason: `NPC "${npc.id}" has no character row in save "${saveId}" at ${formatGameTime(t)}`,
      fix: "its registration is missing from the log; replay the save to check it",
    });
  }
  return { dossier, throughSeq, t };
};
