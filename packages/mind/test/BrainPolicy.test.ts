import { gameTime, ids } from "@hearsay/core";
import {
  type BrainRequest,
  ceilingOf,
  defaultMindConfig,
  defaultPolicy,
  OllamaBrain,
  type PolicyConfig,
  type PriorityClass,
  type PurposeName,
  priorityClasses,
  purposeNames,
  rankOf,
  routeOf,
} from "@hearsay/mind";
import { Effect } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbRequest, npcPool, runs } from "./arbitraries.ts";

const T = gameTime(3, 14);

const arbPolicy: fc.Arbitrary<PolicyConfig> = fc.record({
  purposes: fc
    .dictionary(fc.constantFrom(...purposeNames), fc.constantFrom(...priorityClasses), {
      maxKeys: 4,
    })
    .map((d) => d as PolicyConfig["purposes"]),
  principalNpcs: fc.subarray([...npcPool], { maxLength: 4 }),
  sceneSize: fc.option(fc.integer({ min: 2, max: 6 }), { nil: null }),
  deadlineHours: fc.option(fc.integer({ min: 1, max: 72 }), { nil: null }),
  firstMeeting: fc.boolean(),
  nearHops: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
  speakerMemories: fc.constantFrom("model" as const, "scripted" as const),
  listenerMemories: fc.constantFrom("model" as const, "scripted" as const),
  oneLineScenes: fc.constantFrom("model" as const, "scripted" as const),
  twoLineScenes: fc.constantFrom("model" as const, "scripted" as const),
  fewHeardScenes: fc.constantFrom("model" as const, "scripted" as const),
  debateScenes: fc.constantFrom("model" as const, "scripted" as const),
});

/** The requests of one tick: any purposes, all at the same game time. */
const arbTick = fc.array(
  fc
    .oneof(...purposeNames.map((p) => arbRequest(p as PurposeName)))
    .map((r) => ({ ...r, t: T }) as BrainRequest),
  { minLength: 1, maxLength: 16 },
);

describe("the brain policy under a model budget", () => {
  it("never gives the model to a lower-priority call of a tick while a higher one falls back, and spends the day's budget exactly", () => {
    fc.assert(
      fc.property(
        arbPolicy,
        fc.integer({ min: 0, max: 12 }),
        fc.array(arbTick, { minLength: 1, maxLength: 3 }),
        (policy, perDay, ticks) => {
          const brain = OllamaBrain.make({
            config: {
              ...defaultMindConfig,
              policy,
              budgets: { maxCalls: null, maxCallsPerDay: perDay, maxTokens: null },
            },
          });
          let granted = 0;
          for (const requests of ticks) {
            const planned = brain.plan(requests);
            const classOf = (i: number): PriorityClass => planned[i]!.route.priority;
            for (const [i, p] of planned.entries()) {
              expect(p.route.priority).toBe(routeOf(policy, requests[i]!).priority);
              if (p.route.priority === "scripted") expect(p.route.model).toBe(false);
            }
            const got = planned.flatMap((p, i) => (p.route.model ? [i] : []));
            const fellBack = planned.flatMap((p, i) =>
              !p.route.model && p.route.priority !== "scripted" ? [i] : [],
            );
            for (const j of fellBack) {
              expect(classOf(j)).not.toBe("critical");
              for (const i of got)
                expect(rankOf(classOf(i))).toBeGreaterThanOrEqual(rankOf(classOf(j)));
            }
            // Critical calls always get the model; the rest take what the day has left.
            const critical = got.filter((i) => classOf(i) === "critical").length;
            const others = planned.filter(
              (p) => p.route.priority !== "scripted" && p.route.priority !== "critical",
            ).length;
            const left = Math.max(0, perDay - granted - critical);
            expect(got.length - critical).toBe(Math.min(left, others));
            granted += got.length;
          }
        },
      ),
      { numRuns: runs(150) },
    );
  });
});

