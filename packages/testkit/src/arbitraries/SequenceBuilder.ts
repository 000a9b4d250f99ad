/**
 * Turns abstract generated steps into a valid, time-ordered event sequence. A step names
 * an event type and carries a few random numbers; the builder keeps just enough world
 * state (who is where, which memories, tasks and conversations exist) to make each event
 * legal: NPCs move between different places, task statuses follow the legal lifecycle,
 * conversation turns count up, knowledge points at items that exist (and sometimes at
 * ones that do not, which the knowledge rule must also handle).
 *
 * Pure and deterministic: the same steps always build the same events, so fast-check
 * can shrink a failing sequence by shrinking its steps.
 */
import {
  type Event,
  type EventType,
  type GameTime,
  type ItemKind,
  ids,
  makeEvent,
  type NpcId,
  type TaskStatus,
} from "@hearsay/core";
import type { SmallWorld } from "./SmallWorld.ts";
import { ThreadHappeningSteps } from "./ThreadHappeningSteps.ts";

/** One generated step: which event to make and the random numbers to make it with. */
export interface Step {
  readonly type: EventType;
  readonly a: number;
  readonly b: number;
  readonly c: number;
  /** Minutes to advance before the event (0 keeps events at the same time). */
  readonly dt: number;
}

const words = [
  "dragon",
  "mill",
  "harvest",
  "storm",
  "coin",
  "secret",
  "oath",
  "bread",
  "bell",
  "river",
];
const vias = ["witnessed", "participant", "faction", "broadcast", "told", "rumor"] as const;
const categories = ["observation", "conversation", "secret", "promise", "task", "world"] as const;
const visibilities = ["private", "local", "faction", "global", "rumor"] as const;
const activities = ["asleep", "idle", "travelling", "working", "conversing", "debating"] as const;
const confidences = [1, 0.5, 0.25] as const;
const units = [0, 0.1, 0.5, 0.9, 1] as const;
const lifetimes = [null, 30, 60, 1440, 4320] as const;

/** Legal task moves (see core's tasks.ts). */
const nextStatus: Readonly<Record<TaskStatus, ReadonlyArray<TaskStatus>>> = {
  proposed: ["active", "rejected", "expired", "cancelled"],
  active: ["completed", "failed", "cancelled", "expired"],
  completed: [],
  failed: [],
  cancelled: [],
  rejected: [],
  expired: [],
};

const at = <A>(xs: ReadonlyArray<A>, n: number): A => xs[n % xs.length]!;

export class SequenceBuilder {
  private t = 0;
  private n = 0;
  private readonly out: Array<Event> = [];
  private readonly where = new Map<string, string>();
  private readonly worldEvents: Array<string> = [];
  private readonly memories: Array<string> = [];
  private readonly debates: Array<string> = [];
  private readonly tasks = new Map<string, TaskStatus>();
  private lastFact: Readonly<Record<string, unknown>> | null = null;
  private readonly conversations = new Map<string, { a: NpcId; b: NpcId; turns: number }>();

  private readonly threadHappenings: ThreadHappeningSteps;

  constructor(private readonly world: SmallWorld) {
    this.threadHappenings = new ThreadHappeningSteps(world, (a, b) => this.text(a, b));
    for (const npc of world.npcs) this.where.set(npc.id, npc.locationId);
  }

  /** The events built so far. */
  events(): ReadonlyArray<Event> {
    return this.out;
  }

  private text(a: number, b: number): string {
    return `${at(words, a)} ${at(words, b)} ${at(words, a + b + 1)}`;
  }

  private npc(k: number): NpcId {
    return at(this.world.npcs, k).id;
  }

  private push(type: EventType, payload: unknown): void {
    this.n += 1;
    this.out.push(
      makeEvent(type, { id: ids.event(`ev-${this.n}`), t: this.t as GameTime, payload } as never),
    );
  }

