/**
 * A progress bar for the vector index a run opens: opening rebuilds it from SQLite when
 * its files are missing, damaged or of another model (a resume after they were deleted),
 * which on a large save takes long enough to want one. Stages under `minRows` rows show
 * nothing, so an ordinary start prints no bar.
 */
import type { IndexProgress } from "@hearsay/retrieval";
import { type ProgressSink, type ProgressStream, progressBar } from "./Progress.ts";

export interface IndexBar {
  readonly onProgress: (p: IndexProgress) => void;
  /** Ends the bar (the run's own bar takes over). */
  readonly stop: () => void;
}

export const indexProgress = (
  quiet: boolean,
  minRows = 5_000,
  out: ProgressStream = process.stderr,
): IndexBar => {
  let bar: ProgressSink | null = null;
  let stage = "";
  const stop = () => {
    bar?.stop();
    bar = null;
  };
  return {
    onProgress: (p) => {
      const now = `index ${p.collection} ${p.phase}`;
      if (now !== stage) {
        stop();
        stage = now;
        if (p.total >= minRows)
          bar = progressBar(p.total, `${now} {bar} {value}/{total}`, quiet, out);
      }
      bar?.update(p.done, { step: now });
    },
    stop,
  };
};
