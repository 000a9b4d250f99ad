/**
 * An NPC's page shows the profile it had at the cursor: the generated one before a
 * revision, the revised one (changed fields over the rest) after it.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type EventType, type GameTime, ids, makeEvent } from "@hearsay/core";
import { type Inspector, type NpcPage, startInspector } from "@hearsay/inspector";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson } from "./harness.ts";

let inspector: Inspector;
let n = 0;
const ev = (type: EventType, t: number, payload: Record<string, unknown>) =>
  makeEvent(type, { id: ids.event(`p${++n}`), t: t as GameTime, payload } as never);

const generated = {
  backstory: "Ada has kept the forge since her father died.",
  personality: "blunt",
  speechStyle: "short sentences",
  goals: ["pay the guild"],
  fears: ["fire"],
  loyalties: ["the guild", "Bram"],
  relationshipSeed: "Ada trusts Bram most.",
};

beforeAll(async () => {
  const path = join(mkdtempSync(join(tmpdir(), "hearsay-profile-")), "p.db");
  const db = openDatabase(path);
  const log = new SqliteEventLog(db);
  const save = ids.save("main");
  log.createSave({ saveId: save, campaignId: ids.campaign("camp"), name: "main" });
  const reg = (npcId: string, name: string) =>
    ev("NpcRegistered", 0, {
      npcId,
      name,
      role: "smith",
      factionId: null,
      locationId: "square",
      traits: [],
    });
  log.append(save, 0, [
    reg("ada", "Ada"),
    reg("bram", "Bram"),
    ev("ProfileGenerated", 60, { npcId: "ada", profile: generated }),
    ev("ProfileRevised", 3000, {
      npcId: "ada",
      changes: { loyalties: ["the guild"], relationshipSeed: "Ada no longer trusts Bram." },
      triggers: ["feud"],
      reason: "Fell out with Bram.",
    }),
    ev("ProfileRevised", 6000, {
      npcId: "ada",
      changes: { goals: ["pay the guild", "take on work that others rely on"] },
      triggers: ["task_completed"],
      reason: "Saw the task through.",
    }),
  ]);
  db.close();
  inspector = await startInspector({ dbPath: path, port: 0, pageDir: null });
});

afterAll(async () => {
  await inspector?.close();
});

const page = async (seq: number) =>
  (await getJson<NpcPage>(inspector.url, `/api/npc?id=ada&at=${seq}`)).body;

describe("the NPC page's profile", () => {
  it("is the one the NPC had at the cursor", async () => {
    expect((await page(2)).profile).toBeNull();
    expect((await page(3)).profile).toEqual(generated);
    expect((await page(4)).profile).toEqual({
      ...generated,
      loyalties: ["the guild"],
      relationshipSeed: "Ada no longer trusts Bram.",
    });
    expect((await page(5)).profile).toEqual({
      ...generated,
      loyalties: ["the guild"],
      relationshipSeed: "Ada no longer trusts Bram.",
      goals: ["pay the guild", "take on work that others rely on"],
    });
  });
});
