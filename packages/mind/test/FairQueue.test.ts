import { FairQueue } from "@hearsay/mind";
import { Deferred, Effect, Fiber } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runs } from "./arbitraries.ts";

/** The real queue plus the jobs it has started, in start order. */
interface Real {
  readonly queue: FairQueue;
  readonly started: Array<{ id: number; lane: string }>;
  readonly tickets: Map<number, ReturnType<FairQueue["enqueue"]>>;
}

/** What a fair queue must do, stated plainly. */
interface Model {
  limit: number;
  running: Array<number>;
  waiting: Array<{ id: number; lane: string }>;
  /** Lanes in the order they will be served. */
  ring: Array<string>;
  nextId: number;
}

const lanes = ["a", "b", "c"];

/** Starts what the model says should start; returns those job ids in start order. */
const pumpModel = (m: Model): Array<number> => {
  const started: Array<number> = [];
  while (m.running.length < m.limit && m.ring.length > 0) {
    const lane = m.ring.shift() as string;
    const i = m.waiting.findIndex((w) => w.lane === lane);
    const [job] = m.waiting.splice(i, 1);
    m.running.push(job!.id);
    started.push(job!.id);
    if (m.waiting.some((w) => w.lane === lane)) m.ring.push(lane);
  }
  return started;
};

class Enqueue implements fc.Command<Model, Real> {
  constructor(readonly lane: string) {}
  check = () => true;
  run(m: Model, r: Real) {
    const id = m.nextId++;
    const before = r.started.length;
    r.tickets.set(
      id,
      r.queue.enqueue(this.lane, () => r.started.push({ id, lane: this.lane })),
    );
    m.waiting.push({ id, lane: this.lane });
    if (!m.ring.includes(this.lane)) m.ring.push(this.lane);
    expect(r.started.slice(before).map((s) => s.id)).toEqual(pumpModel(m));
    invariants(m, r);
  }
  toString = () => `Enqueue(${this.lane})`;
}

class Finish implements fc.Command<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.running.length > 0;
  run(m: Model, r: Real) {
    m.running.splice(this.pick % m.running.length, 1);
    const before = r.started.length;
    r.queue.release();
    expect(r.started.slice(before).map((s) => s.id)).toEqual(pumpModel(m));
    invariants(m, r);
  }
  toString = () => `Finish(${this.pick})`;
}

class Cancel implements fc.Command<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.waiting.length > 0;
  run(m: Model, r: Real) {
    const [job] = m.waiting.splice(this.pick % m.waiting.length, 1);
    if (!m.waiting.some((w) => w.lane === job!.lane)) m.ring.splice(m.ring.indexOf(job!.lane), 1);
    expect(r.queue.cancel(r.tickets.get(job!.id)!)).toBe(true);
    invariants(m, r);
  }
  toString = () => `Cancel(${this.pick})`;
}

const invariants = (m: Model, r: Real) => {
  const stats = r.queue.stats();
  expect(stats.running).toBe(m.running.length);
  expect(stats.waiting).toBe(m.waiting.length);
  expect(stats.running).toBeLessThanOrEqual(m.limit);
  if (stats.waiting > 0) expect(stats.running).toBe(m.limit);
  expect(stats.lanes).toBe(m.ring.length);
};

describe("FairQueue", () => {
  it("never runs more than its limit, serves lanes round-robin and FIFO within a lane (model-based)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }),
        fc.commands(
          [
            fc.constantFrom(...lanes).map((l) => new Enqueue(l)),
            fc.nat(5).map((p) => new Finish(p)),
            fc.nat(5).map((p) => new Cancel(p)),
          ],
          { size: "+1" },
        ),
        (limit, cmds) => {
          const real: Real = { queue: FairQueue.make(limit), started: [], tickets: new Map() };
          fc.modelRun(
            () => ({ model: { limit, running: [], waiting: [], ring: [], nextId: 0 }, real }),
            cmds,
          );
          // FIFO within each lane.
          for (const lane of lanes) {
            const ids = real.started.filter((s) => s.lane === lane).map((s) => s.id);
            expect(ids).toEqual([...ids].sort((a, b) => a - b));
          }
        },
      ),
      { numRuns: runs(200) },
    );
  });

  it("does not let a busy lane starve a quiet one", () => {
    const q = FairQueue.make(1);
    const order: Array<string> = [];
    for (let i = 0; i < 50; i++) q.enqueue("busy", () => order.push("busy"));
    q.enqueue("quiet", () => order.push("quiet"));
    for (let i = 0; i < 3; i++) q.release();
    expect(order.slice(0, 3)).toEqual(["busy", "busy", "quiet"]);
  });

  it("run() releases its slot on success, failure and interruption, and leaves the queue when interrupted", async () => {
    const q = FairQueue.make(1);
    await Effect.runPromise(q.run("x", Effect.succeed(1)));
    await Effect.runPromiseExit(q.run("x", Effect.fail("boom")));
    expect(q.stats()).toEqual({ running: 0, waiting: 0, lanes: 0 });
    const program = Effect.gen(function* () {
      const gate = yield* Deferred.make<void>();
      const holder = yield* Effect.forkChild(q.run("a", Deferred.await(gate)));
      yield* Effect.yieldNow;
      const waiter = yield* Effect.forkChild(q.run("b", Effect.succeed("never")));
      yield* Effect.yieldNow;
      expect(q.stats()).toEqual({ running: 1, waiting: 1, lanes: 1 });
      yield* Fiber.interrupt(waiter);
      expect(q.stats()).toEqual({ running: 1, waiting: 0, lanes: 0 });
      yield* Fiber.interrupt(holder);
      expect(q.stats()).toEqual({ running: 0, waiting: 0, lanes: 0 });
      return yield* q.run("c", Effect.succeed("after"));
    });
    expect(await Effect.runPromise(program)).toBe("after");
  });

  it("runPromise bounds concurrent promises", async () => {
    const q = FairQueue.make(2);
    let now = 0;
    let peak = 0;
    const job = async () => {
      now++;
      peak = Math.max(peak, now);
      await new Promise((r) => setImmediate(r));
      now--;
    };
    await Promise.all(Array.from({ length: 10 }, (_, i) => q.runPromise(`l${i % 3}`, job)));
    expect(peak).toBe(2);
    expect(q.stats().running).toBe(0);
  });
});
