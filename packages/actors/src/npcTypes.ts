/**
 * What an NPC's actor is started with, what it holds, what it is sent and what it emits
 * (the npc machine's types, `npcMachine.ts`).
 */
import type {
  Activity,
  AgendaStep,
  GameTime,
  LocationId,
  NpcId,
  RegardShift,
  SpokenMemory,
  TaskId,
} from "@hearsay/core";
import type { TurnAsk } from "./agenda.ts";
import type { ForgetAsk, Forgetting } from "./MemoryPolicy.ts";
import type { NpcAction } from "./NpcAction.ts";
import type { NpcFacts } from "./NpcFacts.ts";
import type { Happening } from "./newsMatters.ts";

export interface NpcSchedule {
  readonly wakeHour: number;
  readonly sleepHour: number;
  readonly home: LocationId;
  readonly workplace: LocationId | null;
}

/** Travel times, shared by every NPC of a world (pure data behind a function). */
export interface Routes {
  /** Minutes from one location to another, or null when unreachable. */
  travelMinutes(from: LocationId, to: LocationId): number | null;
}

/** Where an NPC is and what it is doing: enough to start (or rebuild) its actor. */
export interface NpcActivityState {
  readonly activity: Activity;
  readonly locationId: LocationId;
  readonly destination: LocationId | null;
  readonly until: GameTime | null;
  readonly taskId: TaskId | null;
  readonly attendingTo: ReadonlyArray<NpcId>;
}

export interface NpcInput {
  readonly npcId: NpcId;
  readonly schedule: NpcSchedule;
  readonly routes: Routes;
  /** Game minutes one tick advances: the shortest wait an activity may have. */
  readonly tickMinutes: number;
  /** Now, or — when rebuilding from the log — when the current activity began. */
  readonly t: GameTime;
  readonly state: NpcActivityState;
  /** What it knows of itself (`NpcFacts`): the actor owns it from here on. */
  readonly facts: NpcFacts;
}

/** What never changes for an NPC's actor: who it is, its day, the world's routes and tick. */
export interface NpcFixed {
  readonly npcId: NpcId;
  readonly schedule: NpcSchedule;
  readonly routes: Routes;
  /** Game minutes one tick advances: the shortest wait an activity may have. */
  readonly tickMinutes: number;
}

/**
 * What the machine holds. Every transition that assigns copies it, and a context lives
 * until its NPC's next wake-up, so it holds only what changes and one reference to what
 * does not (`fixed`). What a wake-up said for gating (company, roll) is read from the
 * event while it is taken, not kept.
 */
export interface NpcContext extends NpcActivityState {
  readonly fixed: NpcFixed;
  readonly t: GameTime;
  /** The note of the activity just planned, announced with it. */
  readonly note: string;
  /** Length of the current work shift, reported when it ends. */
  readonly workMinutes: number;
  /** Its profile, memories, rumours and regard: changed only by `foldNpcFacts`. */
  readonly facts: NpcFacts;
}

export type NpcEvent =
  | {
      readonly type: "WAKE";
      readonly t: GameTime;
      /** How many other awake NPCs share its location. */
      readonly company: number;
      /** A seeded draw in [0, 1) for this wake-up. */
      readonly roll: number;
      /** Whether another NPC is here and awake (absent: nobody is), for a planned step. */
      readonly sees?: ((npc: NpcId) => boolean) | undefined;
      /**
       * The world event it heard of, as the engine can describe it (absent: none can be,
       * and every piece of news counts), for whether its news matters (`newsMatters`).
       */
      readonly happening?: ((id: string) => Happening | null) | undefined;
    }
  /** A plan that came with an answer given outside a turn of its own (a reply in a talk). */
  | { readonly type: "PLAN"; readonly t: GameTime; readonly steps: ReadonlyArray<AgendaStep> }
  | { readonly type: "DECIDED"; readonly t: GameTime; readonly action: NpcAction }
  | { readonly type: "DECLINED"; readonly t: GameTime }
  | {
      readonly type: "CONVERSE";
      readonly t: GameTime;
      readonly with: ReadonlyArray<NpcId>;
      readonly until: GameTime;
    }
  | {
      readonly type: "DEBATE";
      readonly t: GameTime;
      readonly until: GameTime;
      readonly with: ReadonlyArray<NpcId>;
    }
  | { readonly type: "ELIDE"; readonly t: GameTime }
  /** Which of its memories ran out by `t` (EXPIRE), or a cap drops (CAP). */
  | ForgetAsk;

export type NpcEmitted =
  | ({ readonly type: "activity"; readonly note: string } & NpcActivityState)
  | { readonly type: "moved"; readonly from: LocationId; readonly to: LocationId }
  | {
      readonly type: "decide";
      readonly reason: "company" | "concern" | "task";
      /** Why it asks rather than take a planned step. */
      readonly why: TurnAsk;
    }
  | {
      readonly type: "speak";
      readonly to: NpcId;
      readonly text: string;
      readonly regard: RegardShift | undefined;
      /** What it will remember of saying it, if its answer said (kept if unanswered). */
      readonly memories: ReadonlyArray<SpokenMemory> | undefined;
      /** The line closes the talk: its listener is not asked to answer it. */
      readonly ends: boolean | undefined;
    }
  /** Its agenda changed: the steps left (none: no plan), planned at `plannedAt`. */
  | {
      readonly type: "agenda";
      readonly steps: ReadonlyArray<AgendaStep>;
      readonly plannedAt: GameTime;
    }
  | {
      readonly type: "proposeTask";
      readonly title: string;
      readonly description: string;
      readonly assignee: NpcId | null;
      readonly deadlineDays: number;
    }
  | { readonly type: "workDone"; readonly taskId: TaskId | null; readonly minutes: number }
  /** It gave a task up, withdrew one, or asked for a new deadline (the engine checks and records it). */
  | {
      readonly type: "taskTerms";
      readonly move: "give_up" | "withdraw" | "move_deadline";
      readonly taskId: TaskId;
      readonly days: number;
      readonly reason: string;
    }
  /** The memories it forgets (EXPIRE, CAP). */
  | Forgetting;
