/**
 * A brain request whose dossier is built only when the brain reads it. Building a
 * dossier is most of what a scripted turn costs, and the scripted brain reads it only
 * when the NPC speaks; a live model, the recorder (which hashes the rendered dossier)
 * and a recorded brain read it on every call, so for them nothing changes.
 *
 * The dossier a run's source builds defers each section too (core's `deferDossier`): the
 * scripted brain reads the dialogue section to reply, or the four sections of things
 * known to share one, and never the rest.
 *
 * Deferring is safe for determinism: a phase of a tick fixes all its requests, then asks
 * them, and nothing is appended to the store (which is all a dossier reads) until the
 * tick ends — so the dossier, and each section, is the same whenever, within the phase,
 * it is first read.
 */
import { type Dossier, sealDossier } from "@hearsay/core";
import type { BrainRequest, PurposeName } from "@hearsay/mind";

import type { DossierAsk, DossierSource } from "./TickContext.ts";

const seals = new WeakMap<object, () => void>();

/** A turn's dossier from `source`: deferred section by section when it can be. */
export const turnDossier = (source: DossierSource, ask: DossierAsk): Dossier | null =>
  source.deferred ? source.deferred(ask) : source.dossier(ask);

/**
 * `request` with a `dossier` property that calls `build` on first read and remembers the
 * result (a getter, so spreading the request reads it too). Once the phase is sealed
 * (`sealDossiers`), a dossier nobody read is never built: a late read gives null, never
 * a dossier built from a later state of the store than the turn's.
 */
export const lazyDossier = <P extends PurposeName>(
  request: Omit<BrainRequest<P>, "dossier">,
  build: () => Dossier | null,
): BrainRequest<P> => {
  let built: Dossier | null | undefined;
  let sealed = false;
  const lazy = Object.defineProperty({ ...request }, "dossier", {
    enumerable: true,
    configurable: false,
    get: () => {
      if (built === undefined) built = sealed ? null : build();
      return built;
    },
  });
  seals.set(lazy, () => {
    sealed = true;
    // A deferred dossier's unread sections are sealed with it.
    if (built) sealDossier(built);
  });
  return lazy as unknown as BrainRequest<P>;
};

/** Ends a phase's requests: their unread dossiers will not be built after all. */
export const sealDossiers = (requests: ReadonlyArray<object>): void => {
  for (const r of requests) seals.get(r)?.();
};
