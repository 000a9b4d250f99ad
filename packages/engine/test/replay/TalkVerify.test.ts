/**
 * Replay verification covers what a player did through a TalkWorld: a run, then a talk
 * of several turns, its end, a time skip, a game's world tick and an action result, then
 * the run resumed — `verifyLog` re-drives every PlayerInput on the scratch database and
 * the engine between them, and agrees with the log event for event. A reply changed in
 * the log on purpose is reported at its seq; so is a recorded answer that is missing.
 */
import { join } from "node:path";
import { PLAYER_ID, type PlayerInputBody } from "@hearsay/core";
import {
  applyActionResult,
  applyWorldTick,
  loadSimulation,
  readRunPlan,
  retrievalDossiers,
  runSimulation,
  TalkWorld,
  verifyLog,
} from "@hearsay/engine";
import { type BrainShape, ScriptedBrain } from "@hearsay/mind";
import type { SqliteEventLog } from "@hearsay/store";
import { describe, expect, it } from "vitest";
import { freshLog, MAIN, ofType } from "../harness.ts";

const sim = loadSimulation(join(import.meta.dirname, "..", "fixtures", "tiny"));

const runTiny = (log: SqliteEventLog, resume: boolean, maxTicks: number, days = 3) =>
  runSimulation({
    ...sim,
    log,
    saveId: MAIN,
    days,
    seed: 7,
    brain: ScriptedBrain.make(),
    recordBrain: false,
    dossiers: retrievalDossiers,
    resume,
    maxTicks,
    // The talk's own skips checkpoint every 3 ticks (below): two cadences in one log.
    config: { checkpointEveryTicks: 4 },
  });

/** The scripted brain behind the async port only, under another name: a live model. */
const liveLike = (): BrainShape => {
  const s = ScriptedBrain.make();
  return { name: "fake-live", decide: (r) => s.decide(r) };
};

const lines = [
  "Hello there!",
  "My name is Wren.",
  "I promise I'll defend the ford.",
  "Is there any work I can help you with?",
  "The weather is turning.",
];

/** A run, a talk through a TalkWorld (turns, end, skip, world tick, action), the run resumed. */
const recordSession = async (
  brain: BrainShape = ScriptedBrain.make(),
  recordBrain = false,
  skip = { days: 1, thenRunDays: 3 },
) => {
  const log = freshLog();
  await runTiny(log, false, 6);
  const talk = new TalkWorld({
    simulation: sim,
    log,
    saveId: MAIN,
    brain,
    recordBrain,
    config: { checkpointEveryTicks: 3 },
  });
  let conversationId: string | null = null;
  let taskId: string | null = null;
  for (const message of lines) {
    const r = await talk.takeTurn({ npcId: "ada", conversationId, message, scene: "at the mill" });
    conversationId = r.conversationId;
    taskId ??= r.actions[0]?.taskId ?? null;
  }
  await talk.endConversation("ada", conversationId!);
  await talk.skipDays(skip.days);
  await applyWorldTick(talk, [
    {
      kind: "fire",
      text: "A barn burned down by the ford.",
      locationId: null,
      factionId: null,
      visibility: "global",
      importance: 0.7,
      participants: [PLAYER_ID],
      entities: ["barn", "ford"],
    },
  ]);
  await applyActionResult(talk, { taskId: taskId!, outcome: "accepted", note: null });
  const r = await talk.takeTurn({ npcId: "ada", message: "Do you remember what I promised?" });
  expect(r.reply).toMatch(/defend the ford/);
  await runTiny(log, true, 10, skip.thenRunDays);
  return log;
};

const kinds = (log: SqliteEventLog): ReadonlyArray<PlayerInputBody["kind"]> =>
  ofType(log, "PlayerInput").map((e) => e.payload.input.kind);

