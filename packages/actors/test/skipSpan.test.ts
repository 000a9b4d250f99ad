import { elisionEnd, emptySchedule, foldSchedule, nextStep, skipEnd } from "@hearsay/actors";
import {
  type Activity,
  type GameTime,
  ids,
  MINUTES_PER_DAY,
  makeEvent,
  type NpcId,
} from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const changed = (npcId: string, activity: Activity, until: number | null) =>
  makeEvent("NpcActivityChanged", {
    id: ids.event(`e-${npcId}`),
    t: 0 as GameTime,
    payload: {
      npcId: npcId as NpcId,
      activity,
      locationId: ids.location("home"),
      destination: null,
      until: until as GameTime | null,
      taskId: null,
      attendingTo: [],
      holding: [],
      note: "",
    },
  });

const arbActivity = fc.constantFrom<Activity>("asleep", "working", "travelling", "idle");

describe("skip spans", () => {
  it("property: a jump of N days ends exactly N days on, never past the run's end", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 400 * 24 }).map((h) => h * 60),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 0, max: 800 * 24 }).map((h) => h * 60),
        (t, days, endAt) => {
          const to = skipEnd(
            emptySchedule(),
            t as GameTime,
            { mode: "jump", days },
            endAt as GameTime,
          );
          expect(to).toBe(Math.min(t + days * MINUTES_PER_DAY, endAt));
        },
      ),
    );
  });

  it("property: an elision ends when the last awake activity does, at most a day on", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 * MINUTES_PER_DAY }),
        fc.array(
          fc.tuple(
            fc.constantFrom("ada", "bo", "cy", "di"),
            arbActivity,
            fc.option(fc.integer({ min: -MINUTES_PER_DAY, max: 2 * MINUTES_PER_DAY })),
          ),
          { maxLength: 12 },
        ),
        (t, changes) => {
          const schedule = emptySchedule();
          const last = new Map<string, { activity: Activity; until: number | null }>();
          for (const [id, activity, offset] of changes) {
            const until = offset === null ? null : Math.max(0, t + offset);
            foldSchedule(schedule, changed(id, activity, until));
            last.set(id, { activity, until });
          }
          let latest = t;
          for (const { activity, until } of last.values())
            if (activity !== "asleep" && until !== null) latest = Math.max(latest, until);
          expect(elisionEnd(schedule, t as GameTime)).toBe(Math.min(latest, t + MINUTES_PER_DAY));
        },
      ),
    );
  });

  it("property: a skip's steps are contiguous, a tick long but the last, and end at its end", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 5 * MINUTES_PER_DAY }),
        fc.integer({ min: 15, max: 600 }),
        (from, span, tick) => {
          const to = (from + span) as GameTime;
          let t = from as GameTime;
          let steps = 0;
          while (t < to) {
            const next = nextStep(t, to, tick);
            expect(next - t).toBeGreaterThan(0);
            if (next < to) expect(next - t).toBe(tick);
            t = next;
            steps += 1;
          }
          expect(t).toBe(to);
          expect(steps).toBe(Math.ceil(span / tick));
        },
      ),
    );
  });
});
