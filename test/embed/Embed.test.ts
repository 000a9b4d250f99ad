/**
 * The library example (`examples/embed/`) run from the workspace, on the packages'
 * sources: it opens a world, runs a day, reads a dossier and talks to an NPC through
 * the public exports, and what it did is in its database.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ids } from "@hearsay/core";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot, runNode } from "../support/hearsayCli.ts";
import { expectExampleRan } from "./runExample.ts";

const dir = mkdtempSync(join(tmpdir(), "hearsay-embed-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("examples/embed", () => {
  it("runs a day, prints a dossier and a reply, and stores the talk", async () => {
    const db = join(dir, "world.db");
    const r = await runNode([join(repoRoot, "examples", "embed", "main.mjs"), db]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectExampleRan(r.stdout);
    const handle = openDatabase(db);
    try {
      const types = new SqliteEventLog(handle).read(ids.save("main")).map((e) => e.type);
      expect(types).toContain("SimulationStarted");
      expect(types.filter((t) => t === "ConversationTurn").length).toBeGreaterThanOrEqual(2);
    } finally {
      handle.close();
    }
  });
});
