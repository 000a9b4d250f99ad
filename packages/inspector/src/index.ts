/**
 * @hearsay/inspector — `hearsay inspect`: a local, read-only web page over a recorded
 * simulation (timeline, who knows what, NPCs and their dossiers, debates and
 * conversations, cost), served with its JSON API on a loopback address.
 */
export type * from "./ApiTypes.ts";
export { nonTurnNotes, routineNotes, type TurnKind, turnKind } from "./Gating.ts";
export {
  type Bind,
  hostAllowed,
  isHostName,
  isJsonType,
  isLoopbackHost,
  originAllowed,
  parseHost,
} from "./HostGuard.ts";
export { HttpFailure } from "./HttpFailure.ts";
export type { DossierFactory } from "./Inspection.ts";
export {
  BadRequest,
  NoSuchSave,
  NotInspectable,
  NotLoopback,
  PageNotBuilt,
} from "./InspectorError.ts";
export { openReadOnly } from "./openReadOnly.ts";
export { routes } from "./routes.ts";
export type { IndexingProgress, IndexingStage } from "./SaveIndex.ts";
export { defaultPageDir } from "./StaticPage.ts";
export {
  type GuardedRequest,
  type GuardedServer,
  type GuardedServerOptions,
  startGuardedServer,
} from "./startGuardedServer.ts";
export {
  DEFAULT_PORT,
  type Inspector,
  type InspectorOptions,
  startInspector,
} from "./startInspector.ts";
export { summarise } from "./summarise.ts";
