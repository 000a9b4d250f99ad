/**
 * How the engine calls a brain. A phase of a tick gathers its requests first, then asks
 * them all — one after another for a synchronous brain, concurrently (bounded) for a
 * live model — and gets the answers back in request order. Because every request is
 * fixed before any answer arrives, the log is the same whatever order a server answers
 * in. Calls to a brain that is not deterministic are recorded as LlmCallRecorded events
 * (in request order), so a replay can answer from the log.
 *
 * A brain with a policy (the model brain) plans the batch first — which calls get the
 * model, its budget spent highest priority first — and its calls are started in that
 * order, so the slots of the model hosts go to the most important calls first too.
 * Answers still come back, and are committed, in request order. Such a brain spends its
 * budget across a whole tick in class order: the tick opens with its plan (`beginTick`).
 */
import type { LlmCallId } from "@hearsay/core";
import {
  type BrainAnswer,
  type BrainError,
  type BrainRequest,
  type BrainShape,
  inputHash,
  llmCallPayload,
  noRejected,
  type PurposeName,
  rejectedOf,
  type SyncBrain,
  spendingOrder,
  type TickDemand,
  type TickPlan,
} from "@hearsay/mind";
import { Effect, Result } from "effect";
import type { TickWriter } from "./TickWriter.ts";

export type Outcome<P extends PurposeName = PurposeName> =
  | { readonly ok: true; readonly answer: BrainAnswer<P> }
  | { readonly ok: false; readonly error: BrainError };

/** Counts for the run's end summary. */
export interface BrainStats {
  calls: number;
  failures: number;
  /** Calls the configured brain did not answer but a fallback did. */
  fellBack: number;
  /** Model answers refused on the way (invalid, unknown ids). */
  rejected: number;
  readonly byPurpose: Map<string, number>;
  /** Calls per priority class of the brain policy (planned calls only). */
  readonly byPriority: Map<string, number>;
}

const isSync = (brain: BrainShape): brain is SyncBrain =>
  typeof (brain as Partial<SyncBrain>).decideSync === "function";

export class BrainRunner {
  readonly stats: BrainStats = {
    calls: 0,
    failures: 0,
    fellBack: 0,
    rejected: 0,
    byPurpose: new Map(),
    byPriority: new Map(),
  };

  constructor(
    private readonly brain: BrainShape,
    /** Record every call in the log (true for live models and for replays of them). */
    readonly records: boolean,
    private readonly concurrency = 4,
  ) {}

  get name(): string {
    return this.brain.name;
  }

  /**
   * Opens a tick for a brain that spends its budget across whole ticks (its plan is
   * made only for such a brain); `endTick` closes it once the tick's calls are made.
   */
  beginTick(plan: () => TickPlan): void {
    if (this.brain.beginTick !== undefined) this.brain.beginTick(plan());
  }

  /** A tighter bound of the open tick's remaining calls, once a phase knows more. */
  reviseTick(demand: () => ReadonlyArray<TickDemand>): void {
    if (this.brain.reviseTick !== undefined) this.brain.reviseTick(demand());
  }

  endTick(): void {
    this.brain.endTick?.();
  }

  /** Asks every request; answers come back in request order. */
  async decideAll<P extends PurposeName>(
    requests: ReadonlyArray<BrainRequest<P>>,
    writer: TickWriter,
  ): Promise<ReadonlyArray<Outcome<P>>> {
    if (requests.length === 0) return [];
    let outcomes: ReadonlyArray<Outcome<P>>;
    if (isSync(this.brain)) {
      const brain = this.brain;
      outcomes = requests.map((r) => ({ ok: true as const, answer: brain.decideSync(r) }));
    } else {
      const brain = this.brain;
      const planned = brain.plan?.(requests) ?? null;
      const calls = planned?.map((p) => p.decide) ?? requests.map((r) => brain.decide(r));
      const order =
        planned === null ? requests.map((_, i) => i) : spendingOrder(planned.map((p) => p.route));
      for (const p of planned ?? [])
        this.stats.byPriority.set(
          p.route.priority,
          (this.stats.byPriority.get(p.route.priority) ?? 0) + 1,
        );
      // Enough calls in flight to fill every model host's slots.
      const results = await Effect.runPromise(
        Effect.forEach(order, (i) => Effect.result(calls[i]!), {
          concurrency: Math.max(this.concurrency, brain.capacity ?? 0),
        }),
      );
      const byRequest: Array<Outcome<P>> = [];
      for (const [k, r] of results.entries())
        byRequest[order[k]!] = Result.isSuccess(r)
          ? { ok: true as const, answer: r.success }
          : { ok: false as const, error: r.failure };
      outcomes = byRequest;
    }
    for (const [i, request] of requests.entries()) {
      const outcome = outcomes[i]!;
      this.stats.calls += 1;
      this.stats.byPurpose.set(
        request.purpose,
        (this.stats.byPurpose.get(request.purpose) ?? 0) + 1,
      );
      if (!outcome.ok) this.stats.failures += 1;
      else if (outcome.answer.meta.fallbackReason !== null) this.stats.fellBack += 1;
      this.stats.rejected += (
        outcome.ok ? (outcome.answer.meta.rejected ?? noRejected) : rejectedOf(outcome.error)
      ).answers;
      if (this.records) this.record(request, outcome, writer);
    }
    return outcomes;
  }

  /** One request (for steps that must see each answer before asking the next). */
  async decide<P extends PurposeName>(
    request: BrainRequest<P>,
    writer: TickWriter,
  ): Promise<Outcome<P>> {
    const [outcome] = await this.decideAll([request], writer);
    return outcome!;
  }

  /**
   * Records a call this runner did not make itself (a talk's streamed reply), if it
   * records: through the same path as its own calls, so a call is recorded one way.
   */
  recordOutcome(request: BrainRequest, outcome: Outcome, writer: TickWriter): void {
    if (this.records) this.record(request, outcome, writer);
  }

  private record(request: BrainRequest, outcome: Outcome, writer: TickWriter): void {
    writer.emit(
      "LlmCallRecorded",
      llmCallPayload({
        request,
        inputHash: inputHash(request),
        callId: writer.mint("call") as LlmCallId,
        brain: this.brain.name,
        outcome,
      }),
    );
  }
}
