/**
 * The commands of the visibility model: each one is what a tick of the engine would
 * write — a move, a world event of some visibility (with the witnesses core's
 * `witnessesOf` names), a conversation (turns, summaries, a memory, something told), a
 * debate, a rumour passed on, a memory written with a lifetime, a memory forgotten, a
 * time skip, a branch, a task, a change of regard, a profile — built with core's
 * `makeEvent` and appended through the store in one transaction. Parameters are small
 * numbers resolved against the run's current state, so every command applies anywhere
 * and fast-check can shrink a failing sequence freely.
 */
import {
  type FactionId,
  type GameTime,
  type ItemKind,
  ids,
  type LocationId,
  type MemoryCategory,
  type NpcId,
  type Visibility,
  witnessesOf,
} from "@hearsay/core";
import fc from "fast-check";
import type { Draft, SaveModel } from "./SaveModel.ts";
import type { VisibilityRun } from "./VisibilityRun.ts";

export const stepKinds = [
  "move",
  "happen",
  "converse",
  "debate",
  "rumour",
  "remember",
  "forget",
  "skip",
  "branch",
  "propose",
  "regard",
  "profile",
] as const;
export type StepKind = (typeof stepKinds)[number];

/** One command's parameters; `probe` says what to read afterwards besides the usual. */
export interface StepParams {
  readonly kind: StepKind;
  readonly save: number;
  readonly dt: number;
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
  readonly probe: {
    readonly query: number;
    readonly save: number;
    readonly npc: number;
    readonly seq: number;
  };
}

/** Common things are common: writes of knowledge outnumber branches and profiles. */
const weighted: ReadonlyArray<StepKind> = stepKinds.flatMap((k) =>
  Array.from(
    { length: k === "happen" || k === "converse" || k === "remember" ? 3 : k === "branch" ? 1 : 2 },
    () => k,
  ),
);

export const arbStepParams: fc.Arbitrary<StepParams> = fc.record({
  kind: fc.constantFrom(...weighted),
  save: fc.nat({ max: 7 }),
  dt: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 90 })),
  a: fc.nat({ max: 15 }),
  b: fc.nat({ max: 15 }),
  c: fc.nat({ max: 15 }),
  d: fc.nat({ max: 999 }),
  probe: fc.record({
    query: fc.nat({ max: 999 }),
    save: fc.nat({ max: 7 }),
    npc: fc.nat({ max: 7 }),
    seq: fc.nat({ max: 999 }),
  }),
});

const visibilities: ReadonlyArray<Visibility> = ["private", "local", "faction", "global", "rumor"];
const lifetimes: ReadonlyArray<number | null> = [null, 30, 60, 1440];
const categories: ReadonlyArray<MemoryCategory> = ["observation", "secret", "promise", "world"];
const units = [0.1, 0.5, 0.9] as const;

const at = <A>(xs: ReadonlyArray<A>, n: number): A => xs[n % xs.length]!;

/** Moves `npc` to `to` within the draft (nothing when it is there already). */
const moveTo = (save: SaveModel, draft: Draft, npc: NpcId, to: LocationId): void => {
  const from = save.locations.get(npc)!;
  if (from === to) return;
  draft.emit("NpcMoved", { npcId: npc, from, to });
  save.locations.set(npc, to);
};

const known = (save: SaveModel, npc: NpcId, t: number, kind?: ItemKind) =>
  save.ledger.knownAt(npc, t as never).filter((k) => kind === undefined || k.kind === kind);

/**
 * Writes the command's events into a draft of a save and appends it; returns the save
 * it changed (a branch: the new save), or null when it changed none.
 */
