/**
 * Scenes and their per-POV summaries, over whole runs of the tiny world: a scene's
 * summaries belong only to its witnesses and are written from only what each knew;
 * leaving writes the leaver's memories of the place; summarising twice adds nothing; a
 * summary the brain cannot give is asked once more, then skipped with a warning; a run
 * resumed just after a scene closed ends identical to one that was never stopped.
 */
import {
  type Event,
  ids,
  type NpcId,
  type SceneId,
  type StoredEvent,
  stateHash,
} from "@hearsay/core";
import {
  type BrainRequest,
  type BrainShape,
  BrainUnavailable,
  type PurposeName,
  ScriptedBrain,
  type SyncBrain,
} from "@hearsay/mind";
import { Effect } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { freshLog, logHash, MAIN, run, tinyWorld } from "./harness.ts";

const runs = (n: number) => (process.env.HEARSAY_DEEP ? n * 10 : n);

/** What one witness was given to summarise a scene, alone or sharing a call. */
interface Given {
  readonly sceneId: SceneId;
  readonly self: NpcId;
  readonly lines: ReadonlyArray<{ speakerId: NpcId; text: string }>;
  readonly debates: ReadonlyArray<{ topic: string }>;
  readonly happenings: ReadonlyArray<string>;
  readonly company: ReadonlyArray<NpcId>;
  readonly shared: boolean;
}

/** A scripted brain that keeps what every scene summary request gives each witness. */
const spying = (asked: Array<Given>): SyncBrain => {
  // The tiny world's scenario (a task completed within three days) is the rules' with no
  // planned steps.
  const inner = ScriptedBrain.make({ tuning: { talkChance: 0.6, agendaSteps: 0 } });
  const decideSync = <P extends PurposeName>(r: BrainRequest<P>) => {
    if (r.purpose === "summarize_scene") {
      const { input } = r as BrainRequest<"summarize_scene">;
      asked.push({
        ...input,
        self: input.self.id,
        company: input.company.map((c) => c.id),
        shared: false,
      });
    }
    if (r.purpose === "summarize_shared_scene") {
      const { input } = r as BrainRequest<"summarize_shared_scene">;
      for (const w of input.witnesses)
        asked.push({
          ...input,
          self: w.id,
          company: input.present.map((p) => p.id),
          shared: true,
        });
    }
    return inner.decideSync(r);
  };
  return { name: "scripted", decideSync, decide: (r) => Effect.sync(() => decideSync(r)) };
};

type Of<T extends Event["type"]> = Extract<StoredEvent, { type: T }>;
const all = <T extends Event["type"]>(events: ReadonlyArray<StoredEvent>, type: T) =>
  events.filter((e): e is Of<T> => e.type === type);

/** Who knew which item from which seq on: KnowledgeGained facts and owned memories. */
const knowledgeOf = (events: ReadonlyArray<StoredEvent>) => {
  const since = new Map<string, number>();
  for (const e of events)
    if (e.type === "KnowledgeGained") {
      const key = `${e.payload.npcId}|${e.payload.itemId}`;
      if (!since.has(key)) since.set(key, e.seq);
    }
  return (npc: NpcId, item: string, atSeq: number) =>
    (since.get(`${npc}|${item}`) ?? Infinity) <= atSeq;
};

