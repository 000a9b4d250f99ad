/**
 * A turn's dossier as its brain reads it: a `DossierReader` that asks the dossier source
 * for the dossier on its first read. Building a dossier is most of what a scripted turn
 * costs, and the scripted brain reads one section to reply, or the sections of things
 * known to share one, and never the rest; a live model, the recorder (which hashes the
 * rendered dossier) and a recorded brain read it whole on every call, so for them nothing
 * changes. The run's source defers each section too (core's `deferDossier`).
 *
 * Deferring is safe for determinism: a phase of a tick fixes all its requests, then asks
 * them, and nothing is appended to the store (which is all a dossier reads) until the
 * tick ends — so the dossier, and each section, is the same whenever, within the phase,
 * it is first read. The phase then seals its readers (`sealDossiers`).
 */
import {
  type DeferredDossier,
  type Dossier,
  type DossierReader,
  type DossierSection,
  type DossierSectionName,
  dossierReader,
} from "@hearsay/core";
import type { DossierAsk, DossierSource } from "./TickContext.ts";

/**
 * One turn's dossier: asked of `source` on the first read, remembered, and sealed when
 * the phase ends. Once sealed, a dossier nobody read is never built (a late read finds
 * none), and a section nobody read throws: never one built from a later state of the
 * store than the turn's.
 */
export class TurnDossier implements DossierReader {
  private reader: DossierReader | DeferredDossier | null | undefined;
  private sealed = false;

  constructor(
    private readonly source: DossierSource,
    private readonly ask: DossierAsk,
  ) {}

  private open(): DossierReader | DeferredDossier | null {
    if (this.reader === undefined) {
      const { source, ask } = this;
      this.reader = this.sealed
        ? null
        : source.deferred
          ? source.deferred(ask)
          : dossierReader(source.dossier(ask));
    }
    return this.reader;
  }

  section(name: DossierSectionName): DossierSection | undefined {
    return this.open()?.section(name);
  }

  whole(): Dossier | null {
    return this.open()?.whole() ?? null;
  }

  /** Ends the turn's phase: nothing more of this dossier is built. */
  seal(): void {
    this.sealed = true;
    if (this.reader && "seal" in this.reader) this.reader.seal();
  }
}

/** Ends a phase's requests: their unread dossiers will not be built after all. */
export const sealDossiers = (
  requests: ReadonlyArray<{ readonly dossier: DossierReader | null }>,
): void => {
  for (const r of requests) if (r.dossier instanceof TurnDossier) r.dossier.seal();
};
