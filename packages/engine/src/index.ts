export { ActorDossierReads, type OwnDossierRows } from "./ActorDossierReads.ts";
export { BrainRunner, type BrainStats, type Outcome } from "./BrainRunner.ts";
export type { DigestResult, WrittenMemory } from "./chat/digestTalk.ts";
export {
  type ActionOutcome,
  type ActionResult,
  type AnnouncedEvent,
  applyActionResult,
  applyWorldTick,
  type WorldDiff,
} from "./chat/gameInputs.ts";
export { redoInput } from "./chat/redoInput.ts";
export { replyStreamerOf, wordPieces } from "./chat/replyStreamerOf.ts";
export {
  ConversationNotFound,
  NotInWorld,
  NpcNotFound,
  ReplyFailed,
  TaskMoveRefused,
  TaskNotFound,
  TurnAbandoned,
} from "./chat/TalkError.ts";
export { type MemoryRow, TalkQueries, type TurnRow } from "./chat/TalkQueries.ts";
export {
  type ProposedGameAction,
  TalkTurn,
  type TurnRequest,
  type TurnResult,
} from "./chat/TalkTurn.ts";
export { TalkWorld } from "./chat/TalkWorld.ts";
export {
  defaultTalkOptions,
  type TalkOptions,
  type TalkWorldSpec,
  TalkWriter,
} from "./chat/TalkWriter.ts";
export { withPlayerSummary } from "./chat/withPlayerSummary.ts";
export {
  defaultEngineConfig,
  type EngineConfig,
  type IndexJob,
  type ProfileEventTrigger,
} from "./EngineConfig.ts";
export { RunRefused, SimulationInvalid, SimulationNotFound } from "./EngineError.ts";
export { EngineSnapshots, runFoldFormat, type SnapshotCadence } from "./EngineSnapshots.ts";
export { EngineState } from "./EngineState.ts";
export {
  decodeRoots,
  decodeState,
  encodeRoots,
  encodeState,
  SNAPSHOT_FORMAT,
  type SnapshotRoots,
  snapshotFingerprint,
} from "./EngineStateCodec.ts";
export { type Focus, locationsWithin, nearnessOf } from "./Focus.ts";
export { type GenesisInput, type LoreFile, sentencePieces } from "./Genesis.ts";
export type { IndexUpkeep } from "./IndexKeeper.ts";
export {
  DEFAULT_SIMULATION,
  type LoadedSimulation,
  loadSimulation,
  resolveSimulation,
  workspaceRoot,
} from "./loadSimulation.ts";
export { NameFinder } from "./NameFinder.ts";
export { emptyNpcFold, type Forgotten, NpcActors, type NpcFold } from "./NpcActors.ts";
export { revisionDue, significanceOf } from "./ProfileRevisions.ts";
export { Routes } from "./Routes.ts";
export { emptyRunFold, type RunFold } from "./RunFold.ts";
export { recordedDossierRules } from "./recordedDossierRules.ts";
export { loadRecordedSimulation } from "./recordedSimulation.ts";
export {
  type BranchPoint,
  type BranchResult,
  type BranchSpec,
  branchSave,
  branchSeq,
} from "./replay/branchSave.ts";
export { compactEvent, comparable, differingPaths, sameEvent } from "./replay/compareEvents.ts";
export { type DossierAtOptions, type DossierInspection, dossierAt } from "./replay/dossierAt.ts";
export { type ExportedEvent, exportedEvent, exportJsonl } from "./replay/exportJsonl.ts";
export {
  type Boundaries,
  lastSeqAtOrBefore,
  lastSeqOfDay,
  tickBoundaries,
} from "./replay/historyPoints.ts";
export { ReplayRefused } from "./replay/ReplayError.ts";
export {
  type PlannedSkip,
  planLegs,
  type RunLeg,
  type RunPlan,
  type RunSegment,
  readRunPlan,
} from "./replay/RunPlan.ts";
export {
  eventAt,
  HistoryCursor,
  type HistoryRange,
  historyEvents,
  historyPages,
  PAGE_SIZE,
} from "./replay/readHistory.ts";
export {
  type CheckpointCheck,
  type RefoldOptions,
  type RefoldReport,
  refoldLog,
} from "./replay/refoldLog.ts";
export { ReplayBrains, type SegmentBrain } from "./replay/replayBrain.ts";
export {
  liveEmbedding,
  recordedEmbedding,
  recordedIndexMode,
  replayEmbedding,
  saveEmbedding,
} from "./replay/replayEmbedding.ts";
export { requireSave } from "./replay/requireSave.ts";
export {
  type Divergence,
  type HashAt,
  type SimulationDefinition,
  type VerifyOptions,
  type VerifyReport,
  verifyLog,
} from "./replay/verifyLog.ts";
export {
  type DossierEmbedding,
  type RetrievalDossierOptions,
  retrievalDossiers,
  retrievalDossiersWith,
  runGraphCollections,
  runSearchOptions,
} from "./retrievalDossiers.ts";
export {
  type Progress,
  type ResumeStep,
  type RunSummary,
  runSimulation,
  type SimulationSpec,
} from "./Simulation.ts";
export type { SkipMode } from "./Skips.ts";
export { scaleSimulation, scaleWorld } from "./scaleWorld.ts";
export {
  ELISION_STEP_MINUTES,
  planSkip,
  type SkipSpec,
  type SkipSummary,
  skipSave,
} from "./skipSave.ts";
export type { DossierAsk, DossierFactory, DossierSource, DossierWarning } from "./TickContext.ts";
export { tickDemandOf, tickPlanOf } from "./TickDemand.ts";
export { tuneV8ForRuns } from "./v8Tuning.ts";
