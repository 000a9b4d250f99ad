/**
 * The engine state's narrative fold, model-based: random sequences of scene openings,
 * lines, moves, sleep, closings, happenings, knowledge and cursor moves are folded into
 * an `EngineState` and into a plain model; after every step the open scenes (who is in
 * them, who has left, their seq range), the cursors and the world changes waiting to be
 * remembered (with who knows of each) agree.
 */
import {
  type Event,
  type EventType,
  ids,
  type LocationId,
  makeEvent,
  type NpcId,
  type SceneId,
  type WorldEventId,
} from "@hearsay/core";
import { EngineState } from "@hearsay/engine";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const npcs = ["ana", "bo", "cy", "di"].map(ids.npc);
const places = ["green", "mill"].map(ids.location);

interface ModelScene {
  sceneId: string;
  participants: Set<NpcId>;
  leavers: Set<NpcId>;
  lines: number;
  happenings: number;
  fromSeq: number;
  throughSeq: number;
}

interface Model {
  seq: number;
  where: Map<NpcId, LocationId>;
  open: Map<LocationId, ModelScene>;
  cursors: Map<string, number>;
  pending: Map<string, { seq: number; knowers: Set<NpcId> }>;
}

interface Real {
  readonly state: EngineState;
}

const emit = <T extends EventType>(m: Model, r: Real, type: T, payload: unknown): number => {
  m.seq += 1;
  r.state.apply(
    makeEvent(type, { id: ids.event(`e${m.seq}`), t: m.seq * 10, payload } as never) as Event,
    m.seq,
  );
  return m.seq;
};

const check = (m: Model, r: Real): void => {
  const ledger = r.state.narrative;
  expect([...ledger.open.keys()].sort()).toEqual([...m.open.keys()].sort());
  for (const [loc, s] of m.open) {
    const real = ledger.open.get(loc)!;
    expect(real.sceneId).toBe(s.sceneId);
    expect([...real.participants].sort()).toEqual([...s.participants].sort());
    expect([...real.leavers].sort()).toEqual([...s.leavers].sort());
    expect(real.lines).toHaveLength(s.lines);
    expect(real.happenings).toHaveLength(s.happenings);
    expect(real.fromSeq).toBe(s.fromSeq);
    expect(real.throughSeq).toBe(s.throughSeq);
  }
  for (const [key, through] of m.cursors) {
    const [scope, id] = key.split("|") as ["npc" | "location" | "world", string];
    expect(ledger.cursor(scope, id)).toBe(through);
  }
  expect([...ledger.worldChanges.keys()].sort()).toEqual([...m.pending.keys()].sort());
  for (const [id, p] of m.pending) {
    expect([...ledger.worldChanges.get(id as WorldEventId)!.knowers.keys()].sort()).toEqual(
      [...p.knowers].sort(),
    );
  }
};

const leave = (m: Model, npc: NpcId, from: LocationId) => {
  const scene = m.open.get(from);
  if (scene?.participants.has(npc)) scene.leavers.add(npc);
};

type Cmd = fc.Command<Model, Real>;
const cmd = (name: string, run: (m: Model, r: Real) => void, can = (_: Model) => true): Cmd => ({
  check: (m) => can(m),
  run: (m, r) => {
    run(m, r);
    check(m, r);
  },
  toString: () => name,
});

