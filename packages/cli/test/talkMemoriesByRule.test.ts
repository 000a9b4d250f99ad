/**
 * What the default policy sends to the rules is still served: in a run against a model
 * server, a talker's memories its own answer left out and a scene view of one line are
 * written by the scripted brain (recorded, with the reason), and every talker of every
 * talk still keeps a memory of it.
 */
import { join } from "node:path";
import { ids, type PayloadOf } from "@hearsay/core";
import { loadSimulation, retrievalDossiers, runSimulation, verifyLog } from "@hearsay/engine";
import { defaultMindConfig, OllamaBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { OllamaFixtureServer } from "@hearsay/testkit";
import { afterEach, describe, expect, it } from "vitest";

const sim = loadSimulation(
  join(import.meta.dirname, "..", "..", "engine", "test", "fixtures", "tiny"),
);
const MAIN = ids.save("main");
let server: OllamaFixtureServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("the default policy's rules in a run", () => {
  it("writes by rule what the model already read, and every talker keeps a memory of each talk", async () => {
    server = await OllamaFixtureServer.start({});
    const brain = OllamaBrain.make({
      config: { ...defaultMindConfig, ollamaUrl: server.url, fallback: ["scripted"] },
    });
    const log = new SqliteEventLog(openDatabase(":memory:"));
    await runSimulation({
      ...sim,
      log,
      saveId: MAIN,
      days: 2,
      seed: 3,
      brain,
      recordBrain: true,
      dossiers: retrievalDossiers,
      resume: false,
    });
    const events = log.read(MAIN);
    const calls = events.flatMap((e) =>
      e.type === "LlmCallRecorded" ? [e.payload as PayloadOf<"LlmCallRecorded">] : [],
    );
    const ruled = calls.filter((c) => c.policy?.priority === "scripted");
    expect(ruled.length).toBeGreaterThan(0);
    for (const c of ruled) {
      expect(c).toMatchObject({ brain: "scripted", error: null });
      expect(c.policy!.reason).toMatch(
        /, (speaker said one line|listener of the talk|scene of (one|two) lines?|two lines heard or fewer): by rule$/,
      );
    }
    expect(calls.some((c) => c.brain === "ollama")).toBe(true);

    // Every talker of every talk keeps a memory of it, whoever wrote it.
    const talkers = new Map<string, Set<string>>();
    for (const e of events) {
      if (e.type !== "ConversationTurn") continue;
      const p = e.payload;
      const who = talkers.get(p.conversationId) ?? new Set<string>();
      for (const id of [p.speakerId, ...p.listenerIds]) who.add(id);
      talkers.set(p.conversationId, who);
    }
    expect(talkers.size).toBeGreaterThan(0);
    const kept = new Set(
      events.flatMap((e) =>
        e.type === "MemoryRecorded" && e.payload.about?.kind === "conversation"
          ? [`${e.payload.about.id}\u0000${e.payload.ownerNpcId}`]
          : [],
      ),
    );
    for (const [talk, who] of talkers)
      for (const id of who) expect(kept.has(`${talk}\u0000${id}`), `${id} in ${talk}`).toBe(true);

    await server.close();
    const report = await verifyLog({ log, saveId: MAIN, simulation: sim });
    expect(report.divergence).toBeNull();
  }, 180_000);
});
