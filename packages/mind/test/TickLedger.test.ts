import {
  type ClassCounts,
  type PlannedRoute,
  type PriorityClass,
  planCalls,
  priorityClasses,
  rankOf,
  spendingOrder,
  TickLedger,
} from "@hearsay/mind";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runs } from "./arbitraries.ts";

const modelClasses = priorityClasses.filter((c) => c !== "scripted");

/** One call of a tick: its class, and the highest class the forecast counted it at. */
interface Call {
  readonly priority: PriorityClass;
  readonly ceiling: PriorityClass;
}

const arbCall: fc.Arbitrary<Call> = fc
  .tuple(fc.constantFrom(...priorityClasses), fc.nat({ max: 3 }))
  .map(([priority, up]) => {
    if (priority === "scripted" || priority === "critical") return { priority, ceiling: priority };
    const ceiling = modelClasses[Math.min(rankOf(priority) - 1 + up, modelClasses.length - 1)]!;
    // A raise never reaches critical: only a purpose's own class is critical.
    return { priority, ceiling: ceiling === "critical" ? "high" : ceiling };
  });

/** A tick: its phases in order, each a batch of calls asked together. */
const arbTick = fc.array(fc.array(arbCall, { maxLength: 6 }), { minLength: 1, maxLength: 5 });

/** Extra forecast slots beyond the calls: a forecast is an upper bound, not a count. */
const arbSpare = fc.dictionary(fc.constantFrom(...modelClasses), fc.nat({ max: 3 }));

const forecastOf = (tick: ReadonlyArray<ReadonlyArray<Call>>, spare: Record<string, number>) => {
  const counts: Partial<Record<PriorityClass, number>> = { ...spare };
  for (const c of tick.flat()) counts[c.ceiling] = (counts[c.ceiling] ?? 0) + 1;
  return counts;
};

/**
 * Runs a tick's phases in order through the ledger, each batch planned highest class
 * first: asked call by call, or (`batched`) claimed together first as the brain does.
 */
const runTick = (
  ledger: TickLedger | null,
  left: number,
  tick: ReadonlyArray<ReadonlyArray<Call>>,
  batched = false,
  /** Before each phase, a bound of the rest of the tick to narrow the forecast to. */
  narrowTo: ((rest: ReadonlyArray<ReadonlyArray<Call>>) => ClassCounts) | null = null,
) => {
  let budget = left;
  const decided: Array<PlannedRoute> = [];
  for (const [p, phase] of tick.entries()) {
    if (ledger !== null && narrowTo !== null) ledger.narrow(narrowTo(tick.slice(p)));
    const routes = phase.map((c) => ({ priority: c.priority, reason: c.priority }));
    const order = spendingOrder(routes).filter((i) => routes[i]!.priority !== "scripted");
    const together =
      ledger !== null && batched
        ? ledger.askBatch(
            order.map((i) => routes[i]!.priority),
            (p) => p === "critical",
          )
        : null;
    const planned = planCalls(routes, (i, priority) => {
      if (together !== null) return together[order.indexOf(i)]!.granted ? null : "held";
      if (ledger !== null) {
        const d = ledger.ask(priority, priority === "critical");
        return d.granted ? null : "held";
      }
      // Batch by batch, first come first served across batches (as without a tick).
      if (priority !== "critical" && budget < 1) return "spent";
      budget -= 1;
      return null;
    });
    decided.push(...planned);
  }
  return decided;
};

/** The lowest class that got the model and the highest that fell back, by rank. */
const inverted = (decided: ReadonlyArray<PlannedRoute>): boolean => {
  const got = decided.filter((d) => d.model).map((d) => rankOf(d.priority));
  const fell = decided
    .filter((d) => !d.model && d.priority !== "scripted")
    .map((d) => rankOf(d.priority));
  return got.length > 0 && fell.length > 0 && Math.min(...got) < Math.max(...fell);
};

