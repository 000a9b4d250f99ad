/**
 * A dossier in a prompt: sections stable-to-volatile (`promptSectionOrder`), items in the
 * order they entered the world (then id), so a change of rank alone moves no prompt text,
 * a new item is appended after those a previous prompt listed, and consecutive prompts of
 * one NPC share their start up to the first item that really changed.
 */
import {
  type Dossier,
  type DossierSection,
  dossierSectionNames,
  type GameTime,
  type NpcId,
  promptSectionOrder,
  renderDossierForPrompt,
  type SaveId,
} from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 20 : n });

const itemArb = fc
  .record({
    kind: fc.constantFrom("memory" as const, "lore" as const),
    id: fc.string({ minLength: 1, maxLength: 6 }),
    score: fc.double({ min: 0, max: 100, noNaN: true }),
    tokens: fc.integer({ min: 1, max: 200 }),
    text: fc.string({ minLength: 1, maxLength: 30 }).map((s) => `t${s}`),
    order: fc.option(fc.nat(50), { nil: undefined }),
  })
  .map(({ order, ...item }) => (order === undefined ? item : { ...item, order }));

const dossierOf = (sections: ReadonlyArray<DossierSection>): Dossier => ({
  saveId: "s" as SaveId,
  npcId: "ada" as NpcId,
  npcName: "Ada",
  t: 600 as GameTime,
  day: 0,
  query: null,
  budget: 3000,
  totalTokens: 0,
  sections,
});

const sectionsArb = fc
  .array(fc.uniqueArray(itemArb, { selector: (i) => i.id, maxLength: 5 }), {
    minLength: dossierSectionNames.length,
    maxLength: dossierSectionNames.length,
  })
  .map((lists) =>
    dossierSectionNames.map(
      (name, i): DossierSection => ({ name, budget: 100, tokens: 0, items: lists[i]! }),
    ),
  );

