import {
  type ConversationId,
  type Dossier,
  dossierReader,
  type GameTime,
  gameTime,
  ids,
} from "@hearsay/core";
import {
  type ActInput,
  type BrainRequest,
  decodeOutput,
  encodeOutput,
  ScriptedBrain,
  validateAnswer,
} from "@hearsay/mind";
import { Effect, Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbAnyRequest, arbRequest, runs } from "./arbitraries.ts";

const brain = ScriptedBrain.make();

const [ana, bo, cy] = [ids.npc("ana"), ids.npc("bo"), ids.npc("cy")];
const [home, forge, inn, hall] = ["home", "forge", "inn", "hall"].map(ids.location) as [
  ReturnType<typeof ids.location>,
  ReturnType<typeof ids.location>,
  ReturnType<typeof ids.location>,
  ReturnType<typeof ids.location>,
];
const guild = ids.faction("guild");

const baseInput: ActInput = {
  self: {
    id: ana,
    name: "Ana",
    role: "smith",
    factionId: guild,
    traits: ["gruff"],
    speechStyle: null,
  },
  location: { id: forge, name: "the Forge", tags: ["workshop"] },
  reachable: [
    { id: home, name: "Ana's house", tags: ["home"] },
    { id: inn, name: "the Lantern Inn", tags: ["tavern"] },
    { id: hall, name: "Guild Hall", tags: ["faction:guild"] },
  ],
  present: [
    { id: bo, name: "Bo", role: "guard", factionId: guild, regard: 0.8 },
    { id: cy, name: "Cy", role: "thief", factionId: null, regard: -0.9 },
  ],
  tasks: [],
  home,
  workplace: forge,
};

const act = (input: ActInput, t: GameTime, seed: number, dossier: Dossier | null = null) =>
  brain.decideSync({
    purpose: "act",
    npcId: ana,
    t,
    seed,
    dossier: dossier && dossierReader(dossier),
    input,
  }).output;

const seeds = Array.from({ length: 300 }, (_, i) => i);

