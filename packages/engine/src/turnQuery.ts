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

/**
 * The first `MAX_WORDS` words of the place's name, the names of those present, the titles
 * of its tasks and its latest news, in that order. Words are taken part by part and the
 * taking stops at the limit: a crowded square names far more people than a query keeps.
 */
export const turnQuery = (ctx: TickContext, id: NpcId, input: ActInput): string | null => {
  const words: Array<string> = [];
  const take = (part: string): boolean => {
    for (const w of part.split(/\s+/)) {
      if (w.length === 0) continue;
      words.push(w);
      if (words.length === MAX_WORDS) return false;
    }
    return true;
  };
  const more =
    take(input.location.name) &&
    input.present.every((p) => take(p.name)) &&
    input.tasks.every((t) => take(t.title));
  if (more) take(latestNews(ctx, id) ?? "");
  return words.length === 0 ? null : words.join(" ");
};
