/**
 * Spending limits on model calls: calls per run, calls per game day, tokens per run.
 * When one is spent the Ollama brain stops calling models and its fallback chain's
 * non-model entries (the scripted brain) answer, with the reason recorded. A planned
 * batch reserves its model calls up front, highest priority first (see planCalls); a
 * reserved call is counted against the call limits until it has run.
 *
 * Within a tick (`beginTick` … `endTick`) the call limits are read once, at its start,
 * and the tick's calls are decided against what was left then by a TickLedger: a lower
 * class never takes a call the tick's forecast holds for a higher one asked later. So
 * what a tick decides does not depend on how fast its calls came back (a repair retry
 * spent mid-tick is counted from the next tick on). The token limit cannot be forecast
 * per call: it is checked at each tick's start.
 */
import { BudgetExhausted } from "../BrainError.ts";
import type { Budgets } from "../MindConfig.ts";
import type { PriorityClass } from "../policy/BrainPolicy.ts";
import { type ClassCounts, TickLedger } from "../policy/TickLedger.ts";

/** The binding call limit at a tick's start: how many calls are left under it. */
interface Headroom {
  readonly left: number;
  readonly budget: string;
  readonly limit: number;
  readonly used: number;
}

export interface BudgetUsage {
  readonly calls: number;
  readonly promptTokens: number;
  readonly outputTokens: number;
}

export class CallBudget {
  private calls = 0;
  private promptTokens = 0;
  private outputTokens = 0;
  private readonly perDay = new Map<number, number>();
  private reserved = 0;
  private readonly reservedPerDay = new Map<number, number>();
  private tick: {
    readonly day: number;
    readonly ledger: TickLedger;
    readonly room: Headroom | null;
  } | null = null;
  private unforeseenCalls = 0;

  constructor(private readonly budgets: Budgets) {}

  /** The tightest call limit on `day` now, or null when none applies. */
  private headroom(day: number): Headroom | null {
    const { maxCalls, maxCallsPerDay, maxTokens } = this.budgets;
    let room: Headroom | null = null;
    const consider = (budget: string, limit: number, used: number) => {
      const left = Math.max(0, limit - used);
      if (room === null || left < room.left) room = { left, budget, limit, used };
    };
    if (maxCalls !== null) consider("maxCalls", maxCalls, this.calls + this.reserved);
    if (maxCallsPerDay !== null)
      consider(
        `maxCallsPerDay (day ${day})`,
        maxCallsPerDay,
        (this.perDay.get(day) ?? 0) + (this.reservedPerDay.get(day) ?? 0),
      );
    const tokens = this.promptTokens + this.outputTokens;
    if (maxTokens !== null && tokens >= maxTokens)
      room = { left: 0, budget: "maxTokens", limit: maxTokens, used: tokens };
    return room;
  }

  /** Opens a tick on `day` with its forecast: calls by their highest possible class. */
  beginTick(day: number, forecast: ClassCounts): void {
    const room = this.headroom(day);
    this.tick = { day, ledger: new TickLedger(room?.left ?? null, forecast), room };
  }

  /** Narrows the open tick's forecast of its remaining calls (see TickLedger.narrow). */
  narrowTick(forecast: ClassCounts): void {
    this.tick?.ledger.narrow(forecast);
  }

  /** Closes the tick; later calls are decided batch by batch again. */
  endTick(): void {
    if (this.tick !== null) this.unforeseenCalls += this.tick.ledger.unforeseen;
    this.tick = null;
  }

  /** Calls asked in ticks that their forecast did not cover (0 when every forecast held). */
  get unforeseen(): number {
    return this.unforeseenCalls + (this.tick?.ledger.unforeseen ?? 0);
  }

  /** The limit a new call on `day` would break, or null (reserved calls counted as made). */
  check(day: number): BudgetExhausted | null {
    const { maxCalls, maxCallsPerDay, maxTokens } = this.budgets;
    const calls = this.calls + this.reserved;
    if (maxCalls !== null && calls >= maxCalls)
      return new BudgetExhausted({ budget: "maxCalls", limit: maxCalls, used: calls });
    const today = (this.perDay.get(day) ?? 0) + (this.reservedPerDay.get(day) ?? 0);
    if (maxCallsPerDay !== null && today >= maxCallsPerDay)
      return new BudgetExhausted({
        budget: `maxCallsPerDay (day ${day})`,
        limit: maxCallsPerDay,
        used: today,
      });
    const tokens = this.promptTokens + this.outputTokens;
    if (maxTokens !== null && tokens >= maxTokens)
      return new BudgetExhausted({ budget: "maxTokens", limit: maxTokens, used: tokens });
    return null;
  }

  /**
   * Holds one call per entry for a planned batch, given in spending order (highest class
   * first), unless a limit is spent or, within a tick, what is left is held for its
   * higher classes (`critical` calls are held anyway). Null where held, else why not.
   */
  reserveBatch(
    calls: ReadonlyArray<{ readonly day: number; readonly priority: PriorityClass }>,
  ): Array<BudgetExhausted | null> {
    const tick = this.tick;
    const inTick = tick !== null && calls.every((c) => c.day === tick.day);
    const decisions = inTick
      ? tick.ledger.askBatch(
          calls.map((c) => c.priority),
          (p) => p === "critical",
        )
      : null;
    return calls.map(({ day, priority }, i) => {
      const decision = decisions?.[i];
      if (decision !== undefined && !decision.granted) {
        const room = tick!.room!;
        return new BudgetExhausted({
          budget: room.budget,
          limit: room.limit,
          used: room.used + (room.left - decision.left),
          ...(decision.left > 0 ? { heldForHigher: decision.heldForHigher } : {}),
        });
      }
      if (decision === undefined) {
        const spent = this.check(day);
        if (spent !== null && priority !== "critical") return spent;
      }
      this.reserved++;
      this.reservedPerDay.set(day, (this.reservedPerDay.get(day) ?? 0) + 1);
      return null;
    });
  }

  /** Gives back a held call once its call has run (what it spent is counted by `spend`). */
  settle(day: number): void {
    const held = this.reservedPerDay.get(day) ?? 0;
    if (held === 0) return;
    this.reserved--;
    if (held === 1) this.reservedPerDay.delete(day);
    else this.reservedPerDay.set(day, held - 1);
  }

  /** Counts one model call. */
  spend(day: number, promptTokens: number, outputTokens: number): void {
    this.calls++;
    this.perDay.set(day, (this.perDay.get(day) ?? 0) + 1);
    this.promptTokens += promptTokens;
    this.outputTokens += outputTokens;
  }

  usage(): BudgetUsage {
    return { calls: this.calls, promptTokens: this.promptTokens, outputTokens: this.outputTokens };
  }
}
