/**
 * The engine benches' CPU split: a run's process CPU time divided into appending to the
 * store (with its projections), building dossiers (a turn's sections where the brain
 * reads them), catching the retrieval view up after
 * each append, and everything else (the engine). `instrument` wraps a log's `append` and
 * hands back a dossier source factory whose builds and catch-ups are timed and counted.
 */
import type { DeferredDossier, DossierSectionName, SaveId, StoredEvent } from "@hearsay/core";
import { type DossierAsk, type DossierSource, retrievalDossiers } from "@hearsay/engine";
import type { SqliteEventLog } from "@hearsay/store";

/** CPU µs spent per part so far, and dossiers built. */
export interface CpuParts {
  readonly spent: { dossier: number; refresh: number; append: number };
  readonly dossiers: () => number;
  /** The dossier source to give `runSimulation` (as `hearsay run` uses: real retrieval). */
  readonly source: (log: SqliteEventLog, saveId: SaveId) => DossierSource;
  /** Zeroes the tallies (to leave a warm-up out). */
  readonly reset: () => void;
}

/** This process's CPU time so far, µs (user + system, every thread). */
export const cpuNow = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** Times `log.append` from now on and returns the tallies and the timed dossier source. */
export const instrument = (log: SqliteEventLog): CpuParts => {
  const spent = { dossier: 0, refresh: 0, append: 0 };
  let dossiers = 0;
  /** CPU µs of timed parts inside the one running now. */
  let nested = 0;
  const timed = <A extends Array<unknown>, R>(
    part: keyof typeof spent,
    f: (...args: A) => R,
  ): ((...args: A) => R) => {
    return (...args: A) => {
      const c0 = cpuNow();
      const outer = nested;
      nested = 0;
      try {
        return f(...args);
      } finally {
        // A timed part inside another (a catch-up a dossier's read forces) counts once, as its own.
        const took = cpuNow() - c0;
        spent[part] += took - nested;
        nested = outer + took;
      }
    };
  };
  log.append = timed("append", log.append.bind(log));
  const source = (l: SqliteEventLog, saveId: SaveId): DossierSource => {
    const inner = retrievalDossiers(l, saveId);
    const build = timed("dossier", (r: DossierAsk) => inner.dossier(r));
    const frame = timed("dossier", (r: DossierAsk) => inner.deferred!(r));
    // A turn's dossier builds its sections as the brain reads them, inside the brain's
    // time: each section is timed where it is built, through a deferred dossier of its own.
    const deferred = (r: DossierAsk): DeferredDossier | null => {
      const d = frame(r);
      if (d === null) return null;
      const timedSection = timed("dossier", (name: DossierSectionName) => d.section(name));
      return {
        head: d.head,
        section: timedSection,
        whole: timed("dossier", () => d.whole()),
        seal: () => d.seal(),
      };
    };
    const refresh = timed("refresh", (appended?: ReadonlyArray<StoredEvent>) =>
      inner.refresh?.(appended),
    );
    // Everything else as `hearsay run` has it (its own rows from the actors, the index job,
    // warnings): a part the bench left out would be measured as a run that does not exist.
    return {
      ...inner,
      dossier: (r) => {
        dossiers += 1;
        return build(r);
      },
      deferred: (r) => {
        dossiers += 1;
        return deferred(r);
      },
      // As `hearsay run` does: the view catches up after every append.
      refresh,
    };
  };
  return {
    spent,
    dossiers: () => dossiers,
    source,
    reset: () => {
      spent.dossier = 0;
      spent.refresh = 0;
      spent.append = 0;
      dossiers = 0;
    },
  };
};
