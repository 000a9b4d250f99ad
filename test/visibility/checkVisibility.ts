/**
 * What is checked after every command: an NPC's dossier (each item by id, and the
 * rendered prompt text by canary), its search results and the store's own
 * `knownItems`, all against the model's truth — for every NPC of the save written, and
 * for one NPC of every other save. One extra read per step goes back in time, to a seq
 * the probe picks, so the rule is checked at past moments too (nothing learnt later
 * may show).
 */
import { type Dossier, type NpcId, renderDossier } from "@hearsay/core";
import { type CollectionName, collections } from "@hearsay/retrieval";
import type { SaveModel } from "./SaveModel.ts";
import { canaryProblem, itemProblem } from "./VisibilityRule.ts";
import type { VisibilityReal, VisibilityRun } from "./VisibilityRun.ts";
import type { StepParams } from "./visibilitySteps.ts";

/** How much was checked, so a run that checks nothing cannot pass quietly. */
export const visibilityCoverage = {
  dossiers: 0,
  items: new Map<string, number>(),
  canaries: new Map<string, number>(),
  hits: 0,
  knownFacts: 0,
};

const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

const CANARY = /cnry[a-z]{8}/g;

const rowSaves = new WeakMap<
  VisibilityReal,
  Map<CollectionName, { get(rowid: number): unknown }>
>();

/** The save a projection row belongs to (a search hit's rowid, looked up independently). */
const saveOfRow = (real: VisibilityReal, c: CollectionName, rowid: number): string | undefined => {
  let stmts = rowSaves.get(real);
  if (!stmts) {
    stmts = new Map();
    rowSaves.set(real, stmts);
  }
  let stmt = stmts.get(c);
  if (!stmt) {
    stmt = real.db.prepare(`SELECT save_id FROM ${collections[c].table} WHERE rowid = ?`).pluck();
    stmts.set(c, stmt);
  }
  return stmt.get(rowid) as string | undefined;
};

/** One read: which save, NPC, time and query. */
interface Read {
  readonly run: VisibilityRun;
  readonly save: SaveModel;
  readonly npc: NpcId;
  readonly t: number;
  readonly query: string | null;
}

const fail = (r: Read, what: string): never => {
  throw new Error(
    `save ${r.save.label} (${r.save.saveId}), ${r.npc} at t=${r.t}, query ${JSON.stringify(r.query)}: ${what}`,
  );
};

const checkDossier = (r: Read, dossier: Dossier): void => {
  visibilityCoverage.dossiers += 1;
  for (const section of dossier.sections) {
    for (const item of section.items) {
      const why = itemProblem(r.save, r.npc, r.t, item.kind, item.id);
      if (why) fail(r, `dossier ${section.name} item ${item.id}: ${why}`);
      bump(visibilityCoverage.items, item.kind);
    }
  }
  const prompt = renderDossier(dossier);
  for (const [canary] of prompt.matchAll(CANARY)) {
    const origin = r.run.canaries.get(canary);
    const why = canaryProblem(r.save, r.npc, r.t, canary, origin);
    if (why) fail(r, `the prompt contains ${canary}: ${why}`);
    bump(visibilityCoverage.canaries, origin!.kind);
  }
};

const checkSearch = (r: Read): void => {
  const hits = r.run.real.engine.search({
    saveId: r.save.saveId,
    npcId: r.npc,
    t: r.t,
    query: r.query,
    limit: 10,
  });
  for (const hit of hits) {
    const owner = saveOfRow(r.run.real, hit.collection, hit.rowid);
    if (owner !== r.save.saveId) {
      fail(r, `search hit ${hit.collection} row ${hit.rowid} is save ${owner}'s`);
    }
    const why = itemProblem(r.save, r.npc, r.t, hit.kind, hit.id);
    if (why) fail(r, `search hit ${hit.kind} ${hit.id}: ${why}`);
    visibilityCoverage.hits += 1;
  }
};

const checkKnown = (r: Read): void => {
  const stored = r.run.real.log
    .knownItems(r.save.saveId, r.npc, r.t as never)
    .map((k) => `${k.kind}:${k.id}`)
    .join(" ");
  const truth = r.save.ledger
    .knownAt(r.npc, r.t as never)
    .map((k) => `${k.kind}:${k.id}`)
    .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))
    .join(" ");
  if (stored !== truth) fail(r, `store knownItems [${stored}] differ from the rule [${truth}]`);
  visibilityCoverage.knownFacts += truth === "" ? 0 : truth.split(" ").length;
};

/** Checks one NPC's reads in one save at one time (its search too, when `search`). */
const checkReads = (r: Read, search: boolean): void => {
  const dossier = r.run.real.engine.dossier({
    saveId: r.save.saveId,
    npcId: r.npc,
    t: r.t,
    query: r.query,
    scene: {
      locationId: r.save.locations.get(r.npc) ?? null,
      present: r.run.company(r.save, r.npc),
    },
  });
  // A branch taken mid-genesis may not have registered every NPC yet.
  const registered = r.save.locations.has(r.npc);
  if (dossier === null && registered) fail(r, "no dossier for a registered NPC");
  if (dossier !== null && !registered) fail(r, "a dossier for an NPC the save never registered");
  if (dossier !== null) checkDossier(r, dossier);
  if (search) checkSearch(r);
  checkKnown(r);
};

/**
 * After a command that wrote to `written` (null: to no save, or at the start): every NPC
 * of that save reads now — its dossier and its knowledge — and one NPC (the probe's
 * pick) of every other save, since a write must not leak into a branch or another save;
 * that NPC also searches. Then one NPC of one save reads at a past seq.
 */
export const checkVisibility = (
  run: VisibilityRun,
  probe: StepParams["probe"],
  written: SaveModel | null,
): void => {
  const query = run.query(probe.query);
  const npcs = run.world.npcs;
  const picked = npcs[probe.npc % npcs.length]!.id;
  for (const save of run.saves) {
    const head = run.real.log.head(save.saveId);
    if (save.head !== head)
      throw new Error(`save ${save.label}: store head ${head}, model ${save.head}`);
    const readers = written === null || save === written ? npcs.map((n) => n.id) : [picked];
    for (const npc of readers) checkReads({ run, save, npc, t: save.t, query }, npc === picked);
  }
  const save = run.saves[probe.save % run.saves.length]!;
  const npc = npcs[(probe.npc + 1) % npcs.length]!.id;
  checkReads({ run, save, npc, t: save.timeAt(1 + (probe.seq % save.head)), query }, true);
};

/** At the end of a run: each save's stored history is exactly its model history. */
export const checkHistories = (run: VisibilityRun): void => {
  for (const save of run.saves) {
    const stored = run.real.log.read(save.saveId).map((e) => e.id);
    const model = save.entries.map((e) => e.event.id);
    if (stored.join(",") !== model.join(",")) {
      throw new Error(
        `save ${save.label}: the store's history [${stored.join(",")}] is not the model's [${model.join(",")}]`,
      );
    }
  }
};
