// The testkit: arbitraries, fake brains and an Ollama-speaking loopback server for tests and benches.
export {
  arbEventBatches,
  arbEventSequence,
  arbInterleaving,
  arbStep,
  buildSequence,
  type EventSequenceOptions,
  splitBatches,
} from "./arbitraries/arbEventSequence.ts";
export {
  arbKnowledgeLog,
  type KnowledgeItem,
  knowledgeDisagreements,
  knowledgeItems,
  knowledgeNpcs,
  knowledgeTimes,
} from "./arbitraries/arbKnowledgeLog.ts";
export { type LogBatches, logBatches } from "./arbitraries/logBatches.ts";
export { SequenceBuilder, type Step } from "./arbitraries/SequenceBuilder.ts";
export {
  arbSmallWorld,
  type SmallNpc,
  type SmallWorld,
  smallWorld,
} from "./arbitraries/SmallWorld.ts";
export {
  httpRequest,
  type RawAnswer,
  type RawHttpOptions,
  rawHttp,
} from "./http/rawHttp.ts";
export { type AnswerKind, chatAnswer, readPrompt } from "./ollama/chatAnswer.ts";
export { type ConceptModel, conceptTerms, fitConceptModel } from "./ollama/conceptEmbedding.ts";
export {
  type FixtureServerProcess,
  startFixtureServerProcess,
} from "./ollama/fixtureServerProcess.ts";
export {
  type ChatBehaviour,
  type FixtureRequest,
  OllamaFixtureServer,
  type OllamaFixtureServerOptions,
} from "./ollama/OllamaFixtureServer.ts";
export {
  type ChatTemplates,
  defaultFixturesDir,
  type FixtureModel,
  loadOllamaFixtures,
  type OllamaFixtures,
} from "./ollama/OllamaFixtures.ts";
