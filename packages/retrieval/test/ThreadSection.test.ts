/**
 * The dossier's threads section: an NPC sees a thread from the moment it learnt of it
 * until the thread closes — read back for any past t — and never a thread it does not
 * know of. A property checks the section against an oracle over random schedules.
 */
import { renderDossier } from "@hearsay/core";
import { makeHashingEmbedder, RetrievalEngine, VectorIndexes } from "@hearsay/retrieval";
import { Effect } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ev, openWorld } from "./fixtures.ts";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 20 : n });
const npcs = ["ada", "bram", "cora"] as const;

const opened = (id: string, t: number, npcIds: ReadonlyArray<string>, text = `Thread ${id}.`) =>
  ev("ThreadOpened", t, { threadId: id, kind: "promise", text, npcIds, source: null });
const learnt = (npc: string, id: string, t: number) =>
  ev("KnowledgeGained", t, {
    npcId: npc,
    itemKind: "thread",
    itemId: id,
    via: "participant",
    fromNpcId: null,
    confidence: 1,
  });
const closed = (id: string, t: number) =>
  ev("ThreadClosed", t, { threadId: id, outcome: "resolved", reason: "kept" });

const engineOver = (events: ReadonlyArray<{ readonly t: number }>) => {
  const world = openWorld();
  world.append([
    ...npcs.map((npcId) =>
      ev("NpcRegistered", 0, {
        npcId,
        name: npcId.toUpperCase(),
        role: "villager",
        factionId: null,
        locationId: "square",
        traits: ["calm"],
      }),
    ),
    ...[...events].sort((a, b) => a.t - b.t),
  ]);
  const embedder = makeHashingEmbedder();
  const { index } = Effect.runSync(VectorIndexes.open(world.db, embedder));
  const engine = new RetrievalEngine(world.db, { log: world.log, embedder, index });
  return (
    npcId: string,
    t: number,
    present: ReadonlyArray<string> = [],
    rules: "stable" | "steady" = "stable",
  ) =>
    engine.dossier({
      saveId: world.saveId,
      npcId,
      t,
      scene: { locationId: "square", present: [...present] },
      rules,
    })!;
};

const threadIds = (d: ReturnType<ReturnType<typeof engineOver>>) =>
  d.sections.find((s) => s.name === "threads")!.items.map((i) => i.id);

describe("threads section", () => {
  const dossier = engineOver([
    opened("oath", 10, ["ada", "bram"], "Ada swore to mend Bram's roof."),
    learnt("ada", "oath", 10),
    learnt("bram", "oath", 30),
    opened("grudge", 20, ["ada", "cora"], "Cora and Ada are at odds."),
    learnt("cora", "grudge", 20),
    closed("oath", 100),
  ]);

  it("shows an open thread to those who know of it, from when they learnt it", () => {
    expect(threadIds(dossier("ada", 50))).toEqual(["oath"]);
    expect(threadIds(dossier("bram", 20))).toEqual([]);
    expect(threadIds(dossier("bram", 50))).toEqual(["oath"]);
    expect(threadIds(dossier("cora", 50))).toEqual(["grudge"]);
    const text = renderDossier(dossier("ada", 50));
    expect(text).toContain("## What is unresolved\n- A promise (since day 0, 00:10): Ada swore");
    expect(text).not.toContain("at odds");
  });

  it("drops a closed thread from then on, but a dossier for an earlier t still shows it", () => {
    expect(threadIds(dossier("ada", 99))).toEqual(["oath"]);
    expect(threadIds(dossier("ada", 100))).toEqual([]);
    expect(threadIds(dossier("bram", 500))).toEqual([]);
  });

  it("ranks the threads of those present first", () => {
    const both = engineOver([
      opened("a", 1, ["ada", "bram"]),
      learnt("ada", "a", 1),
      opened("b", 2, ["ada", "cora"]),
      learnt("ada", "b", 2),
    ]);
    expect(threadIds(both("ada", 10, ["bram"]))).toEqual(["a", "b"]);
    expect(threadIds(both("ada", 10, ["cora"]))).toEqual(["b", "a"]);
    // The steady rules rank them oldest first whoever is present, so a thread opened
    // later is listed after them; each carries its opening as its arrival.
    for (const present of [["bram"], ["cora"], []])
      expect(threadIds(both("ada", 10, present, "steady"))).toEqual(["a", "b"]);
    const items = both("ada", 10, [], "steady").sections.find((s) => s.name === "threads")!.items;
    expect(items.map((i) => i.order)).toEqual([1, 2]);
  });

  it("property: the section is exactly the open threads the NPC knows of at t", () => {
    const arbThread = fc.record({
      openAt: fc.integer({ min: 1, max: 50 }),
      lasts: fc.option(fc.integer({ min: 1, max: 50 }), { nil: null }),
      learn: fc.array(
        fc.record({ npc: fc.constantFrom(...npcs), after: fc.integer({ min: 0, max: 60 }) }),
        { maxLength: 3 },
      ),
    });
    fc.assert(
      fc.property(
        fc.array(arbThread, { minLength: 1, maxLength: 4 }),
        fc.array(fc.tuple(fc.constantFrom(...npcs), fc.integer({ min: 0, max: 120 })), {
          minLength: 1,
          maxLength: 6,
        }),
        (threads, asks) => {
          const events = threads.flatMap((th, i) => [
            opened(`th-${i}`, th.openAt, ["ada"]),
            ...th.learn.map((l) => learnt(l.npc, `th-${i}`, th.openAt + l.after)),
            ...(th.lasts === null ? [] : [closed(`th-${i}`, th.openAt + th.lasts)]),
          ]);
          const dossier = engineOver(events);
          for (const [npc, t] of asks) {
            const expected = threads
              .flatMap((th, i) => {
                const knownAt = Math.min(
                  ...th.learn.filter((l) => l.npc === npc).map((l) => th.openAt + l.after),
                );
                const open = th.openAt <= t && (th.lasts === null || th.openAt + th.lasts > t);
                return open && knownAt <= t ? [`th-${i}`] : [];
              })
              .sort();
            expect([...threadIds(dossier(npc, t))].sort()).toEqual(expected);
          }
        },
      ),
      runs(15),
    );
  });
});
