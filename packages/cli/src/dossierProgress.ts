/**
 * What `hearsay dossier` shows while it makes a dossier of a long history.
 */
import type { DossierAtOptions } from "@hearsay/engine";
import { indexProgress } from "./indexProgress.ts";
import {
  LONG_HISTORY_EVENTS,
  type ProgressSink,
  type ProgressStream,
  progressBar,
  progressNote,
} from "./Progress.ts";

/**
 * What a dossier of a long history shows while it is made (on standard error): the
 * refold of the history before t, the vector index of its rows and the retrieval view,
 * each of which takes minutes on a year of a thousand NPCs. Short histories show nothing.
 */
export const dossierProgress = (
  quiet: boolean,
  out: ProgressStream = process.stderr,
): {
  readonly callbacks: Pick<DossierAtOptions, "onRefold" | "onIndex" | "onView">;
  readonly stop: () => void;
} => {
  let refold: ProgressSink | null = null;
  let big = false;
  const index = indexProgress(false, undefined, out);
  return {
    callbacks: {
      onRefold: (seq, last) => {
        if (!big && !quiet && last >= LONG_HISTORY_EVENTS) {
          big = true;
          progressNote(`refolding ${last} events: the world as it stood then`, false, out);
          refold = progressBar(
            last,
            "refold {bar} seq {seq}/{last} | ETA {eta_formatted}",
            false,
            out,
          );
        }
        refold?.update(seq, { seq, last });
        if (refold !== null && seq >= last) {
          // The scan is done; SQLite's share of the fold, and the search, are built after.
          refold.stop();
          refold = null;
          progressNote("folding the read models and their search", false, out);
        }
      },
      onIndex: (p) => {
        refold?.stop();
        refold = null;
        if (big) index.onProgress(p);
      },
      onView: (events) => {
        refold?.stop();
        refold = null;
        index.stop();
        if (big) progressNote(`loading what every NPC knew through seq ${events}`, false, out);
      },
    },
    stop: () => {
      refold?.stop();
      index.stop();
    },
  };
};
