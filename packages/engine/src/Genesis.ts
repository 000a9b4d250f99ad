/**
 * The first tick of a run: the world file becomes events. The simulation starts, lore is
 * imported, every NPC is registered at home with its directed relationships, and each is
 * gifted its own memories — identity, background (split at sentence bounds into pieces
 * of at most ~300 characters), speech style, values and what it knows of named others —
 * so its very first dossier knows who it is. The scenario is known to all present, and
 * every NPC starts asleep or idle by its schedule.
 */
import { isNight, nextHourAt } from "@hearsay/actors";
import {
  type CampaignId,
  type CarriedPurpose,
  type DossierRules,
  hourOf,
  type LoreChunk,
  type LoreSourceId,
  type NpcId,
  type WorldEventId,
} from "@hearsay/core";
import { announce } from "./Happenings.ts";
import { remember } from "./Memories.ts";
import type { TickContext } from "./TickContext.ts";

export interface LoreFile {
  readonly sourceId: LoreSourceId;
  readonly path: string;
  readonly contentHash: string;
  readonly chunks: ReadonlyArray<LoreChunk>;
}

export interface GenesisInput {
  readonly worldHash: string;
  readonly campaignId: CampaignId;
  readonly endDay: number;
  readonly brain: string;
  /** The run's embedder when not the default hashing one. */
  readonly embedder?: string;
  /** `disabled` when the run keeps no vector index. */
  readonly indexMode?: "disabled";
  /** Core's `DossierRules` the run's dossiers choose items by, unless `moment`. */
  readonly dossierRules?: Exclude<DossierRules, "moment">;
  /** Purposes the run asks inside another's answer (none: absent from the event). */
  readonly carried: ReadonlyArray<CarriedPurpose>;
  readonly lore: ReadonlyArray<LoreFile>;
}

/** Splits prose at sentence bounds into pieces of at most `max` characters. */
export const sentencePieces = (text: string, max = 300): ReadonlyArray<string> => {
  const sentences =
    text
      .replace(/\s+/g, " ")
      .trim()
      .match(/[^.!?]+[.!?]+["')\]]*|[^.!?]+$/g) ?? [];
  const pieces: Array<string> = [];
  let current = "";
  for (const raw of sentences) {
    const s = raw.trim();
    if (s === "") continue;
    if (current !== "" && current.length + 1 + s.length > max) {
      pieces.push(current);
      current = "";
    }
    if (s.length > max) {
      // A single overlong sentence: cut at word bounds.
      let rest = s;
      while (rest.length > max) {
        const cut = rest.lastIndexOf(" ", max);
        const at = cut > max / 2 ? cut : max;
        pieces.push(rest.slice(0, at).trim());
        rest = rest.slice(at).trim();
      }
      current = rest;
    } else {
      current = current === "" ? s : `${current} ${s}`;
    }
  }
  if (current !== "") pieces.push(current);
  return pieces;
};

export const genesis = (ctx: TickContext, input: GenesisInput): void => {
  const { world } = ctx;
  ctx.writer.emit("SimulationStarted", {
    simulation: world.meta.name,
    worldHash: input.worldHash,
    seed: ctx.seed,
    campaignId: input.campaignId,
    tickMinutes: world.meta.tickMinutes,
    endDay: input.endDay,
    brain: input.brain,
    ...(input.embedder === undefined ? {} : { embedder: input.embedder }),
    ...(input.indexMode === undefined ? {} : { indexMode: input.indexMode }),
    ...(input.dossierRules === undefined ? {} : { dossierRules: input.dossierRules }),
    ...(input.carried.length === 0 ? {} : { carried: [...input.carried] }),
  });
  for (const lore of input.lore) {
    ctx.writer.emit("LoreImported", {
      sourceId: lore.sourceId,
      path: lore.path,
      contentHash: lore.contentHash,
      chunks: [...lore.chunks],
    });
  }
  const npcs = [...world.npcs].sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const npc of npcs) {
    ctx.writer.emit("NpcRegistered", {
      npcId: npc.id,
      name: npc.name,
      role: npc.role,
      factionId: npc.factionId,
      locationId: npc.home,
      traits: [...npc.traits],
    });
  }
  const edges = [...world.relationships].sort((a, b) =>
    a.from === b.from ? (a.to < b.to ? -1 : 1) : a.from < b.from ? -1 : 1,
  );
  for (const r of edges) {
    ctx.writer.emit("RelationshipChanged", {
      fromId: r.from,
      toId: r.to,
      trust: r.trust,
      respect: r.respect,
      suspicion: r.suspicion,
      summary: r.summary,
      // The world's own words for the edge are why it stands so (as older logs imply).
      reason: r.summary.trim() === "" ? "how they stood when the story began" : r.summary,
    });
  }
  for (const npc of npcs) gift(ctx, npc);
  announce(ctx, {
    worldEventId: `scenario-${world.meta.name}` as WorldEventId,
    kind: "scenario",
    text: `${world.scenario.place} It is ${world.scenario.season}. ${world.scenario.situation}`,
    locationId: null,
    factionId: null,
    visibility: "global",
    importance: 0.9,
    participants: [],
    entities: [],
  });
  for (const npc of npcs) {
    const asleep = isNight(hourOf(ctx.t), npc.wakeHour, npc.sleepHour);
    ctx.writer.emit("NpcActivityChanged", {
      npcId: npc.id,
      activity: asleep ? "asleep" : "idle",
      locationId: npc.home,
      destination: null,
      until: asleep ? nextHourAt(ctx.t, npc.wakeHour) : ctx.t,
      taskId: null,
      attendingTo: [],
      holding: [],
      note: asleep ? "asleep" : "at home",
    });
  }
};

type WorldNpc = TickContext["world"]["npcs"][number];

const gift = (ctx: TickContext, npc: WorldNpc): void => {
  const own = (
    text: string,
    category: "identity" | "background" | "relationship",
    importance: number,
    entities: ReadonlyArray<string> = [],
  ) =>
    remember(ctx, npc.id, {
      text,
      category,
      importance,
      lifetime: "permanent",
      entities: [npc.name, ...entities],
      about: { kind: "npc", id: npc.id },
      locationId: null,
    });
  own(`I am ${npc.name}, ${npc.role}. ${npc.identity}`, "identity", 1);
  for (const piece of sentencePieces(npc.background)) own(piece, "background", 0.8);
  own(`How I speak: ${npc.speechStyle}`, "identity", 0.7);
  if (npc.values.length > 0) own(`What I hold dear: ${npc.values.join(", ")}.`, "identity", 0.8);
  for (const k of npc.knows) {
    const name = ctx.names.npcName(k.npcId as NpcId);
    own(`About ${name}: ${k.view}`, "relationship", 0.7, [name]);
  }
};
