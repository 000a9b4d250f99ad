/**
 * The Brain port: what the engine asks (a purpose, for an NPC, at a game time, with its
 * dossier and the purpose's input) and what it gets back (the decoded output and where
 * it came from). Adapters — scripted, ollama, recorded — and wrappers — recording,
 * fallback, budget — all implement `BrainShape`.
 */
import type { Dossier, GameTime, NpcId, RejectedSpend } from "@hearsay/core";
import { Context, type Effect } from "effect";
import type { BrainError } from "./BrainError.ts";
import type { PurposeInput, PurposeName, PurposeOutput } from "./Purpose.ts";

/** One call: the same request always gets the same scripted answer and the same hash. */
export type BrainRequest<P extends PurposeName = PurposeName> = P extends PurposeName
  ? {
      readonly purpose: P;
      /** The NPC deciding, or null for world-level calls (a debate summary). */
      readonly npcId: NpcId | null;
      readonly t: GameTime;
      /** The run's seed; deterministic brains derive their randomness from it. */
      readonly seed: number;
      /** The NPC's dossier for this turn, or null when the engine built none. */
      readonly dossier: Dossier | null;
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
}

export interface BrainAnswer<P extends PurposeName = PurposeName> {
  readonly output: PurposeOutput<P>;
  readonly meta: BrainMeta;
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
}

/** The engine's brain, provided by a layer (`ScriptedBrain.layer`, `OllamaBrain.layer`, …). */
export class Brain extends Context.Service<Brain, BrainShape>()("@hearsay/mind/Brain") {}
