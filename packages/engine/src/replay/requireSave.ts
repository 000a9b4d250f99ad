/**
 * The save a replay command names, or a refusal that lists the saves there are — the
 * store's own `UnknownSave` cannot say which saves exist.
 */
import type { SaveInfo, SqliteEventLog } from "@hearsay/store";
import { ReplayRefused } from "./ReplayError.ts";

/** The save, or ReplayRefused naming the known ones. */
export const requireSave = (log: SqliteEventLog, saveId: string, where: string): SaveInfo => {
  const saves = log.saves();
  const save = saves.find((s) => s.saveId === saveId);
  if (save !== undefined) return save;
  const known = saves.map((s) => s.saveId);
  throw new ReplayRefused({
    reason: `${where}: no save "${saveId}"`,
    fix:
      known.length === 0
        ? "it holds no saves; run a simulation into it first"
        : `pass --save with one of ${known.join(", ")}`,
  });
};
