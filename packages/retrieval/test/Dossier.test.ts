import { dossierSectionNames, estimateTokens, renderDossier } from "@hearsay/core";
import {
  buildDossier,
  collectionNames,
  type DossierReads,
  deferredDossier,
  importLore,
  makeHashingEmbedder,
  RetrievalEngine,
  scoreCandidate,
  VectorIndexes,
} from "@hearsay/retrieval";
import { Effect } from "effect";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ev, openWorld, type TestWorld } from "./fixtures.ts";

let world: TestWorld;
let engine: RetrievalEngine;
const embedder = makeHashingEmbedder();

const mem = (id: string, owner: string, t: number, text: string, entities: Array<string> = []) =>
  ev("MemoryRecorded", t, {
    memoryId: id,
    ownerNpcId: owner,
    text,
    category: "observation",
    importance: 0.5,
    expiresAt: null,
    locationId: "square",
    entities,
    about: null,
  });
const learn = (npc: string, kind: string, id: string, t: number) =>
  ev("KnowledgeGained", t, {
    npcId: npc,
    itemKind: kind,
    itemId: id,
    via: "told",
    fromNpcId: null,
    confidence: 1,
  });

beforeAll(() => {
  world = openWorld();
  const reg = (npcId: string, name: string, factionId: string | null, locationId: string) =>
    ev("NpcRegistered", 0, {
      npcId,
      name,
      role: "villager",
      factionId,
      locationId,
      traits: ["stubborn"],
    });
  world.append([
    reg("ada", "Ada", "guild", "square"),
    reg("bram", "Bram", null, "mill"),
    reg("cora", "Cora", "guild", "chapel"),
    ev("ProfileGenerated", 1, {
      npcId: "ada",
      profile: {
        backstory: "Ada has kept the forge since her father died.",
        personality: "blunt",
        speechStyle: "short sentences",
        goals: ["pay the guild"],
        fears: ["fire"],
        loyalties: ["the guild"],
        relationshipSeed: "wary of millers",
      },
    }),
    mem("m-ada-1", "ada", 10, "I forged a silver sword for the guard captain."),
    mem("m-ada-2", "ada", 20, "The bellows cracked and I patched them with leather."),
    mem("m-bram-secret", "bram", 30, "I hid the stolen grain in the mill cellar.", ["Bram"]),
    mem("m-bram-told", "bram", 40, "The river is rising near the mill.", ["Bram"]),
    learn("ada", "memory", "m-bram-told", 45),
    ev("WorldEventOccurred", 50, {
      worldEventId: "w-storm",
      kind: "storm",
      text: "A storm flooded the river bridge.",
      locationId: null,
      factionId: null,
      visibility: "global",
      importance: 0.9,
      participants: [],
      entities: [],
      lapsesAt: null,
    }),
    learn("ada", "world_event", "w-storm", 60),
    learn("bram", "world_event", "w-storm", 60),
    ev("WorldEventOccurred", 70, {
      worldEventId: "w-theft",
      kind: "theft",
      text: "Someone stole grain from the granary.",
      locationId: "mill",
      factionId: null,
      visibility: "private",
      importance: 0.8,
      participants: ["bram"],
      entities: [],
      lapsesAt: null,
    }),
    learn("bram", "world_event", "w-theft", 70),
    ev("RelationshipChanged", 80, {
      fromId: "ada",
      toId: "bram",
      trust: -0.2,
      respect: 0.1,
      suspicion: 0.6,
      summary: "He dodges questions.",
      reason: "He dodged my questions about the theft.",
    }),
    ev("RelationshipChanged", 80, {
      fromId: "bram",
      toId: "ada",
      trust: 0.9,
      respect: 0.9,
      suspicion: 0,
      summary: "Bram's view.",
      reason: "Ada helped Bram mend the ford.",
    }),
    ev("TaskProposed", 90, {
      taskId: "task-1",
      title: "Mend the bridge rail",
      description: "Forge new brackets for the bridge.",
      proposedBy: "cora",
      assignee: "ada",
      locationId: "square",
      factionId: "guild",
      deadline: 3000,
    }),
    ev("DebateHeld", 100, {
      debateId: "d-1",
      topic: "Who pays for the bridge",
      participants: ["ada", "cora"],
      locationId: "square",
      factionId: "guild",
      summary: "Ada and Cora argued about the guild paying.",
      outcome: "The guild pays half.",
    }),
    learn("ada", "debate", "d-1", 100),
    ...Array.from({ length: 8 }, (_, i) =>
      ev("ConversationTurn", 110 + i, {
        conversationId: "conv-1",
        turnIndex: i,
        speakerId: i % 2 === 0 ? "ada" : "bram",
        listenerIds: [i % 2 === 0 ? "bram" : "ada"],
        locationId: "square",
        text: `Line ${i} about the grain.`,
      }),
    ),
    ev("ConversationSummarized", 120, {
      conversationId: "conv-1",
      npcId: "ada",
      partnerId: "bram",
      throughTurn: 7,
      summary: "Bram avoided my questions about the grain.",
    }),
  ]);
  importLore(world.db, world.log, {
    saveId: world.saveId,
    t: 130,
    files: [
      {
        path: "venn.md",
        bytes: "# Captain Venn\n\nCaptain Venn commands the harbor guard and trusts no miller.\n",
      },
      { path: "weather.md", bytes: "# Weather\n\nAutumn storms come from the western sea.\n" },
    ],
  });
  const { index } = Effect.runSync(VectorIndexes.open(world.db, embedder));
  engine = new RetrievalEngine(world.db, { log: world.log, embedder, index });
});

