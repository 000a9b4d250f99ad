import { createServer } from "node:http";
import { type Event, gameTime, ids, makeEvent } from "@hearsay/core";
import {
  type BrainRequest,
  defaultMindConfig,
  defaultPolicy,
  type LlmCallPayload,
  type MindConfig,
  OllamaBrain,
  outputFormat,
  RecordedBrain,
  ScriptedBrain,
  validateAnswer,
  withRecording,
} from "@hearsay/mind";
import { OllamaFixtureServer } from "@hearsay/testkit";
import { Effect, Exit, Result } from "effect";
import { afterEach, describe, expect, it } from "vitest";

let server: OllamaFixtureServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const [ana, bo] = [ids.npc("ana"), ids.npc("bo")];

const actRequest = (t = gameTime(2, 19)): BrainRequest<"act"> => ({
  purpose: "act",
  npcId: ana,
  t,
  seed: 11,
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
    tasks: [
      {
        id: ids.task("t1"),
        title: "Forge hinges",
        status: "active",
        locationId: null,
        deadline: null,
        proposedBy: null,
        assignee: ana,
        sessions: 0,
        deadlineMoves: 0,
      },
    ],
    home: null,
    workplace: null,
  },
});

const config = (url: string, over: Partial<MindConfig> = {}): MindConfig => ({
  ...defaultMindConfig,
  ollamaUrl: url,
  chatModel: "llama3.2:3b",
  fallback: ["qwen2.5:1.5b", "scripted"],
  timeoutMs: 5_000,
  ...over,
});

const start = async (slowMs?: number) => {
  server = await OllamaFixtureServer.start(slowMs === undefined ? {} : { slowMs });
  return server;
};

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect);

const lastUser = (s: OllamaFixtureServer): string => {
  const messages = (s.chats().at(-1)?.body?.messages ?? []) as Array<{
    role: string;
    content: string;
  }>;
  return messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
};

