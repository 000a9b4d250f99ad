import { makeHashingEmbedder, RetrievalEngine, VectorIndexes } from "@hearsay/retrieval";
import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { ev, openWorld } from "./fixtures.ts";

describe("a revised profile in the dossier", () => {
  it("shows the profile as revised: changed fields replaced, the rest as generated", () => {
    const world = openWorld();
    world.append([
      ev("NpcRegistered", 0, {
        npcId: "ada",
        name: "Ada",
        role: "smith",
        factionId: null,
        locationId: "square",
        traits: ["blunt"],
      }),
      ev("ProfileGenerated", 1, {
        npcId: "ada",
        profile: {
          backstory: "Ada has kept the forge since her father died.",
          personality: "blunt",
          speechStyle: "short sentences",
          goals: ["pay the guild"],
          fears: ["fire"],
          loyalties: ["the guild", "Bram"],
          relationshipSeed: "wary of millers",
        },
      }),
      ev("ProfileRevised", 2000, {
        npcId: "ada",
        changes: { fears: ["fire", "what Bram might do next"], loyalties: ["the guild"] },
        triggers: ["feud"],
        reason: "Fell out with Bram.",
      }),
    ]);
    const { index } = Effect.runSync(VectorIndexes.open(world.db, makeHashingEmbedder()));
    const engine = new RetrievalEngine(world.db, {
      log: world.log,
      embedder: makeHashingEmbedder(),
      index,
    });
    const d = engine.dossier({ saveId: world.saveId, npcId: "ada", t: 3000 })!;
    const text = d.sections.find((s) => s.name === "profile")!.items[0]!.text;
    expect(text).toContain("what Bram might do next");
    expect(text).toContain("kept the forge");
    expect(text).toContain("short sentences");
    const row = JSON.parse(
      world.db
        .prepare("SELECT profile FROM npc_profiles WHERE npc_id = 'ada'")
        .pluck()
        .get() as string,
    );
    expect(row.loyalties).toEqual(["the guild"]);
    expect(row.goals).toEqual(["pay the guild"]);
  });
});
