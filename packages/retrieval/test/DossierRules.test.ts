/**
 * The `stable` dossier rules: on a turn among NPCs its lore, world events and debates are
 * ranked by what the NPC stands in (its place and open tasks), so they — and the prompt
 * text up to its memories — stay the same whoever is present and whatever the turn's
 * query (its situation, or the line it heard); a question put to it by the player or a
 * tool still calls up its lore. The `moment` rules, which runs
 * recorded before keep, rank them by the company and the query.
 */
import { type Dossier, dossierSectionNames, renderDossierForPrompt } from "@hearsay/core";
import {
  buildDossier,
  type DossierReads,
  deferredDossier,
  importLore,
  makeHashingEmbedder,
  RetrievalEngine,
  VectorIndexes,
} from "@hearsay/retrieval";
import { Effect } from "effect";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ev, openWorld, type TestWorld } from "./fixtures.ts";

let world: TestWorld;
let engine: RetrievalEngine;

const topics = ["wolves", "cheese", "lanterns", "ferry", "bells", "wool", "salt", "owls"];
const people = ["bram", "cora", "dell"];
const T = 5_000;
const DAY = 1_440;
const LATE = 4 * DAY + 60;

beforeAll(() => {
  world = openWorld();
  const reg = (npcId: string, name: string) =>
    ev("NpcRegistered", 0, {
      npcId,
      name,
      role: "villager",
      factionId: null,
      locationId: "square",
      traits: [],
    });
  world.append([
    reg("ada", "Ada"),
    reg("bram", "Bram"),
    reg("cora", "Cora"),
    reg("dell", "Dell"),
    ...topics.flatMap((topic, i) => {
      const who = ["Bram", "Cora", "Dell"][i % 3]!;
      return [
        ev("WorldEventOccurred", 100 + i, {
          worldEventId: `w-${topic}`,
          kind: "rumour",
          text: `${who} spread talk of ${topic} through the square.`,
          locationId: null,
          factionId: null,
          visibility: "global",
          importance: 0.5,
          participants: [],
          entities: [topic, who],
          lapsesAt: null,
        }),
        // Ada's own memories, more than her memories section holds: some of the place
        // she stands in, some of elsewhere, each of one topic and one person.
        ev("MemoryRecorded", 300 + i, {
          memoryId: `m-${topic}`,
          ownerNpcId: "ada",
          text: `${who} told me about the ${topic} by the ${i % 2 === 0 ? "square" : "mill"}.`,
          category: "observation",
          importance: 0.3 + 0.05 * i,
          expiresAt: null,
          locationId: i % 2 === 0 ? "square" : "mill",
          entities: [topic, who],
          about: null,
        }),
        ev("KnowledgeGained", 100 + i, {
          npcId: "ada",
          itemKind: "world_event",
          itemId: `w-${topic}`,
          via: "told",
          fromNpcId: null,
          confidence: 1,
        }),
      ];
    }),
    // A memory of Ada's place from day 4, after every dossier at T: it is in the day's
    // standing part of day 5 under the stable rules, not under the steady ones, whose
    // standing parts are ranked as of the start of days 3-5.
    ev("MemoryRecorded", LATE, {
      memoryId: "m-late",
      ownerNpcId: "ada",
      text: "Bram and Cora quarrelled loudly by the square well.",
      category: "observation",
      importance: 0.95,
      expiresAt: null,
      locationId: "square",
      entities: ["Bram", "Cora"],
      about: null,
    }),
    // A memory of the place that expires on day 6: in the day's standing part of day 6
    // under the stable rules, not under the steady ones (it does not last their span).
    ev("MemoryRecorded", 5_100, {
      memoryId: "m-brief",
      ownerNpcId: "ada",
      text: "Dell left a basket of eggs by the square well.",
      category: "observation",
      importance: 0.99,
      expiresAt: 6 * DAY + 300,
      locationId: "square",
      entities: ["Dell"],
      about: null,
    }),
  ]);
  importLore(world.db, world.log, {
    saveId: world.saveId,
    t: 200,
    files: topics.map((topic, i) => ({
      path: `${topic}.md`,
      bytes: `# ${topic}\n\n${["Bram", "Cora", "Dell"][i % 3]} knows all about the ${topic} of the valley.\n`,
    })),
  });
  const embedder = makeHashingEmbedder();
  const { index } = Effect.runSync(VectorIndexes.open(world.db, embedder));
  engine = new RetrievalEngine(world.db, { log: world.log, embedder, index });
});

