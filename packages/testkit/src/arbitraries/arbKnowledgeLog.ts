/**
 * Logs for the knowledge-fold agreement tests: every reader that folds "who knows what"
 * (the store's SQL, retrieval's view, the inspector's history) is fed the same log as
 * core's `knowledgeStep` and must answer `knows(npc, item, t)` as the core fold does.
 *
 * The logs are hostile on purpose: game times in any order (several events at one
 * minute, later events at earlier times), the same fact told again earlier or later,
 * memories recorded again (under another owner), expiries before, between and after
 * records and repeated, expiresAt before the record, world events recorded again with
 * another lapse, lapses at or before the record, knowledge of memories, world events
 * and debates recorded later or never, threads, and unrelated events between them. They
 * are cut into append batches anywhere, with Checkpoints (range ends of a bulk fold).
 */
import {
  type Event,
  foldKnowledge,
  type GameTime,
  type ItemKind,
  ids,
  type KnowledgeLedger,
  knows,
  type NpcId,
} from "@hearsay/core";
import fc from "fast-check";
import { logBatches } from "./logBatches.ts";

export const knowledgeNpcs: ReadonlyArray<NpcId> = ["ana", "bo", "cy"].map(ids.npc);

/** An item a log of these may name. */
export interface KnowledgeItem {
  readonly kind: ItemKind;
  readonly id: string;
}

const memoryIds = ["m1", "m2", "m3"];
const worldEventIds = ["w1", "w2"];
const debateIds = ["d1", "w1"]; // a debate id equal to a world event's: kinds stay apart
const threadIds = ["t1"];

/** Every item the logs can name. */
export const knowledgeItems: ReadonlyArray<KnowledgeItem> = [
  ...memoryIds.map((id) => ({ kind: "memory" as const, id })),
  ...worldEventIds.map((id) => ({ kind: "world_event" as const, id })),
  ...debateIds.map((id) => ({ kind: "debate" as const, id })),
  ...threadIds.map((id) => ({ kind: "thread" as const, id })),
];

type Op = "learn" | "record" | "expire" | "happen" | "debate" | "activity" | "checkpoint" | "cut";

interface Step {
  readonly op: Op;
  readonly a: number;
  readonly b: number;
  readonly t: number;
}

const arbOp: fc.Arbitrary<Op> = fc.constantFrom<Op>(
  "learn",
  "learn",
  "learn",
  "learn",
  "record",
  "record",
  "record",
  "expire",
  "expire",
  "happen",
  "debate",
  "activity",
  "checkpoint",
  "cut",
  "cut",
  "cut",
);

const arbStep: fc.Arbitrary<Step> = fc.record({
  op: arbOp,
  a: fc.nat({ max: 11 }),
  b: fc.nat({ max: 11 }),
  t: fc.nat({ max: 12 }),
});

const pick = <A>(xs: ReadonlyArray<A>, n: number): A => xs[n % xs.length]!;
const vias = ["witnessed", "participant", "faction", "broadcast", "told", "rumor"] as const;