const actFor = (npc: string, present: number, deadline: number | null): BrainRequest<"act"> => ({
  purpose: "act",
  npcId: ids.npc(npc),
  t: T,
  seed: 1,
  dossier: null,
  input: {
    self: {
      id: ids.npc(npc),
      name: npc,
      role: "smith",
      factionId: null,
      traits: [],
      speechStyle: null,
    },
    location: { id: ids.location("inn"), name: "the inn", tags: [] },
    reachable: [],
    present: Array.from({ length: present }, (_, i) => ({
      id: ids.npc(`other-${i}`),
      name: `Other ${i}`,
      role: "guard",
      factionId: null,
      regard: 0,
    })),
    tasks:
      deadline === null
        ? []
        : [
            {
              id: ids.task("t1"),
              title: "Forge hinges",
              status: "active",
              locationId: null,
              deadline: gameTime(3, 14 + deadline),
              proposedBy: null,
              assignee: ids.npc(npc),
              sessions: 0,
              deadlineMoves: 0,
            },
          ],
    home: null,
    workplace: null,
  },
});

describe("routeOf", () => {
  it("classes a call by purpose, raised for a principal NPC and a significant moment, never above high", () => {
    const policy: PolicyConfig = { ...defaultPolicy, principalNpcs: [ids.npc("ana")] };
    expect(routeOf(policy, actFor("bo", 1, null))).toEqual({
      priority: "normal",
      reason: "act is normal",
    });
    expect(routeOf(policy, actFor("ana", 1, null))).toEqual({
      priority: "high",
      reason: "act is normal, principal NPC",
    });
    expect(routeOf(policy, actFor("bo", 3, null))).toEqual({
      priority: "high",
      reason: "act is normal, scene of 4",
    });
    expect(routeOf(policy, actFor("bo", 0, 6)).reason).toBe("act is normal, task due within 24 h");
    expect(routeOf(policy, actFor("bo", 0, 30)).priority).toBe("normal");
    expect(routeOf(policy, actFor("ana", 3, null))).toEqual({
      priority: "high",
      reason: "act is normal, principal NPC, scene of 4",
    });
    const scripted = { ...policy, purposes: { act: "scripted" } } as PolicyConfig;
    expect(routeOf(scripted, actFor("ana", 3, null))).toEqual({
      priority: "scripted",
      reason: "act is scripted",
    });
    const low = { ...policy, purposes: { act: "low" }, sceneSize: null } as PolicyConfig;
    expect(routeOf(low, actFor("ana", 3, null)).priority).toBe("normal");
  });
});

