import { gameTime, ids, makeEvent } from "@hearsay/core";
import {
  type BrainRequest,
  type BrainShape,
  BrainUnavailable,
  inputHash,
  type LlmCallPayload,
  RecordedBrain,
  type RecordedBrainShape,
  ScriptedBrain,
  withRecording,
  withRecordingSync,
} from "@hearsay/mind";
import { Effect, Exit, Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbAnyRequest, runs } from "./arbitraries.ts";

const scripted = ScriptedBrain.make();

const recordAll = (requests: ReadonlyArray<BrainRequest>) => {
  const payloads: Array<LlmCallPayload> = [];
  const brain = withRecording(scripted, (p) => payloads.push(p));
  const answers = requests.map((r) => Effect.runSync(brain.decide(r)));
  return { payloads, answers };
};

describe("withRecording + RecordedBrain", () => {
  it("records one LlmCallRecorded payload per call, and replay answers identically with no live brain", () => {
    fc.assert(
      fc.property(fc.array(arbAnyRequest, { maxLength: 12 }), (requests) => {
        const { payloads, answers } = recordAll(requests);
        expect(payloads.map((p) => p.inputHash)).toEqual(requests.map(inputHash));
        expect(new Set(payloads.map((p) => p.callId)).size).toBe(payloads.length);
        const events = payloads.map((payload, i) =>
          makeEvent("LlmCallRecorded", { id: ids.event(`e${i}`), t: requests[i]!.t, payload }),
        );
        const replay = RecordedBrain.fromEvents(events);
        const rerecorded: Array<LlmCallPayload> = [];
        const again = withRecording(replay, (p) => rerecorded.push(p));
        expect(requests.map((r) => Effect.runSync(again.decide(r)))).toEqual(answers);
        expect(rerecorded).toEqual(payloads);
        expect(replay.unused()).toBe(0);
      }),
      { numRuns: runs(100) },
    );
  });

  it("withRecordingSync records the same payloads as withRecording", () => {
    fc.assert(
      fc.property(fc.array(arbAnyRequest, { maxLength: 8 }), (requests) => {
        const sync: Array<LlmCallPayload> = [];
        const brain = withRecordingSync(scripted, (p) => sync.push(p));
        for (const r of requests) brain.decideSync(r);
        expect(sync).toEqual(recordAll(requests).payloads);
      }),
      { numRuns: runs(50) },
    );
  });

  it("records a failed call with its error and fails it again on replay", () => {
    const request = fc.sample(arbAnyRequest, { numRuns: 1, seed: 42 })[0]!;
    const dead: BrainShape = {
      name: "ollama",
      decide: () =>
        Effect.fail(
          new BrainUnavailable({
            brain: "ollama",
            model: "m",
            kind: "unreachable",
            reason: "connection refused",
          }),
        ),
    };
    const payloads: Array<LlmCallPayload> = [];
    const exit = Effect.runSyncExit(withRecording(dead, (p) => payloads.push(p)).decide(request));
    expect(Exit.isFailure(exit)).toBe(true);
    expect(payloads).toHaveLength(1);
    expect(payloads[0]).toMatchObject({
      output: null,
      brain: "ollama",
      model: "m",
      error: "ollama (m) unavailable: connection refused",
    });
    const replayed = RecordedBrain.fromPayloads(payloads).decideResult(request);
    expect(Result.isFailure(replayed) && replayed.failure._tag).toBe("RecordedFailure");
  });

  it("a request with no recording is RecordingMissing, never a live call", () => {
    const request: BrainRequest<"summarize_debate"> = {
      purpose: "summarize_debate",
      npcId: null,
      t: gameTime(3, 4),
      seed: 9,
      dossier: null,
      input: { debateId: ids.debate("d"), topic: "x", participants: [], turns: [] },
    };
    const result = RecordedBrain.fromPayloads([]).decideResult(request);
    if (Result.isSuccess(result)) throw new Error("expected a failure");
    expect(result.failure).toMatchObject({
      _tag: "RecordingMissing",
      purpose: "summarize_debate",
      npcId: null,
      t: gameTime(3, 4),
      inputHash: inputHash(request),
    });
  });

  it("answers repeated hashes in recorded order (model-based)", () => {
    // Three distinct requests, each recorded a few times with distinguishable answers.
    const base = fc.sample(arbAnyRequest, { numRuns: 3, seed: 7 });
    const payloadsFor = (counts: ReadonlyArray<number>): Array<LlmCallPayload> =>
      counts.flatMap((n, r) =>
        Array.from({ length: n }, (_, k) => {
          const request = base[r]!;
          const answer = scripted.decideSync({ ...request, seed: k } as BrainRequest);
          const { payloads } = { payloads: [] as Array<LlmCallPayload> };
          withRecordingSync({ ...scripted, decideSync: () => answer } as typeof scripted, (p) =>
            payloads.push(p),
          ).decideSync(request);
          return { ...payloads[0]!, latencyMs: r * 100 + k };
        }),
      );
    type Model = { left: Array<number>; asked: Array<number> };
    class Ask implements fc.Command<Model, RecordedBrainShape> {
      constructor(readonly r: number) {}
      check = () => true;
      run(model: Model, real: RecordedBrainShape) {
        const result = real.decideResult(base[this.r]!);
        const k = model.asked[this.r]!;
        if (model.left[this.r]! === 0) {
          expect(Result.isFailure(result) && result.failure._tag).toBe("RecordingMissing");
          return;
        }
        if (Result.isFailure(result)) throw result.failure;
        expect(result.success.meta.latencyMs).toBe(this.r * 100 + k);
        model.left[this.r]!--;
        model.asked[this.r]!++;
        expect(real.unused()).toBe(model.left.reduce((a, b) => a + b, 0));
      }
      toString = () => `Ask(${this.r})`;
    }
    fc.assert(
      fc.property(
        fc.tuple(fc.nat(3), fc.nat(3), fc.nat(3)),
        fc.commands([fc.nat(2).map((r) => new Ask(r))], { size: "+1" }),
        (counts, cmds) => {
          const real = RecordedBrain.fromPayloads(payloadsFor(counts));
          fc.modelRun(() => ({ model: { left: [...counts], asked: [0, 0, 0] }, real }), cmds);
        },
      ),
      { numRuns: runs(100) },
    );
  });
});