/** A port that was open a moment ago and is closed now. */
const closedPort = async (): Promise<string> => {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const address = s.address();
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 1}`;
};

describe("OllamaBrain against the fixture server", () => {
  it("good: decodes the answer, with format, options and costs", async () => {
    const s = await start();
    const brain = OllamaBrain.make({ config: config(s.url) });
    const request = actRequest();
    const answer = await run(brain.decide(request));
    expect(answer.meta).toMatchObject({
      brain: "ollama",
      model: "llama3.2:3b",
      fallbackReason: null,
    });
    expect(answer.meta.promptTokens).toBeGreaterThan(0);
    expect(answer.meta.outputTokens).toBeGreaterThan(0);
    expect(Result.isSuccess(validateAnswer("act", request.input, answer.output))).toBe(true);
    const body = s.chats()[0]?.body ?? {};
    expect(body.format).toEqual(outputFormat("act"));
    expect(body.stream).toBe(false);
    expect(body.keep_alive).toBe("10m");
    expect(body.options).toMatchObject({
      temperature: 0.7,
      num_ctx: 8192,
      seed: expect.any(Number),
    });
    expect(s.chats()).toHaveLength(1);
    expect(brain.usage().calls).toBe(1);
  });

  for (const [behaviour, shown] of [
    ["malformed", "not valid JSON"],
    ["schema_invalid", "does not match the required format"],
    ["unknown_ids", "names unknown"],
  ] as const) {
    it(`${behaviour}: one repair retry that shows the model its error`, async () => {
      const s = await start();
      s.queue(behaviour);
      const request = actRequest();
      const answer = await run(OllamaBrain.make({ config: config(s.url) }).decide(request));
      expect(answer.meta).toMatchObject({
        brain: "ollama",
        model: "llama3.2:3b",
        fallbackReason: null,
      });
      expect(s.chats()).toHaveLength(2);
      expect(lastUser(s)).toContain("Your answer was rejected");
      expect(lastUser(s)).toContain(shown);
      const repairMessages = (s.chats()[1]?.body?.messages ?? []) as Array<{ role: string }>;
      expect(repairMessages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
      expect(Result.isSuccess(validateAnswer("act", request.input, answer.output))).toBe(true);
    });
  }

  it("a failed repair falls to the next model, then to the scripted brain", async () => {
    const s = await start();
    s.queue("malformed", "malformed", "good");
    const first = await run(OllamaBrain.make({ config: config(s.url) }).decide(actRequest()));
    expect(first.meta.model).toBe("qwen2.5:1.5b");
    expect(first.meta.fallbackReason).toMatch(/^llama3\.2:3b: .*invalid output/);
    s.behave("unknown_ids");
    const request = actRequest();
    const last = await run(OllamaBrain.make({ config: config(s.url) }).decide(request));
    expect(last.meta.brain).toBe("scripted");
    expect(last.output).toEqual(ScriptedBrain.make().decideSync(request).output);
    expect(last.meta.fallbackReason).toContain("llama3.2:3b");
    expect(last.meta.fallbackReason).toContain("qwen2.5:1.5b");
    expect(s.chats()).toHaveLength(3 + 4);
  });

  it("without a scripted entry, a failing chain is a typed error", async () => {
    const s = await start();
    s.behave("schema_invalid");
    const exit = await Effect.runPromiseExit(
      OllamaBrain.make({ config: config(s.url, { fallback: [] }) }).decide(actRequest()),
    );
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("InvalidAnswer");
  });

  it("slow past the timeout: the call is aborted and the chain moves on", async () => {
    const s = await start(3_000);
    s.behave("slow");
    const brain = OllamaBrain.make({ config: config(s.url, { timeoutMs: 150 }) });
    const answer = await run(brain.decide(actRequest()));
    expect(answer.meta.brain).toBe("scripted");
    expect(answer.meta.fallbackReason).toContain("gave no answer within 150 ms");
    expect(s.chats()).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 50));
    expect(s.peakConcurrentChats()).toBeLessThanOrEqual(1);
  });

  it("a 404 model falls back; once pulled, it answers", async () => {
    const s = await start();
    const brain = OllamaBrain.make({ config: config(s.url, { chatModel: "mistral:7b" }) });
    const before = await run(brain.decide(actRequest()));
    expect(before.meta.model).toBe("qwen2.5:1.5b");
    expect(before.meta.fallbackReason).toMatch(/mistral:7b.*not installed/);
    s.setInstalled("mistral:7b", true);
    const after = await run(brain.decide(actRequest(gameTime(2, 20))));
    expect(after.meta).toMatchObject({
      brain: "ollama",
      model: "mistral:7b",
      fallbackReason: null,
    });
  });

  it("connection refused: falls back to the scripted brain at once, and the run continues", async () => {
    const url = await closedPort();
    const brain = OllamaBrain.make({ config: config(url) });
    for (let h = 8; h < 12; h++) {
      const answer = await run(brain.decide(actRequest(gameTime(1, h))));
      expect(answer.meta.brain).toBe("scripted");
      expect(answer.meta.fallbackReason).toMatch(/^llama3\.2:3b: .*cannot connect/);
      expect(answer.meta.fallbackReason).not.toContain("qwen2.5");
    }
  });

  it("with a model's only host down, the chain's next model answers from another host", async () => {
    const s = await start();
    const dead = await closedPort();
    const brain = OllamaBrain.make({
      config: config(s.url, {
        hosts: [
          { url: dead, concurrency: 1, models: ["llama3.2:3b"] },
          { url: s.url, concurrency: 1, models: ["qwen2.5:1.5b"] },
        ],
      }),
    });
    const answer = await run(brain.decide(actRequest()));
    expect(answer.meta).toMatchObject({ brain: "ollama", model: "qwen2.5:1.5b" });
    expect(answer.meta.fallbackReason).toMatch(/^llama3\.2:3b: .*cannot connect/);
    expect(s.chats().map((c) => c.body?.model)).toEqual(["qwen2.5:1.5b"]);
  });

  it("a server that dies mid-sequence: every call is still answered and recorded", async () => {
    const s = await start();
    s.queue("good", "die");
    const payloads: Array<LlmCallPayload> = [];
    const brain = withRecording(OllamaBrain.make({ config: config(s.url) }), (p) =>
      payloads.push(p),
    );
    const requests = [9, 10, 11, 12, 13].map((h) => actRequest(gameTime(3, h)));
    const answers = [];
    for (const r of requests) answers.push(await run(brain.decide(r)));
    expect(answers.map((a) => a.meta.brain)).toEqual([
      "ollama",
      "scripted",
      "scripted",
      "scripted",
      "scripted",
    ]);
    expect(answers[1]?.meta.fallbackReason).toMatch(/lost mid-call/);
    expect(answers[2]?.meta.fallbackReason).toMatch(/cannot connect/);
    expect(payloads.map((p) => p.brain)).toEqual([
      "ollama",
      "scripted",
      "scripted",
      "scripted",
      "scripted",
    ]);
    expect(payloads[1]?.error).toMatch(/lost mid-call/);

    // Replay needs no server: the recorded brain answers identically and re-records the same events.
    const events: Array<Event> = payloads.map((payload, i) =>
      makeEvent("LlmCallRecorded", { id: ids.event(`e${i}`), t: requests[i]!.t, payload }),
    );
    const rerecorded: Array<LlmCallPayload> = [];
    const replay = withRecording(RecordedBrain.fromEvents(events), (p) => rerecorded.push(p));
    for (const [i, r] of requests.entries())
      expect(await run(replay.decide(r))).toEqual(answers[i]);
    expect(rerecorded).toEqual(payloads);
  });

  it("an HTTP 500 from one model tries the next model on the same server", async () => {
    const s = await start();
    s.queue("error_500");
    const answer = await run(OllamaBrain.make({ config: config(s.url) }).decide(actRequest()));
    expect(answer.meta.model).toBe("qwen2.5:1.5b");
    expect(answer.meta.fallbackReason).toContain("HTTP 500");
  });

  it("bounds concurrent chats by config.concurrency", async () => {
    const s = await start(100);
    s.behave("slow");
    const brain = OllamaBrain.make({ config: config(s.url, { concurrency: 2 }) });
    const requests = Array.from({ length: 6 }, (_, i) => ({
      ...actRequest(gameTime(1, 9)),
      npcId: ids.npc(`n${i}`),
    }));
    const answers = await run(
      Effect.all(
        requests.map((r) => brain.decide(r)),
        { concurrency: "unbounded" },
      ),
    );
    expect(answers.every((a) => a.meta.brain === "ollama")).toBe(true);
    expect(s.peakConcurrentChats()).toBe(2);
  });

  it("stops calling the model when a budget is spent", async () => {
    const s = await start();
    const brain = OllamaBrain.make({
      config: config(s.url, { budgets: { maxCalls: 1, maxCallsPerDay: null, maxTokens: null } }),
    });
    expect((await run(brain.decide(actRequest(gameTime(1, 9))))).meta.brain).toBe("ollama");
    const second = await run(brain.decide(actRequest(gameTime(1, 10))));
    expect(second.meta.brain).toBe("scripted");
    expect(second.meta.fallbackReason).toBe("budget maxCalls spent (1 of 1)");
    expect(s.chats()).toHaveLength(1);
  });

  it("spends a tight day's budget on the highest classes of a batch, whatever order they were asked in, and records why", async () => {
    const s = await start();
    const brain = OllamaBrain.make({
      config: config(s.url, {
        budgets: { maxCalls: null, maxCallsPerDay: 1, maxTokens: null },
        policy: { ...defaultPolicy, principalNpcs: [ana], purposes: { profile: "scripted" } },
      }),
    });
    const t = gameTime(4, 9);
    const bo1 = { ...actRequest(t), npcId: bo, input: { ...actRequest(t).input, present: [] } };
    const ana1 = { ...actRequest(t), input: { ...actRequest(t).input, present: [] } };
    const requests = [bo1, ana1] as ReadonlyArray<BrainRequest<"act">>;
    const planned = brain.plan(requests);
    expect(planned.map((p) => [p.route.priority, p.route.model])).toEqual([
      ["normal", false],
      ["high", true],
    ]);
    const payloads: Array<LlmCallPayload> = [];
    const answers = await run(
      Effect.all(
        planned.map((p) => p.decide),
        { concurrency: "unbounded" },
      ),
    );
    expect(answers.map((a) => a.meta.brain)).toEqual(["scripted", "ollama"]);
    expect(answers[0]!.meta).toMatchObject({
      fallbackReason: "budget maxCallsPerDay (day 4) spent (1 of 1)",
      policy: { priority: "normal", reason: "act is normal" },
    });
    expect(answers[1]!.meta).toMatchObject({
      fallbackReason: null,
      policy: { priority: "high", reason: "act is normal, principal NPC" },
    });
    expect(s.chats()).toHaveLength(1);
    // The budget is the day's: the next day the model answers again.
    const next = await run(brain.decide({ ...bo1, t: gameTime(5, 9) }));
    expect(next.meta.brain).toBe("ollama");
    // What is recorded says why, and replays to the same answers and records.
    const recording = withRecording(brain, (p) => payloads.push(p));
    const day6 = [bo1, ana1].map((r) => ({ ...r, t: gameTime(6, 9) }));
    const live = [];
    for (const r of day6) live.push(await run(recording.decide(r)));
    expect(payloads.map((p) => p.policy)).toEqual([
      { priority: "normal", reason: "act is normal" },
      { priority: "high", reason: "act is normal, principal NPC" },
    ]);
    const events: Array<Event> = payloads.map((payload, i) =>
      makeEvent("LlmCallRecorded", { id: ids.event(`p${i}`), t: day6[i]!.t, payload }),
    );
    const rerecorded: Array<LlmCallPayload> = [];
    const replay = withRecording(RecordedBrain.fromEvents(events), (p) => rerecorded.push(p));
    for (const [i, r] of day6.entries()) expect(await run(replay.decide(r))).toEqual(live[i]);
    expect(rerecorded).toEqual(payloads);
  });

  it("answers every purpose with output that decodes and names only offered ids", async () => {
    const s = await start();
    const brain = OllamaBrain.make({ config: config(s.url) });
    const participants = [
      { id: ana, name: "Ana" },
      { id: bo, name: "Bo" },
    ];
    const requests: Array<BrainRequest> = [
      actRequest(),
      {
        purpose: "profile",
        npcId: ana,
        t: gameTime(0),
        seed: 1,
        dossier: null,
        input: {
          self: actRequest().input.self,
          locationName: "Saltmarket",
          factionName: null,
          acquaintances: [],
        },
      },
      {
        purpose: "extract_memories",
        npcId: ana,
        t: gameTime(1),
        seed: 1,
        dossier: null,
        input: {
          conversationId: ids.conversation("c"),
          self: participants[0]!,
          participants,
          locationName: "the Inn",
          turns: [{ speakerId: bo, speakerName: "Bo", text: "The bell cracked." }],
        },
      },
      {
        purpose: "debate_turn",
        npcId: ana,
        t: gameTime(1),
        seed: 1,
        dossier: null,
        input: {
          debateId: ids.debate("d"),
          topic: "the toll",
          round: 1,
          self: actRequest().input.self,
          participants,
          previous: [{ speakerId: bo, speakerName: "Bo", text: "Raise it.", stance: "for" }],
        },
      },
      {
        purpose: "summarize_debate",
        npcId: null,
        t: gameTime(1),
        seed: 1,
        dossier: null,
        input: { debateId: ids.debate("d"), topic: "the toll", participants, turns: [] },
      },
    ];
    for (const r of requests) {
      const answer = await run(brain.decide(r));
      expect(answer.meta.brain, r.purpose).toBe("ollama");
      expect(Result.isSuccess(validateAnswer(r.purpose, r.input, answer.output))).toBe(true);
    }
  });

  it("answers a debate's closing turn with its summary and outcome, and no other turn", async () => {
    const s = await start();
    const brain = OllamaBrain.make({ config: config(s.url) });
    const participants = [
      { id: ana, name: "Ana" },
      { id: bo, name: "Bo" },
    ];
    const turn = (round: number, closes: boolean): BrainRequest<"debate_turn"> => ({
      purpose: "debate_turn",
      npcId: ana,
      t: gameTime(1, round),
      seed: 1,
      dossier: null,
      input: {
        debateId: ids.debate("d"),
        topic: "the toll",
        round,
        self: actRequest().input.self,
        participants,
        previous: [{ speakerId: bo, speakerName: "Bo", text: "Raise it.", stance: "for" }],
        ...(closes ? { closes: true as const } : {}),
      },
    });
    for (const round of [0, 1, 2, 3]) {
      const open = await run(brain.decide(turn(round, false)));
      expect(open.meta.brain).toBe("ollama");
      expect(open.output.summary).toBeUndefined();
      expect(open.output.outcome).toBeUndefined();
      const closing = await run(brain.decide(turn(round, true)));
      expect(closing.meta.brain).toBe("ollama");
      expect(closing.output.summary).toContain("debate on the toll");
      expect(closing.output.outcome).toContain("the toll");
    }
  });
});