describe("replay --verify of a world a player talked to", () => {
  it("re-drives every PlayerInput and the engine around them, event for event", async () => {
    const log = await recordSession();
    expect(kinds(log)).toEqual([
      ...lines.map(() => "turn"),
      "end_conversation",
      "skip",
      "world_tick",
      "action_result",
      "turn",
    ]);
    // Each input leads its batch and counts the events after it.
    const events = log.read(MAIN);
    for (const input of ofType(log, "PlayerInput")) {
      if (input.payload.input.kind === "skip") continue;
      const next = events[input.seq + input.payload.events];
      expect(next === undefined || next.type !== "PlayerInput" || input.payload.events > 0).toBe(
        true,
      );
      expect(events[input.seq]?.type).not.toBe("PlayerInput");
    }
    const plan = readRunPlan(log, MAIN);
    expect(plan.inputs).toEqual(ofType(log, "PlayerInput").map((e) => e.seq));
    expect(plan.skips).toEqual([]);

    const report = await verifyLog({ log, saveId: MAIN, simulation: sim });
    expect(report.divergence).toBeNull();
    expect(report.ok).toBe(true);
    expect(report.compared).toBe(log.head(MAIN));
    expect(report.brains).toEqual(["scripted", "scripted talk"]);
    expect(report.stateHash).toBe(log.projectionHash(MAIN));
  }, 120_000);

  it("follows a skip past the run's end (a RunResumed inside it) and a run continued longer", async () => {
    const log = await recordSession(ScriptedBrain.make(), false, { days: 3, thenRunDays: 6 });
    const resumed = ofType(log, "RunResumed");
    expect(resumed.map((e) => e.payload.endDay)).toEqual([4, 6]);
    expect(ofType(log, "Checkpoint").length).toBeGreaterThan(0);
    const plan = readRunPlan(log, MAIN);
    expect(plan.segments).toHaveLength(3);
    const report = await verifyLog({ log, saveId: MAIN, simulation: sim });
    expect(report.divergence).toBeNull();
    expect(report.compared).toBe(log.head(MAIN));
  }, 120_000);

  it("reports a reply changed in the log at the seq of that reply", async () => {
    const log = await recordSession();
    const reply = ofType(log, "ConversationTurn").filter(
      (e) => e.payload.speakerId === "ada" && e.payload.listenerIds.includes(PLAYER_ID),
    )[2]!;
    const payload = { ...reply.payload, text: "I never heard you promise anything." };
    log.db
      .prepare("UPDATE events SET payload = ? WHERE save_id = ? AND seq = ?")
      .run(JSON.stringify(payload), MAIN, reply.seq);
    const report = await verifyLog({ log, saveId: MAIN, simulation: sim });
    expect(report.ok).toBe(false);
    const d = report.divergence!;
    expect(d.seq).toBe(reply.seq);
    expect(d.type).toBe("ConversationTurn");
    expect(d.paths).toEqual(["payload.text"]);
    expect(report.throughSeq).toBe(reply.seq - 1);
  }, 120_000);

  it("answers a recorded talk from its recordings alone, and a missing one is a divergence", async () => {
    const log = await recordSession(liveLike(), true);
    const calls = ofType(log, "LlmCallRecorded");
    expect(calls.map((e) => e.payload.purpose)).toEqual(
      expect.arrayContaining(["reply", "extract_facts", "summarize_talk"]),
    );
    const report = await verifyLog({ log, saveId: MAIN, simulation: sim });
    expect(report.divergence).toBeNull();
    expect(report.unusedRecordings).toBe(0);
    expect(report.brains).toContain("fake-live (recorded) talk");

    // Drop one reply's answer: the replay must not make one up.
    const victim = calls.find((e) => e.payload.purpose === "reply" && e.seq > calls[0]!.seq)!;
    log.db
      .prepare("UPDATE events SET payload = ? WHERE save_id = ? AND seq = ?")
      .run(JSON.stringify({ ...victim.payload, inputHash: "0".repeat(64) }), MAIN, victim.seq);
    const broken = await verifyLog({ log, saveId: MAIN, simulation: sim });
    expect(broken.ok).toBe(false);
    expect(broken.divergence!.missingAnswer).toMatch(/reply/);
    const input = ofType(log, "PlayerInput")
      .filter((e) => e.seq < victim.seq)
      .at(-1)!;
    expect(broken.divergence!.seq).toBe(input.seq);
  }, 120_000);
});
