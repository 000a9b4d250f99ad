import { type Dossier, ids as ids_ } from "@hearsay/core";
import { type DossierAsk, type DossierSource, retrievalDossiers } from "@hearsay/engine";
import { type ActInput, ScriptedBrain, type SyncBrain } from "@hearsay/mind";
import type { SqliteEventLog } from "@hearsay/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TickContext } from "../src/TickContext.ts";
import { turnQuery } from "../src/turnQuery.ts";
import { freshLog, run } from "./harness.ts";

const ids = (d: Dossier) =>
  d.sections.flatMap((s) => s.items.map((i) => `${s.name}:${i.id}`)).join(",");

describe("a turn's dossier searches for the turn's situation", () => {
  it("asks with the place, who is there and its tasks, and the query changes what the dossier holds", async () => {
    const asks: Array<DossierAsk> = [];
    const inputs = new Map<string, ActInput>();
    let differs = 0;
    const dossiers = (log: SqliteEventLog, saveId: Parameters<typeof retrievalDossiers>[1]) => {
      const inner = retrievalDossiers(log, saveId);
      const source: DossierSource = {
        ...inner,
        dossier: (ask) => {
          asks.push(ask);
          return inner.dossier(ask);
        },
        deferred: (ask) => {
          asks.push(ask);
          // The same moment without the query: what the probes add.
          const plain = inner.dossier({ ...ask, query: null });
          const asked = inner.dossier(ask);
          if (plain !== null && asked !== null && ids(plain) !== ids(asked)) differs++;
          return inner.deferred!(ask);
        },
      };
      return source;
    };
    const scripted = ScriptedBrain.make();
    const brain: SyncBrain = {
      ...scripted,
      decideSync: (request) => {
        if (request.purpose === "act") {
          inputs.set(`${request.npcId}@${request.t}`, request.input as ActInput);
          request.dossier?.whole();
        }
        return scripted.decideSync(request);
      },
    };
    await run(freshLog(), { dossiers, days: 2, brain });
    expect(asks.length).toBeGreaterThan(0);
    expect(inputs.size).toBeGreaterThan(0);
    // Every dossier asked for has a query: conversation replies search what was said, and
    // turns (before, asked with none) their situation — the place first, then who is there.
    for (const ask of asks) expect(ask.query, `${ask.npcId}@${ask.t}`).not.toBeNull();
    let turns = 0;
    for (const [key, input] of inputs) {
      const turn = asks.find(
        (ask) => `${ask.npcId}@${ask.t}` === key && ask.query!.startsWith(input.location.name),
      );
      if (turn === undefined) continue;
      turns++;
      for (const p of input.present.slice(0, 3)) expect(turn.query).toContain(p.name);
    }
    expect(turns).toBeGreaterThan(inputs.size / 2);
    expect(differs).toBeGreaterThan(0);
  });
});

describe("a turn's query text", () => {
  /** The query as the whole text cut afterwards: every word of every part, then the first 48. */
  const reference = (parts: ReadonlyArray<string>): string | null => {
    const words = parts
      .join(" ")
      .split(/\s+/)
      .filter((w) => w.length > 0);
    return words.length === 0 ? null : words.slice(0, 48).join(" ");
  };
  const text = fc.array(fc.constantFrom("Ann", "Vale", "  ", "", "mill\tpond", " the ", "\n"), {
    maxLength: 6,
  });
  const words = text.map((w) => w.join(""));

  it("is the first 48 words of place, company, tasks and news, though it stops taking at 48", () => {
    fc.assert(
      fc.property(
        words,
        // Up to 60 people, past the 48 words a query keeps as often as not.
        fc.array(words, { maxLength: 60, size: "max" }),
        fc.array(words, { maxLength: 4 }),
        fc.option(words, { nil: undefined }),
        (place, present, tasks, news) => {
          const self = ids_.npc("self");
          const event = ids_.worldEvent("w1");
          const ctx = {
            actors: {
              facts: () => ({
                rumours: new Map(news === undefined ? [] : [[event, 1]]),
              }),
            },
            state: { worldEvents: new Map([[event, { text: news ?? "" }]]) },
          } as unknown as TickContext;
          const input = {
            location: { name: place },
            present: present.map((name) => ({ name })),
            tasks: tasks.map((title) => ({ title })),
          } as unknown as ActInput;
          expect(turnQuery(ctx, self, input)).toBe(
            reference([place, ...present, ...tasks, news ?? ""]),
          );
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 2000 : 200 },
    );
  });
});