/** Ada's turn on the square with `present`, under `rules`. */
const requestOf = (
  rules: "stable" | "moment" | "steady",
  query: string,
  present: ReadonlyArray<string>,
  npcTurn: boolean,
  t = T,
) => ({
  saveId: world.saveId,
  npcId: "ada",
  t,
  query,
  scene: { locationId: "square", present: ["ada", ...present] },
  rules,
  ...(npcTurn ? { npcTurn } : {}),
});

const dossierOf = (...turn: Parameters<typeof requestOf>): Dossier =>
  engine.dossier(requestOf(...turn))!;

const ids = (d: Dossier, name: string) =>
  d.sections.find((s) => s.name === name)!.items.map((i) => i.id);

/**
 * The prompt's dossier text before what the moment picks: every section up to the
 * memories, of a split section (memories, world events, relationships) only the part
 * chosen by what the NPC stands in.
 */
const standingText = (d: Dossier): string =>
  renderDossierForPrompt({
    ...d,
    sections: d.sections
      .filter((s) => s.name !== "scene" && s.name !== "dialogue")
      .map((s) =>
        s.items.some((i) => i.standing === true)
          ? { ...s, items: s.items.filter((i) => i.standing === true) }
          : s,
      ),
  });

const memories = (d: Dossier) => d.sections.find((s) => s.name === "memories")!;

const arbTurn = fc.record({
  query: fc.constantFrom(...topics).map((t) => `what about the ${t}?`),
  present: fc.subarray(people),
});

describe("the stable dossier rules", () => {
  it("give a turn among NPCs the same lore, world events and prompt start whoever is present and whatever its query", () => {
    fc.assert(
      fc.property(arbTurn, arbTurn, fc.constantFrom("stable", "steady" as const), (a, b, rules) => {
        const da = dossierOf(rules, a.query, a.present, true);
        const db = dossierOf(rules, b.query, b.present, true);
        for (const name of ["lore", "world_events", "debates"])
          expect(ids(da, name)).toEqual(ids(db, name));
        expect(standingText(da)).toBe(standingText(db));
        // ... and the prompt starts with it: the turn's own memories come after.
        expect(renderDossierForPrompt(da).startsWith(standingText(da))).toBe(true);
      }),
      { numRuns: process.env.HEARSAY_DEEP ? 400 : 40 },
    );
    // Full sections: the sameness is not that of empty ones.
    const d = dossierOf("stable", "salt", [], true);
    expect(ids(d, "lore").length).toBeGreaterThanOrEqual(2);
    expect(ids(d, "world_events")).toHaveLength(5);
  });

  it("split a turn's memories: a standing part whatever its query or company, then what its query brings to mind", () => {
    fc.assert(
      fc.property(arbTurn, arbTurn, (a, b) => {
        const ma = memories(dossierOf("stable", a.query, a.present, true));
        const mb = memories(dossierOf("stable", b.query, b.present, true));
        const standingIds = (m: typeof ma) =>
          m.items.filter((i) => i.standing === true).map((i) => i.id);
        expect(standingIds(ma)).toEqual(standingIds(mb));
        // The standing part comes first, no memory is listed twice, the budget holds.
        const kinds = ma.items.map((i) => i.standing === true);
        expect(kinds).toEqual([...kinds].sort((x, y) => Number(y) - Number(x)));
        expect(new Set(ma.items.map((i) => i.id)).size).toBe(ma.items.length);
        expect(ma.tokens).toBeLessThanOrEqual(ma.budget);
      }),
      { numRuns: process.env.HEARSAY_DEEP ? 400 : 40 },
    );
    // Both parts hold memories, and the turn's part follows its query: every topic's
    // memory is in the section when the turn is about it.
    for (const topic of topics) {
      const m = memories(dossierOf("stable", `what about the ${topic}?`, [], true));
      expect(m.items.some((i) => i.standing === true)).toBe(true);
      expect(m.items.some((i) => i.standing !== true)).toBe(true);
      expect(m.items.map((i) => i.id)).toContain(`m-${topic}`);
    }
  });

  it("rank the memories of a question put by the player or a tool as the moment rules do", () => {
    for (const topic of topics)
      for (const present of [[], ["bram"]]) {
        const ask = `what about the ${topic}?`;
        const stable = memories(dossierOf("stable", ask, present, false));
        expect(stable.items.some((i) => i.standing === true)).toBe(false);
        expect(stable.items).toEqual(memories(dossierOf("moment", ask, present, false)).items);
      }
  });

  it("still rank lore by the question, when the player or a tool puts one to the NPC", () => {
    for (const topic of topics) {
      const lore = dossierOf("stable", `what about the ${topic}?`, ["bram"], false)
        .sections.find((s) => s.name === "lore")!
        .items.map((i) => i.text);
      expect(lore.some((text) => text.includes(topic))).toBe(true);
    }
  });

  it("differ from the moment rules, which rank a turn's lore and events by its company and query", () => {
    const seen = new Set<string>();
    for (const topic of topics)
      for (const present of [[], ["bram"], ["cora", "dell"]]) {
        const d = dossierOf("moment", `what about the ${topic}?`, present, true);
        seen.add(JSON.stringify([ids(d, "lore"), ids(d, "world_events")]));
      }
    expect(seen.size).toBeGreaterThan(1);
  });
});