describe("renderDossierForPrompt", () => {
  it("orders every section name exactly once", () => {
    expect([...promptSectionOrder].sort()).toEqual([...dossierSectionNames].sort());
  });

  it("is the same text whatever the order of sections and of items within them (but dialogue's)", () => {
    fc.assert(
      fc.property(sectionsArb, fc.integer(), (sections, seed) => {
        const shuffle = <T>(xs: ReadonlyArray<T>, s: number): Array<T> =>
          xs
            .map((x, i) => ({ x, k: (i * 7919 + s) % 104729 }))
            .sort((a, b) => a.k - b.k)
            .map((e) => e.x);
        const moved = shuffle(sections, seed).map((s) =>
          s.name === "dialogue" ? s : { ...s, items: shuffle(s.items, seed + 1) },
        );
        expect(renderDossierForPrompt(dossierOf(moved))).toBe(
          renderDossierForPrompt(dossierOf(sections)),
        );
      }),
      runs(100),
    );
  });

  it("lists the sections in prompt order, dialogue as said", () => {
    const one = (name: DossierSection["name"], id: string, text: string): DossierSection => ({
      name,
      budget: 100,
      tokens: 0,
      items: [{ kind: "memory", id, score: 1, tokens: 1, text }],
    });
    const d = dossierOf([...dossierSectionNames.map((n) => one(n, "a", `${n}-text`))]);
    const text = renderDossierForPrompt(d);
    const at = promptSectionOrder.map((n) => text.indexOf(`${n}-text`));
    expect(at.every((x, i) => x >= 0 && (i === 0 || x > at[i - 1]!))).toBe(true);
    const talk = dossierOf([
      {
        name: "dialogue",
        budget: 100,
        tokens: 0,
        items: [
          { kind: "dialogue", id: "z", score: 1, tokens: 1, text: "first" },
          { kind: "dialogue", id: "a", score: 1, tokens: 1, text: "second" },
        ],
      },
    ]);
    const said = renderDossierForPrompt(talk);
    expect(said.indexOf("first")).toBeLessThan(said.indexOf("second"));
  });

  it("keeps the text before the sections ranked by the moment whatever they hold", () => {
    // The scene and dialogue follow the moment: everything else must come before them,
    // or a new line heard would change a prompt from its start.
    const moment = new Set<DossierSection["name"]>(["scene", "dialogue"]);
    fc.assert(
      fc.property(sectionsArb, sectionsArb, (a, b) => {
        const mixed = a.map((s, i) => (moment.has(s.name) ? b[i]! : s));
        const first = renderDossierForPrompt(dossierOf(a));
        const second = renderDossierForPrompt(dossierOf(mixed));
        const standing = a.filter((s) => !moment.has(s.name) && s.items.length > 0);
        const shared = renderDossierForPrompt(dossierOf(standing));
        expect(first.startsWith(shared)).toBe(true);
        expect(second.startsWith(shared)).toBe(true);
      }),
      runs(100),
    );
  });

  it("lists a section's standing items in its place and what the turn ranked after every section that stays", () => {
    // Under the stable rules a turn's memories, world events and relationships come in two
    // parts: whatever the turn's part holds, and whatever the scene and dialogue, the
    // prompt starts with every section that stays and the standing parts. A `parted`
    // section is split even with no standing items; the turn's part of relationships (who
    // of those it regards is present) stays in place.
    const moment = new Set<DossierSection["name"]>(["scene", "dialogue"]);
    const standingArb = sectionsArb.chain((sections) =>
      fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }).map((flags) =>
        sections.map((s, i) => ({
          ...s,
          ...(flags[50 + i] ? { parted: true as const } : {}),
          items: s.items.map((item, j) =>
            flags[(i * 5 + j) % 50] ? { ...item, standing: true as const } : item,
          ),
        })),
      ),
    );
    const split = (s: DossierSection) =>
      s.name !== "relationships" && (s.parted === true || s.items.some((i) => i.standing === true));
    const turnOnly = (s: DossierSection) =>
      split(s) ? s.items.filter((i) => i.standing !== true) : [];
    fc.assert(
      fc.property(standingArb, sectionsArb, (a, b) => {
        // b's items stand in for what the turn ranked (in split sections) and the moment.
        const mixed = a.map((s, i) =>
          moment.has(s.name)
            ? b[i]!
            : split(s)
              ? {
                  ...s,
                  items: [
                    ...s.items.filter((x) => x.standing === true),
                    ...b[i]!.items.filter((x) => !s.items.some((y) => y.id === x.id)),
                  ],
                }
              : s,
        );
        const stays = dossierOf(
          a
            .filter((s) => !moment.has(s.name))
            .map((s) => ({ ...s, items: s.items.filter((x) => !turnOnly(s).includes(x)) })),
        );
        const shared = renderDossierForPrompt(stays);
        expect(renderDossierForPrompt(dossierOf(a)).startsWith(shared)).toBe(true);
        expect(renderDossierForPrompt(dossierOf(mixed)).startsWith(shared)).toBe(true);
      }),
      runs(100),
    );
  });

  it("appends an item that entered the world later after those already listed", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat(1000), { minLength: 1, maxLength: 8 }),
        fc.nat(1000),
        fc.string({ minLength: 1, maxLength: 8 }),
        (orders, extra, id) => {
          const item = (order: number, i: number) => ({
            kind: "world_event" as const,
            id: `${id}-${(order * 7 + i) % 13}-${i}`,
            score: (order * 31) % 17,
            tokens: 1,
            text: `event ${order}`,
            order,
          });
          const listed = orders.map(item);
          const latest = Math.max(...orders) + 1 + extra;
          const section = (items: ReadonlyArray<ReturnType<typeof item>>): DossierSection => ({
            name: "world_events",
            budget: 100,
            tokens: 0,
            items,
          });
          const before = renderDossierForPrompt(dossierOf([section(listed)]));
          const after = renderDossierForPrompt(
            dossierOf([section([item(latest, orders.length), ...listed])]),
          );
          expect(after.startsWith(before)).toBe(true);
        },
      ),
      runs(100),
    );
  });
});
