/**
 * What the run cost up to the cursor: recorded model calls, tokens and latency per day,
 * per purpose and per NPC; per day, priority class and purpose, how many calls the model
 * answered and how many fell back and why; and the NPC wake-ups significance gating kept from the brain
 * (how a turn is counted as gated is defined in `Gating.ts`). Every number is a
 * difference of running totals in the index, so a year costs no more than a day.
 */
import type { Cost } from "./ApiTypes.ts";
import { minus } from "./CostIndex.ts";
import type { ViewContext } from "./Inspection.ts";
import type { Params } from "./Params.ts";

/** `sort` for the NPC table (calls|tokens|latency), paging over NPCs (≤ 500). */
export const costView = (ctx: ViewContext, params: Params): Cost => {
  const { index, at } = ctx;
  const sort = params.oneOf("sort", ["calls", "tokens", "latency"], "calls");
  const offset = params.intOr("offset", 0, 0, 100_000_000);
  const limit = params.intOr("limit", 50, 1, 500);
  const days: Array<Cost["days"][number]> = [];
  let before = index.cost.totalAt(0);
  let turnsBefore = index.places.turnsAt(0);
  for (const d of index.days.all()) {
    if (d.firstSeq > at) break;
    const end = Math.min(d.lastSeq, at);
    const total = index.cost.totalAt(end);
    const turns = index.places.turnsAt(end);
    const c = minus(total, before);
    const asked = turns.asked - turnsBefore.asked;
    const gated = turns.gated - turnsBefore.gated;
    days.push({ day: d.day, ...c, wakeUps: asked + gated, asked, gated });
    before = total;
    turnsBefore = turns;
  }
  const key = { calls: "calls", tokens: "promptTokens", latency: "latencyMs" } as const;
  const npcs = index.cost
    .npcsAt(at)
    .map((n) => ({
      ...n,
      name: index.nameOf(n.npcId),
      total: n[key[sort]] + (sort === "tokens" ? n.outputTokens : 0),
    }))
    .sort((a, b) => b.total - a.total || (a.npcId < b.npcId ? -1 : 1));
  const total = index.cost.totalAt(at);
  const turns = index.places.turnsAt(at);
  return {
    days,
    byPurpose: index.cost
      .purposesAt(at)
      .map(({ purpose, calls, promptTokens, outputTokens, latencyMs }) => ({
        purpose,
        calls,
        promptTokens,
        outputTokens,
        latencyMs,
      })),
    byNpc: {
      total: npcs.length,
      offset,
      limit,
      rows: npcs
        .slice(offset, offset + limit)
        .map(({ npcId, name, calls, promptTokens, outputTokens, latencyMs }) => ({
          npcId,
          name,
          calls,
          promptTokens,
          outputTokens,
          latencyMs,
        })),
    },
    totals: {
      calls: total.calls,
      promptTokens: total.promptTokens,
      outputTokens: total.outputTokens,
      latencyMs: total.latencyMs,
      wakeUps: turns.asked + turns.gated,
      asked: turns.asked,
      gated: turns.gated,
    },
    byClass: index.cost
      .classesAt(at)
      .map((c) => ({ ...c, fellBack: c.held + c.budget + c.failed })),
    callsRecorded: index.cost.all.length > 0,
  };
};
