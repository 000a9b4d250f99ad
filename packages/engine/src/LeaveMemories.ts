/**
 * What an NPC keeps of a place it leaves: a location memory (where it was, who was there)
 * and a few memories about the people it dealt with there and the people talked about in
 * its hearing — each drawn only from the lines it heard or said. The number is bounded
 * (`leaveAboutLimit`) and the order fixed: those it dealt with and heard spoken of
 * first, then those it dealt with, then those only spoken of, each in id order.
 */
import type { NpcId } from "@hearsay/core";
import { quoted } from "@hearsay/mind";
import { companyOf } from "./Glimpses.ts";
import { rememberKept } from "./Memories.ts";
import type { OpenScene, SceneExchange } from "./NarrativeLedger.ts";
import type { TickContext } from "./TickContext.ts";

const NAMES_SHOWN = 5;

const listNames = (names: ReadonlyArray<string>): string => {
  const shown = names.slice(0, NAMES_SHOWN);
  const more = names.length - shown.length;
  if (more > 0) return `${shown.join(", ")} and ${more} more`;
  return shown.length <= 1
    ? (shown[0] ?? "")
    : `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}`;
};

/** Matches a sentence that names `name`. */
const nameIn = (name: string): RegExp =>
  new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`);

/** Records the leaver's memories of the scene's place. */
export const rememberLeaving = (ctx: TickContext, scene: OpenScene, self: NpcId): void => {
  const place = ctx.names.locationName(scene.locationId);
  const heard = scene.lines.filter((l) => l.speakerId === self || l.listenerIds.includes(self));
  const dealt = new Set<NpcId>();
  for (const l of heard) for (const id of [l.speakerId, ...l.listenerIds]) dealt.add(id);
  for (const d of scene.debates)
    if (d.participants.includes(self)) for (const id of d.participants) dealt.add(id);
  dealt.delete(self);
  const there = [...new Set([...dealt, ...companyOf(ctx, self, scene.locationId)])]
    .filter((id) => ctx.state.npcs.has(id))
    .sort();
  const names = there.map((id) => ctx.names.npcName(id));
  rememberKept(ctx, self, {
    text:
      names.length === 0 ? `I was at ${place}.` : `I was at ${place}; ${listNames(names)} there.`,
    category: "location",
    importance: 0.3,
    lifetime: "7d",
    entities: [place, ...names.slice(0, NAMES_SHOWN)],
    about: { kind: "location", id: scene.locationId },
    locationId: scene.locationId,
  });

  // Who was talked about in its hearing: the first line naming each, by full name.
  const spokenOf = new Map<NpcId, SceneExchange>();
  for (const l of heard) {
    for (const id of ctx.state.names.find(l.text)) {
      if (id === self || id === l.speakerId || spokenOf.has(id)) continue;
      spokenOf.set(id, l);
    }
  }
  const both = [...dealt].filter((id) => spokenOf.has(id)).sort();
  const onlyDealt = [...dealt].filter((id) => !spokenOf.has(id)).sort();
  const onlySpoken = [...spokenOf.keys()].filter((id) => !dealt.has(id)).sort();
  const chosen = [...both, ...onlyDealt, ...onlySpoken]
    .filter((id) => ctx.state.npcs.has(id))
    .slice(0, ctx.config.leaveAboutLimit);
  for (const id of chosen) {
    const name = ctx.names.npcName(id);
    const mention = spokenOf.get(id);
    const toMe = [...heard].reverse().find((l) => l.speakerId === id);
    const text =
      mention !== undefined
        ? `At ${place}, ${mention.speakerId === self ? "I" : ctx.names.npcName(mention.speakerId)} spoke of ${name}: ${quoted(mention.text, 100, nameIn(name))}`
        : toMe !== undefined
          ? `At ${place}, ${name} said to me: ${quoted(toMe.text, 100)}`
          : `At ${place}, I spent time with ${name}.`;
    rememberKept(ctx, self, {
      text,
      category: "observation",
      importance: 0.35,
      lifetime: "7d",
      entities: [name, place],
      about: { kind: "npc", id },
      locationId: scene.locationId,
    });
  }
};
