/**
 * A run over several model hosts writes the log a run over one host writes: which host
 * answered, and in what order answers came back, never reaches the log. One host dies
 * mid-run; its calls are sent to the others. The multi-host run then replays with every
 * server gone.
 */
import { join } from "node:path";
import { type Event, ids } from "@hearsay/core";
import {
  loadSimulation,
  refoldLog,
  retrievalDossiers,
  runSimulation,
  verifyLog,
  workspaceRoot,
} from "@hearsay/engine";
import { defaultMindConfig, type ModelHostConfig, OllamaBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { OllamaFixtureServer } from "@hearsay/testkit";
import { afterEach, describe, expect, it } from "vitest";

const MAIN = ids.save("main");
const hamlet = loadSimulation(
  join(workspaceRoot(), "test", "fixtures", "recorded", "hamlet", "simulation"),
);

const servers: Array<OllamaFixtureServer> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
const start = async () => {
  const s = await OllamaFixtureServer.start({ slowMs: 100 });
  servers.push(s);
  return s;
};

const runOver = async (hosts: ReadonlyArray<ModelHostConfig>) => {
  const log = new SqliteEventLog(openDatabase(":memory:"), { snapshotEvery: 0 });
  const brain = OllamaBrain.make({
    config: { ...defaultMindConfig, hosts, ollamaUrl: hosts[0]!.url, fallback: ["scripted"] },
  });
  await runSimulation({
    world: hamlet.world,
    worldHash: hamlet.worldHash,
    lore: hamlet.lore,
    log,
    saveId: MAIN,
    days: 2,
    seed: 5,
    brain,
    recordBrain: true,
    dossiers: retrievalDossiers,
    resume: false,
  });
  return { log, brain };
};

/**
 * The log as compared: a call's latency is the one thing a host may change — and with it
 * a checkpoint's state hash, which covers every recorded call's latency (each run's
 * checkpoints are checked against a refold of its own log instead).
 */
const comparable = (events: ReadonlyArray<Event>) =>
  events.map((e) =>
    e.type === "LlmCallRecorded"
      ? { ...e, payload: { ...e.payload, latencyMs: 0 } }
      : e.type === "Checkpoint"
        ? { ...e, payload: { ...e.payload, stateHash: "" } }
        : e,
  );

describe("a run over several model hosts", () => {
  it("writes the same log as over one host, a host dying mid-run included, and replays with no server", async () => {
    const [a, b, c] = [await start(), await start(), await start()];
    const one = await runOver([{ url: a.url, concurrency: 2 }]);
    const single = one.log.read(MAIN);
    const calls = single.filter((e) => e.type === "LlmCallRecorded");
    expect(calls.length).toBeGreaterThan(20);
    // Every call the model answered, but those the policy sends to the rules.
    expect(
      calls.every(
        (e) =>
          e.type === "LlmCallRecorded" &&
          (e.payload.brain === "ollama") !== (e.payload.policy?.priority === "scripted"),
      ),
    ).toBe(true);

    const before = { a: a.chats().length, c: c.chats().length };
    // b answers a few calls, then drops the connection and shuts down. a answers each call
    // 100 ms late, so a call asked while a is busy must go to another host: the spread does
    // not hang on calls happening to overlap at the fixtures' own speed.
    b.queue("good", "good", "good", "die");
    a.behave("slow");
    const three = await runOver([
      { url: a.url, concurrency: 1 },
      { url: b.url, concurrency: 1 },
      { url: c.url, concurrency: 1 },
    ]);
    const multi = three.log.read(MAIN);
    expect(b.chats().length).toBe(4);
    expect(a.chats().length - before.a).toBeGreaterThan(0);
    expect(c.chats().length - before.c).toBeGreaterThan(0);
    const [, dead] = three.brain.pool.stats().hosts;
    expect(dead).toMatchObject({ served: 3 });
    expect(dead!.failed).toBeGreaterThanOrEqual(1);
    expect(comparable(multi)).toEqual(comparable(single));
    expect(multi.filter((e) => e.type === "Checkpoint").length).toBeGreaterThan(0);
    for (const log of [one.log, three.log])
      expect(refoldLog({ log, saveId: MAIN }).mismatch).toBeNull();

    for (const s of servers.splice(0)) await s.close();
    const report = await verifyLog({ log: three.log, saveId: MAIN, simulation: hamlet });
    expect(report.divergence).toBeNull();
    expect(report.ok).toBe(true);
    expect(report.unusedRecordings).toBe(0);
  }, 120_000);
});
