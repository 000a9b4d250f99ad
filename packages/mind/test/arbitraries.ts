/**
 * fast-check arbitraries for brain requests of every purpose, over small id pools so
 * that generated answers and inputs often share (and sometimes miss) ids.
 */
import {
  type Dossier,
  type DossierSectionName,
  dossierReader,
  dossierSectionNames,
  type GameTime,
  ids,
  type SceneId,
  TaskStatus,
} from "@hearsay/core";
import type { BrainRequest, NpcGlimpse, NpcSelf, PurposeName } from "@hearsay/mind";
import fc from "fast-check";

export const npcPool = Array.from({ length: 10 }, (_, i) => ids.npc(`npc-${i}`));
export const locationPool = Array.from({ length: 8 }, (_, i) => ids.location(`loc-${i}`));
export const taskPool = Array.from({ length: 6 }, (_, i) => ids.task(`task-${i}`));
const factions = [ids.faction("guild"), ids.faction("watch"), ids.faction("temple")];
const traitPool = [
  "gruff",
  "kind",
  "cunning",
  "devout",
  "nervous",
  "cheerful",
  "formal",
  "honest",
  "proud",
];
const names = [
  "Avel",
  "Brisa",
  "Corran",
  "Dunmore",
  "Essa",
  "Fenwick",
  "Gilla",
  "Hobb",
  "Ivo",
  "Jessamy",
];
const roles = ["smith", "guard", "merchant", "healer", "scribe", "fisher", "innkeeper", "farmer"];
const tagPool = ["home", "tavern", "market", "workshop", "faction:guild", "faction:watch", "docks"];

const arbText = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.constantFrom(
    "A storm flooded the lower docks last night.",
    "The guild raised the price of salt again.",
    "Mara promised to mend the bridge before the fair.",
    "The old chapel bell cracked during the frost.",
    "Someone saw lights on the hill after midnight.",
  ),
);

export const arbT: fc.Arbitrary<GameTime> = fc
  .integer({ min: 0, max: 400 * 1440 })
  .map((n) => n as GameTime);

export const arbSelf = (id = fc.constantFrom(...npcPool)): fc.Arbitrary<NpcSelf> =>
  fc.record({
    id,
    name: fc.constantFrom(...names),
    role: fc.constantFrom(...roles),
    factionId: fc.option(fc.constantFrom(...factions), { nil: null }),
    traits: fc.subarray(traitPool, { maxLength: 3 }),
    speechStyle: fc.option(fc.constantFrom("blunt and clipped", "warm", "formal and precise"), {
      nil: null,
    }),
  });

const arbGlimpse = (id: (typeof npcPool)[number]): fc.Arbitrary<NpcGlimpse> =>
  fc.record({
    id: fc.constant(id),
    name: fc.constantFrom(...names),
    role: fc.constantFrom(...roles),
    factionId: fc.option(fc.constantFrom(...factions), { nil: null }),
    regard: fc.double({ min: -1, max: 1, noNaN: true }),
  });

const arbPlace = (id: (typeof locationPool)[number]) =>
  fc.record({
    id: fc.constant(id),
    name: fc.constantFrom("the Mill", "Saltmarket", "the Lantern Inn", "Gatehouse", "Old Quay"),
    tags: fc.subarray(tagPool, { maxLength: 2 }),
  });

export const arbActInput = fc
  .tuple(
    arbSelf(),
    fc.shuffledSubarray(locationPool, { minLength: 1 }),
    fc.subarray(npcPool),
    fc.subarray(taskPool),
  )
  .chain(([self, locs, others, tasks]) => {
    const [here, ...away] = locs as [(typeof locationPool)[number], ...typeof locationPool];
    return fc.record({
      self: fc.constant(self),
      location: arbPlace(here),
      reachable: fc.tuple(...away.map(arbPlace)),
      present: fc.tuple(...others.filter((o) => o !== self.id).map(arbGlimpse)),
      tasks: fc.tuple(
        ...tasks.map((id) =>
          fc.record({
            id: fc.constant(id),
            title: fc.constantFrom("Mend the nets", "Guard the gate", "Fetch the salt"),
            status: fc.constantFrom(...TaskStatus.literals),
            locationId: fc.option(fc.constantFrom(...locationPool), { nil: null }),
            deadline: fc.option(arbT, { nil: null }),
            proposedBy: fc.option(fc.constantFrom(self.id, ...others), { nil: null }),
            assignee: fc.option(fc.constantFrom(self.id, ...others), { nil: null }),
            sessions: fc.nat({ max: 5 }),
            deadlineMoves: fc.nat({ max: 2 }),
          }),
        ),
      ),
      home: fc.option(fc.constantFrom(...locationPool), { nil: null }),
      workplace: fc.option(fc.constantFrom(...locationPool), { nil: null }),
      // Read when generating: the conversation arbitraries are declared further down.
      conversation: fc.option(
        fc.constant(0).chain(() => arbActConversation),
        { nil: undefined },
      ),
    });
  });