const arbCommand: fc.Arbitrary<Cmd> = fc.oneof(
  fc.tuple(fc.constantFrom(...places), fc.constantFrom(...npcs)).map(([loc, a]) =>
    cmd(
      `open(${loc},${a})`,
      (m, r) => {
        const sceneId = `scene-${m.seq + 1}`;
        const seq = emit(m, r, "SceneOpened", {
          sceneId: sceneId as SceneId,
          locationId: loc,
          participants: [a],
          cause: "conversation",
        });
        m.open.set(loc, {
          sceneId,
          participants: new Set([a]),
          leavers: new Set(),
          lines: 0,
          happenings: 0,
          fromSeq: seq,
          throughSeq: seq,
        });
      },
      (m) => !m.open.has(loc),
    ),
  ),
  fc.tuple(fc.constantFrom(...npcs), fc.constantFrom(...npcs)).map(([a, b]) =>
    cmd(`say(${a}->${b})`, (m, r) => {
      const loc = m.where.get(a)!;
      const seq = emit(m, r, "ConversationTurn", {
        conversationId: ids.conversation(`c${m.seq}`),
        turnIndex: 0,
        speakerId: a,
        listenerIds: [b],
        locationId: loc,
        text: "hello",
      });
      const scene = m.open.get(loc);
      if (!scene) return;
      scene.participants.add(a);
      scene.participants.add(b);
      scene.lines += 1;
      scene.throughSeq = seq;
    }),
  ),
  fc.tuple(fc.constantFrom(...npcs), fc.constantFrom(...places)).map(([a, to]) =>
    cmd(`move(${a}->${to})`, (m, r) => {
      const from = m.where.get(a)!;
      emit(m, r, "NpcMoved", { npcId: a, from, to });
      leave(m, a, from);
      m.where.set(a, to);
    }),
  ),
  fc.tuple(fc.constantFrom(...npcs), fc.boolean()).map(([a, sleep]) =>
    cmd(`${sleep ? "sleep" : "wake"}(${a})`, (m, r) => {
      const loc = m.where.get(a)!;
      emit(m, r, "NpcActivityChanged", {
        npcId: a,
        activity: sleep ? "asleep" : "idle",
        locationId: loc,
        destination: null,
        until: null,
        taskId: null,
        attendingTo: [],
        holding: [],
        note: "",
      });
      if (sleep) leave(m, a, loc);
    }),
  ),
  fc.constantFrom(...places).map((loc) =>
    cmd(
      `close(${loc})`,
      (m, r) => {
        const s = m.open.get(loc)!;
        emit(m, r, "SceneClosed", {
          sceneId: s.sceneId as SceneId,
          locationId: loc,
          participants: [...s.participants].sort(),
          leavers: [...s.leavers].sort(),
          reason: s.leavers.size > 0 ? "left" : "time",
          fromSeq: s.fromSeq,
          throughSeq: s.throughSeq,
        });
        m.open.delete(loc);
      },
      (m) => m.open.has(loc),
    ),
  ),
  fc
    .tuple(
      fc.constantFrom(...places),
      fc.constantFrom("task_completed", "debate_outcome", "storm", "market"),
    )
    .map(([loc, kind]) =>
      cmd(`happen(${kind}@${loc})`, (m, r) => {
        const id = `we${m.seq + 1}`;
        const seq = emit(m, r, "WorldEventOccurred", {
          worldEventId: id as WorldEventId,
          kind,
          text: `${kind} at ${loc}`,
          locationId: loc,
          factionId: null,
          visibility: "local",
          importance: 0.5,
          participants: [],
          entities: [],
          lapsesAt: null,
        });
        if (kind === "task_completed" || kind === "debate_outcome")
          m.pending.set(id, { seq, knowers: new Set() });
        const scene = m.open.get(loc);
        if (scene && kind !== "debate_outcome") {
          scene.happenings += 1;
          scene.throughSeq = seq;
        }
      }),
    ),
  fc.tuple(fc.constantFrom(...npcs), fc.nat({ max: 5 })).map(([a, k]) =>
    cmd(
      `know(${a},#${k})`,
      (m, r) => {
        const id = [...m.pending.keys()][k % m.pending.size]!;
        emit(m, r, "KnowledgeGained", {
          npcId: a,
          itemKind: "world_event",
          itemId: id,
          via: "witnessed",
          fromNpcId: null,
          confidence: 1,
        });
        m.pending.get(id)!.knowers.add(a);
      },
      (m) => m.pending.size > 0,
    ),
  ),
  fc
    .tuple(fc.constantFrom("npc" as const, "location" as const, "world" as const), fc.nat(3))
    .map(([scope, k]) =>
      cmd(`cursor(${scope})`, (m, r) => {
        const id =
          scope === "npc"
            ? npcs[k % npcs.length]!
            : scope === "location"
              ? places[k % 2]!
              : "world";
        const through = m.seq;
        emit(m, r, "SummaryCursorAdvanced", { scope, scopeId: id, throughSeq: through });
        m.cursors.set(`${scope}|${id}`, through);
        if (scope === "world")
          for (const [pid, p] of m.pending) if (p.seq <= through) m.pending.delete(pid);
      }),
    ),
);

describe("the narrative fold", () => {
  it("agrees with a plain model of scenes, cursors and world changes", () => {
    fc.assert(
      fc.property(fc.commands([arbCommand], { maxCommands: 60 }), (commands) => {
        const state = new EngineState();
        const model: Model = {
          seq: 0,
          where: new Map(),
          open: new Map(),
          cursors: new Map(),
          pending: new Map(),
        };
        const real: Real = { state };
        for (const [i, npc] of npcs.entries()) {
          const loc = places[i % 2]!;
          emit(model, real, "NpcRegistered", {
            npcId: npc,
            name: npc,
            role: "villager",
            factionId: null,
            locationId: loc,
            traits: [],
          });
          model.where.set(npc, loc);
        }
        fc.modelRun(() => ({ model, real }), commands);
      }),
      { numRuns: process.env.HEARSAY_DEEP ? 2000 : 150 },
    );
  });
});
