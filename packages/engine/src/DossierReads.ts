/**
 * Which of its own memories each NPC's brain read in a dossier, or recalled by talking
 * with the one they are about: what reinforces them (`reinforceMemories`). The run's
 * dossier source is wrapped (`readTracked`) so that a memories section counts when a
 * brain reads it — `section("memories")` or `whole()` — and not when it is only built.
 *
 * So what a brain reads is part of what a run writes. That is deterministic: a scripted
 * brain reads the same sections on replay and on resume, and a live or recorded one
 * reads every dossier whole (its input hash covers it), live and on replay. Building the
 * memories section for every turn instead would make dossiers eager again.
 */

import type {
  DeferredDossier,
  Dossier,
  DossierSection,
  DossierSectionName,
  MemoryId,
  NpcId,
  StoredEvent,
} from "@hearsay/core";
import type { OwnDossierRows } from "./ActorDossierReads.ts";
import type { IndexJob } from "./EngineConfig.ts";
import type { DossierAsk, DossierSource } from "./TickContext.ts";

export class DossierReads {
  private readonly read = new Map<NpcId, Set<MemoryId>>();

  /** Notes the memory items of a section `npcId`'s brain read. */
  note(npcId: NpcId, section: DossierSection | undefined): void {
    if (section === undefined || section.name !== "memories") return;
    let ids = this.read.get(npcId);
    for (const item of section.items) {
      if (item.kind !== "memory") continue;
      if (ids === undefined) {
        ids = new Set();
        this.read.set(npcId, ids);
      }
      ids.add(item.id as MemoryId);
    }
  }

  /** Notes memories `npcId` recalled another way (talking with the one they are about). */
  recall(npcId: NpcId, memoryIds: Iterable<MemoryId>): void {
    let ids = this.read.get(npcId);
    for (const id of memoryIds) {
      if (ids === undefined) {
        ids = new Set();
        this.read.set(npcId, ids);
      }
      ids.add(id);
    }
  }

  /** What was read since the last take, by NPC; then forgets it. */
  take(): Map<NpcId, ReadonlySet<MemoryId>> {
    const out = new Map(this.read);
    this.read.clear();
    return out;
  }
}

const memoriesOf = (d: Dossier | null): DossierSection | undefined =>
  d?.sections.find((s) => s.name === "memories");

/** `source`, noting into `reads` every memories section a brain reads through it. */
export const readTracked = (source: DossierSource, reads: DossierReads): DossierSource => {
  const deferred = source.deferred;
  // Named one by one, not spread: a source may keep its methods on a prototype.
  return {
    ...(source.embedder === undefined ? {} : { embedder: source.embedder }),
    ...(source.indexMode === undefined ? {} : { indexMode: source.indexMode }),
    ...(source.dossierRules === undefined ? {} : { dossierRules: source.dossierRules }),
    ...(source.takeWarnings ? { takeWarnings: () => source.takeWarnings!() } : {}),
    ...(source.own ? { own: (rows: OwnDossierRows) => source.own!(rows) } : {}),
    ...(source.flush ? { flush: () => source.flush!() } : {}),
    ...(source.keepIndex ? { keepIndex: (job: IndexJob) => source.keepIndex!(job) } : {}),
    ...(source.indexUpkeep ? { indexUpkeep: () => source.indexUpkeep!() } : {}),
    // The appended events go along: a view folds them as they are rather than read them back.
    ...(source.refresh
      ? { refresh: (appended?: ReadonlyArray<StoredEvent>) => source.refresh!(appended) }
      : {}),
    ...(source.reset ? { reset: () => source.reset!() } : {}),
    // A whole dossier is asked for only when a turn's brain first reads it (`TurnDossier`).
    dossier: (ask: DossierAsk) => {
      const d = source.dossier(ask);
      reads.note(ask.npcId, memoriesOf(d));
      return d;
    },
    ...(deferred === undefined
      ? {}
      : {
          deferred: (ask: DossierAsk): DeferredDossier | null => {
            const inner = deferred.call(source, ask);
            if (inner === null) return null;
            return {
              head: inner.head,
              seal: () => inner.seal(),
              section: (name: DossierSectionName) => {
                const s = inner.section(name);
                reads.note(ask.npcId, s);
                return s;
              },
              whole: () => {
                const d = inner.whole();
                reads.note(ask.npcId, memoriesOf(d));
                return d;
              },
            };
          },
        }),
  };
};
