export { CLIP_LINE, CLIP_VALUE, clipMessage, clipQuoted } from "./clipText.ts";
export {
  currentDossierRules,
  type Dossier,
  type DossierHead,
  type DossierItem,
  type DossierItemKind,
  type DossierRules,
  type DossierSection,
  type DossierSectionName,
  dossierItemKinds,
  dossierRuleNames,
  dossierSectionNames,
  promptSectionOrder,
  renderDossier,
  renderDossierForPrompt,
  steadySpanDays,
} from "./Dossier.ts";
export {
  type DeferredDossier,
  type DossierReader,
  deferDossier,
  dossierReader,
} from "./DossierReader.ts";
export { decodeWorld, parseWorldSource, type WorldSource, worldOrigin } from "./decodeWorld.ts";
export {
  currentVersions,
  decodeEvent,
  decodeEventExit,
  Event,
  type EventOf,
  type EventType,
  eventTypes,
  makeEvent,
  type PayloadOf,
  type StoredEvent,
  upcastEvent,
} from "./Event.ts";
export {
  AGENDA_MAX_STEPS,
  AgendaStep,
  NpcAgendaChanged,
  SpokenMemory,
} from "./events/agenda.ts";
export { Text, Unit } from "./events/defineEvent.ts";
export {
  CallPolicy,
  LlmCallRecorded,
  LoreChunk,
  LoreImported,
  RejectedSpend,
} from "./events/external.ts";
export {
  canMoveHappening,
  HappeningPlanned,
  HappeningStatus,
  HappeningStatusChanged,
  happeningMoves,
  PropAcquired,
  PropIntroduced,
} from "./events/happenings.ts";
export {
  KnowledgeGained,
  MemoriesConsolidated,
  MemoryCategory,
  MemoryExpired,
  MemoryRecorded,
  MemoryReinforced,
} from "./events/knowledge.ts";
export {
  SceneCause,
  SceneClosed,
  SceneCloseReason,
  SceneId,
  SceneOpened,
  SummaryCursorAdvanced,
  SummaryScope,
} from "./events/narrative.ts";
export {
  Activity,
  NpcActivityChanged,
  NpcMoved,
  NpcProfile,
  NpcRegistered,
  ProfileChanges,
  ProfileGenerated,
  ProfileRevised,
  ProfileTrigger,
  profileChanges,
  RelationshipChanged,
  reviseProfile,
} from "./events/npc.ts";
export {
  ActionResultInput,
  EndConversationInput,
  GameDiff,
  PlayerInput,
  PlayerInputBody,
  SkipInput,
  TalkSettings,
  TurnInput,
  WorldTickInput,
} from "./events/player.ts";
export { ConversationSummarized, ConversationTurn, DebateHeld } from "./events/social.ts";
export {
  TaskDeadlineMoved,
  TaskProposed,
  TaskStatus,
  TaskStatusChanged,
} from "./events/tasks.ts";
export {
  ThreadClosed,
  ThreadId,
  ThreadKind,
  ThreadOpened,
  ThreadOutcome,
} from "./events/threads.ts";
export {
  CarriedPurpose,
  Checkpoint,
  ClockAdvanced,
  carriedPurposeNames,
  currentCarried,
  MaintenanceJob,
  MaintenanceRan,
  RunResumed,
  SimulationStarted,
  SimulationWarning,
  WorldEventOccurred,
} from "./events/world.ts";
export {
  FENCE_CLOSE,
  FENCE_OPEN,
  type FencedText,
  fenceData,
  unfenceData,
} from "./fenceData.ts";
export {
  addDays,
  addMinutes,
  dayOf,
  formatGameTime,
  GameTime,
  gameTime,
  hourOf,
  Lifetime,
  lifetimeMinutes,
  MINUTES_PER_DAY,
  MINUTES_PER_HOUR,
  startOfDay,
} from "./GameTime.ts";
export {
  CampaignId,
  ConversationId,
  DebateId,
  EventId,
  FactionId,
  ids,
  LlmCallId,
  LocationId,
  LoreChunkId,
  LoreSourceId,
  MemoryId,
  NpcId,
  PLAYER_ID,
  SaveId,
  TaskId,
  WorldEventId,
} from "./ids.ts";
export {
  foldKnowledge,
  type KnowledgeChange,
  type KnowledgeEvent,
  type KnowledgeFact,
  KnowledgeLedger,
  type KnowledgeState,
  knowledgeEventTypes,
  knowledgeStep,
  knows,
  type MemoryLife,
  memoryAliveAt,
} from "./Knowledge.ts";
export { didYouMean, nearestName } from "./nearestName.ts";
export { Prng } from "./Prng.ts";
export {
  isStill,
  MAX_SHIFT,
  type RegardLevels,
  type RegardShift,
  scaleShift,
  shiftRegard,
} from "./RegardShift.ts";
export { canonicalJson, sha256, stateHash } from "./StateHash.ts";
export { stemWord } from "./stemWord.ts";
export { estimateTokens } from "./Tokens.ts";
export {
  eventUpcasters,
  type RawPayload,
  REASON_UNRECORDED,
  type Upcast,
  type Upcaster,
  upcastWith,
} from "./upcast.ts";
export { ItemKind, type ItemRef, itemKey, Via, Visibility } from "./Visibility.ts";
export { validateTravelGraph } from "./validateTravelGraph.ts";
export { validateWorld } from "./validateWorld.ts";
export {
  DebatePosition,
  DebateTopic,
  DebateTopicId,
  HappeningId,
  HappeningPrecondition,
  HappeningProp,
  LorePath,
  laterSections,
  NpcAcquaintance,
  PlannedHappening,
  requiredSections,
  ScheduledEvent,
  singletonSections,
  TaskSeed,
  World,
  WorldFaction,
  WorldFile,
  WorldLocation,
  WorldMeta,
  WorldNeighbour,
  WorldNpc,
  WorldRelationship,
  WorldScenario,
  type WorldSection,
  WorldThread,
  worldSections,
} from "./World.ts";
export {
  formatWorldPath,
  showValue,
  WorldError,
  type WorldPath,
  type WorldProblem,
  worldError,
} from "./WorldError.ts";
export {
  defaultWorldEventLifetimes,
  type LifetimeBand,
  type WorldEventLifetimes,
  worldEventCurrentAt,
  worldEventLapsesAt,
  worldEventLifetimeDays,
} from "./WorldEventLifetimes.ts";
export { type Happening, type Population, witnessesOf } from "./witnesses.ts";
