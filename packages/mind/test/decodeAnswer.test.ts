import { ids } from "@hearsay/core";
import {
  CallBudget,
  decodeAnswer,
  encodeOutput,
  outputFormat,
  purposeNames,
  ScriptedBrain,
} from "@hearsay/mind";
import { Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbAnyRequest, arbRequest, runs } from "./arbitraries.ts";

const scripted = ScriptedBrain.make();

describe("outputFormat", () => {
  it("is a JSON Schema for every purpose that refuses extra properties", () => {
    for (const purpose of purposeNames) {
      const format = outputFormat(purpose);
      const text = JSON.stringify(format);
      expect(
        format.type === "object" || Array.isArray(format.anyOf) || Array.isArray(format.oneOf),
      ).toBe(true);
      expect(text).toContain('"additionalProperties":false');
      expect(text).not.toContain("Infinity");
      expect(outputFormat(purpose)).toBe(format);
    }
    expect(JSON.stringify(outputFormat("act"))).toContain('"propose_task"');
  });
});

describe("decodeAnswer", () => {
  it("accepts any valid answer as JSON, bare or in a code fence", () => {
    fc.assert(
      fc.property(arbAnyRequest, fc.boolean(), (request, fenced) => {
        const output = scripted.decideSync(request).output;
        const json = JSON.stringify(encodeOutput(request.purpose, output));
        const raw = fenced ? `\`\`\`json\n${json}\n\`\`\`` : ` ${json}\n`;
        const decoded = decodeAnswer(request.purpose, request.input, raw, "m");
        if (Result.isFailure(decoded)) throw decoded.failure;
        expect(encodeOutput(request.purpose, decoded.success)).toEqual(
          encodeOutput(request.purpose, output),
        );
      }),
      { numRuns: runs(200) },
    );
  });

  it("types each failure so the repair prompt can explain it", () => {
    fc.assert(
      fc.property(arbRequest("act"), (request) => {
        const bad = (raw: string) => {
          const r = decodeAnswer("act", request.input, raw, "m");
          if (Result.isSuccess(r)) throw new Error(`accepted ${raw}`);
          return r.failure;
        };
        expect(bad('{"action": "speak", "to": ')).toMatchObject({
          _tag: "InvalidAnswer",
          problem: expect.stringContaining("not valid JSON"),
        });
        expect(bad('{"action": "rest", "hours": 99}')).toMatchObject({
          _tag: "InvalidAnswer",
          problem: expect.stringContaining("does not match"),
        });
        expect(bad('{"action": "move", "to": "nowhere-at-all", "reason": ""}')).toMatchObject({
          _tag: "UnknownId",
          id: "nowhere-at-all",
        });
      }),
      { numRuns: runs(50) },
    );
  });
});

describe("CallBudget", () => {
  it("refuses calls past each limit", () => {
    const b = new CallBudget({ maxCalls: 3, maxCallsPerDay: 2, maxTokens: 100 });
    expect(b.check(0)).toBeNull();
    b.spend(0, 10, 10);
    b.spend(0, 10, 10);
    expect(b.check(0)?.budget).toBe("maxCallsPerDay (day 0)");
    expect(b.check(1)).toBeNull();
    b.spend(1, 30, 30);
    expect(b.check(2)?.budget).toBe("maxCalls");
    const tokens = new CallBudget({ maxCalls: null, maxCallsPerDay: null, maxTokens: 50 });
    tokens.spend(0, 40, 10);
    expect(tokens.check(0)?.message).toBe("budget maxTokens spent (50 of 50)");
    expect(tokens.usage()).toEqual({ calls: 1, promptTokens: 40, outputTokens: 10 });
  });

  it("never refuses when unlimited", () => {
    const b = new CallBudget({ maxCalls: null, maxCallsPerDay: null, maxTokens: null });
    for (let i = 0; i < 1000; i++) b.spend(i % 3, 1000, 1000);
    expect(b.check(0)).toBeNull();
    expect(ids.npc("x")).toBe("x");
  });
});
