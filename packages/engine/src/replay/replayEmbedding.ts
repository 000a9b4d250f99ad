/**
 * How a replay embeds: as the recorded run did. A run that ranked by a live model
 * recorded its embedder at the start (`SimulationStarted.embedder`) and, if the model
 * failed, the fallback as an `embedder_fallback` warning with its position. The replay
 * then embeds from the original database's embeddings cache — never the server — and
 * falls back to hashing at the same request. A hashing run needs nothing (null).
 */
import {
  cachedReplayEmbedder,
  EMBEDDER_FALLBACK,
  type IndexMode,
  ollamaRunEmbedder,
  parseEmbedderLabel,
  parseSwitchMessage,
  type RecordedSwitch,
} from "@hearsay/retrieval";
import type { SqliteEventLog } from "@hearsay/store";
import type { DossierEmbedding } from "../retrievalDossiers.ts";

/** The save's recorded embedder label (null: hashing) and recorded fallback, if any. */
export const recordedEmbedding = (
  log: SqliteEventLog,
  saveId: string,
): {
  readonly label: string | null;
  readonly switchAt: RecordedSwitch | null;
} => {
  const started = log.saves().some((s) => s.saveId === saveId)
    ? log.read(saveId, { toSeq: 1 })[0]
    : undefined;
  const label = started?.type === "SimulationStarted" ? (started.payload.embedder ?? null) : null;
  const message = log.db
    .prepare("SELECT message FROM warnings WHERE save_id = ? AND code = ? ORDER BY seq LIMIT 1")
    .pluck()
    .get(saveId, EMBEDDER_FALLBACK) as string | undefined;
  return { label, switchAt: message === undefined ? null : parseSwitchMessage(message) };
};

/** The index mode the save's run used (recorded at its start; absent: embedded). */
export const recordedIndexMode = (log: SqliteEventLog, saveId: string): IndexMode => {
  const started = log.saves().some((s) => s.saveId === saveId)
    ? log.read(saveId, { toSeq: 1 })[0]
    : undefined;
  return started?.type === "SimulationStarted"
    ? (started.payload.indexMode ?? "embedded")
    : "embedded";
};

/** The embedding a replay of the save uses, reading vectors from `source`'s cache. */
export const replayEmbedding = (
  source: SqliteEventLog,
  saveId: string,
): DossierEmbedding | null => {
  const { label, switchAt } = recordedEmbedding(source, saveId);
  const parsed = label === null ? null : parseEmbedderLabel(label);
  if (label === null || parsed === null) return null;
  return {
    label,
    make: (_db, position, onSwitch) =>
      cachedReplayEmbedder({ db: source.db, ...parsed, position, onSwitch, switchAt }),
  };
};

/**
 * The embedding a run uses with a live model: `label` from `embedderLabel`. A save whose
 * log records a fallback resumes on hashing, as it ended.
 */
export const liveEmbedding = (opts: {
  readonly host: string;
  readonly model: string;
  readonly dimensions: number;
  readonly label: string;
  readonly log: SqliteEventLog;
  readonly saveId: string;
  readonly timeoutMs?: number;
}): DossierEmbedding => {
  const { switchAt } = recordedEmbedding(opts.log, opts.saveId);
  return {
    label: opts.label,
    make: (db, position, onSwitch) =>
      ollamaRunEmbedder({
        db,
        host: opts.host,
        model: opts.model,
        dimensions: opts.dimensions,
        position,
        onSwitch,
        startSwitched: switchAt !== null,
        ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
      }),
  };
};

/**
 * The embedding a process continuing a recorded save uses (`chat`, `serve`): the one
 * the run recorded, through the server at `host` (falling back to hashing if it fails);
 * null for a hashing save. The choice is the save's, not the config's, so a player's
 * changes rank as the run did and replay the same way.
 */
export const saveEmbedding = (
  log: SqliteEventLog,
  saveId: string,
  host: string,
  timeoutMs?: number,
): DossierEmbedding | null => {
  const { label } = recordedEmbedding(log, saveId);
  const parsed = label === null ? null : parseEmbedderLabel(label);
  if (label === null || parsed === null) return null;
  return liveEmbedding({
    host,
    model: parsed.model,
    dimensions: parsed.dimensions,
    label,
    log,
    saveId,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
};
