/**
 * Spending limits on model calls: calls per run, calls per game day, tokens per run.
 * When one is spent the Ollama brain stops calling models and its fallback chain's
 * non-model entries (the scripted brain) answer, with the reason recorded.
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

  constructor(private readonly budgets: Budgets) {}

  /** The limit a new call on `day` would break, or null. */
  check(day: number): BudgetExhausted | null {
    const { maxCalls, maxCallsPerDay, maxTokens } = this.budgets;
    if (maxCalls !== null && this.calls >= maxCalls)
      return new BudgetExhausted({ budget: "maxCalls", limit: maxCalls, used: this.calls });
    const today = this.perDay.get(day) ?? 0;
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
