/**
 * A debate's summary carried in its last turn's answer (`summarize_debate` in
 * `SimulationStarted.carried`): a new run asks no separate call; a run without it (an
 * older recording) asks as before; a closing turn that fails, or leaves the summary out,
 * falls back to the call.
 */
import { verifyLog } from "@hearsay/engine";
import {
  type BrainRequest,
  type BrainShape,
  BrainUnavailable,
  type PurposeName,
  ScriptedBrain,
} from "@hearsay/mind";
import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { freshLog, MAIN, ofType, run } from "./harness.ts";
import { hamlet, memoryLog, refusingBrain, runHamlet } from "./replay/fixtures.ts";

type Closing = "answers" | "fails" | "no_outcome";

/** The scripted brain, seen: every request it is asked, and a closing turn as `closing` says. */
const spy = (closing: Closing = "answers") => {
  const rules = ScriptedBrain.make();
  const asked: Array<BrainRequest> = [];
  const brain: BrainShape = {
    name: "spy",
    decide: (request) =>
      Effect.suspend(() => {
        asked.push(request);
        const closes = request.purpose === "debate_turn" && request.input.closes === true;
        if (closes && closing === "fails")
          return Effect.fail(
            new BrainUnavailable({
              brain: "spy",
              model: "rules",
              kind: "server_error",
              reason: "HTTP 500 on the closing turn",
            }),
          );
        return rules.decide(request).pipe(
          Effect.map((answer) => {
            if (!closes || closing !== "no_outcome") return answer;
            const { outcome: _, ...rest } = answer.output as { outcome?: string };
            return { ...answer, output: rest } as typeof answer;
          }),
        );
      }),
  };
  return { brain, asked };
};

const of = <P extends PurposeName>(asked: ReadonlyArray<BrainRequest>, purpose: P) =>
  asked.filter((r): r is BrainRequest<P> => r.purpose === purpose);

const DAYS = 2;

describe("a debate's summary carried in its last turn", () => {
  it("a new run flags only each debate's last turn, stores its answer's summary, and asks no summarize_debate", async () => {
    const log = freshLog();
    const { brain, asked } = spy();
    await run(log, { days: DAYS, brain, recordBrain: true });
    const held = ofType(log, "DebateHeld");
    expect(held.length).toBeGreaterThan(0);
    expect(ofType(log, "SimulationStarted")[0]!.payload.carried).toContain("summarize_debate");
    expect(of(asked, "summarize_debate")).toEqual([]);
    expect(
      ofType(log, "LlmCallRecorded").filter((e) => e.payload.purpose === "summarize_debate"),
    ).toEqual([]);
    for (const d of held) {
      const turns = of(asked, "debate_turn").filter((r) => r.input.debateId === d.payload.debateId);
      expect(turns.length).toBeGreaterThan(1);
      // Only the last asked turn closes, and it heard every line before its own.
      expect(turns.map((r) => r.input.closes === true)).toEqual(
        turns.map((_, i) => i === turns.length - 1),
      );
      const last = turns.at(-1)!;
      expect(last.input.previous).toHaveLength(turns.length - 1);
      const answer = ScriptedBrain.make().decideSync(last).output;
      expect(d.payload.summary).toBe(answer.summary);
      expect(d.payload.outcome).toBe(answer.outcome);
    }
  });

  it("a run without `carried` asks summarize_debate as before, flags no turn, and holds the same debates", async () => {
    const carried = freshLog();
    await run(carried, { days: DAYS });
    const log = freshLog();
    const { brain, asked } = spy();
    await run(log, { days: DAYS, brain, carried: [] });
    expect(ofType(log, "SimulationStarted")[0]!.payload.carried).toBeUndefined();
    const held = ofType(log, "DebateHeld");
    expect(of(asked, "summarize_debate")).toHaveLength(held.length);
    expect(of(asked, "debate_turn").some((r) => r.input.closes !== undefined)).toBe(false);
    // The scripted summary is the same whichever way it is asked.
    expect(held.map((e) => e.payload)).toEqual(ofType(carried, "DebateHeld").map((e) => e.payload));
  });

  for (const closing of ["fails", "no_outcome"] as const) {
    it(`a closing turn that ${closing === "fails" ? "fails" : "gives no outcome"} falls back to the summarize_debate call`, async () => {
      const log = freshLog();
      const { brain, asked } = spy(closing);
      await run(log, { days: DAYS, brain, recordBrain: true });
      const held = ofType(log, "DebateHeld");
      expect(held.length).toBeGreaterThan(0);
      const summaries = of(asked, "summarize_debate");
      expect(summaries).toHaveLength(held.length);
      for (const d of held) {
        const call = summaries.find((r) => r.input.debateId === d.payload.debateId)!;
        // The summary is of every line, the closing one included (as "…" when it failed).
        const turns = of(asked, "debate_turn").filter(
          (r) => r.input.debateId === d.payload.debateId,
        );
        expect(call.input.turns).toHaveLength(turns.length);
        if (closing === "fails") expect(call.input.turns.at(-1)!.text).toBe("…");
        const answer = ScriptedBrain.make().decideSync(call).output;
        expect(d.payload.summary).toBe(answer.summary);
      }
      expect(
        ofType(log, "LlmCallRecorded").filter((e) => e.payload.purpose === "summarize_debate"),
      ).toHaveLength(held.length);
    });
  }

  it("a carried run verifies from its recording alone, the closing turns' answers giving the summaries", async () => {
    const log = memoryLog();
    const { brain } = spy();
    await runHamlet(log, { brain, recordBrain: true });
    expect(ofType(log, "DebateHeld").length).toBeGreaterThan(0);
    const { brain: refuse, calls: called } = refusingBrain();
    const report = await verifyLog({
      log,
      saveId: MAIN,
      simulation: hamlet(),
      scripted: () => refuse,
    });
    expect(report.divergence).toBeNull();
    expect(report.ok).toBe(true);
    expect(called()).toBe(0);
  });
});