describe("scenes", () => {
  it("per-POV summaries exist only for witnesses and are asked with only what the witness knew", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 10_000 }), async (seed) => {
        const asked: Array<Given> = [];
        const log = freshLog();
        await run(log, { seed, days: 2, brain: spying(asked) });
        const events = log.read(MAIN);
        const opened = new Map(all(events, "SceneOpened").map((e) => [e.payload.sceneId, e]));
        const closed = new Map(all(events, "SceneClosed").map((e) => [e.payload.sceneId, e]));
        const knew = knowledgeOf(events);
        const worldEvents = new Map(
          all(events, "WorldEventOccurred").map((e) => [e.payload.text, e.payload.worldEventId]),
        );
        expect(closed.size).toBeGreaterThan(0);

        // Every summary is owned by a witness of its scene, once.
        const owners = new Set<string>();
        for (const m of all(events, "MemoryRecorded")) {
          if (m.payload.category !== "scene") continue;
          const scene = closed.get(m.payload.about!.id as SceneId)!;
          expect(scene.payload.participants).toContain(m.payload.ownerNpcId);
          const key = `${m.payload.about!.id}|${m.payload.ownerNpcId}`;
          expect(owners.has(key)).toBe(false);
          owners.add(key);
          // Whatever it quotes, it heard (or said) in that scene.
          const self = m.payload.ownerNpcId;
          const from = opened.get(scene.payload.sceneId)!.seq;
          const heard = all(events, "ConversationTurn").filter(
            (e) =>
              e.seq >= from &&
              e.seq <= scene.payload.throughSeq &&
              (e.payload.speakerId === self || e.payload.listenerIds.includes(self)),
          );
          const inRange = events.filter((e) => e.seq >= from && e.seq <= scene.payload.throughSeq);
          const known = [
            ...heard.map((e) => e.payload.text),
            ...all(inRange, "WorldEventOccurred")
              .filter((e) => knew(self, e.payload.worldEventId, scene.seq))
              .map((e) => e.payload.text),
            ...all(inRange, "DebateHeld")
              .filter((e) => e.payload.participants.includes(self))
              .map((e) => `${e.payload.topic} ${e.payload.outcome}`),
          ];
          for (const [, quoted] of m.payload.text.matchAll(/"([^"]+)"/g)) {
            const start = quoted!.slice(0, 20);
            // A quotation's own quotes (a task's title, say) are set in single quotes.
            expect(known.some((text) => text.replaceAll('"', "'").includes(start))).toBe(true);
          }
        }

        // What each witness was given: lines it heard there, debates it was in, happenings it knew.
        // Shared or alone, every witness of a call is checked against its own view.
        expect(asked.some((r) => r.shared)).toBe(true);
        for (const r of asked) {
          const self = r.self;
          const scene = closed.get(r.sceneId)!;
          const from = opened.get(r.sceneId)!.seq;
          const inScene = events.filter((e) => e.seq >= from && e.seq <= scene.payload.throughSeq);
          expect(scene.payload.participants).toContain(self);
          const heard = all(inScene, "ConversationTurn").filter(
            (e) =>
              e.payload.locationId === scene.payload.locationId &&
              (e.payload.speakerId === self || e.payload.listenerIds.includes(self)),
          );
          for (const line of r.lines) {
            expect(
              heard.some(
                (e) => e.payload.speakerId === line.speakerId && e.payload.text === line.text,
              ),
            ).toBe(true);
          }
          for (const d of r.debates) {
            const held = all(inScene, "DebateHeld").find((e) => e.payload.topic === d.topic)!;
            expect(held.payload.participants).toContain(self);
          }
          for (const h of r.happenings) {
            const id = worldEvents.get(h)!;
            expect(knew(self, id, scene.seq)).toBe(true);
          }
          for (const c of r.company) expect(scene.payload.participants).toContain(c);
        }
      }),
      { numRuns: runs(4) },
    );
  });

  it("leaving writes the leaver's memory of the place and a few of those it dealt with there", async () => {
    const log = freshLog();
    await run(log, { days: 3, brain: spying([]) });
    const events = log.read(MAIN);
    const withLeavers = all(events, "SceneClosed").filter((e) => e.payload.leavers.length > 0);
    expect(withLeavers.length).toBeGreaterThan(0);
    for (const scene of withLeavers) {
      const mine = all(events, "MemoryRecorded").filter(
        (m) => m.t === scene.t && m.payload.locationId === scene.payload.locationId,
      );
      for (const leaver of scene.payload.leavers) {
        const own = mine.filter((m) => m.payload.ownerNpcId === leaver);
        const place = own.filter((m) => m.payload.category === "location");
        expect(place).toHaveLength(1);
        expect(place[0]!.payload.about).toEqual({
          kind: "location",
          id: scene.payload.locationId,
        });
        const about = own.filter((m) => m.payload.about?.kind === "npc");
        expect(about.length).toBeLessThanOrEqual(3);
        for (const m of about) expect(m.payload.about!.id).not.toBe(leaver);
      }
      for (const m of mine.filter((m) => m.payload.category === "location"))
        expect(scene.payload.leavers).toContain(m.payload.ownerNpcId);
    }
  });

  it("a major change becomes a world memory only for those who knew of it, once", async () => {
    const log = freshLog();
    await run(log, { days: 3, brain: spying([]) });
    const events = log.read(MAIN);
    const knew = knowledgeOf(events);
    const world = all(events, "MemoryRecorded").filter((m) => m.payload.category === "world");
    expect(world.length).toBeGreaterThan(0);
    const seen = new Set<string>();
    for (const m of world) {
      expect(knew(m.payload.ownerNpcId, m.payload.about!.id, m.seq)).toBe(true);
      const key = `${m.payload.ownerNpcId}|${m.payload.about!.id}`;
      expect(seen.has(key)).toBe(false);
      seen.add(key);
    }
  });

  it("summarising the same scene again adds nothing: a log cut just before a SceneClosed resumes without a second summary", async () => {
    const whole = freshLog();
    await run(whole, { days: 2 });
    const events = whole.read(MAIN);
    const first = all(events, "SceneClosed").find((e) =>
      events.some(
        (m) =>
          m.type === "MemoryRecorded" &&
          m.payload.category === "scene" &&
          m.payload.about?.id === e.payload.sceneId,
      ),
    )!;
    const cut = freshLog();
    cut.createSave({ saveId: MAIN, campaignId: events[0]!.campaignId, name: MAIN });
    cut.append(
      MAIN,
      0,
      events
        .filter((e) => e.seq < first.seq)
        .map(({ seq, saveId, campaignId, ...e }) => e as Event),
    );
    await run(cut, { days: 2, resume: true });
    const after = cut.read(MAIN);
    const sceneId = first.payload.sceneId;
    expect(all(after, "SceneClosed").filter((e) => e.payload.sceneId === sceneId)).toHaveLength(1);
    const summaries = all(after, "MemoryRecorded").filter((m) => m.payload.about?.id === sceneId);
    const before = all(events, "MemoryRecorded").filter((m) => m.payload.about?.id === sceneId);
    expect(summaries.length).toBe(before.length);
    const cursors = all(after, "SummaryCursorAdvanced").map((e) => stateHash(e.payload));
    expect(new Set(cursors).size).toBe(cursors.length);
  });

  it("a run resumed just after a scene closed ends identical to an uninterrupted one", async () => {
    const whole = freshLog();
    await run(whole, { days: 2 });
    const events = whole.read(MAIN);
    const closedAt = all(events, "SceneClosed").slice(0, 2);
    for (const closed of closedAt) {
      // The tick that closed it is whole ticks after the first ClockAdvanced.
      const ticks = all(events, "ClockAdvanced").filter((e) => e.seq < closed.seq).length + 1;
      const broken = freshLog();
      await run(broken, { days: 2, maxTicks: ticks });
      expect(all(broken.read(MAIN), "SceneClosed").map((e) => e.payload.sceneId)).toContain(
        closed.payload.sceneId,
      );
      await run(broken, { days: 2, resume: true });
      expect(logHash(broken)).toBe(logHash(whole));
    }
  });

  it("a summary the brain fails is asked once more, then skipped with a recorded warning", async () => {
    const inner = ScriptedBrain.make();
    const [eli, cora] = [ids.npc("eli"), ids.npc("cora")];
    const tries = new Map<string, number>();
    /** Calls that asked for each NPC's summary, alone or shared. */
    const asked = new Map<NpcId, number>();
    /** Those who shared a call with eli, by scene. */
    const withEli: Array<{ sceneId: SceneId; id: NpcId }> = [];
    // Any summary for eli names a stranger (refusing a shared answer that holds one); the
    // first call to ask for cora's summary of a scene finds the server down.
    const flaky: BrainShape = {
      name: "scripted",
      decide: <P extends PurposeName>(r: BrainRequest<P>) =>
        Effect.suspend(() => {
          const answer = inner.decideSync(r);
          const who =
            r.purpose === "summarize_scene"
              ? [(r as BrainRequest<"summarize_scene">).input.self.id]
              : r.purpose === "summarize_shared_scene"
                ? (r as BrainRequest<"summarize_shared_scene">).input.witnesses.map((w) => w.id)
                : null;
          if (who === null) return Effect.succeed(answer);
          const sceneId = (r.input as { sceneId: SceneId }).sceneId;
          for (const id of who) asked.set(id, (asked.get(id) ?? 0) + 1);
          if (who.length > 1 && who.includes(eli))
            for (const id of who) if (id !== eli) withEli.push({ sceneId, id });
          if (who.includes(cora)) {
            const n = (tries.get(sceneId) ?? 0) + 1;
            tries.set(sceneId, n);
            if (n === 1)
              return Effect.fail(
                new BrainUnavailable({
                  brain: "scripted",
                  model: "-",
                  kind: "lost",
                  reason: "gone",
                }),
              );
          }
          if (!who.includes(eli)) return Effect.succeed(answer);
          const output =
            r.purpose === "summarize_scene"
              ? { ...answer.output, about: ["stranger"] }
              : {
                  summaries: (
                    answer.output as unknown as { summaries: Array<{ witnessId: NpcId }> }
                  ).summaries.map((s) => (s.witnessId === eli ? { ...s, about: ["stranger"] } : s)),
                };
          return Effect.succeed({ ...answer, output } as never);
        }),
    };
    const log = freshLog();
    await run(log, { days: 2, brain: flaky, recordBrain: true });
    const events = log.read(MAIN);
    const memories = all(events, "MemoryRecorded").filter((m) => m.payload.category === "scene");
    const warnings = all(events, "SimulationWarning").filter(
      (w) => w.payload.code === "scene_summary_failed",
    );
    const eliCalls = asked.get(eli) ?? 0;
    expect(eliCalls).toBeGreaterThan(0);
    expect(memories.some((m) => m.payload.ownerNpcId === eli)).toBe(false);
    expect(warnings.filter((w) => w.payload.npcId === eli)).toHaveLength(eliCalls / 2);
    const coraMemories = memories.filter((m) => m.payload.ownerNpcId === cora);
    expect(coraMemories.length).toBeGreaterThan(0);
    expect(asked.get(cora)).toBe(coraMemories.length * 2);
    expect(warnings.some((w) => w.payload.npcId === cora)).toBe(false);
    // Whoever shared a refused call with eli still has its summary, asked on its own.
    expect(withEli.length).toBeGreaterThan(0);
    for (const { sceneId, id } of withEli)
      expect(
        memories.some((m) => m.payload.ownerNpcId === id && m.payload.about?.id === sceneId),
      ).toBe(true);
    expect(tinyWorld().npcs.map((n) => n.id)).toContain(ids.npc("eli"));
  });
});
