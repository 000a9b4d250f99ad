/**
 * World memories: a major change of the world — a task completed, a debate's outcome, a
 * place cleared or taken — becomes a `world` memory for each NPC who knows of it, in
 * words that say how it came to know (saw it, heard it from its faction, was told). Who
 * knows is read from the KnowledgeGained facts the state folded, never guessed; those
 * who took part already hold their own memory of it and get none. The world cursor
 * (`SummaryCursorAdvanced`, scope `world`) then moves past the changes remembered, so a
 * second pass adds nothing.
 */
import type { NpcId, Via } from "@hearsay/core";
import { rememberKept } from "./Memories.ts";
import type { TickContext } from "./TickContext.ts";

const heardHow: Readonly<Record<Via, string>> = {
  witnessed: "I saw it myself:",
  participant: "I was part of it:",
  faction: "Word came through my faction:",
  broadcast: "Everyone is saying:",
  told: "I was told:",
  rumor: "I heard a rumour:",
};

/** Records the world memories of every change not yet remembered, then moves the cursor. */
export const rememberWorldChanges = (ctx: TickContext): void => {
  const ledger = ctx.state.narrative;
  if (ledger.worldChanges.size === 0) return;
  const after = ledger.cursor("world", "world");
  const changes = [...ledger.worldChanges.values()]
    .filter((c) => c.seq > after)
    .sort((a, b) => a.seq - b.seq);
  let through = after;
  for (const change of changes) {
    const knowers = [...change.knowers.entries()]
      .filter(([id]) => !change.participants.includes(id) && ctx.state.npcs.has(id))
      .sort(([a], [b]) => (a < b ? -1 : 1));
    for (const [npcId, via] of knowers) {
      rememberKept(ctx, npcId as NpcId, {
        text: `${heardHow[via]} ${change.text}`,
        category: "world",
        importance: change.importance,
        lifetime: "30d",
        entities: change.locationId === null ? [] : [ctx.names.locationName(change.locationId)],
        about: { kind: "world_event", id: change.worldEventId },
        locationId: change.locationId,
      });
    }
    through = change.seq;
  }
  if (through > after)
    ctx.writer.emit("SummaryCursorAdvanced", {
      scope: "world",
      scopeId: "world",
      throughSeq: through,
    });
};
