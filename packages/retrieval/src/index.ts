/**
 * @hearsay/retrieval — embedders (hashing, Ollama), the vector index, knowledge-filtered
 * hybrid search, the dossier builder and the markdown lore importer.
 */

export { BlockingEmbedClient } from "./BlockingEmbedClient.ts";
export {
  buildDossier,
  type DossierReads,
  type DossierRequest,
  type DossierRows,
  type DossierSearchAsk,
  deferredDossier,
  dossierFrame,
  type SearchWindow,
  type SectionSearch,
} from "./buildDossier.ts";
export { CoarseLists } from "./CoarseLists.ts";
export { CollectionIndex, type IndexChange, type IndexProgress } from "./CollectionIndex.ts";
export { type ChunkLoreOptions, chunkLore } from "./chunkLore.ts";
export {
  type CollectionName,
  type CollectionSpec,
  collectionNames,
  collections,
  defaultGraphBlock,
  embeddingText,
  sharedCollections,
  textFingerprint,
} from "./collections.ts";
export { commonScale, copyScaled, scanDot } from "./commonScale.ts";
export { DossierSource } from "./DossierSource.ts";
export { decodeLoreText, MAX_LORE_BYTES } from "./decodeLoreText.ts";
export {
  cosine,
  EmbedderError,
  EmbedderFailure,
  type EmbedderShape,
  normalize,
} from "./Embedder.ts";
export { EmbeddingCache, vectorsFor } from "./EmbeddingCache.ts";
export { entitiesIn } from "./EntityMentions.ts";
export type { Scored } from "./ExactScan.ts";
export {
  EMBEDDER_FALLBACK,
  type EmbedderSwitch,
  type FallbackEmbedder,
  type FallbackEmbedderOptions,
  makeFallbackEmbedder,
  parseSwitchMessage,
  type RecordedSwitch,
  switchMessage,
} from "./FallbackEmbedder.ts";
export { findNames } from "./findNames.ts";
export { type LoreFrontMatter, parseFrontMatter } from "./frontMatter.ts";
export {
  GraphSegments,
  type Segment,
  type SegmentConfig,
  type SegmentShape,
  segmentName,
} from "./GraphSegments.ts";
export {
  HASHING_DIMENSIONS,
  type HashingEmbedderOptions,
  hashingEmbed,
  makeHashingEmbedder,
} from "./HashingEmbedder.ts";
export {
  defaultSearchTuning,
  mentionedEntities,
  type SearchContext,
  type SearchHit,
  type SearchTuning,
  searchCollection,
} from "./HybridSearch.ts";
export { Interner } from "./Interner.ts";
export {
  type ImportLoreOptions,
  importLore,
  type LoreEventLog,
  type LoreFileInput,
  type LoreFileOutcome,
  LoreImportFailed,
  type LoreImportReport,
  loreContentHash,
  readLoreFiles,
} from "./importLore.ts";
export { type CollectionStatus, indexStatus } from "./indexStatus.ts";
export {
  ftsQuery,
  ftsTerms,
  type KeywordHit,
  type KeywordOptions,
  KeywordSearch,
} from "./KeywordSearch.ts";
export {
  defaultPartitionTuning,
  KnownMatrices,
  type MatrixHit,
  type PartitionTuning,
} from "./KnownMatrices.ts";
export {
  defaultNearestTuning,
  knownCount,
  knownNearest,
  knownRowids,
  LoreNearest,
  type NearestTuning,
  type NearHit,
} from "./knownNearest.ts";
export { LoreFileError, LoreProblem } from "./LoreFileError.ts";
export {
  makeOllamaEmbedder,
  type OllamaEmbedderOptions,
  type PullProgress,
} from "./OllamaEmbedder.ts";
export { pullProgressBar } from "./pullProgressBar.ts";
export {
  type EventSource,
  type OwnRows,
  RetrievalEngine,
  type RetrievalEngineOptions,
  type SearchRequest,
} from "./RetrievalEngine.ts";
export { type RowEntries, rowsApart } from "./RowMarks.ts";
export { requestTime } from "./requestTime.ts";
export {
  cachedReplayEmbedder,
  embedderLabel,
  ollamaRunEmbedder,
  parseEmbedderLabel,
} from "./runEmbedders.ts";
export { type FactKind, factKindOf, SaveView, type Touched } from "./SaveView.ts";
export {
  defaultScoreWeights,
  defaultScoringOptions,
  type ScoreSignals,
  type ScoreWeights,
  type ScoringOptions,
  scoreBase,
  scoreCandidate,
  scoreFrom,
} from "./scoring.ts";
export { type ThreadRow, ThreadSource, threadCandidates } from "./ThreadSection.ts";
export { KEPT_TURN_ROWS, type TurnList } from "./TurnRows.ts";
export {
  type BudgetPreset,
  budgetPresets,
  cutSection,
  itemShare,
  itemTokens,
  oneLine,
  type SectionBudgets,
  type SectionCandidate,
  type SectionLimit,
  scaleBudgets,
  sectionLimits,
  sectionOverhead,
  standardBudgets,
  totalBudget,
  truncateToTokens,
} from "./tokenBudget.ts";
export {
  fingerprintChecksum,
  type IndexManifest,
  type IndexPaths,
  indexPaths,
  loadVectorFiles,
  readManifest,
  saveVectorFiles,
} from "./VectorFiles.ts";
export {
  type IndexMode,
  type IndexReport,
  VectorIndexes,
  type VectorIndexOptions,
} from "./VectorIndex.ts";
export { VectorStore, type VectorStoreConfig } from "./VectorStore.ts";
export { contentWords, isStopword, words } from "./words.ts";