  /** The opening every sequence has: the simulation starts and the cast registers. */
  start(seed: number): this {
    this.push("SimulationStarted", {
      simulation: "small-world",
      worldHash: `world-${this.world.npcs.length}`,
      seed,
      campaignId: this.world.campaignId,
      tickMinutes: 60,
      endDay: 3,
      brain: "scripted",
    });
    for (const npc of this.world.npcs) {
      this.push("NpcRegistered", {
        npcId: npc.id,
        name: npc.name,
        role: npc.role,
        factionId: npc.factionId,
        locationId: npc.locationId,
        traits: [at(words, npc.name.length)],
      });
    }
    return this;
  }

  /** Appends the event one step describes (or the nearest legal one). */
  step(s: Step): this {
    this.t += s.dt;
    const { a, b, c } = s;
    switch (s.type) {
      case "SimulationStarted":
      case "NpcRegistered": {
        // Re-registration: the same NPC with a new role (an upsert, not a new row).
        const npc = at(this.world.npcs, a);
        this.push("NpcRegistered", {
          npcId: npc.id,
          name: npc.name,
          role: `${npc.role}-${b % 3}`,
          factionId: c % 2 === 0 ? npc.factionId : null,
          locationId: this.where.get(npc.id),
          traits: [at(words, b), at(words, c)],
        });
        return this;
      }
      case "ProfileGenerated":
        this.push("ProfileGenerated", {
          npcId: this.npc(a),
          profile: {
            backstory: this.text(a, b),
            personality: at(words, b),
            speechStyle: at(words, c),
            goals: [at(words, a)],
            fears: [],
            loyalties: b % 2 === 0 ? [at(words, c)] : [],
            relationshipSeed: at(words, a + c),
          },
        });
        return this;
      case "ProfileRevised":
        this.push("ProfileRevised", {
          npcId: this.npc(a),
          changes:
            b % 2 === 0
              ? { goals: [at(words, b), at(words, c)] }
              : { personality: at(words, c), relationshipSeed: this.text(b, c) },
          triggers: [at(["task_completed", "promise_broken", "feud", "heavy_activity"], c)],
          reason: at(words, a + b),
        });
        return this;
      case "ClockAdvanced": {
        const from = this.t;
        this.t += 60 * (1 + (a % 3));
        this.push("ClockAdvanced", { from, to: this.t, mode: at(["tick", "elision", "jump"], b) });
        return this;
      }
      case "NpcMoved": {
        const npc = this.npc(a);
        const from = this.where.get(npc)!;
        const others = this.world.locations.filter((l) => l !== from);
        if (others.length === 0) return this.step({ ...s, type: "ProfileGenerated" });
        const to = at(others, b);
        this.where.set(npc, to);
        this.push("NpcMoved", { npcId: npc, from, to });
        return this;
      }
      case "NpcActivityChanged": {
        const npc = this.npc(a);
        const tasks = [...this.tasks.keys()];
        this.push("NpcActivityChanged", {
          npcId: npc,
          activity: at(activities, b),
          locationId: this.where.get(npc),
          destination: c % 3 === 0 ? at(this.world.locations, c) : null,
          until: c % 2 === 0 ? this.t + 30 : null,
          taskId: tasks.length > 0 && b % 2 === 0 ? at(tasks, c) : null,
          attendingTo: c % 2 === 1 ? [this.npc(a + 1)] : [],
          holding: b % 3 === 0 ? [at(words, c)] : [],
          note: at(words, a + b),
        });
        return this;
      }
      case "WorldEventOccurred": {
        const id = `we-${this.n + 1}`;
        this.worldEvents.push(id);
        this.push("WorldEventOccurred", {
          worldEventId: id,
          kind: at(["market", "storm", "theft"], a),
          text: this.text(b, c),
          locationId: b % 4 === 0 ? null : at(this.world.locations, b),
          factionId: c % 3 === 0 ? at(this.world.factions, c) : null,
          visibility: at(visibilities, a + c),
          importance: at(units, b),
          participants: a % 2 === 0 ? [this.npc(a)] : [],
          entities: [at(words, c)],
          lapsesAt: b % 3 === 0 ? null : this.t + (1 + c) * 60,
        });
        return this;
      }
      case "KnowledgeGained": {
        // Often the same NPC learns the same item again (at the same time when dt is 0),
        // by another way: the earliest fact, and the first of equal ones, must win.
        const last = this.lastFact;
        if (last && b % 3 === 1) {
          this.push("KnowledgeGained", {
            ...last,
            via: at(vias, a + c + 1),
            fromNpcId: c % 2 === 0 ? null : this.npc(a + 2),
            confidence: at(confidences, c + 1),
          });
          return this;
        }
        const kind = at(["world_event", "memory", "debate"] as const, b);
        const pool: ReadonlyArray<string> =
          kind === "world_event"
            ? this.worldEvents
            : kind === "memory"
              ? this.memories
              : this.debates;
        // Mostly real items; now and then one that never existed.
        const itemId = pool.length > 0 && c % 5 !== 0 ? at(pool, c) : `${kind}-ghost-${c % 3}`;
        const fact = {
          npcId: this.npc(a),
          itemKind: kind as ItemKind,
          itemId,
          via: at(vias, a + c),
          fromNpcId: c % 2 === 0 ? this.npc(a + 1) : null,
          confidence: at(confidences, c),
        };
        this.lastFact = fact;
        this.push("KnowledgeGained", fact);
        return this;
      }
      case "MemoryRecorded": {
        // Sometimes re-records an existing id (under any owner): the fold must ignore it.
        const reuse = this.memories.length > 0 && a % 6 === 0;
        const id = reuse ? at(this.memories, b) : `mem-${this.n + 1}`;
        if (!reuse) this.memories.push(id);
        const life = at(lifetimes, c);
        this.push("MemoryRecorded", {
          memoryId: id,
          ownerNpcId: this.npc(a),
          text: this.text(a, c),
          category: at(categories, b),
          importance: at(units, c),
          expiresAt: life === null ? null : this.t + life,
          locationId: b % 2 === 0 ? (this.where.get(this.npc(a)) ?? null) : null,
          entities: [at(words, b)],
          about:
            this.worldEvents.length > 0 && c % 2 === 0
              ? { kind: "world_event", id: at(this.worldEvents, c) }
              : null,
        });
        return this;
      }
      case "MemoryExpired": {
        if (this.memories.length === 0) return this.step({ ...s, type: "MemoryRecorded" });
        this.push("MemoryExpired", {
          memoryId: at(this.memories, a),
          ownerNpcId: this.npc(b),
          reason: at(["expired", "forgotten", "capped", "consolidated"], c),
        });
        return this;
      }
      case "MemoriesConsolidated": {
        if (this.memories.length === 0) return this.step({ ...s, type: "MemoryRecorded" });
        this.push("MemoriesConsolidated", {
          ownerNpcId: this.npc(b),
          memoryId: at(this.memories, a),
          about: { kind: "npc", id: this.npc(c) },
          sources: [at(this.memories, a + 1), at(this.memories, a + 2)],
        });
        return this;
      }
      case "MemoryReinforced": {
        if (this.memories.length === 0) return this.step({ ...s, type: "MemoryRecorded" });
        this.push("MemoryReinforced", {
          ownerNpcId: this.npc(b),
          memories: [{ memoryId: at(this.memories, a), importance: (c % 10) / 10 }],
        });
        return this;
      }
      case "TaskProposed": {
        const id = `task-${this.n + 1}`;
        this.tasks.set(id, "proposed");
        this.push("TaskProposed", {
          taskId: id,
          title: at(words, a),
          description: this.text(b, c),
          proposedBy: b % 2 === 0 ? this.npc(b) : null,
          assignee: c % 3 === 0 ? null : this.npc(c),
          locationId: a % 2 === 0 ? at(this.world.locations, a) : null,
          factionId: b % 3 === 0 ? at(this.world.factions, b) : null,
          deadline: c % 2 === 0 ? this.t + 1440 : null,
        });
        return this;
      }
      case "TaskStatusChanged": {
        const open = [...this.tasks].filter(([, st]) => nextStatus[st].length > 0);
        if (open.length === 0) return this.step({ ...s, type: "TaskProposed" });
        const [taskId, from] = at(open, a);
        const to = at(nextStatus[from], b);
        this.tasks.set(taskId, to);
        this.push("TaskStatusChanged", {
          taskId,
          from,
          to,
          reason: at(words, c),
          by: c % 2 === 0 ? this.npc(c) : null,
        });
        return this;
      }
      case "TaskDeadlineMoved": {
        // With no open task, propose one first, so the move is always made (a sequence
        // asked to hold every type must hold this one).
        if (![...this.tasks.values()].some((st) => st === "proposed" || st === "active"))
          this.step({ ...s, type: "TaskProposed" });
        const open = [...this.tasks].filter(([, st]) => st === "proposed" || st === "active");
        if (open.length === 0) return this;
        const [taskId] = at(open, a);
        this.push("TaskDeadlineMoved", {
          taskId,
          from: b % 2 === 0 ? this.t : null,
          to: this.t + 1440 * (1 + (c % 5)),
          askedBy: this.npc(b),
          agreedBy: this.npc(c),
          reason: at(words, c),
        });
        return this;
      }
      case "DebateHeld": {
        const id = `debate-${this.n + 1}`;
        this.debates.push(id);
        this.push("DebateHeld", {
          debateId: id,
          topic: at(words, a),
          participants: [this.npc(a), this.npc(a + 1)],
          locationId: b % 2 === 0 ? at(this.world.locations, b) : null,
          factionId: c % 2 === 0 ? at(this.world.factions, c) : null,
          summary: this.text(a, b),
          outcome: this.text(b, c),
        });
        return this;
      }
      case "ConversationTurn": {
        const convs = [...this.conversations];
        let id: string;
        if (convs.length === 0 || b % 4 === 0) {
          id = `conv-${this.n + 1}`;
          this.conversations.set(id, { a: this.npc(a), b: this.npc(a + 1), turns: 0 });
        } else id = at(convs, c)[0];
        const conv = this.conversations.get(id)!;
        const speaker = conv.turns % 2 === 0 ? conv.a : conv.b;
        this.push("ConversationTurn", {
          conversationId: id,
          turnIndex: conv.turns,
          speakerId: speaker,
          listenerIds: [speaker === conv.a ? conv.b : conv.a],
          locationId: this.where.get(speaker) ?? null,
          text: this.text(a, c),
        });
        conv.turns += 1;
        return this;
      }
      case "ConversationSummarized": {
        const convs = [...this.conversations].filter(([, cv]) => cv.turns > 0);
        if (convs.length === 0) return this.step({ ...s, type: "ConversationTurn" });
        const [id, conv] = at(convs, a);
        const self = b % 2 === 0 ? conv.a : conv.b;
        this.push("ConversationSummarized", {
          conversationId: id,
          npcId: self,
          partnerId: self === conv.a ? conv.b : conv.a,
          throughTurn: conv.turns - 1,
          summary: this.text(b, c),
        });
        return this;
      }
      case "RelationshipChanged": {
        const level = (k: number) => ((k % 21) - 10) / 10;
        this.push("RelationshipChanged", {
          fromId: this.npc(a),
          toId: this.npc(a + 1 + (b % Math.max(1, this.world.npcs.length - 1))),
          trust: level(a),
          respect: level(b),
          suspicion: level(c),
          summary: at(words, a + b),
          reason: at(words, a + c),
        });
        return this;
      }
      case "LlmCallRecorded":
        this.push("LlmCallRecorded", {
          callId: `call-${this.n + 1}`,
          npcId: a % 3 === 0 ? null : this.npc(a),
          purpose: at(["decide", "profile", "summary"], b),
          inputHash: `hash-${a % 7}`,
          brain: "scripted",
          model: "none",
          output: c % 4 === 0 ? null : { say: at(words, c), n: c % 10 },
          error: c % 4 === 0 ? "timeout" : null,
          promptTokens: 10 + (a % 50),
          outputTokens: b % 30,
          latencyMs: (c % 100) / 4,
          rejected:
            b % 3 === 0
              ? { answers: 1 + (a % 2), promptTokens: 20 + (b % 40), outputTokens: c % 25 }
              : { answers: 0, promptTokens: 0, outputTokens: 0 },
          policy:
            a % 2 === 0
              ? null
              : { priority: at(["low", "normal", "high"], b), reason: at(words, c) },
        });
        return this;
      case "LoreImported": {
        // Few sources, so re-imports (which replace chunks) happen.
        const source = `lore-${a % 3}`;
        const count = 1 + (b % 3);
        this.push("LoreImported", {
          sourceId: source,
          path: `lore/${source}.md`,
          contentHash: `sha-${a % 3}-${b % 5}`,
          chunks: Array.from({ length: count }, (_, k) => ({
            chunkId: `${source}#${(b + k) % 5}`,
            headingPath: [source, at(words, k)],
            text: this.text(b + k, c),
            tags: [at(words, c + k)],
            entities: [at(words, k)],
          })),
        });
        return this;
      }
      case "RunResumed":
        this.push("RunResumed", {
          seed: a,
          brain: at(["scripted", "ollama"], b),
          endDay: 3 + (c % 5),
        });
        return this;
      case "NpcAgendaChanged": {
        // A plan of a few steps, or none (a plan replaced by an answer with none).
        const steps = [
          { action: "rest", hours: 1 + (c % 3) },
          { action: "move", to: at(this.world.locations, b), reason: at(words, c) },
          { action: "speak", to: this.npc(c), text: this.text(a, c) },
        ].slice(0, a % 4);
        this.push("NpcAgendaChanged", { npcId: this.npc(a), steps, plannedAt: this.t });
        return this;
      }
      case "MaintenanceRan":
        this.push("MaintenanceRan", {
          job: at(["daily", "consolidate"], a),
          day: a % 30,
          expired: b % 4,
          forgotten: c % 4,
          consolidated: (a + b) % 4,
        });
        return this;
      case "Checkpoint":
        this.push("Checkpoint", { throughSeq: this.out.length, stateHash: `h-${a}` });
        return this;
      case "PlayerInput":
        this.push("PlayerInput", {
          input:
            a % 2 === 0
              ? { kind: "skip", days: 1 + (b % 3) }
              : {
                  kind: "turn",
                  npcId: this.npc(b),
                  conversationId: null,
                  message: this.text(b, c),
                  scene: null,
                  end: c % 2 === 0,
                },
          talk: {
            brain: at(["scripted", "ollama"], b),
            recorded: b % 2 === 1,
            playerName: "the player",
            digestEvery: 1 + (c % 4),
            recentTurns: 6,
            checkpointEveryTicks: 24,
          },
          events: 0,
        });
        return this;
      case "ThreadOpened":
      case "ThreadClosed":
      case "HappeningPlanned":
      case "HappeningStatusChanged":
      case "PropIntroduced":
      case "PropAcquired": {
        const made = this.threadHappenings.make(s.type, a, b, c, this.n + 1, this.t);
        this.push(made.type, made.payload);
        return this;
      }
      case "SceneOpened":
      case "SceneClosed": {
        // Markers of a scene's range; no read model holds them.
        const participants = [this.npc(a), this.npc(a + 1)].sort();
        const common = {
          sceneId: `scene-${a % 5}`,
          locationId: at(this.world.locations, b),
          participants,
        };
        if (s.type === "SceneOpened")
          this.push("SceneOpened", { ...common, cause: "conversation" });
        else
          this.push("SceneClosed", {
            ...common,
            leavers: c % 2 === 0 ? [participants[0]] : [],
            reason: c % 2 === 0 ? "left" : "time",
            fromSeq: Math.max(1, this.n - (c % 10)),
            throughSeq: this.n,
          });
        return this;
      }
      case "SummaryCursorAdvanced":
        this.push("SummaryCursorAdvanced", {
          scope: at(["npc", "location", "world"], a),
          scopeId: a % 3 === 2 ? "world" : this.npc(b),
          throughSeq: this.n,
        });
        return this;
      case "SimulationWarning":
        this.push("SimulationWarning", {
          code: at(["slow_model", "budget", "retry"], a),
          message: this.text(b, c),
          npcId: b % 2 === 0 ? this.npc(b) : null,
        });
        return this;
    }
  }
}