describe("a tick's model budget", () => {
  it("never gives the model to a call of a lower class than one of the same tick that fell back, whatever phase asked first", () => {
    fc.assert(
      fc.property(
        arbTick,
        arbSpare,
        fc.nat({ max: 12 }),
        fc.boolean(),
        fc.option(arbSpare, { nil: null }),
        (tick, spare, left, batched, narrowing) => {
          const ledger = new TickLedger(left, forecastOf(tick, spare));
          // Narrowed (or not) before each phase to a bound of the phases still to come.
          const narrowTo =
            narrowing === null
              ? null
              : (rest: ReadonlyArray<ReadonlyArray<Call>>) => forecastOf(rest, narrowing);
          const decided = runTick(ledger, left, tick, batched, narrowTo);
          expect(inverted(decided)).toBe(false);
          for (const d of decided) if (d.priority === "critical") expect(d.model).toBe(true);
          const granted = decided.filter((d) => d.model && d.priority !== "critical").length;
          expect(granted).toBeLessThanOrEqual(left);
          expect(ledger.unforeseen).toBe(0);
        },
      ),
      { numRuns: runs(400) },
    );
  });

  it("spends the whole budget when the forecast is exact and the calls outnumber it", () => {
    fc.assert(
      fc.property(arbTick, fc.nat({ max: 12 }), fc.boolean(), (tick, left, batched) => {
        const exact = tick.map((p) => p.map((c) => ({ ...c, ceiling: c.priority })));
        const ledger = new TickLedger(left, forecastOf(exact, {}));
        const decided = runTick(ledger, left, exact, batched);
        const model = exact.flat().filter((c) => c.priority !== "scripted");
        const critical = model.filter((c) => c.priority === "critical").length;
        const granted = decided.filter((d) => d.model).length;
        expect(granted).toBe(
          critical + Math.min(Math.max(0, left - critical), model.length - critical),
        );
      }),
      { numRuns: runs(300) },
    );
  });

  it("is needed: planning batch by batch lets an early low call take a later high call's budget", () => {
    const found = fc.check(
      fc.property(
        arbTick,
        fc.nat({ max: 12 }),
        (tick, left) => !inverted(runTick(null, left, tick)),
      ),
      { numRuns: runs(400) },
    );
    expect(found.failed).toBe(true);
  });

  it("counts the calls its forecast did not cover", () => {
    const ledger = new TickLedger(5, { normal: 1 });
    expect(ledger.ask("normal").granted).toBe(true);
    expect(ledger.ask("high").granted).toBe(true);
    expect(ledger.unforeseen).toBe(1);
  });

  it("holds what is left for the higher forecast calls, and names how many", () => {
    const ledger = new TickLedger(2, { low: 1, high: 2 });
    expect(ledger.ask("low")).toEqual({ granted: false, left: 2, heldForHigher: 2 });
    expect(ledger.ask("high").granted).toBe(true);
    expect(ledger.ask("high").granted).toBe(true);
    expect(ledger.ask("critical", true).granted).toBe(true);
    expect(ledger.remaining).toBe(-1);
  });
});

describe("a batch asked together", () => {
  it("is not held back for the slots its own batch-mates take", () => {
    // Two acts forecast at high (either could have been raised); both are asked normal.
    const oneByOne = new TickLedger(1, { high: 2 });
    expect(oneByOne.ask("normal").granted).toBe(false);
    const together = new TickLedger(1, { high: 2 });
    expect(together.askBatch(["normal", "normal"], () => false).map((d) => d.granted)).toEqual([
      true,
      false,
    ]);
  });
});

describe("narrowing the forecast", () => {
  it("takes the smaller bound at or above each class, never widening", () => {
    const ledger = new TickLedger(2, { low: 2, high: 3 });
    // A looser bound changes nothing: the normal call takes a high slot, two stay held.
    ledger.narrow({ high: 9, low: 9 });
    expect(ledger.ask("normal")).toMatchObject({ granted: false, heldForHigher: 2 });
    // What is known now: one call of at most high to come.
    const narrowed = new TickLedger(2, { low: 2, high: 3 });
    narrowed.narrow({ high: 1, low: 1 });
    expect(narrowed.ask("normal").granted).toBe(true);
    expect(narrowed.ask("high").granted).toBe(true);
    expect(narrowed.unforeseen).toBe(1);
  });
});
