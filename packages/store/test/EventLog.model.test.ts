/**
 * Model-based test of the log as a stateful system: random appends (with duplicates),
 * stale appends, branches, rebuilds and snapshot restores against a model that holds
 * only each save's parent link and the ids of its own events.
 */
import type { Event } from "@hearsay/core";
import { ids } from "@hearsay/core";
import { type SqliteEventLog, StaleSeq } from "@hearsay/store";
import { buildSequence, smallWorld } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { freshStore, runs } from "./harness.ts";

interface ModelSave {
  readonly parent: { readonly save: string; readonly seq: number } | null;
  readonly own: Array<Event>;
}
interface Model {
  readonly saves: Map<string, ModelSave>;
  next: number;
}
interface Real {
  readonly log: SqliteEventLog;
}

/** A pool of valid events; each append takes fresh ones from it. */
const pool = buildSequence(
  smallWorld(4),
  Array.from({ length: 400 }, (_, i) => ({
    type: (
      [
        "KnowledgeGained",
        "MemoryRecorded",
        "WorldEventOccurred",
        "ClockAdvanced",
        "NpcMoved",
      ] as const
    )[i % 5]!,
    a: i,
    b: i * 3,
    c: i * 7,
    dt: i % 3,
  })),
);

const history = (m: Model, save: string, cap = Number.POSITIVE_INFINITY): Array<Event> => {
  const s = m.saves.get(save)!;
  const inherited = s.parent ? history(m, s.parent.save, Math.min(s.parent.seq, cap)) : [];
  return [...inherited, ...s.own].slice(0, Math.min(cap, inherited.length + s.own.length));
};

const saveAt = (m: Model, k: number): string => [...m.saves.keys()].sort()[k % m.saves.size]!;

const check = (m: Model, r: Real): void => {
  for (const save of m.saves.keys()) {
    const expected = history(m, save).map((e) => e.id);
    expect(r.log.head(save)).toBe(expected.length);
    expect(r.log.read(save).map((e) => e.id)).toEqual(expected);
  }
};

class Append implements fc.Command<Model, Real> {
  constructor(
    readonly k: number,
    readonly n: number,
    readonly dup: number | null,
  ) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const save = saveAt(m, this.k);
    const h = history(m, save);
    const fresh = pool.slice(m.next, m.next + this.n);
    m.next += this.n;
    const again = this.dup !== null && h.length > 0 ? [h[this.dup % h.length]!] : [];
    const res = r.log.append(save, h.length, [...again, ...fresh]);
    expect(res.skipped).toBe(again.length);
    m.saves.get(save)!.own.push(...fresh);
    check(m, r);
  }
  toString = () => `Append(${this.k}, ${this.n}, dup=${this.dup})`;
}

class StaleAppend implements fc.Command<Model, Real> {
  constructor(readonly k: number) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const save = saveAt(m, this.k);
    const hash = r.log.projectionHash(save);
    const head = history(m, save).length;
    expect(() => r.log.append(save, head + 1, pool.slice(m.next, m.next + 1))).toThrow(StaleSeq);
    expect(r.log.projectionHash(save)).toBe(hash);
    check(m, r);
  }
  toString = () => `StaleAppend(${this.k})`;
}

class Branch implements fc.Command<Model, Real> {
  constructor(
    readonly k: number,
    readonly frac: number,
  ) {}
  check = (m: Readonly<Model>) => m.saves.size < 6;
  run(m: Model, r: Real): void {
    const parent = saveAt(m, this.k);
    const seq = Math.floor(history(m, parent).length * this.frac);
    const id = `save-${m.saves.size}`;
    r.log.createSave({
      saveId: ids.save(id),
      campaignId: ids.campaign("c"),
      name: id,
      parent: { saveId: ids.save(parent), seq },
    });
    m.saves.set(id, { parent: { save: parent, seq }, own: [] });
    // Built from the nearest snapshot plus shared events: equal to a fold from scratch.
    const built = r.log.projectionHash(id);
    r.log.rebuildProjections(id);
    expect(r.log.projectionHash(id)).toBe(built);
    check(m, r);
  }
  toString = () => `Branch(${this.k}, ${this.frac})`;
}

class Refold implements fc.Command<Model, Real> {
  constructor(
    readonly k: number,
    readonly how: "rebuild" | "rebuildAll" | "snapshot" | "restore",
  ) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const save = saveAt(m, this.k);
    const hash = r.log.projectionHash(save);
    if (this.how === "rebuild") r.log.rebuildProjections(save);
    else if (this.how === "rebuildAll") r.log.rebuildProjections();
    else if (this.how === "snapshot") {
      r.log.takeSnapshot(save);
      r.log.restoreFromSnapshot(save);
    } else if (r.log.loadSnapshot(save) !== undefined) {
      // The newest usable snapshot (automatic, or an ancestor's before the branch point).
      r.log.restoreFromSnapshot(save);
    }
    expect(r.log.projectionHash(save)).toBe(hash);
    check(m, r);
  }
  toString = () => `Refold(${this.k}, ${this.how})`;
}

const commands = [
  fc
    .tuple(fc.nat(9), fc.integer({ min: 0, max: 8 }), fc.option(fc.nat(99)))
    .map(([k, n, dup]) => new Append(k, n, dup)),
  fc.nat(9).map((k) => new StaleAppend(k)),
  fc.tuple(fc.nat(9), fc.double({ min: 0, max: 1, noNaN: true })).map(([k, f]) => new Branch(k, f)),
  fc
    .tuple(
      fc.nat(9),
      fc.constantFrom(
        "rebuild" as const,
        "rebuildAll" as const,
        "snapshot" as const,
        "restore" as const,
      ),
    )
    .map(([k, how]) => new Refold(k, how)),
];

describe("the event log as a state machine", () => {
  it("matches a model of saves, branches and their histories under any command sequence", () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 30 }), (cmds) => {
        const { log } = freshStore(7);
        log.createSave({ saveId: ids.save("root"), campaignId: ids.campaign("c"), name: "root" });
        const model: Model = { saves: new Map([["root", { parent: null, own: [] }]]), next: 0 };
        fc.modelRun(() => ({ model, real: { log } }), cmds);
      }),
      { numRuns: runs(40) },
    );
  });
});
