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
  formatGameTime,
  type GameTime,
  MINUTES_PER_DAY,
  MINUTES_PER_HOUR,
  type NpcId,
  type SaveId,
  type Upcast,
} from "@hearsay/core";
import { makeHashingEmbedder, RetrievalEngine, VectorIndexes } from "@hearsay/retrieval";
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
    onEvent: (e) => state.apply(e, e.seq),
    ...(opts.upcast ? { upcast: opts.upcast } : {}),
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
  // The graphs built here from the rows at t are the ones the run searched at t.
  const { index } = Effect.runSync(
    VectorIndexes.open(scratch.db, embedder, {
      mode: recordedIndexMode(log, saveId),
      graphCollections: runGraphCollections,
    }),
  );
  const engine = new RetrievalEngine(scratch.db, {
    log: scratch,
    embedder,
    index,
    ...runSearchOptions,
  });
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
