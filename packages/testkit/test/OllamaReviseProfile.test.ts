/**
 * `revise_profile` through a model: the prompt carries the purpose, its input and the
 * dossier; the answer is held to the purpose's format (only known profile fields, each
 * in the profile's form), and a schema-invalid one gets a repair retry.
 */
import { dossierReader, gameTime, ids } from "@hearsay/core";
import {
  type BrainRequest,
  decodeOutput,
  defaultMindConfig,
  OllamaBrain,
  outputFormat,
} from "@hearsay/mind";
import { OllamaFixtureServer } from "@hearsay/testkit";
import { Effect, Result } from "effect";
import { afterEach, describe, expect, it } from "vitest";

let server: OllamaFixtureServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const ana = ids.npc("ana");

const request = (): BrainRequest<"revise_profile"> => ({
  purpose: "revise_profile",
  npcId: ana,
  t: gameTime(4, 9),
  seed: 5,
  dossier: dossierReader({
    npcId: ana,
    npcName: "Ana",
    t: gameTime(4, 9),
    budget: 100,
    sections: [
      {
        name: "memories",
        budget: 100,
        tokens: 10,
        items: [
          {
            id: "m1",
            kind: "memory",
            score: 1,
            tokens: 10,
            text: "I let the hinges for the mill go undone.",
          },
        ],
      },
    ],
  } as never),
  input: {
    self: { id: ana, name: "Ana", role: "smith", factionId: null, traits: [], speechStyle: null },
    profile: {
      backstory: "Ana kept the forge.",
      personality: "gruff",
      speechStyle: "short",
      goals: ["pay the guild"],
      fears: ["fire"],
      loyalties: ["the guild"],
      relationshipSeed: "Trusts the guild.",
    },
    triggers: ["promise_broken"],
    completed: [],
    broken: ["Forge hinges for the mill"],
    feuds: [],
    days: 3,
  },
});

const brainAt = (url: string) =>
  OllamaBrain.make({
    config: {
      ...defaultMindConfig,
      ollamaUrl: url,
      chatModel: "llama3.2:3b",
      fallback: [],
      timeoutMs: 5_000,
    },
  });

describe("revise_profile through a model", () => {
  it("asks with the purpose, its input and the dossier, and decodes the changes", async () => {
    server = await OllamaFixtureServer.start({});
    const answer = await Effect.runPromise(brainAt(server.url).decide(request()));
    expect(Result.isSuccess(decodeOutput("revise_profile", answer.output))).toBe(true);
    expect(answer.output.changes.fears).toEqual(["being known as someone who breaks their word"]);
    expect(answer.output.changes).not.toHaveProperty("backstory");
    const body = server.chats()[0]?.body ?? {};
    expect(body.format).toEqual(outputFormat("revise_profile"));
    const user = JSON.stringify(body.messages);
    expect(user).toContain("(purpose: revise_profile)");
    expect(user).toContain("Forge hinges for the mill");
    expect(user).toContain("I let the hinges for the mill go undone.");
  });

  it("a schema-invalid answer gets one repair retry", async () => {
    server = await OllamaFixtureServer.start({});
    server.queue("schema_invalid");
    const answer = await Effect.runPromise(brainAt(server.url).decide(request()));
    expect(server.chats()).toHaveLength(2);
    expect(Result.isSuccess(decodeOutput("revise_profile", answer.output))).toBe(true);
  });
});
