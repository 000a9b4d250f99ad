/**
 * Significance gating read back from the log matches what the engine did: over a real
 * run, the wake-ups the inspector counts as having asked the brain are exactly the
 * engine's turn decisions (the `act` requests made without a conversation's query),
 * day by day; and the note rule itself is checked as a pure function.
 */
import type { Cost, Inspector } from "@hearsay/inspector";
import { nonTurnNotes, routineNotes, startInspector, turnKind } from "@hearsay/inspector";
import type { BrainRequest, SyncBrain } from "@hearsay/mind";
import { ScriptedBrain } from "@hearsay/mind";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { fakeDossiers, getJson, recordHaskerry } from "./harness.ts";

let inspector: Inspector | undefined;
afterAll(async () => {
  await inspector?.close();
});

describe("turnKind", () => {
  it("counts a wake-up as gated only for a routine note with no failed decision", () => {
    const notes = fc.oneof(fc.constantFrom(...routineNotes, ...nonTurnNotes), fc.string());
    fc.assert(
      fc.property(notes, fc.boolean(), fc.boolean(), (note, placement, failed) => {
        const kind = turnKind(note, placement, failed);
        if (placement || nonTurnNotes.has(note)) expect(kind).toBe("none");
        else if (routineNotes.has(note) && !failed) expect(kind).toBe("gated");
        else expect(kind).toBe("asked");
      }),
    );
  });
});

/** Whether an act request's dossier query is a turn's situation, not a line to answer. */
const isTurnQuery = (r: BrainRequest<"act">): boolean => {
  const q = r.dossier?.whole()?.query ?? null;
  if (q === null) return true;
  const situation = [
    r.input.location.name,
    ...r.input.present.map((p) => p.name),
    ...r.input.tasks.map((t) => t.title),
  ].join(" ");
  return q === situation || q.startsWith(`${situation} `) || situation.startsWith(q);
};

describe("gating from the log", () => {
  it("finds as many asked wake-ups per day as the engine made turn decisions", async () => {
    const scripted = ScriptedBrain.make();
    const decisions = new Map<number, number>();
    const spy: SyncBrain = {
      name: scripted.name,
      decide: (r) => scripted.decide(r),
      decideSync: <P extends Parameters<SyncBrain["decideSync"]>[0]["purpose"]>(
        r: BrainRequest<P>,
      ) => {
        // A turn decision's dossier searches for its situation (the place, who is there,
        // its tasks, …); a reply in a conversation is asked with the line it answers.
        if (
          r.purpose === "act" &&
          (r.dossier?.whole() ?? null) !== null &&
          isTurnQuery(r as BrainRequest<"act">)
        ) {
          const day = Math.floor(r.t / 1440);
          decisions.set(day, (decisions.get(day) ?? 0) + 1);
        }
        return scripted.decideSync(r);
      },
    };
    const path = await recordHaskerry(1, spy, fakeDossiers([]));
    inspector = await startInspector({ dbPath: path, port: 0, pageDir: null });
    const { body } = await getJson<Cost>(inspector.url, "/api/cost");
    const asked = new Map(body.days.filter((d) => d.asked > 0).map((d) => [d.day, d.asked]));
    expect(asked).toEqual(decisions);
    expect(body.totals.gated).toBeGreaterThan(0);
  });
});
