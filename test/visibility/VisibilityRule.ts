/**
 * The truth a dossier or search result is judged by, computed from the model's log
 * alone. Knowable items (memories, world events, debates) follow core's `knows` over the
 * save's own `KnowledgeLedger`; an NPC's own things (profile, edges, tasks, the turns it
 * spoke or heard, its summaries) are its own from the moment they were written; lore is
 * public. Each function answers null when the NPC may see the item, else why not.
 */
import { type DossierItemKind, type ItemKind, knows, type NpcId } from "@hearsay/core";
import type { CanaryOrigin, SaveModel } from "./SaveModel.ts";

const knowable = new Set<string>(["memory", "world_event", "debate"]);

const whyNotKnown = (save: SaveModel, npc: NpcId, t: number, kind: ItemKind, id: string) => {
  if (kind === "memory" && save.memoryGone(id, t)) return `memory ${id} is expired or forgotten`;
  const lapse = save.lapses.get(id);
  if (kind === "world_event" && lapse != null && lapse <= t)
    return `world event ${id} lapsed at ${lapse}`;
  const fact = save.ledger
    .knownAt(npc, Number.MAX_SAFE_INTEGER as never)
    .find((k) => k.kind === kind && k.id === id);
  if (fact) return `${kind} ${id} is learnt only at ${fact.fact.t}`;
  return `${npc} never learns ${kind} ${id} in save ${save.label}`;
};

/** May `npc` see the dossier item or search hit (`kind`, `id`) of `save` at `t`? */
export const itemProblem = (
  save: SaveModel,
  npc: NpcId,
  t: number,
  kind: DossierItemKind,
  id: string,
): string | null => {
  if (knowable.has(kind)) {
    return knows(save.ledger, npc, { kind: kind as ItemKind, id }, t as never)
      ? null
      : whyNotKnown(save, npc, t, kind as ItemKind, id);
  }
  switch (kind) {
    case "profile":
      return id === npc ? null : `the profile of ${id}`;
    case "relationship":
      return id.startsWith(`${npc}->`) ? null : `the edge ${id} is not ${npc}'s`;
    case "scene":
      return null;
    case "lore":
      return save.lore.has(id) ? null : `lore ${id} was never imported in save ${save.label}`;
    case "summary": {
      const at = save.summaries.get(`${id}|${npc}`);
      return at !== undefined && at <= t ? null : `summary of ${id} is not ${npc}'s at ${t}`;
    }
    case "task": {
      const task = save.tasks.get(id);
      return task && task.t <= t && task.npcs.includes(npc)
        ? null
        : `task ${id} is not ${npc}'s at ${t}`;
    }
    case "dialogue": {
      const turn = save.turns.get(id);
      return turn && turn.t <= t && turn.npcs.includes(npc)
        ? null
        : `turn ${id} was not spoken to or by ${npc} by ${t}`;
    }
    default:
      return `unexpected item kind ${kind}`;
  }
};

/** May `npc` of `save` at `t` read the text that carries this canary? */
export const canaryProblem = (
  save: SaveModel,
  npc: NpcId,
  t: number,
  canary: string,
  origin: CanaryOrigin | undefined,
): string | null => {
  if (origin === undefined) return `canary ${canary} belongs to no item this run wrote`;
  if (!save.history.has(origin.origin)) {
    const [from] = origin.origin.split("#");
    return from === save.parent?.label || save.parent !== null
      ? `${origin.kind} ${origin.id} written at ${origin.origin} is not in save ${save.label}'s history (branched at seq ${save.parent?.seq})`
      : `${origin.kind} ${origin.id} written at ${origin.origin} belongs to another save`;
  }
  if (knowable.has(origin.kind))
    return itemProblem(save, npc, t, origin.kind as ItemKind, origin.id);
  if (origin.kind === "lore") return null;
  if (!origin.npcs.includes(npc)) return `${origin.kind} ${origin.id} is not ${npc}'s`;
  if (origin.kind !== "profile" && origin.t > t)
    return `${origin.kind} ${origin.id} is written only at ${origin.t}`;
  return null;
};
