export { BrainRunner, type BrainStats, type Outcome } from "./BrainRunner.ts";
export { defaultEngineConfig, type EngineConfig } from "./EngineConfig.ts";
export { RunRefused, SimulationInvalid, SimulationNotFound } from "./EngineError.ts";
export { EngineState } from "./EngineState.ts";
export { type GenesisInput, type LoreFile, sentencePieces } from "./Genesis.ts";
export {
  DEFAULT_SIMULATION,
  type LoadedSimulation,
  loadSimulation,
  resolveSimulation,
  workspaceRoot,
} from "./loadSimulation.ts";
export { retrievalDossiers } from "./retrievalDossiers.ts";
export {
  type Progress,
  type RunSummary,
  runSimulation,
  type SimulationSpec,
} from "./Simulation.ts";
export type { DossierSource } from "./TickContext.ts";