describe("the steady dossier rules", () => {
  const standingIds = (d: Dossier, name: string) =>
    d.sections
      .find((s) => s.name === name)!
      .items.filter((i) => i.standing === true)
      .map((i) => i.id);

  it("rank a turn's standing memories as of the start of its three-day span, not its day", () => {
    const t = 5 * DAY + 600;
    const stable = dossierOf("stable", "what about the owls?", ["bram"], true, t);
    const steady = dossierOf("steady", "what about the owls?", ["bram"], true, t);
    expect(standingIds(stable, "memories")).toContain("m-late");
    expect(standingIds(steady, "memories")).not.toContain("m-late");
    expect(standingIds(steady, "memories").length).toBeGreaterThan(0);
    // The same standing parts on any day of the span, whatever the turn's query or company.
    fc.assert(
      fc.property(arbTurn, arbTurn, fc.integer({ min: 3 * DAY, max: 6 * DAY - 1 }), (a, b, at) => {
        const da = dossierOf("steady", a.query, a.present, true, at);
        const db = dossierOf("steady", b.query, b.present, true, 6 * DAY - 1);
        for (const name of ["memories", "world_events"])
          expect(standingIds(da, name)).toEqual(standingIds(db, name));
      }),
      { numRuns: process.env.HEARSAY_DEEP ? 200 : 20 },
    );
  });

  it("keep out of a turn's standing part what expires within its span", () => {
    const t = 6 * DAY + 60;
    const stable = dossierOf("stable", "what about the owls?", [], true, t);
    const steady = dossierOf("steady", "what about the owls?", [], true, t);
    expect(standingIds(stable, "memories")).toContain("m-brief");
    expect(standingIds(steady, "memories")).not.toContain("m-brief");
    expect(standingIds(steady, "memories").length).toBeGreaterThan(0);
  });

  it("mark split sections as parted, so a prompt lists a turn's part after what stays even with no standing part", () => {
    // At day 0's start Ada knew nothing yet: the standing parts are empty.
    const d = dossierOf("steady", "what about the salt?", ["bram"], true, 400);
    const m = memories(d);
    expect(m.parted).toBe(true);
    expect(m.items.length).toBeGreaterThan(0);
    expect(m.items.some((i) => i.standing === true)).toBe(false);
    const text = renderDossierForPrompt(d);
    expect(text.indexOf("## What comes to mind")).toBeGreaterThan(text.indexOf("## Your tasks"));
    expect(text).not.toContain("## What you remember");
    expect(memories(dossierOf("stable", "what about the salt?", ["bram"], true, 400)).parted).toBe(
      undefined,
    );
  });

  it("build the same dossier when each section's search is opened on its own", () => {
    // A dossier opens one search per distinct ask, which sections asking alike share
    // (windowed or not), and gathers a collection's candidates once per search; here
    // every section's search gets a context and candidates of its own.
    const reads = engine.dossierReads(world.saveId);
    const view = engine.view(world.saveId);
    const unshared: DossierReads = {
      ...reads,
      search: (ask) => (c, limit, window) => {
        const queryVector = ask.queryVector ?? engine.embedQuery(ask.embedText);
        const ctx = engine.context(view, { ...ask, queryVector });
        return engine.searchIn({ ...ctx, ...window }, c, limit);
      },
    };
    fc.assert(
      fc.property(
        arbTurn,
        fc.constantFrom("stable" as const, "moment" as const, "steady" as const),
        fc.boolean(),
        fc.integer({ min: 0, max: 8 * DAY }),
        fc.shuffledSubarray([...dossierSectionNames]),
        ({ query, present }, rules, npcTurn, t, order) => {
          const req = requestOf(rules, query, present, npcTurn, t);
          // Sections read in any order from one dossier, each against a dossier of its own.
          const shared = engine.deferredDossier(req)!;
          for (const name of order)
            expect(shared.section(name)).toEqual(deferredDossier(unshared, req)!.section(name));
          expect(engine.dossier(req)).toEqual(buildDossier(unshared, req));
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 300 : 60 },
    );
  });
});
