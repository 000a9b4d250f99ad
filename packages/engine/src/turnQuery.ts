/**
 * What a turn's dossier searches for: the NPC's situation as text — the place, who is
 * there, its open tasks, and the latest news it has heard — so keyword and vector probes
 * pull in the memories, events and lore that bear on the decision, within the dossier's
 * usual budgets. Built only from the engine state (which the log determines), so a
 * replay asks the same query.
 */
import type { NpcId, WorldEventId } from "@hearsay/core";
import type { ActInput } from "@hearsay/mind";
import type { TickContext } from "./TickContext.ts";

/** The longest query, in words: enough for a situation, short enough for FTS. */
const MAX_WORDS = 48;

/** The latest world event the NPC has heard of (its rumours keep the order it learnt them in). */
const latestNews = (ctx: TickContext, id: NpcId): string | null => {
  const npc = ctx.actors.facts(id);
  if (!npc) return null;
  let last: WorldEventId | null = null;
  for (const eventId of npc.rumours.keys()) last = eventId;
  return last === null ? null : (ctx.state.worldEvents.get(last)?.text ?? null);
};

export const turnQuery = (ctx: TickContext, id: NpcId, input: ActInput): string | null => {
  const parts = [
    input.location.name,
    ...input.present.map((p) => p.name),
    ...input.tasks.map((t) => t.title),
    latestNews(ctx, id) ?? "",
  ];
  const words = parts
    .join(" ")
    .split(/\s+/)
    .filter((w) => w.length > 0);
  return words.length === 0 ? null : words.slice(0, MAX_WORDS).join(" ");
};
