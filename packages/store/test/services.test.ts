import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ids } from "@hearsay/core";
import { EventLog, Projections, Snapshots, StoreDatabase, storeLayer } from "@hearsay/store";
import { buildSequence, smallWorld } from "@hearsay/testkit";
import { Effect, Exit } from "effect";
import { describe, expect, it } from "vitest";

const events = buildSequence(smallWorld(3), []);

const program = Effect.gen(function* () {
  const log = yield* EventLog;
  const projections = yield* Projections;
  const snapshots = yield* Snapshots;
  yield* log.createSave({ saveId: ids.save("s"), campaignId: ids.campaign("c"), name: "main" });
  const r = yield* log.append("s", 0, events);
  const stale = yield* Effect.flip(log.append("s", 0, events));
  const invalid = yield* Effect.flip(log.append("s", r.head, [{ type: "NpcMoved" }]));
  const hash = yield* projections.hash("s");
  yield* snapshots.take("s");
  const folded = yield* projections.rebuild("s");
  const missing = yield* Effect.flip(snapshots.load("nope"));
  const restored = yield* snapshots.restore("s");
  return {
    head: r.head,
    stale: stale._tag,
    invalid: invalid._tag,
    sameHash: hash === (yield* projections.hash("s")),
    folded,
    missing: missing._tag,
    restored,
    knows: yield* projections.knowsAt("s", smallWorld(3).npcs[0]!.id, "lore", "x", 0 as never),
  };
});

describe("Effect services", () => {
  it("EventLog, Projections and Snapshots over one database, with typed failures", async () => {
    const out = await Effect.runPromise(program.pipe(Effect.provide(storeLayer(":memory:"))));
    expect(out).toEqual({
      head: events.length,
      stale: "StaleSeq",
      invalid: "InvalidEvent",
      sameHash: true,
      folded: events.length,
      missing: "UnknownSave",
      restored: { fromSeq: events.length, folded: 0 },
      knows: true,
    });
  });

  it("the database layer closes its connection when the scope ends, and reopening keeps the log", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hearsay-svc-"));
    try {
      const path = join(dir, "w.db");
      const db = await Effect.runPromise(
        Effect.gen(function* () {
          const store = yield* StoreDatabase;
          yield* (yield* EventLog).createSave({
            saveId: ids.save("s"),
            campaignId: ids.campaign("c"),
            name: "m",
          });
          yield* (yield* EventLog).append("s", 0, events);
          return store.db;
        }).pipe(Effect.provide(storeLayer(path))),
      );
      expect(db.open).toBe(false);
      const head = await Effect.runPromise(
        Effect.gen(function* () {
          return yield* (yield* EventLog).head("s");
        }).pipe(Effect.provide(storeLayer(path))),
      );
      expect(head).toBe(events.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("opening a non-SQLite file fails the layer with NotADatabase", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hearsay-svc-"));
    try {
      const path = join(dir, "junk.db");
      writeFileSync(path, "x".repeat(100));
      const exit = await Effect.runPromiseExit(Effect.provide(Effect.void, storeLayer(path)));
      expect(Exit.isFailure(exit)).toBe(true);
      expect(JSON.stringify(exit)).toContain("NotADatabase");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
