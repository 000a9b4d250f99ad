import {
  lateDigestColumns,
  migrate,
  migrations,
  openDatabase,
  projectionDigestColumns,
  readDigest,
  recomputeDigest,
} from "@hearsay/store";
import { arbEventBatches } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addLane } from "../src/ProjectionDigest.ts";
import { appendBatches, freshStore, newSave, runs } from "./harness.ts";

const LANE = 2 ** 48;

describe("the incremental projection digest", () => {
  it("always equals the digest recomputed from the rows, after appends, rebuilds and restores", () => {
    fc.assert(
      fc.property(arbEventBatches(), (batches) => {
        const { db, log } = freshStore(7);
        newSave(log, "s");
        appendBatches(log, "s", batches);
        expect(readDigest(db, "s")).toBe(recomputeDigest(db, "s", projectionDigestColumns));
        log.rebuildProjections("s");
        expect(readDigest(db, "s")).toBe(recomputeDigest(db, "s", projectionDigestColumns));
        if (log.snapshots("s").length > 0) {
          log.restoreFromSnapshot("s");
          expect(readDigest(db, "s")).toBe(recomputeDigest(db, "s", projectionDigestColumns));
        }
      }),
      { numRuns: runs(25) },
    );
  });

  it("is the same for the same events in another save, and changes when the state changes", () => {
    fc.assert(
      fc.property(arbEventBatches(), (batches) => {
        const { log } = freshStore();
        newSave(log, "a", "campaign-a");
        newSave(log, "b", "campaign-b");
        const all = batches.flat();
        const half = Math.floor(all.length / 2);
        log.append("a", 0, all.slice(0, half));
        log.append("b", 0, all);
        const partial = log.projectionHash("a");
        log.append("a", log.head("a"), all.slice(half));
        expect(log.projectionHash("a")).toBe(log.projectionHash("b"));
        if (all.slice(half).some((e) => e.type !== "Checkpoint")) {
          expect(log.projectionHash("a")).not.toBe(partial);
        }
      }),
      { numRuns: runs(25) },
    );
  });

  it("is the per-row cyrb53 multiset sum it has always been (recorded Checkpoints depend on it)", () => {
    // The definition, written plainly: each row's key hashed twice, the lanes summed; a
    // table's late columns (added after its rows were first hashed) count only when not
    // null, so rows from before them hash as they did.
    const LANE = 2 ** 48;
    const cyrb53 = (s: string, seed: number): number => {
      let h1 = 0xdeadbeef ^ seed;
      let h2 = 0x41c6ce57 ^ seed;
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        h1 = Math.imul(h1 ^ c, 2654435761);
        h2 = Math.imul(h2 ^ c, 1597334677);
      }
      h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
      h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
      h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
      h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
      return 4294967296 * (2097151 & h2) + (h1 >>> 0);
    };
    const reference = (db: Parameters<typeof readDigest>[0], save: string): string => {
      let a = 0;
      let b = 0;
      for (const [table, cols] of projectionDigestColumns) {
        const rows = db
          .prepare(`SELECT ${cols.join(", ")} FROM ${table} WHERE save_id = ?`)
          .raw()
          .all(save) as Array<Array<unknown>>;
        const late = lateDigestColumns.get(table) ?? 0;
        for (const full of rows) {
          let end = full.length;
          while (end > full.length - late && full[end - 1] === null) end--;
          const row = full.slice(0, end);
          let key = table;
          for (const v of row) {
            key +=
              v === null
                ? "\u0001\u0000"
                : typeof v === "number"
                  ? `\u0001n${v}`
                  : `\u0001s${String(v)}`;
          }
          a = (a + (cyrb53(key, 1) % LANE)) % LANE;
          b = (b + (cyrb53(key, 2) % LANE)) % LANE;
        }
      }
      return `${a.toString(16).padStart(12, "0")}${b.toString(16).padStart(12, "0")}`;
    };
    fc.assert(
      fc.property(arbEventBatches(), (batches) => {
        const { db, log } = freshStore();
        newSave(log, "s");
        appendBatches(log, "s", batches);
        expect(readDigest(db, "s")).toBe(reference(db, "s"));
        log.rebuildProjections();
        expect(readDigest(db, "s")).toBe(reference(db, "s"));
      }),
      { numRuns: runs(10) },
    );
  });

  it("a database from before world events lapsed keeps its digest through the migration, and counts a lapse once set", () => {
    const before = migrations.filter((m) => m.version < 6);
    const db = openDatabase(":memory:", { migrations: before });
    const insert = db.prepare(
      `INSERT INTO world_events (save_id, campaign_id, world_event_id, t, kind, text, location_id,
        faction_id, visibility, importance, participants, entities) VALUES ('s', 'c', ?, 60, 'storm',
        'a storm', NULL, NULL, 'global', 0.5, '[]', '[]')`,
    );
    insert.run("w1");
    insert.run("w2");
    const lapsing = projectionDigestColumns.get("world_events")!;
    const v5Columns = new Map([...projectionDigestColumns].filter(([t]) => t !== "world_events"));
    v5Columns.set("world_events", lapsing.slice(0, -1));
    const digestBefore = recomputeDigest(db, "s", v5Columns);
    migrate(db, ":memory:", migrations);
    expect(recomputeDigest(db, "s", projectionDigestColumns)).toBe(digestBefore);
    db.prepare("UPDATE world_events SET lapses_at = 600 WHERE world_event_id = 'w2'").run();
    expect(recomputeDigest(db, "s", projectionDigestColumns)).not.toBe(digestBefore);
    db.close();
  });

  it("property: a lane moves by a row's value modulo 2^48, as the float remainder gives it", () => {
    const lane = fc.oneof(
      fc.constantFrom(0, 1, LANE / 2, LANE - 1),
      fc.integer({ min: 0, max: LANE - 1 }),
    );
    fc.assert(
      fc.property(lane, lane, fc.constantFrom(1, -1), (l, v, sign) => {
        expect(addLane(l, sign, v)).toBe((((l + sign * v) % LANE) + LANE) % LANE);
      }),
      { numRuns: runs(500) },
    );
  });

  it("an empty save's digest is all zeros", () => {
    const { db, log } = freshStore();
    newSave(log, "s");
    expect(readDigest(db, "s")).toBe("0".repeat(24));
  });
});
