import {
  BrainUnavailable,
  HostPool,
  type HostTicket,
  InvalidAnswer,
  type ModelHost,
  servesModel,
} from "@hearsay/mind";
import { Deferred, Effect, Exit, Fiber } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runs } from "./arbitraries.ts";

const models = ["big", "small"];
const lanes = ["a", "b", "c"];

interface Real {
  readonly pool: HostPool;
  readonly hosts: ReadonlyArray<ModelHost>;
  clock: number;
  nextId: number;
  readonly waiting: Map<number, HostTicket>;
  readonly running: Array<{ id: number; host: number; model: string }>;
  readonly refused: Array<number>;
}

/** The hosts a waiting or new call may take: untried servers of its model, the up ones first. */
const preferred = (r: Real, model: string, tried: ReadonlySet<number>): Array<number> => {
  const stats = r.pool.stats();
  const serving = r.hosts.flatMap((h, i) => (servesModel(h, model) && !tried.has(i) ? [i] : []));
  const up = serving.filter((i) => r.clock >= stats.hosts[i]!.drainedUntil);
  return up.length > 0 ? up : serving;
};

const free = (r: Real, host: number) => {
  const h = r.pool.stats().hosts[host]!;
  return h.concurrency - h.running;
};

const invariants = (r: Real) => {
  const stats = r.pool.stats();
  for (const h of stats.hosts) {
    expect(h.running).toBeGreaterThanOrEqual(0);
    expect(h.running).toBeLessThanOrEqual(h.concurrency);
  }
  expect(stats.running).toBe(r.running.length);
  expect(stats.waiting).toBe(r.waiting.size);
  // Work-conserving: nothing waits while a host it may take has a free slot.
  for (const ticket of r.waiting.values()) {
    const hosts = preferred(r, ticket.model, ticket.tried);
    expect(hosts.length).toBeGreaterThan(0);
    for (const h of hosts) expect(free(r, h)).toBe(0);
  }
};

class Enqueue implements fc.Command<Real, Real> {
  constructor(
    readonly lane: string,
    readonly model: string,
    readonly tried: ReadonlyArray<number>,
  ) {}
  check = () => true;
  run(_: Real, r: Real) {
    const id = r.nextId++;
    const tried = new Set(this.tried.filter((t) => t < r.hosts.length));
    const ticket = r.pool.enqueue(
      this.lane,
      this.model,
      tried,
      (host) => {
        // The host serves the model, is untried, is among the preferred, and had the
        // most free slots of them (its own count already taken).
        const hosts = preferred(r, this.model, tried);
        expect(hosts).toContain(host);
        for (const h of hosts) expect(free(r, host) + 1).toBeGreaterThanOrEqual(free(r, h));
        r.waiting.delete(id);
        r.running.push({ id, host, model: this.model });
      },
      () => {
        // Refused only when no host serves the model untried.
        expect(r.hosts.some((h, i) => servesModel(h, this.model) && !tried.has(i))).toBe(false);
        r.waiting.delete(id);
        r.refused.push(id);
      },
    );
    if (!ticket.done) r.waiting.set(id, ticket);
    invariants(r);
  }
  toString = () => `Enqueue(${this.lane}, ${this.model}, [${this.tried}])`;
}

class Finish implements fc.Command<Real, Real> {
  constructor(
    readonly pick: number,
    readonly failed: boolean,
  ) {}
  check = (r: Readonly<Real>) => r.running.length > 0;
  run(_: Real, r: Real) {
    const [job] = r.running.splice(this.pick % r.running.length, 1);
    const before = r.pool.stats().hosts[job!.host]!;
    r.pool.release(job!.host, this.failed);
    const after = r.pool.stats().hosts[job!.host]!;
    if (this.failed) {
      expect(after.drainedUntil).toBeGreaterThan(r.clock);
      expect(after.failures).toBe(before.failures + (r.clock >= before.drainedUntil ? 1 : 0));
    } else expect(after.failures).toBe(0);
    invariants(r);
  }
  toString = () => `Finish(${this.pick}, ${this.failed ? "failed" : "ok"})`;
}

class Cancel implements fc.Command<Real, Real> {
  constructor(readonly pick: number) {}
  check = (r: Readonly<Real>) => r.waiting.size > 0;
  run(_: Real, r: Real) {
    const [id, ticket] = [...r.waiting.entries()][this.pick % r.waiting.size]!;
    expect(r.pool.cancel(ticket)).toBe(true);
    r.waiting.delete(id);
    invariants(r);
  }
  toString = () => `Cancel(${this.pick})`;
}

class Advance implements fc.Command<Real, Real> {
  constructor(readonly ms: number) {}
  check = () => true;
  run(_: Real, r: Real) {
    r.clock += this.ms;
  }
  toString = () => `Advance(${this.ms})`;
}

const hostArb = fc.record({
  url: fc.constantFrom("http://a:1", "http://b:2", "http://c:3"),
  concurrency: fc.integer({ min: 1, max: 3 }),
  models: fc.option(fc.subarray(models, { minLength: 1 }), { nil: null }),
});

