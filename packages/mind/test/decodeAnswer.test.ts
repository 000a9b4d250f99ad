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

  it("offers a carried field only when the input asks for it", () => {
    const keys = (format: Record<string, unknown>): Set<string> => {
      const members = (format.anyOf as Array<Record<string, unknown>> | undefined) ?? [format];
      return new Set(members.flatMap((m) => Object.keys(m.properties as object)));
    };
    expect(keys(outputFormat("act", {}))).not.toContain("profile");
    expect(keys(outputFormat("act", {}))).not.toContain("revision");
    expect(keys(outputFormat("act", { revise: {} }))).toContain("revision");
    expect(keys(outputFormat("act", { revise: {} }))).not.toContain("profile");
    expect(keys(outputFormat("act", { firstProfile: {} }))).toContain("profile");
    expect(keys(outputFormat("act", {}))).toContain("agenda");
    expect(keys(outputFormat("debate_turn", {}))).not.toContain("summary");
    expect(keys(outputFormat("debate_turn", { closes: true }))).toEqual(
      new Set(["text", "stance", "replyTo", "regard", "summary", "outcome"]),
    );
  });

  it("accepts, under the format its input is asked with, every answer the scripted brain gives", () => {
    // The grammar must never refuse an answer the engine reads: every key of a scripted
    // answer is in the format of the request it answers.
    fc.assert(
      fc.property(arbAnyRequest, (request) => {
        const output = encodeOutput(request.purpose, scripted.decideSync(request).output) as Record<
          string,
          unknown
        >;
        const format = outputFormat(request.purpose, request.input);
        const members = (format.anyOf as Array<Record<string, unknown>> | undefined) ?? [format];
        const fits = members.some((m) => {
          const props = m.properties as Record<string, unknown> | undefined;
          return props !== undefined && Object.keys(output).every((k) => k in props);
        });
        expect(fits).toBe(true);
      }),
      { numRuns: runs(200) },
    );
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
