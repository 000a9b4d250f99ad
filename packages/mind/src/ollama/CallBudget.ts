/**
 * Spending limits on model calls: calls per run, calls per game day, tokens per run.
 * When one is spent the Ollama brain stops calling models and its fallback chain's
 * non-model entries (the scripted brain) answer, with the reason recorded. A planned
 * batch reserves its model calls up front, highest priority first (see planCalls); a
 * reserved call is counted against the call limits until it has run.
 */
import { BudgetExhausted } from "../BrainError.ts";
import type { Budgets } from "../MindConfig.ts";

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

  constructor(private readonly budgets: Budgets) {}

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

  /** Holds one call on `day` for a planned call, unless a limit is spent (`force`: hold it anyway). */
  reserve(day: number, force: boolean): BudgetExhausted | null {
    const spent = this.check(day);
    if (spent !== null && !force) return spent;
    this.reserved++;
    this.reservedPerDay.set(day, (this.reservedPerDay.get(day) ?? 0) + 1);
    return null;
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
