// @hearsay/mind: the Brain port, its adapters (scripted, recorded, ollama), the recording wrapper, prompts and the purpose Schemas.
export type {
  BrainAnswer,
  BrainMeta,
  BrainRequest,
  BrainShape,
  PlannedCall,
  TickDemand,
  TickPlan,
} from "./Brain.ts";
export {
  type BrainError,
  BrainTimeout,
  BrainUnavailable,
  BudgetExhausted,
  InvalidAnswer,
  ModelNotFound,
  RecordedFailure,
  RecordingMissing,
  UnknownId,
} from "./BrainError.ts";
export { inputHash } from "./inputHash.ts";
export {
  addRejected,
  type CallOutcome,
  type LlmCallPayload,
  llmCallPayload,
  noRejected,
  policyOf,
  rejectedMeta,
  rejectedOf,
  withPolicy,
  withRejected,
} from "./llmCallPayload.ts";
export {
  Budgets,
  defaultMindConfig,
  EmbedderChoice,
  type LoadMindConfigOptions,
  loadMindConfig,
  MindConfig,
  MindConfigError,
  ModelHostConfig,
  ModelHostsConfig,
} from "./MindConfig.ts";
export {
  OllamaBrain,
  type OllamaBrainOptions,
  type OllamaBrainShape,
  SCRIPTED_FALLBACK,
} from "./OllamaBrain.ts";
export { type BudgetUsage, CallBudget } from "./ollama/CallBudget.ts";
export {
  callOllama,
  classifyOllamaError,
  type OllamaTransport,
  ollamaClient,
} from "./ollama/callOllama.ts";
export { decodeAnswer } from "./ollama/decodeAnswer.ts";
export {
  type DoctorHost,
  type DoctorOptions,
  type DoctorProblem,
  type DoctorReport,
  doctorReport,
} from "./ollama/doctorReport.ts";
export {
  type EnsuredModel,
  type EnsureModelOptions,
  ensureModel,
  type PullProgress,
} from "./ollama/ensureModel.ts";
export {
  HostPool,
  type HostPoolOptions,
  type HostPoolStats,
  type HostState,
  type HostTicket,
} from "./ollama/HostPool.ts";
export { type ModelHost, modelHosts, servesModel } from "./ollama/modelHosts.ts";
export { isEmbeddingModel, normalizeModel, sameModel } from "./ollama/modelNames.ts";
export { DEFAULT_OLLAMA_URL, ollamaHost } from "./ollama/ollamaHost.ts";
export { outputFormat } from "./ollama/outputFormat.ts";
export { ReadyAhead } from "./ollama/ReadyAhead.ts";
export {
  finishText,
  type ReplyListener,
  type ReplyStreamer,
  type StreamOllamaReplyOptions,
  streamOllamaReply,
} from "./ollama/streamOllamaReply.ts";
export { textFieldPrefix } from "./ollama/textFieldPrefix.ts";
export {
  fence,
  type RenderedPrompt,
  renderPrompt,
  repairPrompt,
  splitInput,
  standingInputKeys,
} from "./Prompt.ts";
export {
  decodeOutput,
  encodeOutput,
  isPurposeName,
  type PurposeInput,
  type PurposeName,
  type PurposeOutput,
  type PurposeSpec,
  purposeNames,
  purposes,
} from "./Purpose.ts";
export {
  ceilingOf,
  defaultPolicy,
  defaultPurposeClasses,
  type Nearness,
  nobodyNear,
  PolicyConfig,
  PriorityClass,
  priorityClasses,
  type Route,
  rankOf,
  routeOf,
} from "./policy/BrainPolicy.ts";
export {
  type GrantCall,
  type PlannedRoute,
  planCalls,
  spendingOrder,
} from "./policy/planCalls.ts";
export { type ClassCounts, type LedgerDecision, TickLedger } from "./policy/TickLedger.ts";
export {
  ActConversation,
  ActInput,
  type ActionKind,
  ActOutput,
  Move,
  OwnTask,
  Place,
  ProfileDue,
  ProfileNeed,
  ProposeTask,
  Rest,
  Speak,
  Work,
} from "./purposes/ActPurpose.ts";
export {
  ConsolidatedSource,
  ConsolidateMemoriesInput,
  ConsolidateMemoriesOutput,
} from "./purposes/ConsolidateMemoriesPurpose.ts";
export {
  DebateLine,
  DebateTurnInput,
  DebateTurnOutput,
  Stance,
  SummarizeDebateInput,
  SummarizeDebateOutput,
} from "./purposes/DebatePurposes.ts";
export {
  DialogueLine,
  ExtractMemoriesInput,
  ExtractMemoriesOutput,
  MemoryDraft,
} from "./purposes/ExtractMemoriesPurpose.ts";
export { NpcGlimpse, NpcSelf, Participant } from "./purposes/Fields.ts";
export {
  ExtractFactsInput,
  ExtractFactsOutput,
  SummarizeTalkInput,
  SummarizeTalkOutput,
} from "./purposes/PlayerTalkPurposes.ts";
export { ProfileInput, ProfileOutput } from "./purposes/ProfilePurpose.ts";
export {
  PlayerRegard,
  ProposedAction,
  ReplyInput,
  ReplyOutput,
} from "./purposes/ReplyPurpose.ts";
export {
  ReviseProfileInput,
  ReviseProfileOutput,
} from "./purposes/ReviseProfilePurpose.ts";
export {
  SceneDebate,
  SceneLine,
  SummarizeSceneInput,
  SummarizeSceneOutput,
} from "./purposes/SummarizeScenePurpose.ts";
export {
  SharedWitness,
  SummarizeSharedSceneInput,
  SummarizeSharedSceneOutput,
  WitnessSummary,
} from "./purposes/SummarizeSharedScenePurpose.ts";
export { RecordedBrain, type RecordedBrainShape } from "./RecordedBrain.ts";
export {
  SCRIPTED_MODEL,
  ScriptedBrain,
  type ScriptedBrainOptions,
  type SyncBrain,
} from "./ScriptedBrain.ts";
export type { ActTuning } from "./scripted/chooseAction.ts";
export { quoted } from "./scripted/quoted.ts";
export { topicRef } from "./scripted/topicRef.ts";
export { validateAnswer } from "./validateAnswer.ts";
export { type RecordCall, withRecording, withRecordingSync } from "./withRecording.ts";
