// Against a REAL Ollama server; runs only when HEARSAY_OLLAMA_URL is set, e.g.
// HEARSAY_OLLAMA_URL=http://127.0.0.1:11434 HEARSAY_CHAT_MODEL=llama3.2:3b
import { gameTime, ids } from "@hearsay/core";
import {
  type BrainRequest,
  doctorReport,
  ensureModel,
  loadMindConfig,
  OllamaBrain,
  validateAnswer,
} from "@hearsay/mind";
import { Effect, Result } from "effect";
import { describe, expect, it } from "vitest";

const live = process.env.HEARSAY_OLLAMA_URL;

describe.skipIf(live === undefined || live === "")("OllamaBrain against a real Ollama", () => {
  const config = () => Effect.runSync(loadMindConfig({ env: process.env }));

  it("doctor finds the server and the chat model (pulling it if needed)", async () => {
    const c = config();
    const ensured = await Effect.runPromise(
      ensureModel({ transport: { url: c.ollamaUrl }, model: c.chatModel, kind: "chat" }),
    );
    const report = await Effect.runPromise(
      doctorReport({ config: { ...c, chatModel: ensured.model } }),
    );
    expect(report.server.reachable).toBe(true);
    expect(report.chatModel.installed).toBe(true);
    expect(report.chatModel.contextLength).toBeGreaterThan(0);
  }, 3_600_000);

  it("answers an act request with a valid action", async () => {
    const c = config();
    const [ana, bo] = [ids.npc("ana"), ids.npc("bo")];
    const request: BrainRequest<"act"> = {
      purpose: "act",
      npcId: ana,
      t: gameTime(2, 19),
      seed: 1,
      dossier: null,
      input: {
        self: {
          id: ana,
          name: "Ana",
          role: "smith",
          factionId: null,
          traits: ["gruff"],
          speechStyle: null,
        },
        location: { id: ids.location("inn"), name: "the Lantern Inn", tags: ["tavern"] },
        reachable: [{ id: ids.location("forge"), name: "the Forge", tags: [] }],
        present: [{ id: bo, name: "Bo", role: "guard", factionId: null, regard: 0.5 }],
        tasks: [],
        home: null,
        workplace: null,
      },
    };
    const answer = await Effect.runPromise(
      OllamaBrain.make({ config: { ...c, fallback: [] } }).decide(request),
    );
    expect(answer.meta.brain).toBe("ollama");
    expect(Result.isSuccess(validateAnswer("act", request.input, answer.output))).toBe(true);
  }, 600_000);
});
