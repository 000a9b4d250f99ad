import { DueIndex } from "@hearsay/actors";
import { type GameTime, MINUTES_PER_DAY } from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const keys = ["a", "b", "c", "d", "e", "f"] as const;
type Key = (typeof keys)[number];

/** The model: what is scheduled, by key, and the time taking has reached. */
interface Model {
  readonly due: Map<Key, number>;
  now: number;
}

class SetCommand implements fc.Command<Model, DueIndex<Key>> {
  constructor(
    readonly key: Key,
    readonly offset: number | null,
  ) {}
  check = () => true;
  run(m: Model, r: DueIndex<Key>): void {
    // Schedules may lie in the past: a resumed clock holds wake-ups already due.
    const due = this.offset === null ? null : Math.max(0, m.now + this.offset);
    r.set(this.key, due);
    if (due === null) m.due.delete(this.key);
    else m.due.set(this.key, due);
    expect(r.dueAt(this.key)).toBe(due ?? undefined);
    expect(r.size).toBe(m.due.size);
  }
  toString = () => `set(${this.key}, ${this.offset})`;
}

class TakeCommand implements fc.Command<Model, DueIndex<Key>> {
  constructor(readonly step: number) {}
  check = () => true;
  run(m: Model, r: DueIndex<Key>): void {
    m.now += this.step;
    const expected = [...m.due].filter(([, due]) => due <= m.now).map(([k]) => k);
    expected.sort();
    // A peek sees what a take would take, and leaves it scheduled.
    expect(r.peekDue(m.now as GameTime)).toEqual(expected);
    expect(r.size).toBe(m.due.size);
    expect(r.takeDue(m.now as GameTime)).toEqual(expected);
    for (const k of expected) m.due.delete(k);
    expect(r.size).toBe(m.due.size);
    expect(new Map(r.entries())).toEqual(m.due);
  }
  toString = () => `take(+${this.step})`;
}

describe("DueIndex", () => {
  it("model: every scheduled key comes due exactly once, at the first take at or after its time, in key order", () => {
    const commands = [
      fc
        .tuple(
          fc.constantFrom(...keys),
          // Hours, as ticks are: a schedule and a take often fall on the same minute.
          fc.option(
            fc.integer({ min: -24, max: 120 }).map((h) => h * 60),
            { nil: null },
          ),
        )
        .map(([k, o]) => new SetCommand(k, o)),
      fc.integer({ min: 0, max: 48 }).map((h) => new TakeCommand(h * 60)),
    ];
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 60 }), (cmds) => {
        fc.modelRun(() => ({ model: { due: new Map(), now: 0 }, real: new DueIndex<Key>() }), cmds);
      }),
    );
  });

  it("model: the same at any minute, with many keys sharing and leaving times", () => {
    const commands = [
      fc
        .tuple(
          fc.constantFrom(...keys),
          fc.option(fc.integer({ min: -90, max: 3 * MINUTES_PER_DAY }), { nil: null }),
        )
        .map(([k, o]) => new SetCommand(k, o === null ? null : o - (o % 7))),
      fc.integer({ min: 0, max: 600 }).map((m) => new TakeCommand(m)),
    ];
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 200 }), (cmds) => {
        fc.modelRun(() => ({ model: { due: new Map(), now: 0 }, real: new DueIndex<Key>() }), cmds);
      }),
    );
  });

  it("a key rescheduled before it came due comes due only at its new time", () => {
    const index = new DueIndex<Key>();
    index.set("a", 30);
    index.set("a", MINUTES_PER_DAY + 30);
    expect(index.takeDue(60 as GameTime)).toEqual([]);
    expect(index.takeDue((MINUTES_PER_DAY + 30) as GameTime)).toEqual(["a"]);
    expect(index.takeDue((10 * MINUTES_PER_DAY) as GameTime)).toEqual([]);
  });
});
