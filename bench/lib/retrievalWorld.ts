/**
 * The retrieval bench's world: 1,000 NPCs and N memories of clustered text (topics ×
 * names × places), written through the store's event log, with knowledge facts that give
 * known sets from tiny (10–200 items) through small, medium and large to "most of the
 * world" (50–90 %). Seeded: the same size gives the same world, byte for byte.
 */
import { type Event, type EventType, type GameTime, ids, makeEvent, Prng } from "@hearsay/core";
import type { SqliteEventLog } from "@hearsay/store";

/** A size as the bench's flags give it: 10k, 100k, 1M, 2.5M or a plain number. */
export const parseSize = (s: string): number => {
  const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(s.trim());
  if (!m) throw new Error(`bench retrieval: bad size '${s}' (use e.g. 10k, 100k, 1M)`);
  const mult = m[2]?.toLowerCase() === "k" ? 1e3 : m[2]?.toLowerCase() === "m" ? 1e6 : 1;
  return Math.round(Number(m[1]) * mult);
};

/** NPCs in every bench world. */
export const NPCS = 1000;

const SYLLABLES = "ka ri to mel an dor vi sa lun bre ek os tha gar wyn el mo fen ra quil".split(
  " ",
);
const BASE = (
  "grain harvest storm rain wolf bandit sword coin debt wedding funeral fever herb ale feast market tax " +
  "guard patrol fire smoke river bridge boat fish net forge iron horse cart road letter secret oath king " +
  "queen temple priest prayer ghost cellar wine dog sheep wool loom song bard dance thief lock key map " +
  "treasure cave mine silver gold loan bread oven mill wheel roof nail timber axe hunt deer bow arrow " +
  "spear shield banner war peace treaty envoy ship sail harbor tide salt spice silk dye paint portrait " +
  "candle wax bee honey apple orchard frost snow ice well bucket rope ladder tower bell clock"
).split(" ");
const VERBS =
  "saw heard found lost sold bought fixed broke hid stole carried praised cursed remembered promised feared".split(
    " ",
  );
const ADJS = "old new broken strange heavy bright dark cheap costly wet quiet loud".split(" ");

/** Names, places and topic vocabularies of a world. */
export interface World {
  readonly names: ReadonlyArray<string>;
  readonly places: ReadonlyArray<string>;
  readonly topics: ReadonlyArray<ReadonlyArray<string>>;
}

/** Draws the names, places and topics. */
export const makeWorld = (p: Prng): World => {
  const name = () => {
    let s = "";
    for (let i = p.int(2, 3); i > 0; i--) s += p.pick(SYLLABLES);
    return s[0]!.toUpperCase() + s.slice(1);
  };
  return {
    names: Array.from({ length: NPCS }, (_, i) => `${name()}${i}`),
    places: Array.from({ length: 50 }, () => `${name()}ford`),
    topics: Array.from({ length: 300 }, () => Array.from({ length: 8 }, () => p.pick(BASE))),
  };
};

/** A sentence about one topic, naming people and a place: clustered, realistic-ish text. */
export const sentence = (p: Prng, w: World, topic: number): string => {
  const t = w.topics[topic]!;
  const parts = [p.pick(w.names), p.pick(VERBS), "the", p.pick(ADJS), p.pick(t)];
  for (let i = p.int(2, 4); i > 0; i--)
    parts.push(p.pick(["and", "with", "near", "after", "for"]), p.pick(t));
  parts.push("at", p.pick(w.places));
  if (p.chance(0.5)) parts.push("while", p.pick(w.names), p.pick(VERBS), "a", p.pick(t));
  return `${parts.join(" ")}.`;
};

/** A band of NPCs by known-set size: its share of the cast and how big its sets are. */
export interface Tier {
  readonly name: string;
  readonly share: number;
  readonly size: (n: number, p: Prng) => number;
}

const logUniform = (p: Prng, lo: number, hi: number) =>
  Math.round(Math.exp(Math.log(lo) + p.float() * (Math.log(hi) - Math.log(lo))));
