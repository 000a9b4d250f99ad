/**
 * A dossier's open tasks: those the NPC holds or proposed, still proposed or active and
 * proposed by t, newest first (then by id), at most 16 — read as two index lookups. The
 * query is checked against that rule over random task tables, and its plan against a
 * scan of every open task in the world.
 */
import { openDatabase } from "@hearsay/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DossierSource, OPEN_TASKS_SQL } from "../src/DossierSource.ts";

const npcs = ["ana", "bo", "cy"];
const statuses = ["proposed", "active", "completed", "failed", "expired", "rejected"];

interface Task {
  readonly id: string;
  readonly proposedBy: string | null;
  readonly assignee: string | null;
  readonly status: string;
  readonly proposedAt: number;
}

const taskArb = fc.record({
  proposedBy: fc.option(fc.constantFrom(...npcs), { nil: null }),
  assignee: fc.option(fc.constantFrom(...npcs), { nil: null }),
  status: fc.constantFrom(...statuses),
  proposedAt: fc.integer({ min: 0, max: 20 }),
});

const expected = (tasks: ReadonlyArray<Task>, npc: string, t: number) =>
  tasks
    .filter(
      (k) =>
        (k.assignee === npc || k.proposedBy === npc) &&
        (k.status === "proposed" || k.status === "active") &&
        k.proposedAt <= t,
    )
    .sort((a, b) => b.proposedAt - a.proposedAt || (a.id < b.id ? -1 : 1))
    .slice(0, 16)
    .map((k) => k.id);

const storeWith = (tasks: ReadonlyArray<Task>) => {
  const db = openDatabase(":memory:");
  const insert = db.prepare(
    `INSERT INTO tasks (save_id, campaign_id, task_id, title, description, proposed_by, assignee,
       location_id, faction_id, deadline, status, reason, proposed_at, updated_at)
     VALUES ('s', 'c', ?, ?, '', ?, ?, NULL, NULL, NULL, ?, '', ?, ?)`,
  );
  for (const k of tasks)
    insert.run(
      k.id,
      `task ${k.id}`,
      k.proposedBy,
      k.assignee,
      k.status,
      k.proposedAt,
      k.proposedAt,
    );
  return db;
};

describe("open tasks", () => {
  it("are the NPC's as holder or proposer, open and proposed by t, newest first, at most 16", () => {
    fc.assert(
      fc.property(
        fc.array(taskArb, { maxLength: 60 }),
        fc.constantFrom(...npcs),
        fc.integer({ min: -1, max: 21 }),
        (drafts, npc, t) => {
          const tasks = drafts.map((d, i) => ({ ...d, id: `k${String(i).padStart(2, "0")}` }));
          const db = storeWith(tasks);
          const got = new DossierSource(db).openTasks("s", npc, t).map((r) => r.task_id);
          db.close();
          expect(got).toEqual(expected(tasks, npc, t));
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 3000 : 200 },
    );
  });

  it("are read by index, not by scanning every open task of the world", () => {
    const db = openDatabase(":memory:");
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${OPEN_TASKS_SQL}`)
      .all({ saveId: "s", npcId: "ana", t: 0 })
      .map((r) => String((r as { detail: string }).detail));
    const text = plan.join("\n");
    expect(text).toMatch(/USING INDEX tasks_assignee/);
    expect(text).toMatch(/USING INDEX tasks_proposer/);
    expect(text).not.toMatch(/tasks_status|SCAN tasks/);
    db.close();
  });
});
