import type { Dossier } from "@hearsay/core";
import { type DossierAsk, type DossierSource, retrievalDossiers } from "@hearsay/engine";
import { type ActInput, ScriptedBrain, type SyncBrain } from "@hearsay/mind";
import type { SqliteEventLog } from "@hearsay/store";
import { describe, expect, it } from "vitest";
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
