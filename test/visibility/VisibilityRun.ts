/**
 * One property run of the visibility suite: the real system (an in-memory store and a
 * retrieval engine over it, exactly as the engine wires them) beside the model (one
 * `SaveModel` per save, and every canary with its origin). Every write goes through
 * `commit`, which appends a batch to the real log in one transaction and folds the same
 * events into the model, so both always hold the same history.
 */
import { type CampaignId, type Event, ids, type NpcId, Prng, type SaveId } from "@hearsay/core";
import { makeHashingEmbedder, RetrievalEngine, VectorIndexes } from "@hearsay/retrieval";
import { openDatabase, type SqliteDatabase, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { type CanaryOrigin, type Draft, SaveModel } from "./SaveModel.ts";
import type { VisibilityWorld } from "./VisibilityWorld.ts";

/** The system under test. */
export interface VisibilityReal {
  readonly db: SqliteDatabase;
  readonly log: SqliteEventLog;
  readonly engine: RetrievalEngine;
}

/** A fresh in-memory database with the retrieval engine the engine's runs use. */
export const openVisibilityReal = (): VisibilityReal => {
  const db = openDatabase(":memory:");
  const log = new SqliteEventLog(db);
  const embedder = makeHashingEmbedder();
  const { index } = Effect.runSync(VectorIndexes.open(db, embedder));
  return { db, log, engine: new RetrievalEngine(db, { log, embedder, index }) };
};

/** Runs that share one database before it is replaced (opening one costs ~25 ms). */
const RUNS_PER_DATABASE = 25;
let shared: { real: VisibilityReal; uses: number } | null = null;
let runSerial = 0;

/**
 * The database for the next run: consecutive runs share one, each with save ids of its
 * own, so every run also proves its saves never see the earlier runs' rows. It is
 * replaced every few runs to keep keyword searches over everyday words small.
 */
export const nextVisibilityReal = (): {
  readonly real: VisibilityReal;
  readonly prefix: string;
} => {
  if (shared === null || shared.uses >= RUNS_PER_DATABASE) {
    shared?.real.db.close();
    shared = { real: openVisibilityReal(), uses: 0 };
  }
  shared.uses += 1;
  return { real: shared.real, prefix: `r${++runSerial}` };
};

/** Closes the shared database (end of the suite). */
export const closeVisibilityReal = (): void => {
  shared?.real.db.close();
  shared = null;
};

/** Everyday words; each run suffixes them with its prefix so keyword matches stay per run. */
const vocabulary = ["storm", "mill", "bread", "ford", "silver", "oath", "harvest", "bell"];
const letters = "abcdefghijklmnopqrstuvwxyz";

/** A canary waiting for its event's seq. */
interface PendingCanary {
  readonly canary: string;
  readonly index: number;
  readonly kind: CanaryOrigin["kind"];
  readonly id: string;
  readonly npcs: ReadonlyArray<string>;
}

/** Most saves a run holds (two roots and up to two branches). */
export const MAX_SAVES = 4;

export class VisibilityRun {
  readonly saves: Array<SaveModel> = [];
  readonly canaries = new Map<string, CanaryOrigin>();
  private readonly prng: Prng;
  private pending: Array<PendingCanary> = [];
  private branches = 0;
  private readonly words: ReadonlyArray<string>;

  constructor(
    readonly world: VisibilityWorld,
    readonly real: VisibilityReal,
    seed: number,
    /** Prefixes this run's save ids (runs may share a database). */
    readonly prefix = "r",
  ) {
    this.prng = Prng.derive(seed, "visibility");
    this.words = vocabulary.map((w) => `${w}${prefix.replace(/[^a-z0-9]/gi, "")}`);
    for (const label of ["A", "B"]) {
      const save = new SaveModel(
        ids.save(`${prefix}-${label}`),
        ids.campaign(`${prefix}-campaign-${label}`) as CampaignId,
        label,
      );
      real.log.createSave({ saveId: save.saveId, campaignId: save.campaignId, name: label });
      this.saves.push(save);
      this.genesis(save);
    }
  }

  /** Text with a fresh canary: a couple of everyday words and the token. */
  text(draft: Draft, kind: CanaryOrigin["kind"], id: string, npcs: ReadonlyArray<string>): string {
    let canary: string;
    do {
      canary = `cnry${Array.from({ length: 8 }, () => letters[this.prng.int(0, 25)]).join("")}`;
    } while (this.canaries.has(canary) || this.pending.some((p) => p.canary === canary));
    this.pending.push({ canary, index: draft.events.length, kind, id, npcs });
    return `${this.prng.pick(this.words)} ${this.prng.pick(this.words)} ${canary}`;
  }

  /** A query for a probe: none, everyday words, or some canary this run wrote (anywhere). */
  query(pick: number): string | null {
    const all = [...this.canaries.keys()];
    if (pick % 4 === 0 || all.length === 0) return null;
    if (pick % 4 === 1)
      return `${this.words[pick % this.words.length]} ${this.words[(pick >> 3) % this.words.length]}`;
    return `what about ${all[pick % all.length]}`;
  }

  /** Appends a draft to the real log in one transaction and folds it into the model. */
  commit(save: SaveModel, draft: Draft): void {
    const pending = this.pending;
    this.pending = [];
    if (draft.events.length === 0) return;
    const result = this.real.log.append(save.saveId, save.head, draft.events);
    if (result.skipped !== 0 || result.head !== save.head + draft.events.length) {
      throw new Error(
        `save ${save.label}: append stored ${result.appended.length} of ${draft.events.length} events (head ${result.head})`,
      );
    }
    const base = save.head;
    draft.events.forEach((e: Event, i) => {
      save.apply(e, `${save.saveId}#${base + i + 1}`, draft.minted);
    });
    for (const p of pending) {
      const event = draft.events[p.index]!;
      this.canaries.set(p.canary, {
        origin: `${save.saveId}#${base + p.index + 1}`,
        kind: p.kind,
        id: p.id,
        t: event.t,
        npcs: p.npcs,
      });
    }
  }

  /** Branches `parent` at `seq` (store and model); false when the run has enough saves. */
  branch(parent: SaveModel, seq: number): boolean {
    if (this.saves.length >= MAX_SAVES) return false;
    const label = `${parent.label}/${++this.branches}`;
    const saveId = ids.save(`${this.prefix}-${label}`) as SaveId;
    this.real.log.createSave({
      saveId,
      campaignId: parent.campaignId,
      name: label,
      parent: { saveId: parent.saveId, seq },
    });
    this.saves.push(parent.branch(saveId, label, seq));
    return true;
  }

  /** Registers the cast and imports one lore file. */
  private genesis(save: SaveModel): void {
    const draft = save.draft(0);
    for (const npc of this.world.npcs) {
      draft.emit("NpcRegistered", {
        npcId: npc.id,
        name: npc.name,
        role: "villager",
        factionId: npc.factionId,
        locationId: npc.home,
        traits: [],
      });
    }
    const chunks = [0, 1].map(() => {
      const chunkId = ids.loreChunk(draft.mint("l"));
      return {
        chunkId,
        headingPath: ["Hamlet"],
        text: this.text(draft, "lore", chunkId, []),
        tags: [],
        entities: [],
      };
    });
    draft.emit("LoreImported", {
      sourceId: ids.loreSource("lore:hamlet"),
      path: "hamlet.md",
      contentHash: `hash-${save.label}`,
      chunks,
    });
    this.commit(save, draft);
  }

  /** NPCs of the world other than `npc`, at the same place in `save` now. */
  company(save: SaveModel, npc: NpcId): ReadonlyArray<NpcId> {
    const here = save.locations.get(npc);
    return here === undefined ? [] : save.presentAt(here).filter((n) => n !== npc);
  }
}
