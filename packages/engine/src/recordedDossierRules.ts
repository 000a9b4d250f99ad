/**
 * The dossier rules a save's run chose its items by (core's `DossierRules`): recorded in
 * its `SimulationStarted`, absent in runs recorded before the field existed — those used
 * the `moment` rules. A dossier built for the save again (a resumed run, a replay, a
 * talk, an inspection) must follow the same rules, or a recorded answer would meet a
 * dossier it was never given (its input hash covers the dossier).
 */
import type { DossierRules } from "@hearsay/core";
import type { SqliteEventLog } from "@hearsay/store";

/** The save's recorded rules, or null when the log holds no start of that save yet. */
export const recordedDossierRules = (log: SqliteEventLog, saveId: string): DossierRules | null => {
  const started = log.saves().some((s) => s.saveId === saveId)
    ? log.read(saveId, { toSeq: 1 })[0]
    : undefined;
  if (started?.type !== "SimulationStarted") return null;
  return started.payload.dossierRules ?? "moment";
};
