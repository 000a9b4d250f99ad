/** Who overhears a talk with the player, what an abandoned turn leaves, and replaying a recorded talk. */
import { type NpcId, PLAYER_ID, stateHash } from "@hearsay/core";
import { TalkWorld, TurnAbandoned } from "@hearsay/engine";
import { type BrainShape, RecordedBrain, ScriptedBrain } from "@hearsay/mind";
import { describe, expect, it } from "vitest";
import { freshLog, logOf, MAIN, ofType, run, tinyWorld } from "../harness.ts";

const world = tinyWorld();
const simulation = { world, worldHash: stateHash(world), lore: [] };

/** The scripted brain behind the async port only, as a live model would be seen. */
const liveLike = (): BrainShape => {
  const s = ScriptedBrain.make();
  return { name: "fake-live", decide: (r) => s.decide(r) };
};

const openWorld = async (brain: BrainShape = ScriptedBrain.make(), recordBrain = false) => {
  const log = freshLog();
  await run(log, { world, days: 2, maxTicks: 8 });
  const talk = new TalkWorld({
    simulation,
    log,
    saveId: MAIN,
    brain,
    recordBrain,
    options: { digestEvery: 2 },
  });
  return { log, talk };
};

const companyOf = (talk: TalkWorld, npcId: NpcId) => {
  const npc = talk.state.npcs.get(npcId)!;
  return talk.state
    .presentAt(npc.locationId)
    .filter(
      (id) => id !== npcId && !["asleep", "travelling"].includes(talk.state.npcs.get(id)!.activity),
    );
};

const script = [
  "Good morning!",
  "Between us, I stole the mayor's seal.",
  "I swear I will bring you a sack of salt.",
  "Farewell.",
];

describe("witnesses and the one-writer batch", () => {
  it("gives witnesses present their own fainter memories, and the absent nothing", async () => {
    const { log, talk } = await openWorld();
    const npcId = [...talk.state.npcs.keys()].sort().find((id) => companyOf(talk, id).length > 0);
    expect(npcId).toBeDefined();
    const witnesses = companyOf(talk, npcId!);
    const absent = [...talk.state.npcs.keys()].filter(
      (id) => id !== npcId && !witnesses.includes(id),
    );
    let conversationId: string | null = null;
    for (const [i, message] of script.entries())
      conversationId = (
        await talk.takeTurn({
          npcId: npcId!,
          conversationId,
          message,
          end: i === script.length - 1,
        })
      ).conversationId;
    const turns = ofType(log, "ConversationTurn").filter(
      (e) => e.payload.conversationId === conversationId,
    );
    for (const turn of turns) expect(turn.payload.listenerIds.slice(1)).toEqual(witnesses);
    const about = ofType(log, "MemoryRecorded").filter((e) => e.payload.about?.kind === "player");
    const own = about.filter((e) => e.payload.ownerNpcId === npcId);
    expect(own.find((e) => e.payload.category === "secret")?.payload.text).toBe(
      "The player told me in confidence: they stole the mayor's seal.",
    );
    for (const w of witnesses) {
      const theirs = about.filter((e) => e.payload.ownerNpcId === w);
      const secret = theirs.find((e) => e.payload.category === "secret")!;
      expect(secret.payload.text).toMatch(
        /^The player told .+ in confidence: they stole the mayor's seal\.$/,
      );
      expect(secret.payload.importance).toBeLessThan(
        own.find((e) => e.payload.category === "secret")!.payload.importance,
      );
      expect(secret.payload.expiresAt).not.toBeNull();
    }
    for (const a of absent) expect(about.some((e) => e.payload.ownerNpcId === a)).toBe(false);
  });

  it("stores nothing of a turn abandoned before its batch is appended, and carries on", async () => {
    const { log, talk } = await openWorld();
    const head = log.head(MAIN);
    const abort = new AbortController();
    const pending = talk.takeTurn(
      { npcId: "ada", message: "I promise to mend the wheel.", signal: abort.signal },
      { text: () => abort.abort(), restart: () => {} },
    );
    await expect(pending).rejects.toBeInstanceOf(TurnAbandoned);
    expect(log.head(MAIN)).toBe(head);
    const r = await talk.takeTurn({ npcId: "ada", message: "Hello again." });
    expect(r.turnIndex).toBe(0);
    expect(
      ofType(log, "ConversationTurn").filter((e) => e.payload.speakerId === PLAYER_ID),
    ).toHaveLength(1);
  });

  it("is deterministic, records every call of a live brain, and replays from the recording alone", async () => {
    const talkThrough = async (brain: BrainShape, record: boolean) => {
      const { log, talk } = await openWorld(brain, record);
      let conversationId: string | null = null;
      for (const [i, message] of script.entries())
        conversationId = (
          await talk.takeTurn({
            npcId: "ada",
            conversationId,
            message,
            end: i === script.length - 1,
          })
        ).conversationId;
      return log;
    };
    const a = await talkThrough(ScriptedBrain.make(), false);
    const b = await talkThrough(ScriptedBrain.make(), false);
    expect(stateHash(logOf(a))).toBe(stateHash(logOf(b)));

    const live = await talkThrough(liveLike(), true);
    const calls = ofType(live, "LlmCallRecorded").map((e) => e.payload.purpose);
    expect(calls.filter((p) => p === "reply")).toHaveLength(script.length);
    expect(calls).toContain("extract_facts");
    expect(calls).toContain("summarize_talk");
    // Under the live brain's name, as replay answers (each PlayerInput names the brain).
    const recorded = RecordedBrain.fromEvents(live.read(MAIN));
    const replayed = await talkThrough({ name: "fake-live", decide: recorded.decide }, true);
    expect(stateHash(logOf(replayed))).toBe(stateHash(logOf(live)));
  });
});
