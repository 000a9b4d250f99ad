/**
 * The plan of a headless skip: every game minute of the span is covered once — by a
 * skip or by an ordinary tick — in order, starting on the hour, and the step count is
 * what the engine will take (one per skip and per tick).
 */
import { gameTime } from "@hearsay/core";
import { planSkip } from "@hearsay/engine";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const ticks = [5, 10, 15, 20, 30, 60, 120, 180, 240, 360];

describe("planSkip", () => {
  it("covers the span once, in order, from the next hour, one step per skip and tick", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ticks),
        fc.nat({ max: 400 }),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom("jump" as const, "elision" as const),
        (tick, k, days, mode) => {
          const t = k * tick;
          const plan = planSkip(t, days, mode, tick);
          let now = t;
          let steps = 0;
          // Plain ticks up to the first skip, then each skip and the ticks after it.
          for (const s of plan.skips) {
            const at = Math.round(gameTime(s.atDay, s.atHour));
            expect(at).toBeGreaterThanOrEqual(now);
            expect((at - now) % tick).toBe(0);
            steps += (at - now) / tick;
            const span = Math.round(s.days! * 1440);
            expect(span).toBeGreaterThan(0);
            now = at + span;
            steps += 1;
          }
          expect((plan.end - now) % tick).toBe(0);
          steps += (plan.end - now) / tick;
          expect(steps).toBe(plan.steps);
          // Every tick length here divides an hour or is whole hours: the skip starts on one.
          const start = Math.ceil(t / 60) * 60;
          expect(plan.end).toBe(start + days * 1440);
          expect(Math.round(gameTime(plan.skips[0]!.atDay, plan.skips[0]!.atHour))).toBe(start);
          if (mode === "jump") {
            expect(plan.skips).toHaveLength(days);
            expect(plan.skips.every((s) => s.days === 1)).toBe(true);
          }
        },
      ),
    );
  });
});
