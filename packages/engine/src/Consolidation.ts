/**
 * The periodic consolidation job: for every NPC (in id order), the groups of old, faint
 * memories about one subject its rules pick (`consolidationGroups` in @hearsay/actors)
 * are each summarised by the brain (`consolidate_memories`, through the run's brain
 * runner: its policy, budgets and `LlmCallRecorded`, so a replay answers from the log)
 * into one memory of the same owner. Each is written as its `MemoryRecorded` (known only
 * to its owner, like every memory), a `MemoriesConsolidated` naming its sources, and a
 * `MemoryExpired` (reason `consolidated`) per source; the job ends with its
 * `MaintenanceRan`. A group whose answer fails is left as it was, with a warning.
 */
import { type ConsolidationGroup, consolidatedOf } from "@hearsay/actors";
import type { GameTime, LocationId, MemoryId, NpcId } from "@hearsay/core";
import type { BrainRequest } from "@hearsay/mind";
import { selfOf } from "./Glimpses.ts";
import type { JobCounts } from "./Maintenance.ts";
import type { TickContext } from "./TickContext.ts";
import { warn } from "./Turns.ts";

/** Names kept on a consolidated memory, at most. */
const MAX_ENTITIES = 16;

/** How the NPC names what a group is about. */
const subjectName = (ctx: TickContext, about: ConsolidationGroup["about"]): string => {
  switch (about.kind) {
    case "npc":
      return ctx.names.npcName(about.id as NpcId);
    case "location":
      return ctx.names.locationName(about.id as never);
    case "task":
      return ctx.actors.task(about.id as never)?.title ?? "a task";
    case "conversation":
      return "one talk";
    case "scene":
      return "one gathering";
    case "debate":
      return "one debate";
    case "happening":
      return "one occasion";
    case "world_event":
      return "one piece of news";
    default:
      return "one matter";
  }
};

interface Planned {
  readonly owner: NpcId;
  readonly group: ConsolidationGroup;
  readonly request: BrainRequest<"consolidate_memories">;
}

/** The consolidation job for game day `day`, at the context's time. */
export const runConsolidation = async (ctx: TickContext, day: number): Promise<JobCounts> => {
  const rules = ctx.config.consolidation;
  const decay = ctx.config.memoryDecay;
  const groups: Array<{ owner: NpcId; group: ConsolidationGroup }> = [];
  for (const facts of ctx.actors.allFacts())
    for (const group of ctx.actors.consolidationGroups(facts.npcId, ctx.t, rules))
      groups.push({ owner: facts.npcId, group });
  const texts = ctx.memoryTexts?.(groups.flatMap((g) => g.group.sources)) ?? new Map();
  const planned: Array<Planned> = [];
  for (const { owner, group } of groups) {
    const facts = ctx.actors.facts(owner)!;
    // A source the read model does not hold (it always should) leaves the group alone.
    if (!group.sources.every((id) => texts.has(id))) continue;
    planned.push({
      owner,
      group,
      request: {
        purpose: "consolidate_memories",
        npcId: owner,
        t: ctx.t,
        seed: ctx.seed,
        dossier: null,
        input: {
          self: selfOf(ctx, owner),
          subject: { ...group.about, name: subjectName(ctx, group.about) },
          memories: group.sources.map((id) => {
            const m = facts.memories.get(id)!;
            return {
              memoryId: id,
              text: texts.get(id)!.text,
              category: m.category,
              recordedAt: m.recordedAt,
            };
          }),
        },
      },
    });
  }
  const outcomes = await ctx.brain.decideAll(
    planned.map((p) => p.request),
    ctx.writer,
  );
  let consolidated = 0;
  for (const [i, { owner, group }] of planned.entries()) {
    const outcome = outcomes[i]!;
    if (!outcome.ok) {
      warn(
        ctx,
        owner,
        "consolidation_failed",
        `${group.about.kind} ${group.about.id}: ${outcome.error.message}`,
      );
      continue;
    }
    const facts = ctx.actors.facts(owner)!;
    const sources = group.sources.map((id) => facts.memories.get(id)!);
    const made = consolidatedOf(sources, ctx.t, decay);
    const entities = [...new Set(group.sources.flatMap((id) => texts.get(id)!.entities))];
    const memoryId = ctx.writer.mint("m") as MemoryId;
    ctx.writer.emit("MemoryRecorded", {
      memoryId,
      ownerNpcId: owner,
      text: outcome.answer.output.summary,
      category: made.category,
      importance: made.importance,
      expiresAt: made.expiresAt as GameTime | null,
      locationId: group.about.kind === "location" ? (group.about.id as LocationId) : null,
      entities: entities.slice(0, MAX_ENTITIES),
      about: group.about,
    });
    ctx.writer.emit("MemoriesConsolidated", {
      ownerNpcId: owner,
      memoryId,
      about: group.about,
      sources: group.sources,
    });
    for (const source of group.sources)
      ctx.writer.emit("MemoryExpired", {
        memoryId: source,
        ownerNpcId: owner,
        reason: "consolidated",
      });
    consolidated += group.sources.length;
  }
  ctx.writer.emit("MaintenanceRan", {
    job: "consolidate",
    day,
    expired: 0,
    forgotten: 0,
    consolidated,
  });
  return { job: "consolidate", day, expired: 0, forgotten: 0, consolidated };
};
