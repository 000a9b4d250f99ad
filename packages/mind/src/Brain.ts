/**
 * The Brain port: what the engine asks (a purpose, for an NPC, at a game time, with its
 * dossier and the purpose's input) and what it gets back (the decoded output and where
 * it came from). Adapters — scripted, ollama, recorded — and wrappers — recording,
 * fallback, budget — all implement `BrainShape`.
 */
import type { CallPolicy, DossierReader, GameTime, NpcId, RejectedSpend } from "@hearsay/core";
import type { Effect } from "effect";
import type { BrainError } from "./BrainError.ts";
import type { PurposeInput, PurposeName, PurposeOutput } from "./Purpose.ts";
import type { Nearness } from "./policy/BrainPolicy.ts";
import type { PlannedRoute } from "./policy/planCalls.ts";

/** One call: the same request always gets the same scripted answer and the same hash. */
export type BrainRequest<P extends PurposeName = PurposeName> = P extends PurposeName
  ? {
      readonly purpose: P;
      /** The NPC deciding, or null for world-level calls (a debate summary). */
      readonly npcId: NpcId | null;
      readonly t: GameTime;
      /** The run's seed; deterministic brains derive their randomness from it. */
      readonly seed: number;
      /**
       * The NPC's dossier for this turn, read through `section(name)` or `whole()` — the
       * engine builds each part on its first read — or null when the call has none.
       */
      readonly dossier: DossierReader | null;
      readonly input: PurposeInput<P>;
    }
  : never;

/** Which brain answered, and at what cost. */
export interface BrainMeta {
  /** `scripted`, `ollama`, … — the adapter that produced the output. */
  readonly brain: string;
  readonly model: string;
  readonly promptTokens: number;
  readonly outputTokens: number;
  readonly latencyMs: number;
  /** What failed before this brain answered (a fallback), or null. */
  readonly fallbackReason: string | null;
  /** Answers refused on the way (invalid, unknown ids) and their tokens; absent: none. */
  readonly rejected?: RejectedSpend;
  /** The brain policy's class and reason for the call; absent: no policy applied. */
  readonly policy?: CallPolicy;
}

export interface BrainAnswer<P extends PurposeName = PurposeName> {
  readonly output: PurposeOutput<P>;
  readonly meta: BrainMeta;
}

/** One call of a planned batch: the policy's decision, and the call itself. */
export interface PlannedCall<P extends PurposeName = PurposeName> {
  readonly route: PlannedRoute;
  readonly decide: Effect.Effect<BrainAnswer<P>, BrainError>;
}

/** Calls a tick may ask: `count` calls of `purpose` for `npcId` (null: any NPC, or none). */
export interface TickDemand {
  readonly purpose: PurposeName;
  readonly npcId: NpcId | null;
  readonly count: number;
}

/**
 * What the engine knows of a tick before any phase asks: an upper bound of the calls it
 * may ask (so the budget is held for the higher classes among them), and who is near
 * the player or the camera.
 */
export interface TickPlan {
  readonly t: GameTime;
  readonly demand: ReadonlyArray<TickDemand>;
  /** The NPCs within `hops` travel hops of the player or the camera, each with why. */
  readonly near: (hops: number) => Nearness;
}

/** What every brain implements. */
export interface BrainShape {
  /** The adapter's name, as `meta.brain` reports it. */
  readonly name: string;
  /** Calls it can have in flight at once (its model hosts' slots); absent: no view. */
  readonly capacity?: number;
  decide<P extends PurposeName>(
    request: BrainRequest<P>,
  ): Effect.Effect<BrainAnswer<P>, BrainError>;
  /**
   * A brain with a policy plans a batch (a phase of a tick) before asking any of it:
   * which calls get the model, its budget spent highest priority first. Absent: every
   * call is asked as it is (scripted and recorded brains).
   */
  plan?<P extends PurposeName>(
    requests: ReadonlyArray<BrainRequest<P>>,
  ): ReadonlyArray<PlannedCall<P>>;
  /**
   * A brain with a policy spends its budget across a whole tick in class order: the
   * engine opens each tick with its plan and closes it when the tick is written.
   * Calls outside a tick (a talk with the player) are planned batch by batch.
   */
  beginTick?(plan: TickPlan): void;
  /** A tighter bound of the tick's remaining calls, once a phase knows more (never looser). */
  reviseTick?(demand: ReadonlyArray<TickDemand>): void;
  endTick?(): void;
}