export const arbDossier = (npcId: (typeof npcPool)[number], t: GameTime): fc.Arbitrary<Dossier> =>
  fc
    .subarray([...dossierSectionNames] as Array<DossierSectionName>)
    .chain((sections) =>
      fc.tuple(
        ...sections.map((name) =>
          fc
            .array(
              fc.record({
                id: fc.string({ minLength: 1, maxLength: 6 }),
                score: fc.double({ min: 0, max: 1, noNaN: true }),
                text: arbText,
              }),
              { maxLength: 4 },
            )
            .map((items) => ({
              name,
              budget: 200,
              tokens: 0,
              items: items.map((i) => ({ kind: "memory" as const, tokens: 1, ...i })),
            })),
        ),
      ),
    )
    .map((sections) => ({
      saveId: ids.save("save-1"),
      npcId,
      npcName: "Someone",
      t,
      day: Math.floor(t / 1440),
      query: null,
      budget: 1200,
      totalTokens: 0,
      sections,
    }));

const arbTurns = fc.array(
  fc.record({
    speakerId: fc.constantFrom(...npcPool),
    speakerName: fc.constantFrom(...names),
    text: arbText,
  }),
  { maxLength: 8 },
);

/** What a player might say: promises, confidences, names, requests, threats, news. */
const arbPlayerLine = fc.constantFrom(
  "I promise I'll defend the ford.",
  "I swear to bring you my sword by morning!",
  "Between us, I stole the mayor's seal.",
  "My name is Wren. I'm from the hills.",
  "I'm a wandering tinker.",
  "Could you lend me your boat?",
  "You fool, I'll burn it down.",
  "Have you heard the bridge is out?",
  "Do you remember what I promised?",
  "Is there any work for me?",
  "I trust you.",
);

const arbPlayerTurns = fc.array(
  fc.record({
    speakerId: fc.constantFrom(ids.npc("player"), ...npcPool),
    speakerName: fc.constantFrom("the player", ...names),
    text: fc.oneof(arbText, arbPlayerLine),
  }),
  { maxLength: 10 },
);

const arbRegard = fc.record({
  trust: fc.double({ min: -1, max: 1, noNaN: true }),
  respect: fc.double({ min: -1, max: 1, noNaN: true }),
  suspicion: fc.double({ min: -1, max: 1, noNaN: true }),
  summary: fc.constantFrom("", "Has talked with the player."),
});

const arbParticipants = fc
  .subarray(npcPool, { minLength: 1 })
  .chain((ps) =>
    fc.tuple(
      ...ps.map((id) => fc.record({ id: fc.constant(id), name: fc.constantFrom(...names) })),
    ),
  );

/** The talk an NPC answers in: what its `act` answer also remembers. */
const arbActConversation = fc.record({
  conversationId: fc.constant(ids.conversation("conv-1")),
  participants: arbParticipants,
  locationName: fc.option(fc.constant("Saltmarket"), { nil: null }),
  turns: arbTurns,
});

/** A witness's view of a scene: lines it heard or said, among those it shared it with. */
export const arbSceneInput = fc
  .tuple(arbSelf(), fc.subarray(npcPool, { minLength: 1 }))
  .chain(([self, others]) => {
    const company = others.filter((o) => o !== self.id);
    const people = [self.id, ...company];
    return fc.record({
      sceneId: fc.constant("scene-1" as SceneId),
      self: fc.constant(self),
      locationName: fc.constantFrom("the Mill", "Saltmarket", "the Lantern Inn"),
      company: fc.tuple(...company.map(arbGlimpse)),
      lines: fc.array(
        fc.record({
          speakerId: fc.constantFrom(...people),
          speakerName: fc.constantFrom(...names),
          listenerIds: fc.subarray(people, { minLength: 1, maxLength: Math.min(2, people.length) }),
          text: arbText,
        }),
        { maxLength: 8 },
      ),
      debates: fc.array(fc.record({ topic: arbText, summary: arbText, outcome: arbText }), {
        maxLength: 2,
      }),
      happenings: fc.array(arbText, { maxLength: 2 }),
    });
  });