const ids = (d: ReturnType<RetrievalEngine["dossier"]>, section: string) =>
  d!.sections.find((s) => s.name === section)!.items.map((i) => i.id);

describe("dossier", () => {
  it("has every section, in core's stable-to-volatile order, with only what the NPC may know", () => {
    const d = engine.dossier({
      saveId: world.saveId,
      npcId: "ada",
      t: 1000,
      scene: { locationId: "square", present: ["bram"] },
    })!;
    expect(d.sections.map((s) => s.name)).toEqual([...dossierSectionNames]);
    expect(ids(d, "profile")).toEqual(["ada"]);
    expect(d.sections[0]!.items[0]!.text).toMatch(/^You are Ada.*kept the forge/);
    expect(ids(d, "relationships")).toEqual(["ada->bram"]);
    expect(ids(d, "memories")).toEqual(
      expect.arrayContaining(["m-ada-1", "m-ada-2", "m-bram-told", "conv-1"]),
    );
    expect(ids(d, "memories")).not.toContain("m-bram-secret");
    expect(ids(d, "world_events")).toEqual(["w-storm"]);
    expect(ids(d, "debates")).toEqual(["d-1"]);
    expect(ids(d, "tasks")).toEqual(["task-1"]);
    expect(ids(d, "scene")).toEqual(["square"]);
    expect(d.sections.find((s) => s.name === "scene")!.items[0]!.text).toMatch(/With you: Bram\./);
    expect(ids(d, "dialogue")).toEqual([
      "conv-1#2",
      "conv-1#3",
      "conv-1#4",
      "conv-1#5",
      "conv-1#6",
      "conv-1#7",
    ]);
    // Items found by search carry their row's place (`order`), tasks their proposal time,
    // so a prompt lists them as they entered the world; the others have none.
    const searched = new Set(["memories", "world_events", "lore", "debates", "tasks", "threads"]);
    for (const s of d.sections)
      for (const i of s.items)
        expect(Object.keys(i).sort()).toEqual(
          searched.has(s.name)
            ? ["id", "kind", "order", "score", "text", "tokens"]
            : ["id", "kind", "score", "text", "tokens"],
        );
    expect(d.totalTokens).toBeLessThanOrEqual(d.budget);
    expect(estimateTokens(renderDossier(d))).toBeLessThanOrEqual(d.totalTokens);
  });

  it("respects the time it is asked for", () => {
    const early = engine.dossier({ saveId: world.saveId, npcId: "ada", t: 55 })!;
    expect(ids(early, "world_events")).toEqual([]);
    expect(ids(early, "memories")).toEqual(expect.arrayContaining(["m-ada-1", "m-bram-told"]));
    expect(ids(early, "dialogue")).toEqual([]);
    expect(
      ids(engine.dossier({ saveId: world.saveId, npcId: "ada", t: 30 })!, "memories"),
    ).not.toContain("m-bram-told");
    expect(engine.dossier({ saveId: world.saveId, npcId: "ada", day: 0 })!.t).toBe(1439);
  });

  it("lets names in the query trigger the lore about them", () => {
    const d = engine.dossier({
      saveId: world.saveId,
      npcId: "ada",
      t: 1000,
      query: "What does Captain Venn think?",
    })!;
    expect(ids(d, "lore")[0]).toBe("lore:venn.md#0");
  });

  it("quotes each lore chunk as its heading and text, however often it is shown", () => {
    const rows = world.db
      .prepare("SELECT chunk_id, heading_path, text FROM lore_chunks")
      .all() as Array<{ chunk_id: string; heading_path: string; text: string }>;
    const whole = new Map(
      rows.map((r) => [
        r.chunk_id,
        `${(JSON.parse(r.heading_path) as Array<string>).join(" / ")}: ${r.text}`.replace(
          /\s+/g,
          " ",
        ),
      ]),
    );
    for (const query of ["What does Captain Venn think?", "storms at sea", "the miller", null])
      for (const t of [500, 1000, 1500]) {
        const d = engine.dossier({ saveId: world.saveId, npcId: "ada", t, query })!;
        const lore = d.sections.find((s) => s.name === "lore")!.items;
        expect(lore.length).toBeGreaterThan(0);
        for (const item of lore)
          expect(whole.get(item.id)!.startsWith(item.text.replace(/…$/, ""))).toBe(true);
      }
  });

  it("scores each hit by its signals, as a score adds them", () => {
    const view = engine.view(world.saveId);
    const names = ["storm", "grain", "Captain Venn", "the mill", "Bram"];
    fc.assert(
      fc.property(
        fc.constantFrom("ada", "bram", "cora"),
        fc.integer({ min: 0, max: 1500 }),
        fc.constantFrom(...names),
        fc.constantFrom(...collectionNames),
        (npcId, t, text, c) => {
          const ask = {
            npcId,
            t,
            queryText: `${text} square`,
            ftsText: null,
            embedText: text,
            queryVector: undefined,
            location: "square",
            activeTaskIds: ["task-1"],
          };
          const ctx = engine.context(view, { ...ask, queryVector: engine.embedQuery(text) });
          const tab = view.items[c];
          for (const h of engine.dossierReads(world.saveId).search(ask)(c, 10)) {
            const owner = tab.owner[h.local]!;
            const parts = tab.participants[h.local]!;
            const ents = tab.entities[h.local]!;
            const ownerFaction = owner >= 0 ? (view.npcFaction.get(owner) ?? -1) : -1;
            const signals = {
              sameNpc: (owner >= 0 && owner === ctx.npc) || parts.includes(ctx.npc),
              relatedNpc:
                ctx.related.has(owner) ||
                parts.some((p) => ctx.related.has(p)) ||
                ents.some((e) => ctx.relatedNames.has(e)),
              sameFaction:
                ctx.faction >= 0 &&
                (tab.faction[h.local] === ctx.faction ||
                  (owner !== ctx.npc && ownerFaction === ctx.faction)),
              sameLocation: ctx.location >= 0 && tab.location[h.local] === ctx.location,
              entityMention: ents.some((e) => ctx.mentioned.has(e)),
              activeTask:
                tab.aboutTask[h.local]! >= 0 && ctx.activeTasks.has(tab.aboutTask[h.local]!),
              importance: tab.importance[h.local]!,
              ageMinutes: c === "lore" ? 1441 : t - tab.t[h.local]!,
              similarity: h.similarity,
              keyword: 0,
              expired: false,
            };
            expect(h.score).toBe(scoreCandidate(signals));
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it("fits smaller budgets and presets", () => {
    for (const budget of ["tiny", "small", 400] as const) {
      const d = engine.dossier({ saveId: world.saveId, npcId: "ada", t: 1000, budget })!;
      expect(d.budget).toBeLessThanOrEqual(
        budget === "tiny" ? 900 : budget === "small" ? 1600 : 400,
      );
      expect(d.totalTokens).toBeLessThanOrEqual(d.budget);
      expect(ids(d, "profile")).toEqual(["ada"]);
    }
  });

  it("binds to one save in the shape the simulation's DossierSource wants", () => {
    const source = engine.forSave(world.saveId);
    const d = source.dossier({
      npcId: "ada",
      t: 1000,
      query: null,
      scene: { locationId: "square", present: ["bram"] },
    });
    expect(d).toEqual(
      engine.dossier({
        saveId: world.saveId,
        npcId: "ada",
        t: 1000,
        query: null,
        scene: { locationId: "square", present: ["bram"] },
      }),
    );
  });

  it("built a section at a time, in any order, holds what the whole dossier holds", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("ada", "bram", "cora"),
        fc.integer({ min: 0, max: 1500 }),
        fc.constantFrom(null, "storm", "the guild's debt"),
        fc.shuffledSubarray([...dossierSectionNames]),
        (npcId, t, query, order) => {
          const req = {
            saveId: world.saveId,
            npcId,
            t,
            query,
            scene: { locationId: "square", present: ["bram"] },
          };
          const deferred = engine.deferredDossier(req)!;
          const whole = engine.dossier(req)!;
          for (const name of order)
            expect(deferred.section(name)!.items).toEqual(
              whole.sections.find((s) => s.name === name)!.items,
            );
          expect(deferred.whole()).toEqual(whole);
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 400 : 40 },
    );
  });

  it("reads only through its collaborators: a query search and a situation search, each opened once by its first section", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("ada", "bram", "cora"),
        fc.integer({ min: 0, max: 1500 }),
        fc.shuffledSubarray([...dossierSectionNames]),
        (npcId, t, order) => {
          const req = { saveId: world.saveId, npcId, t, query: "storm" };
          const real = engine.dossierReads(world.saveId);
          const opened: Array<string> = [];
          const reads: DossierReads = {
            ...real,
            search: (ask) => {
              opened.push(ask.ftsText === null ? "situation" : "query");
              return real.search(ask);
            },
          };
          const d = deferredDossier(reads, req)!;
          const byQuery = ["lore", "memories"];
          const bySituation = ["world_events", "debates"];
          for (const name of order) d.section(name);
          const expected = [
            ...new Set(
              order.flatMap((n) =>
                byQuery.includes(n) ? ["query"] : bySituation.includes(n) ? ["situation"] : [],
              ),
            ),
          ];
          expect(opened).toEqual(expected);
          // Built through the same collaborators, whole, it is the engine's own dossier.
          expect(buildDossier(reads, req)).toEqual(engine.dossier(req));
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 200 : 20 },
    );
  });

  it("takes its default budgets from its collaborators", () => {
    const req = { saveId: world.saveId, npcId: "ada", t: 1500 };
    const reads = engine.dossierReads(world.saveId);
    const tiny = { ...reads.budgets, memories: 1, lore: 1 };
    const d = buildDossier({ ...reads, budgets: tiny }, req)!;
    expect(d.sections.find((s) => s.name === "memories")!.budget).toBe(1);
    expect(d.sections.find((s) => s.name === "lore")!.budget).toBe(1);
    expect(d.budget).toBeLessThan(engine.dossier(req)!.budget);
  });

  it("is null for an NPC the save does not have", () => {
    expect(engine.dossier({ saveId: world.saveId, npcId: "nobody", t: 10 })).toBeNull();
    expect(engine.deferredDossier({ saveId: world.saveId, npcId: "nobody", t: 10 })).toBeNull();
  });

  it("picks up events appended after it was built", () => {
    world.append([mem("m-ada-late", "ada", 2000, "A traveller paid me in foreign coin.")]);
    const d = engine.dossier({
      saveId: world.saveId,
      npcId: "ada",
      t: 2001,
      query: "foreign coin",
    })!;
    expect(ids(d, "memories")[0]).toBe("m-ada-late");
    const hits = engine.search({
      saveId: world.saveId,
      npcId: "ada",
      t: 2001,
      query: "foreign coin",
      collections: ["memories"],
    });
    expect(hits[0]!.id).toBe("m-ada-late");
    expect(hits[0]!.similarity).toBeGreaterThan(0.3);
  });

  it("holds a world event until it lapses and never after, though its knowers still knew it", () => {
    world.append([
      ev("WorldEventOccurred", 3000, {
        worldEventId: "w-fair",
        kind: "market",
        text: "A horse fair came to the square.",
        locationId: null,
        factionId: null,
        visibility: "global",
        importance: 0.3,
        participants: [],
        entities: ["fair"],
        lapsesAt: 3500,
      }),
      learn("ada", "world_event", "w-fair", 3000),
    ]);
    const at = (t: number) =>
      ids(
        engine.dossier({ saveId: world.saveId, npcId: "ada", t, query: "horse fair" })!,
        "world_events",
      );
    expect(at(3499)).toContain("w-fair");
    expect(at(3500)).not.toContain("w-fair");
    expect(at(9000)).not.toContain("w-fair");
    // The storm (never lapsing) stays.
    expect(at(9000)).toContain("w-storm");
    const hits = (t: number) =>
      engine
        .search({
          saveId: world.saveId,
          npcId: "ada",
          t,
          query: "horse fair",
          collections: ["world_events"],
        })
        .map((h) => h.id);
    expect(hits(3499)).toContain("w-fair");
    expect(hits(3500)).not.toContain("w-fair");
  });

  it("ranks world events by the NPC's situation, whatever line it heard", () => {
    // More events than the section holds, each about its own thing, so a section ranked
    // by the line heard would pick differently for each line.
    const topics = ["wolves", "cheese", "lanterns", "ferry", "bells", "wool", "salt", "owls"];
    world.append(
      topics.flatMap((topic, i) => [
        ev("WorldEventOccurred", 10_000 + i, {
          worldEventId: `w-${topic}`,
          kind: "rumour",
          text: `Talk of ${topic} spread through the square.`,
          locationId: null,
          factionId: null,
          visibility: "global",
          importance: 0.5,
          participants: [],
          entities: [topic],
          lapsesAt: null,
        }),
        learn("ada", "world_event", `w-${topic}`, 10_000 + i),
      ]),
    );
    const scene = { locationId: "square", present: ["ada", "bram"] };
    const events = (query: string) =>
      ids(
        engine.dossier({ saveId: world.saveId, npcId: "ada", t: 10_100, query, scene })!,
        "world_events",
      );
    fc.assert(
      fc.property(fc.constantFrom(...topics), fc.constantFrom(...topics), (a, b) => {
        expect(events(`what about the ${a}?`)).toEqual(events(`what about the ${b}?`));
      }),
      { numRuns: 20 },
    );
    // The section is full: the sameness is not that of an empty one.
    expect(events("storm")).toHaveLength(5);
  });
  it("under the steady rules, appends a new line to the dialogue and drops old lines four at a time", () => {
    const lines = (t: number) =>
      engine
        .dossier({ saveId: world.saveId, npcId: "ada", t, rules: "steady" })!
        .sections.find((s) => s.name === "dialogue")!
        .items.map((i) => i.id);
    let jumps = 0;
    for (let t = 110; t < 117; t++) {
      const now = lines(t);
      const next = lines(t + 1);
      // Said up to t: t - 109 lines; three to six of them once there are three.
      expect(now.length).toBe(Math.min(t - 109, t - 109 < 3 ? 6 : 3 + ((t - 109 - 3) % 4)));
      expect(next.at(-1)).toBe(`conv-1#${t + 1 - 110}`);
      if (next.length === now.length + 1) expect(next.slice(0, -1)).toEqual(now);
      else jumps++;
    }
    expect(jumps).toBe(1);
    // The stable rules keep the last six, whatever the count.
    const stable = engine
      .dossier({ saveId: world.saveId, npcId: "ada", t: 117, rules: "stable" })!
      .sections.find((s) => s.name === "dialogue")!;
    expect(stable.items).toHaveLength(6);
  });

  it("under the steady rules, leaves a task's status to the turn's input", () => {
    const task = (rules: "stable" | "steady") =>
      engine
        .dossier({ saveId: world.saveId, npcId: "ada", t: 1000, rules })!
        .sections.find((s) => s.name === "tasks")!.items[0]!.text;
    expect(task("stable")).toMatch(/\((proposed|active)/);
    expect(task("steady")).not.toMatch(/proposed|active/);
    expect(task("steady").startsWith(task("stable").split(" (")[0]!)).toBe(true);
    // A later task comes first under the stable rules, after the earlier under the steady.
    world.append([
      ev("TaskProposed", 1100, {
        taskId: "task-2",
        title: "Sweep the forge",
        description: "Ash everywhere.",
        proposedBy: "cora",
        assignee: "ada",
        locationId: "square",
        factionId: "guild",
        deadline: 4000,
      }),
    ]);
    const tasks = (rules: "stable" | "steady") =>
      engine
        .dossier({ saveId: world.saveId, npcId: "ada", t: 1200, rules })!
        .sections.find((s) => s.name === "tasks")!.items;
    expect(tasks("stable").map((i) => i.id)).toEqual(["task-2", "task-1"]);
    expect(tasks("steady").map((i) => i.id)).toEqual(["task-1", "task-2"]);
    expect(tasks("steady").map((i) => i.order)).toEqual([90, 1100]);
  });
});