/** Turns steps into append batches (cut at `cut` steps; never empty). */
const build = (steps: ReadonlyArray<Step>): ReadonlyArray<ReadonlyArray<Event>> => {
  const { ev, push, cut, batches } = logBatches("k", knowledgeNpcs);
  for (const { op, a, b, t } of steps) {
    switch (op) {
      case "cut":
        cut();
        break;
      case "learn": {
        const item = pick(knowledgeItems, a + 3 * b);
        const via = pick(vias, a + b);
        push(
          ev("KnowledgeGained", t, {
            npcId: pick(knowledgeNpcs, a),
            itemKind: item.kind,
            itemId: item.id,
            via,
            fromNpcId: via === "told" || via === "rumor" ? pick(knowledgeNpcs, b) : null,
            confidence: pick([1, 0.5, 0.25, 1 / 3], b),
          }),
        );
        break;
      }
      case "record":
        push(
          ev("MemoryRecorded", t, {
            memoryId: pick(memoryIds, a),
            ownerNpcId: pick(knowledgeNpcs, b),
            text: `memory ${a}`,
            category: "observation",
            importance: 0.5,
            // Sometimes before the record itself: such a memory is never known.
            expiresAt: b % 3 === 0 ? null : Math.max(0, t + (b % 5) - 1),
            locationId: null,
            entities: [],
            about: null,
          }),
        );
        break;
      case "expire":
        push(
          ev("MemoryExpired", t, {
            memoryId: pick(memoryIds, a),
            ownerNpcId: pick(knowledgeNpcs, b),
            reason: pick(["expired", "forgotten", "capped", "consolidated"], b),
          }),
        );
        break;
      case "happen":
        push(
          ev("WorldEventOccurred", t, {
            worldEventId: pick(worldEventIds, a),
            kind: "storm",
            text: `storm ${b}`,
            locationId: null,
            factionId: null,
            visibility: "global",
            importance: 0.5,
            participants: [pick(knowledgeNpcs, b)],
            entities: [],
            // Sometimes never, sometimes at or before the record (then never known),
            // sometimes later; a second record of the id does not move it.
            lapsesAt: b % 3 === 0 ? null : Math.max(0, t + (b % 5) - 1),
          }),
        );
        break;
      case "debate":
        push(
          ev("DebateHeld", t, {
            debateId: pick(debateIds, a),
            topic: `topic ${b}`,
            participants: [pick(knowledgeNpcs, a), pick(knowledgeNpcs, b)],
            locationId: null,
            factionId: null,
            summary: "they argued",
            outcome: "none",
          }),
        );
        break;
      case "activity":
        push(
          ev("NpcActivityChanged", t, {
            npcId: pick(knowledgeNpcs, a),
            activity: "idle",
            locationId: "square",
            destination: null,
            until: null,
            taskId: null,
            attendingTo: [],
            holding: [],
            note: "",
          }),
        );
        break;
      case "checkpoint":
        push(ev("Checkpoint", t, { throughSeq: 0, stateHash: "not checked here" }));
        break;
    }
  }
  return batches();
};

/** Append batches of a hostile knowledge log (see the module comment). */
export const arbKnowledgeLog = (maxSteps = 40): fc.Arbitrary<ReadonlyArray<ReadonlyArray<Event>>> =>
  fc.array(arbStep, { minLength: 1, maxLength: maxSteps }).map(build);

/**
 * The minutes worth asking about: 0, and one before, at and after every event time,
 * every expiresAt and every lapsesAt (knowledge is constant between them).
 */
export const knowledgeTimes = (events: ReadonlyArray<Event>): ReadonlyArray<number> => {
  const marks = new Set<number>([0]);
  const mark = (x: number) => {
    for (const m of [x - 1, x, x + 1]) if (m >= 0) marks.add(m);
  };
  for (const e of events) {
    mark(e.t);
    if (e.type === "MemoryRecorded" && e.payload.expiresAt !== null) mark(e.payload.expiresAt);
    if (e.type === "WorldEventOccurred" && e.payload.lapsesAt !== null) mark(e.payload.lapsesAt);
  }
  return [...marks].sort((x, y) => x - y);
};

/**
 * Where `reader` disagrees with core's fold of `events` on `knows(npc, item, t)`, for
 * every NPC, item (of `items`) and time of `knowledgeTimes`: one line each, naming the
 * question and both answers (empty when they agree).
 */
export const knowledgeDisagreements = (
  events: ReadonlyArray<Event>,
  reader: (npc: NpcId, item: KnowledgeItem, t: number) => boolean,
  items: ReadonlyArray<KnowledgeItem> = knowledgeItems,
  ledger: KnowledgeLedger = foldKnowledge(events),
): Array<string> => {
  const out: Array<string> = [];
  for (const t of knowledgeTimes(events)) {
    for (const npc of knowledgeNpcs) {
      for (const item of items) {
        const want = knows(ledger, npc, item, t as GameTime);
        const got = reader(npc, item, t);
        if (got !== want) {
          out.push(`${npc} knows ${item.kind}:${item.id} at ${t}? core ${want}, reader ${got}`);
        }
      }
    }
  }
  return out;
};