describe("ScriptedBrain", () => {
  it("answers every purpose with output that decodes and names only offered ids", () => {
    fc.assert(
      fc.property(arbAnyRequest, (request) => {
        const { output, meta } = brain.decideSync(request);
        expect(meta.brain).toBe("scripted");
        const decoded = decodeOutput(request.purpose, encodeOutput(request.purpose, output));
        expect(Result.isSuccess(decoded)).toBe(true);
        const valid = validateAnswer(request.purpose, request.input, output);
        if (Result.isFailure(valid)) throw valid.failure;
      }),
      { numRuns: runs(400) },
    );
  });

  it("is a pure function of the request, and decide agrees with decideSync", () => {
    fc.assert(
      fc.property(arbAnyRequest, (request) => {
        // A deep copy: the dossier read whole, copied, and read again through a fresh reader.
        const whole = request.dossier?.whole() ?? null;
        const copy = {
          ...structuredClone({ ...request, dossier: null }),
          dossier: whole === null ? null : dossierReader(structuredClone(whole)),
        } as typeof request;
        const again = ScriptedBrain.make().decideSync(copy);
        expect(again).toEqual(brain.decideSync(request));
        expect(Effect.runSync(brain.decide(request))).toEqual(again);
      }),
      { numRuns: runs(200) },
    );
  });

  it("sleeps at night: goes home if it can, else rests until morning", () => {
    for (const seed of seeds.slice(0, 50)) {
      expect(act(baseInput, gameTime(3, 23), seed)).toEqual({
        action: "move",
        to: home,
        reason: expect.any(String),
      });
      const atHome = {
        ...baseInput,
        location: { id: home, name: "home", tags: ["home"] },
        reachable: [],
      };
      expect(act(atHome, gameTime(3, 2), seed)).toEqual({ action: "rest", hours: 4 });
    }
  });

  it("works on its active task by day, and goes to where the task is", () => {
    const task = {
      id: ids.task("t1"),
      title: "Forge hinges",
      status: "active" as const,
      locationId: forge,
      deadline: null,
      proposedBy: null,
      assignee: baseInput.self.id,
      sessions: 0,
      deadlineMoves: 0,
    };
    const working = seeds.filter(
      (seed) => act({ ...baseInput, tasks: [task] }, gameTime(2, 10), seed).action === "work",
    );
    expect(working.length).toBeGreaterThan(seeds.length * 0.75);
    const elsewhere = { ...task, locationId: inn };
    expect(act({ ...baseInput, tasks: [elsewhere] }, gameTime(2, 10), 7)).toMatchObject({
      action: "move",
      to: inn,
    });
    const done = { ...task, status: "completed" as const };
    expect(
      seeds.some(
        (seed) => act({ ...baseInput, tasks: [done] }, gameTime(2, 10), seed).action === "work",
      ),
    ).toBe(false);
  });

  it("goes to its workplace in working hours", () => {
    const away = {
      ...baseInput,
      location: { id: inn, name: "the Lantern Inn", tags: ["tavern"] },
      reachable: [{ id: forge, name: "the Forge", tags: [] }],
    };
    const moves = seeds.filter((seed) => {
      const out = act(away, gameTime(1, 9), seed);
      return out.action === "move" && out.to === forge;
    });
    expect(moves.length).toBeGreaterThan(seeds.length * 0.8);
  });

  it("spends evenings where people gather and talks mostly to people it likes", () => {
    const outs = seeds.map((seed) => act(baseInput, gameTime(4, 19), seed));
    const moves = outs.filter((o) => o.action === "move");
    expect(moves.length).toBeGreaterThan(seeds.length * 0.4);
    for (const m of moves) expect([inn, hall]).toContain(m.action === "move" ? m.to : null);
    const atInn = {
      ...baseInput,
      location: { id: inn, name: "the Lantern Inn", tags: ["tavern"] },
    };
    const talk = seeds
      .map((seed) => act(atInn, gameTime(4, 19), seed))
      .filter((o) => o.action === "speak");
    const toFriend = talk.filter((o) => o.action === "speak" && o.to === bo).length;
    expect(talk.length).toBeGreaterThan(50);
    expect(toFriend).toBeGreaterThan(talk.length * 0.8);
  });

  it("proposes tasks now and then, more often when it has none", () => {
    const idle = seeds.filter(
      (seed) => act(baseInput, gameTime(5, 11), seed).action === "propose_task",
    ).length;
    expect(idle).toBeGreaterThan(5);
    expect(idle).toBeLessThan(seeds.length * 0.4);
  });

  it("speaks varied lines in its own voice, drawing on what its dossier holds", () => {
    const atInn = {
      ...baseInput,
      location: { id: inn, name: "the Lantern Inn", tags: ["tavern"] },
    };
    const dossier: Dossier = {
      saveId: ids.save("s"),
      npcId: ana,
      npcName: "Ana",
      t: gameTime(4, 19),
      day: 4,
      query: null,
      budget: 500,
      totalTokens: 20,
      sections: [
        {
          name: "world_events",
          budget: 100,
          tokens: 10,
          items: [
            {
              kind: "world_event",
              id: "we1",
              score: 0.9,
              tokens: 10,
              text: "A storm flooded the lower docks.",
            },
          ],
        },
      ],
    };
    const lines = seeds
      .map((seed) => act(atInn, gameTime(4, 19), seed, dossier))
      .flatMap((o) => (o.action === "speak" ? [o.text] : []));
    expect(new Set(lines).size).toBeGreaterThan(lines.length * 0.3);
    expect(
      lines.filter((l) => l.includes("A storm flooded the lower docks.")).length,
    ).toBeGreaterThan(lines.length * 0.3);
    const warm = { ...atInn, self: { ...atInn.self, traits: ["kind", "gentle"] } };
    const warmLines = seeds
      .map((seed) => act(warm, gameTime(4, 19), seed))
      .flatMap((o) => (o.action === "speak" ? [o.text] : []));
    const gruffLines = seeds
      .map((seed) => act(atInn, gameTime(4, 19), seed))
      .flatMap((o) => (o.action === "speak" ? [o.text] : []));
    const shared = warmLines.filter((l) => gruffLines.includes(l));
    expect(shared.length).toBeLessThan(warmLines.length * 0.1);
  });

  it("draws profiles from the NPC's role, faction and acquaintances", () => {
    const request: BrainRequest<"profile"> = {
      purpose: "profile",
      npcId: ana,
      t: gameTime(0),
      seed: 1,
      dossier: null,
      input: {
        self: baseInput.self,
        locationName: "Saltmarket",
        factionName: "the Lantern Guild",
        acquaintances: baseInput.present,
      },
    };
    const { output } = brain.decideSync(request);
    expect(output.backstory).toContain("Ana");
    expect(output.backstory).toContain("the Lantern Guild");
    expect(output.loyalties).toContain("the Lantern Guild");
    expect(output.relationshipSeed).toContain("Bo");
    expect(output.relationshipSeed).toContain("Cy");
    const other = brain.decideSync({ ...request, seed: 2 }).output;
    const backstories = new Set(
      [1, 2, 3, 4, 5, 6].map((seed) => brain.decideSync({ ...request, seed }).output.backstory),
    );
    expect(backstories.size).toBeGreaterThan(2);
    expect(other.speechStyle).toBe(output.speechStyle);
  });

  it("remembers promises and secrets longer than small talk", () => {
    const { output } = brain.decideSync({
      purpose: "extract_memories",
      npcId: ana,
      t: gameTime(1, 12),
      seed: 3,
      dossier: null,
      input: {
        conversationId: ids.conversation("c1"),
        self: { id: ana, name: "Ana" },
        participants: [
          { id: ana, name: "Ana" },
          { id: bo, name: "Bo" },
        ],
        locationName: "the Lantern Inn",
        turns: [
          { speakerId: bo, speakerName: "Bo", text: "Nice weather." },
          { speakerId: bo, speakerName: "Bo", text: "I promise I'll pay you back by the fair." },
          { speakerId: bo, speakerName: "Bo", text: "Between us, the captain takes bribes." },
          { speakerId: ana, speakerName: "Ana", text: "I will keep that secret." },
        ],
      },
    });
    const byCategory = new Map(output.memories.map((m) => [m.category, m]));
    expect(byCategory.get("secret")?.lifetime).toBe("30d");
    expect(byCategory.get("promise")?.lifetime).toBe("7d");
    expect(byCategory.get("conversation")?.lifetime).toBe("1d");
    expect(byCategory.get("secret")?.text).toContain("captain takes bribes");
    expect(output.memories.some((m) => m.text.includes("I will keep that secret"))).toBe(false);
  });

  it("debates: stances persist, the undecided drift to the majority, the summary counts them", () => {
    const participants = [
      { id: ana, name: "Ana" },
      { id: bo, name: "Bo" },
      { id: cy, name: "Cy" },
    ];
    const turn = (seed: number, previous: BrainRequest<"debate_turn">["input"]["previous"]) =>
      brain.decideSync({
        purpose: "debate_turn",
        npcId: ana,
        t: gameTime(2, 15),
        seed,
        dossier: null,
        input: {
          debateId: ids.debate("d1"),
          topic: "doubling the watch",
          round: 1,
          self: baseInput.self,
          participants,
          previous,
        },
      }).output;
    const kept = seeds.filter(
      (seed) =>
        turn(seed, [{ speakerId: ana, speakerName: "Ana", text: "No.", stance: "against" }])
          .stance === "against",
    );
    expect(kept.length).toBeGreaterThan(seeds.length * 0.8);
    const room = [
      { speakerId: ana, speakerName: "Ana", text: "Hm.", stance: "undecided" as const },
      { speakerId: bo, speakerName: "Bo", text: "Yes, double it.", stance: "for" as const },
      { speakerId: cy, speakerName: "Cy", text: "Yes.", stance: "for" as const },
    ];
    const swayed = seeds.filter((seed) => turn(seed, room).stance === "for");
    expect(swayed.length).toBeGreaterThan(seeds.length * 0.3);
    const summary = brain.decideSync({
      purpose: "summarize_debate",
      npcId: null,
      t: gameTime(2, 16),
      seed: 1,
      dossier: null,
      input: { debateId: ids.debate("d1"), topic: "doubling the watch", participants, turns: room },
    }).output;
    expect(summary.outcome).toMatch(/^Carried/);
    expect(summary.summary).toContain("Bo");
  });

  it("propose_task names only itself, a present faction member, or nobody", () => {
    fc.assert(
      fc.property(arbRequest("act"), (request) => {
        const out = brain.decideSync(request).output;
        if (out.action !== "propose_task" || out.assignee === null) return;
        const ok = [request.input.self.id, ...request.input.present.map((p) => p.id)];
        expect(ok).toContain(out.assignee);
      }),
      { numRuns: runs(300) },
    );
  });
});

describe("scripted act in a conversation", () => {
  it("remembers the talk as extract_memories would, or a line of its own as its unanswered talk", () => {
    fc.assert(
      fc.property(arbRequest("act"), (request) => {
        const { output } = brain.decideSync(request);
        const self = { id: request.input.self.id, name: request.input.self.name };
        const talk =
          request.input.conversation ??
          (output.action === "speak"
            ? {
                conversationId: "conv-1" as ConversationId,
                participants: [
                  self,
                  ...request.input.present
                    .filter((p) => p.id === output.to)
                    .map((p) => ({ id: p.id, name: p.name })),
                ],
                locationName: request.input.location.name,
                turns: [{ speakerId: self.id, speakerName: self.name, text: output.text }],
              }
            : undefined);
        if (talk === undefined) {
          expect(output.memories).toBeUndefined();
          return;
        }
        const extracted = brain.decideSync({
          purpose: "extract_memories",
          npcId: request.npcId,
          t: request.t,
          seed: request.seed,
          dossier: null,
          input: { ...talk, self },
        }).output.memories;
        expect(output.memories).toEqual(extracted);
      }),
      { numRuns: runs(100) },
    );
  });
});
