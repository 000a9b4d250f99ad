/**
 * The Ollama brain readies a call — renders its prompt, which builds a lazy dossier, and
 * takes its input hash — before the call queues for a model slot when the model answers
 * slower than a call is readied, so that work overlaps the model time of the call
 * holding the slot; and it readies a call once, whatever the fallback chain does. Checked against a minimal HTTP server that speaks the one
 * endpoint used and holds each answer until the test lets it go.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Dossier, gameTime, ids } from "@hearsay/core";
import {
  type BrainRequest,
  defaultMindConfig,
  inputHash,
  type MindConfig,
  OllamaBrain,
} from "@hearsay/mind";
import { Effect } from "effect";
import { afterEach, describe, expect, it } from "vitest";

interface HeldChat {
  readonly body: string;
  readonly answer: (content: string) => void;
}

/** A server whose every /api/chat waits in `held` until answered. */
const holdingServer = async () => {
  const held: Array<HeldChat> = [];
  const waiters: Array<() => void> = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    req.on("end", () => {
      held.push({
        body,
        answer: (content) => {
          res.setHeader("content-type", "application/json");
          res.end(
            JSON.stringify({
              model: "m",
              created_at: "2026-01-01T00:00:00Z",
              message: { role: "assistant", content },
              done: true,
              prompt_eval_count: 10,
              eval_count: 5,
            }),
          );
        },
      });
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** Resolves once `n` chats have arrived. */
  const arrived = async (n: number): Promise<void> => {
    while (held.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, held, arrived, close };
};

let closeServer: (() => Promise<void>) | null = null;
afterEach(async () => {
  await closeServer?.();
  closeServer = null;
});

const [ana, bo] = [ids.npc("ana"), ids.npc("bo")];

const dossierOf = (npcName: string): Dossier => ({
  saveId: ids.save("s"),
  npcId: ana,
  npcName,
  t: gameTime(1, 9),
  day: 1,
  query: null,
  budget: 100,
  totalTokens: 3,
  sections: [
    {
      name: "scene",
      budget: 100,
      tokens: 3,
      items: [{ kind: "scene", id: "inn", score: 1, tokens: 3, text: `${npcName} is at the inn.` }],
    },
  ],
});

/** An act request whose dossier is built on first read, counting the reads. */
const lazyRequest = (name: string, reads: Array<string>): BrainRequest<"act"> => {
  let built: Dossier | null = null;
  const whole = (): Dossier => {
    if (built === null) {
      reads.push(name);
      built = dossierOf(name);
    }
    return built;
  };
  return {
    purpose: "act" as const,
    npcId: ana,
    t: gameTime(1, 9),
    seed: 3,
    input: {
      self: { id: ana, name, role: "smith", factionId: null, traits: [], speechStyle: null },
      location: { id: ids.location("inn"), name: "the inn", tags: [] },
      reachable: [],
      present: [{ id: bo, name: "Bo", role: "guard", factionId: null, regard: 0 }],
      tasks: [],
      home: null,
      workplace: null,
    },
    dossier: { section: (s) => whole().sections.find((x) => x.name === s), whole },
  };
};

const config = (url: string, over: Partial<MindConfig> = {}): MindConfig => ({
  ...defaultMindConfig,
  ollamaUrl: url,
  chatModel: "m",
  fallback: ["scripted"],
  concurrency: 1,
  timeoutMs: 10_000,
  ...over,
});

const rest = JSON.stringify({ action: "rest", hours: 2 });

describe("OllamaBrain readies calls before they queue", () => {
  it("with a slow model, builds a waiting call's dossier while another call holds the only slot", async () => {
    const s = await holdingServer();
    closeServer = s.close;
    const brain = OllamaBrain.make({ config: config(s.url) });
    const reads: Array<string> = [];
    // A first call teaches the brain that the model is slow: its answer takes 200 ms,
    // readying a tiny dossier a fraction of one.
    const warm = Effect.runPromise(brain.decide(lazyRequest("Cal", reads)));
    await s.arrived(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    s.held[0]!.answer(rest);
    await warm;
    const first = lazyRequest("Ana", reads);
    const second = lazyRequest("Bea", reads);
    const answers = Effect.runPromise(
      Effect.all([brain.decide(first), brain.decide(second)], { concurrency: 2 }),
    );
    await s.arrived(2);
    // The first call is with the model; the second is queued, and already readied.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toEqual(["Cal", "Ana", "Bea"]);
    expect(s.held).toHaveLength(2);
    s.held[1]!.answer(rest);
    await s.arrived(3);
    expect(s.held[2]!.body).toContain("Bea is at the inn.");
    s.held[2]!.answer(rest);
    const [a, b] = await answers;
    expect(a.output).toEqual({ action: "rest", hours: 2 });
    expect(b.output).toEqual({ action: "rest", hours: 2 });
    // The recorder's hash was taken while readying, of the prompt the model saw.
    expect(inputHash(second)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("readies once for a repair retry and for every model of the fallback chain", async () => {
    const s = await holdingServer();
    closeServer = s.close;
    const brain = OllamaBrain.make({ config: config(s.url, { fallback: ["m2", "scripted"] }) });
    const reads: Array<string> = [];
    const request = lazyRequest("Ana", reads);
    const answer = Effect.runPromise(brain.decide(request));
    // m: a bad answer, then a bad repair; m2: a good answer.
    for (const [n, content] of [
      [1, "not json"],
      [2, "still not json"],
      [3, rest],
    ] as const) {
      await s.arrived(n);
      expect(s.held[n - 1]!.body).toContain("Ana is at the inn.");
      s.held[n - 1]!.answer(content);
    }
    const decided = await answer;
    expect(decided.meta.model).toBe("m2");
    expect(reads).toEqual(["Ana"]);
  });
});