/** The known-set tiers, tiny to most of the world. */
export const TIERS: ReadonlyArray<Tier> = [
  { name: "tiny", share: 0.565, size: (_, p) => logUniform(p, 10, 200) },
  {
    name: "small",
    share: 0.3,
    size: (n, p) => logUniform(p, 200, Math.max(400, Math.min(5000, n / 10))),
  },
  { name: "medium", share: 0.1, size: (n, p) => logUniform(p, n * 0.005 + 500, n * 0.02 + 1000) },
  { name: "large", share: 0.03, size: (n, p) => logUniform(p, n * 0.02, n * 0.1) },
  { name: "most", share: 0.005, size: (n, p) => Math.round(n * (0.5 + 0.4 * p.float())) },
];

/** One NPC of the cast: its tier and the known-set size it is brought up to. */
export interface Npc {
  readonly id: string;
  readonly tier: string;
  readonly target: number;
}

/** The game time every query asks at (after every fact). */
export const T_QUERY = 10_000_000 as GameTime;

/** Writes the world through the event log; returns the cast and the number of facts. */
export const buildWorld = (log: SqliteEventLog, saveId: string, n: number, w: World) => {
  const p = Prng.derive(2026, "retrieval-bench", n);
  const npcs: Array<Npc> = [];
  for (const tier of TIERS) {
    const count = Math.round(NPCS * tier.share);
    for (let i = 0; i < count && npcs.length < NPCS; i++) {
      npcs.push({
        id: `npc-${npcs.length}`,
        tier: tier.name,
        target: Math.min(n, Math.max(10, tier.size(n, p))),
      });
    }
  }
  let seq = 0;
  let batch: Array<Event> = [];
  const flush = () => {
    if (batch.length > 0) log.append(saveId, log.head(saveId), batch);
    batch = [];
  };
  const push = (type: EventType, t: number, payload: object) => {
    batch.push(makeEvent(type, { id: ids.event(`e${++seq}`), t: t as GameTime, payload } as never));
    if (batch.length >= 5000) flush();
  };
  for (const [i, npc] of npcs.entries()) {
    push("NpcRegistered", 0, {
      npcId: npc.id,
      name: w.names[i],
      role: "villager",
      factionId: `faction-${i % 10}`,
      locationId: w.places[i % w.places.length],
      traits: [],
    });
  }
  // Owners are drawn in proportion to each NPC's target known-set size.
  const cumulative: Array<number> = [];
  let sum = 0;
  for (const npc of npcs) {
    sum += npc.target;
    cumulative.push(sum);
  }
  const owned = new Array<number>(npcs.length).fill(0);
  const ownerOf = new Int32Array(n);
  for (let m = 0; m < n; m++) {
    const x = p.float() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    ownerOf[m] = lo;
    owned[lo]!++;
    const topic = p.int(0, w.topics.length - 1);
    push("MemoryRecorded", 1 + m, {
      memoryId: `m${m}`,
      ownerNpcId: npcs[lo]!.id,
      text: sentence(p, w, topic),
      category: "observation",
      importance: Math.round(p.float() * 100) / 100,
      expiresAt: p.chance(0.05) ? 1 + m + p.int(60, 100_000) : null,
      locationId: w.places[p.int(0, w.places.length - 1)],
      entities: [w.names[lo], w.names[p.int(0, NPCS - 1)]],
      about: null,
    });
  }
  // Facts bring each NPC up to its target: a stride walk gives distinct memories cheaply.
  let facts = 0;
  npcs.forEach((npc, i) => {
    const want = Math.max(0, npc.target - owned[i]!);
    let stride = p.int(1, n - 1);
    const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
    while (gcd(stride, n) !== 1) stride++;
    let at = p.int(0, n - 1);
    for (let k = 0; k < want; k++, at = (at + stride) % n) {
      if (ownerOf[at] === i) continue;
      push("KnowledgeGained", n + 10 + (k % 1000), {
        npcId: npc.id,
        itemKind: "memory",
        itemId: `m${at}`,
        via: "told",
        fromNpcId: null,
        confidence: 0.5,
      });
      facts++;
    }
  });
  flush();
  return { npcs, facts };
};