export const applyStep = (run: VisibilityRun, p: StepParams): SaveModel | null => {
  const save = at(run.saves, p.save);
  if (p.kind === "branch") {
    return run.branch(save, 1 + (p.d % save.head)) ? run.saves.at(-1)! : null;
  }
  // A branch taken mid-genesis may not have registered everyone yet.
  const npcs = run.world.npcs.map((n) => n.id).filter((n) => save.locations.has(n));
  const members = (f: FactionId) =>
    run.world.npcs.filter((n) => n.factionId === f && save.locations.has(n.id)).map((n) => n.id);
  if (npcs.length === 0) return null;
  const npcA = at(npcs, p.a);
  const npcB = at(npcs, p.b) === npcA ? at(npcs, p.b + 1) : at(npcs, p.b);
  const pair = npcA !== npcB;
  const place = (n: number) => at(run.world.locations, n);
  const draft = save.draft(p.kind === "skip" ? [60, 240, 1440, 4320][p.a % 4]! : p.dt);
  const t = draft.t;
  switch (p.kind) {
    case "move":
      moveTo(save, draft, npcA, place(p.b));
      break;
    case "happen": {
      const visibility = at(visibilities, p.a);
      const locationId = visibility === "global" && p.b % 2 === 0 ? null : place(p.b);
      const factionId: FactionId | null =
        visibility === "faction" ? at(run.world.factions, p.c) : null;
      const participants = npcs.filter((_, i) => (p.d >> i) & 1);
      const worldEventId = ids.worldEvent(draft.mint("w"));
      const text = run.text(draft, "world_event", worldEventId, []);
      draft.emit("WorldEventOccurred", {
        worldEventId,
        kind: "happening",
        text,
        locationId,
        factionId,
        visibility,
        importance: at(units, p.c),
        // Some never lapse; others lapse within the hour, the day or the week: a lapsed
        // event must leave every dossier and search from then on.
        lapsesAt: p.d % 3 === 0 ? null : ((t + [60, 1440, 10_080][p.c % 3]!) as GameTime),
        participants,
        entities: [],
      });
      const seen = witnessesOf(
        { visibility, locationId, factionId, participants },
        {
          presentAt: (l) => save.presentAt(l),
          membersOf: members,
          everyone: () => npcs,
        },
      );
      for (const w of seen) {
        draft.emit("KnowledgeGained", {
          npcId: w.npcId,
          itemKind: "world_event",
          itemId: worldEventId,
          via: w.via,
          fromNpcId: null,
          confidence: 1,
        });
      }
      break;
    }
    case "converse": {
      if (!pair) break;
      moveTo(save, draft, npcB, save.locations.get(npcA)!);
      const conversationId = ids.conversation(draft.mint("c"));
      const locationId = save.locations.get(npcA)!;
      const turn = (i: number, speaker: NpcId, listener: NpcId) =>
        draft.emit("ConversationTurn", {
          conversationId,
          turnIndex: i,
          speakerId: speaker,
          listenerIds: [listener],
          locationId,
          text: run.text(draft, "dialogue", `${conversationId}#${i}`, [speaker, listener]),
        });
      turn(0, npcA, npcB);
      if (p.c % 2 === 1) turn(1, npcB, npcA);
      for (const [holder, partner] of [
        [npcA, npcB],
        [npcB, npcA],
      ] as const) {
        draft.emit("ConversationSummarized", {
          conversationId,
          npcId: holder,
          partnerId: partner,
          throughTurn: p.c % 2,
          summary: run.text(draft, "summary", conversationId, [holder]),
        });
      }
      const memoryId = ids.memory(draft.mint("m"));
      const lifetime = at(lifetimes, p.d);
      draft.emit("MemoryRecorded", {
        memoryId,
        ownerNpcId: npcB,
        text: run.text(draft, "memory", memoryId, [npcB]),
        category: "conversation",
        importance: at(units, p.d),
        expiresAt: lifetime === null ? null : ((t + lifetime) as never),
        locationId,
        entities: [],
        about: { kind: "conversation", id: conversationId },
      });
      const tellable = known(save, npcA, t);
      if (p.c >= 4 && tellable.length > 0) {
        const item = at(tellable, p.c);
        draft.emit("KnowledgeGained", {
          npcId: npcB,
          itemKind: item.kind,
          itemId: item.id,
          via: "told",
          fromNpcId: npcA,
          confidence: 1,
        });
      }
      break;
    }
    case "debate": {
      const chosen = npcs.filter((_, i) => (p.a >> i) & 1);
      const participants = chosen.length > 0 ? chosen : [npcA];
      const factions = run.world.factions;
      const factionId = p.c % (factions.length + 1) === factions.length ? null : at(factions, p.c);
      const debateId = ids.debate(draft.mint("d"));
      const summary = run.text(draft, "debate", debateId, []);
      const outcome = run.text(draft, "debate", debateId, []);
      draft.emit("DebateHeld", {
        debateId,
        topic: "whether to toll the ford",
        participants,
        locationId: place(p.b),
        factionId,
        summary,
        outcome,
      });
      const learners = new Map<NpcId, "participant" | "faction">();
      for (const n of participants) learners.set(n, "participant");
      if (factionId !== null && p.d % 2 === 1) {
        for (const n of members(factionId)) if (!learners.has(n)) learners.set(n, "faction");
      }
      for (const [npcId, via] of learners) {
        draft.emit("KnowledgeGained", {
          npcId,
          itemKind: "debate",
          itemId: debateId,
          via,
          fromNpcId: null,
          confidence: 1,
        });
      }
      break;
    }
    case "rumour": {
      const heard = known(save, npcA, t, "world_event");
      if (heard.length === 0 || !pair) break;
      const item = at(heard, p.c);
      moveTo(save, draft, npcB, save.locations.get(npcA)!);
      draft.emit("KnowledgeGained", {
        npcId: npcB,
        itemKind: "world_event",
        itemId: item.id,
        via: "rumor",
        fromNpcId: npcA,
        confidence: Math.round(item.fact.confidence * 0.8 * 1000) / 1000,
      });
      break;
    }
    case "remember": {
      const memoryId = ids.memory(draft.mint("m"));
      const lifetime = at(lifetimes, p.c);
      const events = known(save, npcA, t, "world_event");
      draft.emit("MemoryRecorded", {
        memoryId,
        ownerNpcId: npcA,
        text: run.text(draft, "memory", memoryId, [npcA]),
        category: at(categories, p.b),
        importance: at(units, p.b),
        expiresAt: lifetime === null ? null : ((t + lifetime) as never),
        locationId: save.locations.get(npcA)!,
        entities: [],
        about:
          p.d % 3 === 0 && events.length > 0
            ? { kind: "world_event", id: at(events, p.d).id }
            : null,
      });
      break;
    }
    case "forget": {
      const live = [...save.memories.entries()].filter(([id]) => !save.memoryGone(id, t));
      if (live.length === 0) break;
      const [memoryId, facts] = at(live, p.a);
      draft.emit("MemoryExpired", {
        memoryId: ids.memory(memoryId),
        ownerNpcId: facts.owner,
        reason: at(["expired", "forgotten", "capped"] as const, p.b),
      });
      break;
    }
    case "skip":
      draft.emit("ClockAdvanced", {
        from: save.t as never,
        to: t,
        mode: p.b % 2 === 0 ? "jump" : "elision",
      });
      break;
    case "propose": {
      const taskId = ids.task(draft.mint("k"));
      const assignee = p.c % 3 === 0 ? null : npcB;
      draft.emit("TaskProposed", {
        taskId,
        title: "an errand",
        description: run.text(
          draft,
          "task",
          taskId,
          [npcA, assignee].filter((n): n is NpcId => n !== null),
        ),
        proposedBy: npcA,
        assignee,
        locationId: null,
        factionId: null,
        deadline: null,
      });
      break;
    }
    case "regard":
      if (!pair) break;
      draft.emit("RelationshipChanged", {
        fromId: npcA,
        toId: npcB,
        trust: at([-0.5, 0, 0.5], p.c),
        respect: at([0.2, -0.2], p.d),
        suspicion: at([0, 0.7], p.a),
        summary: run.text(draft, "relationship", `${npcA}->${npcB}`, [npcA]),
        reason: "a regard step of the visibility model",
      });
      break;
    case "profile":
      draft.emit("ProfileGenerated", {
        npcId: npcA,
        profile: {
          backstory: run.text(draft, "profile", npcA, [npcA]),
          personality: "calm",
          speechStyle: "plain",
          goals: [],
          fears: [],
          loyalties: [],
          relationshipSeed: "",
        },
      });
      break;
  }
  if (draft.events.length === 0) return null;
  run.commit(save, draft);
  return save;
};