/** What witnesses who heard the same lines share of a scene: no regard, traits or role. */
export const arbSharedSceneInput = fc.subarray(npcPool, { minLength: 2 }).chain((witnesses) =>
  fc.record({
    sceneId: fc.constant("scene-1" as SceneId),
    locationName: fc.constantFrom("the Mill", "Saltmarket", "the Lantern Inn"),
    witnesses: fc.tuple(
      ...witnesses.map((id) =>
        fc.record({
          id: fc.constant(id),
          name: fc.constantFrom(...names),
          speechStyle: fc.option(arbText, { nil: null }),
        }),
      ),
    ),
    present: fc.tuple(
      ...witnesses.map((id) => fc.record({ id: fc.constant(id), name: fc.constantFrom(...names) })),
    ),
    lines: fc.array(
      fc.record({
        speakerId: fc.constantFrom(...witnesses),
        speakerName: fc.constantFrom(...names),
        listenerIds: fc.subarray(witnesses, { minLength: 1, maxLength: 2 }),
        text: arbText,
      }),
      { maxLength: 8 },
    ),
    debates: fc.array(fc.record({ topic: arbText, summary: arbText, outcome: arbText }), {
      maxLength: 2,
    }),
    happenings: fc.array(arbText, { maxLength: 2 }),
  }),
);

const arbTextList = fc.array(arbText, { maxLength: 4 });

/** A profile as a first meeting or an earlier revision left it. */
export const arbProfile = fc.record({
  backstory: fc.oneof(
    arbText,
    arbText.map((t) => `${t} Of late, they saw the task "Old" through.`),
  ),
  personality: arbText,
  speechStyle: arbText,
  goals: arbTextList,
  fears: arbTextList,
  loyalties: fc.oneof(arbTextList, fc.subarray(names, { maxLength: 3 })),
  relationshipSeed: arbText,
});

/** A revision's input: the triggers it names always have their evidence. */
export const arbReviseInput = fc
  .record({
    self: arbSelf(),
    profile: arbProfile,
    completed: fc.array(arbText, { minLength: 1, maxLength: 4 }),
    broken: fc.array(arbText, { minLength: 1, maxLength: 4 }),
    feuds: fc
      .subarray(npcPool, { minLength: 1, maxLength: 3 })
      .chain((os) => fc.tuple(...os.map(arbGlimpse))),
    days: fc.integer({ min: 1, max: 90 }),
    triggers: fc.subarray(["task_completed", "promise_broken", "feud", "heavy_activity"] as const, {
      minLength: 1,
    }),
  })
  .map((r) => ({
    ...r,
    completed: r.triggers.includes("task_completed") ? r.completed : [],
    broken: r.triggers.includes("promise_broken") ? r.broken : [],
    feuds: r.triggers.includes("feud") ? r.feuds : [],
  }));

/** Memories about one subject, oldest first, as a consolidation is given them. */
export const arbConsolidateInput = fc.record({
  self: arbSelf(),
  subject: fc.record({
    kind: fc.constantFrom("npc", "location", "task"),
    id: fc.constantFrom("npc-ada", "quay", "task-1"),
    name: fc.constantFrom(...names, "the quay", "Mend the nets"),
  }),
  memories: fc
    .array(
      fc.record({
        memoryId: fc.integer({ min: 1, max: 999 }).map((n) => ids.memory(`m-${n}`)),
        text: arbText,
        category: fc.constantFrom(
          "observation",
          "conversation",
          "scene",
          "location",
        ) as fc.Arbitrary<"observation" | "conversation" | "scene" | "location">,
        recordedAt: arbT,
      }),
      { minLength: 1, maxLength: 8 },
    )
    .map((ms) => [...ms].sort((a, b) => a.recordedAt - b.recordedAt)),
});

/**
 * An own turn's input, now and then asking for a first profile or a due revision as a run
 * that carries them does (never with a conversation: only own turns carry them).
 */
const arbActInputCarrying = fc
  .tuple(
    arbActInput,
    fc.option(
      fc.record({
        locationName: fc.constantFrom("Saltmarket", "the Mill"),
        factionName: fc.option(fc.constantFrom("the Lantern Guild", "the Watch"), { nil: null }),
        acquaintances: fc.subarray(npcPool).chain((os) => fc.tuple(...os.map(arbGlimpse))),
      }),
      { nil: undefined },
    ),
    fc.option(
      arbReviseInput.map(({ self: _, ...due }) => due),
      { nil: undefined },
    ),
  )
  .map(([input, firstProfile, revise]) =>
    input.conversation !== undefined
      ? input
      : {
          ...input,
          ...(firstProfile === undefined ? {} : { firstProfile }),
          ...(revise === undefined || firstProfile !== undefined ? {} : { revise }),
        },
  );

