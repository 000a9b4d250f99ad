import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KnownList } from "../src/KnownList.ts";

// KnownList is internal to the package (not exported), so this model test imports it directly.

interface Model {
  readonly facts: Map<number, number>;
  /** Items in the order they were first added. */
  readonly order: Array<number>;
}

class Add implements fc.Command<Model, KnownList> {
  constructor(
    readonly local: number,
    readonly t: number,
  ) {}
  check = () => true;
  run(m: Model, r: KnownList): void {
    const prior = m.facts.get(this.local);
    if (prior === undefined) m.order.push(this.local);
    if (prior === undefined || this.t < prior) m.facts.set(this.local, this.t);
    expect(r.add(this.local, this.t)).toBe(prior === undefined);
    expect(r.size).toBe(m.facts.size);
  }
  toString = () => `add(${this.local}, ${this.t})`;
}

class Lookup implements fc.Command<Model, KnownList> {
  constructor(readonly local: number) {}
  check = () => true;
  run(m: Model, r: KnownList): void {
    expect(r.timeOf(this.local)).toBe(m.facts.get(this.local) ?? -1);
  }
  toString = () => `timeOf(${this.local})`;
}

class Scan implements fc.Command<Model, KnownList> {
  check = () => true;
  run(m: Model, r: KnownList): void {
    const seen = new Map<number, number>();
    r.forEach((l, t) => {
      expect(seen.has(l)).toBe(false);
      seen.set(l, t);
    });
    expect(seen).toEqual(m.facts);
  }
  toString = () => "forEach";
}

class KnownBy implements fc.Command<Model, KnownList> {
  constructor(readonly t: number) {}
  check = () => true;
  run(m: Model, r: KnownList): void {
    const out = new Int32Array(r.size);
    const n = r.knownBy(this.t, out);
    const expected: Array<number> = [];
    r.forEach((l, t) => {
      if (t <= this.t) expected.push(l);
    });
    expect(Array.from(out.subarray(0, n))).toEqual(expected);
    expect(n).toBe([...m.facts.values()].filter((t) => t <= this.t).length);
  }
  toString = () => `knownBy(${this.t})`;
}

class Since implements fc.Command<Model, KnownList> {
  constructor(readonly from: number) {}
  check = () => true;
  run(m: Model, r: KnownList): void {
    const from = Math.min(this.from, m.order.length);
    const seen: Array<number> = [];
    r.forEachAddedSince(from, (l) => seen.push(l));
    expect(seen).toEqual(m.order.slice(from));
  }
  toString = () => `forEachAddedSince(${this.from})`;
}

describe("KnownList", () => {
  it("behaves like a map of earliest times (model-based)", () => {
    const local = fc.integer({ min: 0, max: 400 });
    const commands = [
      fc.tuple(local, fc.integer({ min: 0, max: 1000 })).map(([l, t]) => new Add(l, t)),
      local.map((l) => new Lookup(l)),
      fc.constant(new Scan()),
      fc.integer({ min: -1, max: 1001 }).map((t) => new KnownBy(t)),
      fc.nat(500).map((n) => new Since(n)),
    ];
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 600 }), (cmds) => {
        fc.modelRun(
          () => ({ model: { facts: new Map(), order: [] }, real: new KnownList() }),
          cmds,
        );
      }),
      { numRuns: process.env.HEARSAY_DEEP ? 2000 : 60 },
    );
  });

  it("behaves the same once big enough to keep a membership bitmap (model-based)", () => {
    // Lists of 1,024 facts or more answer "no" from a bitmap: start above that, with
    // items beyond the bitmap's first size so adds must grow it.
    const local = fc.integer({ min: -3, max: 200_000 });
    const commands = [
      fc
        .tuple(
          local.filter((l) => l >= 0),
          fc.integer({ min: 0, max: 1000 }),
        )
        .map(([l, t]) => new Add(l, t)),
      local.map((l) => new Lookup(l)),
      fc.constant(new Scan()),
      fc.integer({ min: -1, max: 1001 }).map((t) => new KnownBy(t)),
      fc.nat(1300).map((n) => new Since(n)),
    ];
    const seed = fc.array(fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.nat(1000)), {
      minLength: 1100,
      maxLength: 1200,
    });
    fc.assert(
      fc.property(seed, fc.commands(commands, { maxCommands: 150 }), (facts, cmds) => {
        const setup = () => {
          const real = new KnownList();
          real.load(
            facts.map((f) => f[0]),
            facts.map((f) => f[1]),
          );
          const model = new Map<number, number>();
          for (const [l, t] of facts) model.set(l, Math.min(t, model.get(l) ?? t));
          // Every loaded item answers from the bitmap too.
          for (const [l] of facts) expect(real.timeOf(l)).toBe(model.get(l));
          // A bulk load counts as added in item order.
          const order = [...model.keys()].sort((a, b) => a - b);
          return { model: { facts: model, order }, real };
        };
        fc.modelRun(setup, cmds);
      }),
      { numRuns: process.env.HEARSAY_DEEP ? 100 : 12 },
    );
  });

  it("answers for the items of a second bulk load, not the first's", () => {
    const k = new KnownList();
    const first = Array.from({ length: 1100 }, (_, i) => 2 * i);
    k.load(first, first);
    const second = first.map((l) => l + 1);
    k.load(second, second);
    expect(k.timeOf(5)).toBe(5);
    expect(k.timeOf(4)).toBe(-1);
    expect(k.add(7, 1)).toBe(false);
    expect(k.add(8, 1)).toBe(true);
    expect(k.size).toBe(1101);
  });

  it("bulk-loads with duplicates keeping the earliest time", () => {
    const k = new KnownList();
    k.load([5, 3, 5, 9], [10, 4, 2, 7]);
    expect([k.timeOf(5), k.timeOf(3), k.timeOf(9), k.timeOf(1)]).toEqual([2, 4, 7, -1]);
    expect(k.size).toBe(3);
  });
});