describe("HostPool scheduling", () => {
  it("grants only hosts serving the call's model with a free slot, the most free first, up hosts before drained ones, and idles no slot a waiting call could take", () => {
    fc.assert(
      fc.property(
        fc.array(hostArb, { minLength: 1, maxLength: 3 }),
        fc.commands(
          [
            fc
              .tuple(
                fc.constantFrom(...lanes),
                fc.constantFrom(...models),
                fc.subarray([0, 1, 2], { maxLength: 1 }),
              )
              .map(([l, m, t]) => new Enqueue(l, m, t)),
            fc.tuple(fc.nat(), fc.boolean()).map(([p, f]) => new Finish(p, f)),
            fc.nat().map((p) => new Cancel(p)),
            fc.constantFrom(500, 3_000, 10_000).map((ms) => new Advance(ms)),
          ],
          { maxCommands: 60 },
        ),
        (hosts, commands) => {
          const real: Real = {
            pool: HostPool.make(hosts, { now: () => real.clock, backoffMs: 1_000 }),
            hosts,
            clock: 0,
            nextId: 0,
            waiting: new Map(),
            running: [],
            refused: [],
          };
          fc.modelRun(() => ({ model: real, real }), commands);
        },
      ),
      { numRuns: runs(200) },
    );
  });
});

const down = (url: string) =>
  new BrainUnavailable({ brain: "ollama", model: "m", kind: "unreachable", reason: `${url} down` });
const hostFailed = (e: BrainUnavailable | InvalidAnswer) => e._tag === "BrainUnavailable";
const two: ReadonlyArray<ModelHost> = [
  { url: "http://a:1", concurrency: 2, models: null },
  { url: "http://b:2", concurrency: 2, models: null },
];

describe("HostPool.run", () => {
  it("sends a call that fails on its host to another, drains the failed host, and tries it again after its backoff", async () => {
    let clock = 0;
    const pool = HostPool.make(two, { now: () => clock, backoffMs: 1_000 });
    const dead = new Set(["http://a:1"]);
    const asked: Array<string> = [];
    const job = (host: ModelHost) =>
      Effect.suspend(() => {
        asked.push(host.url);
        return dead.has(host.url) ? Effect.fail(down(host.url)) : Effect.succeed(host.url);
      });
    const call = () => Effect.runPromise(pool.run("x", "m", job, hostFailed));
    expect(await call()).toBe("http://b:2");
    expect(asked).toEqual(["http://a:1", "http://b:2"]);
    // Drained: while its backoff lasts, calls go to the live host only.
    for (let i = 0; i < 5; i++) expect(await call()).toBe("http://b:2");
    expect(asked.filter((u) => u === "http://a:1")).toHaveLength(1);
    // Backoff over, still dead: tried again, drained for twice as long.
    clock = 1_000;
    expect(await call()).toBe("http://b:2");
    expect(asked.filter((u) => u === "http://a:1")).toHaveLength(2);
    expect(pool.stats().hosts[0]).toMatchObject({ failures: 2, drainedUntil: 3_000 });
    // Back up: after the backoff it answers again and is healthy.
    dead.clear();
    clock = 3_000;
    const answered = await Promise.all([call(), call(), call(), call()]);
    expect(answered.filter((u) => u === "http://a:1").length).toBeGreaterThan(0);
    expect(pool.stats().hosts[0]).toMatchObject({ failures: 0, running: 0 });
    expect(pool.stats().hosts[1]!.running).toBe(0);
  });

  it("fails with the last host's error when every host fails, and does not re-send a bad answer", async () => {
    const pool = HostPool.make(two);
    const asked: Array<string> = [];
    const failing = (host: ModelHost) =>
      Effect.suspend(() => {
        asked.push(host.url);
        return Effect.fail(down(host.url));
      });
    const exit = await Effect.runPromiseExit(pool.run("x", "m", failing, hostFailed));
    expect(asked).toEqual(["http://a:1", "http://b:2"]);
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("http://b:2 down");
    const invalid = new InvalidAnswer({
      brain: "ollama",
      model: "m",
      purpose: "act",
      problem: "bad",
      raw: "",
    });
    asked.length = 0;
    const bad = await Effect.runPromiseExit(
      pool.run(
        "x",
        "m",
        (h) =>
          Effect.suspend(() => {
            asked.push(h.url);
            return Effect.fail(invalid);
          }),
        hostFailed,
      ),
    );
    expect(Exit.isFailure(bad)).toBe(true);
    expect(asked).toHaveLength(1);
    expect(pool.stats().running).toBe(0);
  });

  it("refuses a model no host serves, naming the setting", async () => {
    const pool = HostPool.make([{ url: "http://a:1", concurrency: 1, models: ["big"] }]);
    const exit = await Effect.runPromiseExit(
      pool.run(
        "x",
        "small",
        () => Effect.succeed(1),
        () => true,
      ),
    );
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toMatch(
      /no configured host serves small/,
    );
  });

  it("gives back its slot when interrupted while running or while waiting", async () => {
    const pool = HostPool.make([{ url: "http://a:1", concurrency: 1, models: null }]);
    const gate = Deferred.makeUnsafe<void>();
    const holding = Effect.runFork(
      pool.run(
        "x",
        "m",
        () => Deferred.await(gate),
        () => false,
      ),
    );
    await new Promise((r) => setTimeout(r, 10));
    const waiting = Effect.runFork(
      pool.run(
        "y",
        "m",
        () => Effect.succeed(2),
        () => false,
      ),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(pool.stats()).toMatchObject({ running: 1, waiting: 1 });
    await Effect.runPromise(Fiber.interrupt(waiting));
    expect(pool.stats()).toMatchObject({ running: 1, waiting: 0 });
    await Effect.runPromise(Fiber.interrupt(holding));
    expect(pool.stats()).toMatchObject({ running: 0, waiting: 0 });
    expect(
      await Effect.runPromise(
        pool.run(
          "z",
          "m",
          () => Effect.succeed(3),
          () => false,
        ),
      ),
    ).toBe(3);
  });
});