const arbInputOf: { [P in PurposeName]: fc.Arbitrary<BrainRequest<P>["input"]> } = {
  act: arbActInputCarrying,
  consolidate_memories: arbConsolidateInput,
  profile: fc.record({
    self: arbSelf(),
    locationName: fc.constantFrom("Saltmarket", "the Mill"),
    factionName: fc.option(fc.constantFrom("the Lantern Guild", "the Watch"), { nil: null }),
    acquaintances: fc.subarray(npcPool).chain((os) => fc.tuple(...os.map(arbGlimpse))),
  }),
  revise_profile: arbReviseInput,
  extract_memories: fc.record({
    conversationId: fc.constant(ids.conversation("conv-1")),
    self: fc.record({ id: fc.constantFrom(...npcPool), name: fc.constantFrom(...names) }),
    participants: arbParticipants,
    locationName: fc.option(fc.constant("Saltmarket"), { nil: null }),
    turns: arbTurns,
  }),
  debate_turn: fc.record(
    {
      debateId: fc.constant(ids.debate("debate-1")),
      topic: fc.constantFrom("raising the toll on the bridge", "Should the watch be doubled?"),
      round: fc.nat(5),
      self: arbSelf(),
      participants: arbParticipants,
      previous: fc.array(
        fc.record({
          speakerId: fc.constantFrom(...npcPool),
          speakerName: fc.constantFrom(...names),
          text: arbText,
          stance: fc.constantFrom("for" as const, "against" as const, "undecided" as const),
        }),
        { maxLength: 8 },
      ),
      // Set on a debate's closing turn only (its answer carries the summary): absent, never false.
      closes: fc.constant(true as const),
    },
    { requiredKeys: ["debateId", "topic", "round", "self", "participants", "previous"] },
  ),
  summarize_debate: fc.record({
    debateId: fc.constant(ids.debate("debate-1")),
    topic: fc.constantFrom("raising the toll on the bridge", "Should the watch be doubled?"),
    participants: arbParticipants,
    turns: fc.array(
      fc.record({
        speakerId: fc.constantFrom(...npcPool),
        speakerName: fc.constantFrom(...names),
        text: arbText,
        stance: fc.constantFrom("for" as const, "against" as const, "undecided" as const),
      }),
      { maxLength: 10 },
    ),
  }),
  reply: fc.record({
    conversationId: fc.constant(ids.conversation("conv-1")),
    self: arbSelf(),
    player: fc.constant({ id: ids.npc("player"), name: "the player" }),
    locationName: fc.option(fc.constant("Saltmarket"), { nil: null }),
    regard: arbRegard,
    summary: fc.option(arbText, { nil: null }),
    turns: arbTurns,
    message: fc.oneof(arbText, arbPlayerLine),
    scene: fc.option(arbText, { nil: null }),
  }),
  extract_facts: fc.record({
    conversationId: fc.constant(ids.conversation("conv-1")),
    self: fc.record({ id: fc.constantFrom(...npcPool), name: fc.constantFrom(...names) }),
    npc: fc.record({ id: fc.constantFrom(...npcPool), name: fc.constantFrom(...names) }),
    player: fc.constant({ id: ids.npc("player"), name: "the player" }),
    role: fc.constantFrom("participant" as const, "witness" as const),
    locationName: fc.option(fc.constant("Saltmarket"), { nil: null }),
    turns: arbPlayerTurns,
  }),
  summarize_talk: fc.record({
    conversationId: fc.constant(ids.conversation("conv-1")),
    self: fc.record({ id: fc.constantFrom(...npcPool), name: fc.constantFrom(...names) }),
    partner: fc.constant({ id: ids.npc("player"), name: "the player" }),
    priorSummary: fc.option(arbText, { nil: null }),
    regard: arbRegard,
    turns: arbPlayerTurns,
  }),
  summarize_scene: arbSceneInput,
  summarize_shared_scene: arbSharedSceneInput,
};

/** A request of the given purpose, with or without a dossier. */
export const arbRequest = <P extends PurposeName>(purpose: P): fc.Arbitrary<BrainRequest<P>> =>
  fc
    .record({
      npcId: fc.constantFrom(...npcPool),
      t: arbT,
      seed: fc.integer(),
      input: arbInputOf[purpose] as fc.Arbitrary<BrainRequest<P>["input"]>,
      withDossier: fc.boolean(),
    })
    .chain(({ npcId, t, seed, input, withDossier }) =>
      (withDossier ? arbDossier(npcId, t) : fc.constant(null)).map(
        (dossier) =>
          ({
            purpose,
            npcId: purpose === "summarize_debate" ? null : npcId,
            t,
            seed,
            dossier: dossier === null ? null : dossierReader(dossier),
            input,
          }) as unknown as BrainRequest<P>,
      ),
    );

/** A request of any purpose. */
export const arbAnyRequest: fc.Arbitrary<BrainRequest> = fc.oneof(
  arbRequest("act"),
  arbRequest("profile"),
  arbRequest("extract_memories"),
  arbRequest("debate_turn"),
  arbRequest("summarize_debate"),
) as fc.Arbitrary<BrainRequest>;

/** How many runs a property gets: more under HEARSAY_DEEP. */
export const runs = (normal: number, deep = normal * 20): number =>
  process.env.HEARSAY_DEEP ? deep : normal;