describe("a speaker's memories of its one line", () => {
  /** A talk between two NPCs of the pool, read for the memories of one of them. */
  const arbExtract = fc
    .record({
      pair: fc.uniqueArray(fc.constantFrom(...npcPool), { minLength: 2, maxLength: 2 }),
      selfIsFirst: fc.boolean(),
      lines: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
    })
    .map(({ pair, selfIsFirst, lines }): BrainRequest<"extract_memories"> => {
      const [a, b] = [pair[0]!, pair[1]!];
      const self = selfIsFirst ? a : b;
      return {
        purpose: "extract_memories",
        npcId: ids.npc(self),
        t: T,
        seed: 1,
        dossier: null,
        input: {
          conversationId: ids.conversation("conv-1"),
          self: { id: ids.npc(self), name: self },
          participants: [a, b].map((id) => ({ id: ids.npc(id), name: id })),
          locationName: null,
          turns: lines.map((byA) => ({
            speakerId: ids.npc(byA ? a : b),
            speakerName: byA ? a : b,
            text: "Fine weather.",
          })),
        },
      };
    });

  /** Every rule off: what the model would be asked. */
  const allModel = (policy: PolicyConfig): PolicyConfig => ({
    ...policy,
    speakerMemories: "model",
    listenerMemories: "model",
    oneLineScenes: "model",
    twoLineScenes: "model",
    fewHeardScenes: "model",
    debateScenes: "model",
  });

  /** Unraised, model-bound under `policy` with every rule off. */
  const plain = (policy: PolicyConfig, request: BrainRequest, near: ReturnType<typeof nearOf>) => {
    const asModel = routeOf(allModel(policy), request, near);
    // Principal, near or a scene of many raise a call: then the model reads it.
    const raised = asModel.reason.includes(",");
    // The NPCs it speaks for: a shared summary's witnesses, or its NPC.
    const selves: ReadonlyArray<string> =
      request.purpose === "summarize_shared_scene"
        ? request.input.witnesses.map((w) => w.id)
        : request.npcId === null
          ? []
          : [request.npcId];
    if (
      selves.some(
        (id) => policy.principalNpcs.includes(id) || (policy.nearHops !== null && near.has(id)),
      )
    )
      expect(raised || ["scripted", "critical"].includes(asModel.priority)).toBe(true);
    return { asModel, plain: !raised && !["scripted", "critical"].includes(asModel.priority) };
  };

  it("goes to the rules only for the speaker who said one line or the listener, never for a principal or near NPC, and only when the policy says so", () => {
    fc.assert(
      fc.property(
        arbPolicy,
        fc.subarray([...npcPool], { maxLength: 3 }),
        arbExtract,
        (policy, nearIds, request) => {
          const near = nearOf(nearIds);
          const route = routeOf(policy, request, near);
          const self = request.npcId!;
          const speaker = request.input.participants[0]!.id === self;
          const oneLine = request.input.turns.filter((l) => l.speakerId === self).length === 1;
          const { asModel, plain: unraised } = plain(policy, request, near);
          const why = !unraised
            ? null
            : policy.speakerMemories === "scripted" && speaker && oneLine
              ? "speaker said one line"
              : policy.listenerMemories === "scripted" && !speaker
                ? "listener of the talk"
                : null;
          if (why !== null)
            expect(route).toEqual({
              priority: "scripted",
              reason: `${asModel.reason}, ${why}: by rule`,
            });
          else expect(route).toEqual(asModel);
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it("summarises a view of one or two lines, or one in which each witness heard two lines or fewer, and no debate by rule (happenings it knows of or not), never one raised, and only when the policy says so", () => {
    fc.assert(
      fc.property(
        arbPolicy,
        fc.subarray([...npcPool], { maxLength: 3 }),
        fc.oneof(arbRequest("summarize_scene"), arbRequest("summarize_shared_scene")),
        fc.constantFrom(null, 1, 2, 3, 4),
        fc.boolean(),
        (policy, nearIds, drawn, cut, debated) => {
          // Cut to one to four lines four times in five, so the rules' cases are drawn (the
          // drawn happenings are kept: they do not decide it); with a debate or not.
          const { input } = drawn as BrainRequest<"summarize_scene">;
          const request = (
            cut === null
              ? drawn
              : {
                  ...drawn,
                  input: {
                    ...input,
                    lines: input.lines.slice(0, cut),
                    debates: debated ? input.debates : [],
                  },
                }
          ) as BrainRequest;
          const near = nearOf(nearIds);
          const route = routeOf(policy, request, near);
          const { asModel, plain: unraised } = plain(policy, request, near);
          const { lines, debates } = (request as BrainRequest<"summarize_scene">).input;
          const witnesses =
            request.purpose === "summarize_shared_scene"
              ? request.input.witnesses.map((w) => w.id as string)
              : [(request as BrainRequest<"summarize_scene">).input.self.id as string];
          const fewHeard = witnesses.every(
            (id) => lines.filter((l) => l.speakerId !== id).length <= 2,
          );
          const rule =
            debates.length > 0
              ? fewHeard && policy.debateScenes === "scripted"
                ? "debates taken part in, two lines heard or fewer"
                : null
              : lines.length === 1 && policy.oneLineScenes === "scripted"
                ? "scene of one line"
                : lines.length === 2 && policy.twoLineScenes === "scripted"
                  ? "scene of two lines"
                  : fewHeard && policy.fewHeardScenes === "scripted"
                    ? "two lines heard or fewer"
                    : null;
          if (unraised && rule !== null)
            expect(route).toEqual({
              priority: "scripted",
              reason: `${asModel.reason}, ${rule}: by rule`,
            });
          else expect(route).toEqual(asModel);
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it("asks the model for a view of two lines when twoLineScenes is model, and for one of three lines heard", () => {
    const drawn = fc.sample(arbRequest("summarize_scene"), { numRuns: 50, seed: 7 });
    const request = drawn.find(
      (r) => (r as BrainRequest<"summarize_scene">).input.lines.length >= 3,
    ) as BrainRequest<"summarize_scene">;
    const quiet = { ...defaultPolicy, nearHops: null, sceneSize: null };
    const self = request.input.self;
    const other = { speakerId: ids.npc("zed"), speakerName: "Zed", listenerIds: [self.id] };
    // Its own first line, then lines said to it by another.
    const withLines = (n: number): BrainRequest => ({
      ...request,
      input: {
        ...request.input,
        lines: Array.from({ length: n }, (_, i) =>
          i === 0
            ? {
                speakerId: self.id,
                speakerName: self.name,
                listenerIds: [ids.npc("zed")],
                text: "Hm.",
              }
            : { ...other, text: `Line ${i}.` },
        ),
        debates: [],
      },
    });
    expect(routeOf(quiet, withLines(2)).reason).toBe(
      "summarize_scene is low, scene of two lines: by rule",
    );
    // Two lines are also two heard or fewer: both keys send them to the model.
    expect(routeOf({ ...quiet, twoLineScenes: "model" }, withLines(2)).reason).toBe(
      "summarize_scene is low, two lines heard or fewer: by rule",
    );
    expect(
      routeOf({ ...quiet, twoLineScenes: "model", fewHeardScenes: "model" }, withLines(2)),
    ).toEqual({
      priority: "low",
      reason: "summarize_scene is low",
    });
    // Three lines, two of them heard: the rules quote both.
    expect(routeOf(quiet, withLines(3)).reason).toBe(
      "summarize_scene is low, two lines heard or fewer: by rule",
    );
    const threeHeard = { ...quiet, fewHeardScenes: "model" as const };
    expect(routeOf(threeHeard, withLines(3)).priority).toBe("low");
    expect(routeOf(quiet, withLines(4))).toEqual({
      priority: "low",
      reason: "summarize_scene is low",
    });
  });
});

describe("a speaker's memories by rule in the model brain", () => {
  it("answers with the scripted brain's memories, asks no server, and records why", async () => {
    const request: BrainRequest<"extract_memories"> = {
      purpose: "extract_memories",
      npcId: ids.npc("ana"),
      t: T,
      seed: 1,
      dossier: null,
      input: {
        conversationId: ids.conversation("conv-1"),
        self: { id: ids.npc("ana"), name: "Ana" },
        participants: [
          { id: ids.npc("ana"), name: "Ana" },
          { id: ids.npc("bo"), name: "Bo" },
        ],
        locationName: null,
        turns: [
          { speakerId: ids.npc("ana"), speakerName: "Ana", text: "Fine weather." },
          { speakerId: ids.npc("bo"), speakerName: "Bo", text: "I promise I will mend your roof." },
        ],
      },
    };
    const brainWith = (speakerMemories: "model" | "scripted") =>
      OllamaBrain.make({
        // Nothing listens here: a call that reached a server would fail.
        config: {
          ...defaultMindConfig,
          ollamaUrl: "http://127.0.0.1:9",
          hosts: [{ url: "http://127.0.0.1:9", concurrency: 1 }],
          policy: { ...defaultPolicy, speakerMemories },
        },
      });
    const [planned] = brainWith("scripted").plan([request]);
    expect(planned!.route).toMatchObject({ priority: "scripted", model: false });
    const answer = await Effect.runPromise(planned!.decide);
    expect(answer.output.memories.some((m) => m.category === "promise")).toBe(true);
    expect(answer.meta.policy).toEqual({
      priority: "scripted",
      reason: "extract_memories is low, speaker said one line: by rule",
    });
    const [asked] = brainWith("model").plan([request]);
    expect(asked!.route).toMatchObject({ priority: "low", model: true });
  });
});

const nearOf = (npcs: ReadonlyArray<string>) =>
  new Map(npcs.map((id) => [id, "near the camera at the inn"] as const));

describe("nearness to the player or the camera", () => {
  it("raises an NPC near the camera one class, names it, and is ignored when nearHops is null", () => {
    const near = nearOf([ids.npc("ana")]);
    expect(routeOf(defaultPolicy, actFor("ana", 1, null), near)).toEqual({
      priority: "high",
      reason: "act is normal, near the camera at the inn",
    });
    expect(routeOf(defaultPolicy, actFor("bo", 1, null), near).priority).toBe("normal");
    expect(
      routeOf({ ...defaultPolicy, nearHops: null }, actFor("ana", 1, null), near).priority,
    ).toBe("normal");
  });

  it("gives the model to a principal near the camera under a budget where a far principal falls back", () => {
    const policy: PolicyConfig = {
      ...defaultPolicy,
      purposes: { act: "low" },
      principalNpcs: [ids.npc("ana"), ids.npc("bo")],
    };
    const brain = OllamaBrain.make({
      config: {
        ...defaultMindConfig,
        policy,
        budgets: { maxCalls: null, maxCallsPerDay: 1, maxTokens: null },
      },
    });
    brain.beginTick({
      t: T,
      demand: [
        { purpose: "act", npcId: ids.npc("bo"), count: 1 },
        { purpose: "act", npcId: ids.npc("ana"), count: 1 },
      ],
      near: (hops) => (hops >= 1 ? nearOf([ids.npc("ana")]) : new Map()),
    });
    // The far one asks first, in an earlier phase: it still falls back.
    const [far] = brain.plan([actFor("bo", 1, null)]);
    const [close] = brain.plan([actFor("ana", 1, null)]);
    brain.endTick();
    expect(far!.route).toMatchObject({ priority: "normal", model: false });
    expect(far!.route.refused).toMatch(/held for 1 higher-class calls of this tick/);
    expect(close!.route).toMatchObject({
      priority: "high",
      model: true,
      reason: "act is low, principal NPC, near the camera at the inn",
    });
    expect(brain.unforeseen()).toBe(0);
  });
});

describe("a tick's forecast", () => {
  it("counts every call at or above the class the policy gives it (so the forecast bounds the tick)", () => {
    fc.assert(
      fc.property(
        arbPolicy,
        fc.subarray([...npcPool], { maxLength: 4 }),
        fc.oneof(...purposeNames.map((p) => arbRequest(p as PurposeName))),
        (policy, nearIds, request) => {
          const near = nearOf(nearIds);
          const got = rankOf(routeOf(policy, request as BrainRequest, near).priority);
          expect(got).toBeLessThanOrEqual(
            rankOf(ceilingOf(policy, request.purpose, request.npcId, near)),
          );
          expect(got).toBeLessThanOrEqual(rankOf(ceilingOf(policy, request.purpose, null, near)));
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it("spends a tick's budget in class order across its phases: no call of a lower class gets the model while a higher one of the same tick falls back", () => {
    fc.assert(
      fc.property(
        arbPolicy,
        fc.subarray([...npcPool], { maxLength: 3 }),
        fc.integer({ min: 0, max: 10 }),
        fc.array(arbTick, { minLength: 1, maxLength: 4 }),
        (policy, nearIds, perDay, phases) => {
          const brain = OllamaBrain.make({
            config: {
              ...defaultMindConfig,
              policy,
              budgets: { maxCalls: null, maxCallsPerDay: perDay, maxTokens: null },
            },
          });
          brain.beginTick({
            t: T,
            demand: phases.flat().map((r) => ({ purpose: r.purpose, npcId: r.npcId, count: 1 })),
            near: () => nearOf(nearIds),
          });
          const routes = phases.flatMap((requests) => brain.plan(requests).map((p) => p.route));
          brain.endTick();
          const got = routes.filter((r) => r.model).map((r) => rankOf(r.priority));
          const fell = routes
            .filter((r) => !r.model && r.priority !== "scripted")
            .map((r) => rankOf(r.priority));
          if (got.length > 0 && fell.length > 0)
            expect(Math.min(...got)).toBeGreaterThanOrEqual(Math.max(...fell));
          expect(fell).not.toContain(rankOf("critical"));
          expect(brain.unforeseen()).toBe(0);
        },
      ),
      { numRuns: runs(150) },
    );
  });
});
