/**
 * A stand-in for a live model in replay tests: it answers like the scripted brain but
 * with a shifted seed (so re-running the scripted brain would NOT reproduce its answers:
 * only the recording can), reports latencies and token counts that differ call by call
 * (as a real server's do), has no synchronous path, and fails a few calls outright (one
 * in `failEvery`, by input hash), so a log it wrote holds failed calls too.
 */
import { type BrainShape, BrainUnavailable, inputHash, ScriptedBrain } from "@hearsay/mind";
import { Effect } from "effect";

export const STAND_IN = "stand-in";

export const standInBrain = (options: { readonly failEvery?: number } = {}): BrainShape => {
  const rules = ScriptedBrain.make();
  const failEvery = options.failEvery ?? 23;
  return {
    name: STAND_IN,
    decide: (request) =>
      Effect.suspend(() => {
        const hash = inputHash(request);
        const n = Number.parseInt(hash.slice(0, 8), 16);
        if (request.purpose !== "profile" && n % failEvery === 0) {
          return Effect.fail(
            new BrainUnavailable({
              brain: STAND_IN,
              model: "shifted-rules",
              kind: "server_error",
              reason: `HTTP 500 on call ${hash.slice(0, 8)}`,
            }),
          );
        }
        return rules.decide({ ...request, seed: request.seed + 1000 } as typeof request).pipe(
          Effect.map((answer) => ({
            output: answer.output,
            meta: {
              brain: STAND_IN,
              model: "shifted-rules",
              promptTokens: 200 + (n % 700),
              outputTokens: 20 + (n % 90),
              latencyMs: 100 + (n % 4000) / 7,
              fallbackReason: null,
            },
          })),
        );
      }),
  };
};
