/**
 * Profiles that change: a run revises profiles after what happened to the NPCs, each
 * `ProfileRevised` names only fields that really changed and keeps the rest, the NPC's
 * facts, the read model and a fold of the log agree on the current profile, and a
 * snapshot and a resume hold the revised profile and go on as a straight run does.
 */
import { foldSchedule, type NpcFacts } from "@hearsay/actors";
import { type Event, ids, type NpcProfile, reviseProfile } from "@hearsay/core";
import {
  EngineSnapshots,
  emptyRunFold,
  historyEvents,
  NpcActors,
  type RunFold,
  revisionDue,
} from "@hearsay/engine";
import { type BrainShape, ScriptedBrain } from "@hearsay/mind";
import type { SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { MAIN, memoryLog, runHamlet } from "./replay/fixtures.ts";

/** Revises as often as the rules allow, so a few days show many revisions. */
const often = {
  profileThreshold: 1,
  profileMinHours: 6,
  profileBusyDays: 1,
  profileBusyMemories: 3,
} as const;

const foldLog = (log: SqliteEventLog, fromSeq = 1, fold: RunFold = emptyRunFold()): RunFold => {
  const actors = new NpcActors();
  actors.restore(fold.npcs);
  for (const e of historyEvents({ log, saveId: MAIN, fromSeq })) {
    fold.engine.apply(e, e.seq);
    foldSchedule(fold.clock, e);
    actors.apply(e);
  }
  return { ...fold, npcs: actors.folded() };
};

const profilesOf = (fold: RunFold): Map<string, NpcProfile | null> =>
  new Map([...fold.npcs.facts].map(([id, f]) => [id, f.profile]));

const readModel = (log: SqliteEventLog): Map<string, NpcProfile> =>
  new Map(
    (
      log.db
        .prepare("SELECT npc_id, profile FROM npc_profiles WHERE save_id = ?")
        .raw(true)
        .all(MAIN) as Array<[string, string]>
    ).map(([id, p]) => [id, JSON.parse(p) as NpcProfile]),
  );

const events = (log: SqliteEventLog) => log.read(MAIN).map(({ saveId: _, ...e }) => e);

describe("profile revisions", () => {
  it("a run revises profiles; each revision changes only what it names and keeps the rest", async () => {
    const log = memoryLog();
    await runHamlet(log, { days: 4, config: often });
    const all = log.read(MAIN) as ReadonlyArray<Event>;
    const revised = all.filter((e) => e.type === "ProfileRevised");
    expect(revised.length).toBeGreaterThan(0);
    const current = new Map<string, NpcProfile>();
    for (const e of all) {
      if (e.type === "ProfileGenerated") current.set(e.payload.npcId, e.payload.profile);
      if (e.type !== "ProfileRevised") continue;
      const before = current.get(e.payload.npcId)!;
      expect(before).toBeDefined();
      const after = reviseProfile(before, e.payload.changes);
      for (const key of Object.keys(before) as Array<keyof NpcProfile>) {
        if (key in e.payload.changes) expect(after[key]).not.toEqual(before[key]);
        else expect(after[key]).toBe(before[key]);
      }
      current.set(e.payload.npcId, after);
    }
    // The NPCs' facts, the store's read model and the plain fold above agree.
    const folded = profilesOf(foldLog(log));
    for (const [id, profile] of current) {
      expect(folded.get(id)).toEqual(profile);
      expect(readModel(log).get(id)).toEqual(profile);
    }
  }, 120_000);

  it("a run that carries revisions asks each in the NPC's own act call, and records the answer's", async () => {
    const scripted = ScriptedBrain.make();
    const purposes = new Set<string>();
    const asked: Array<{ npcId: string; t: number; triggers: ReadonlyArray<string> }> = [];
    const brain: BrainShape = {
      name: "scripted",
      decide: (request) => {
        purposes.add(request.purpose);
        if (request.purpose === "act" && request.input.revise !== undefined) {
          expect(request.input.conversation).toBeUndefined();
          asked.push({
            npcId: request.npcId!,
            t: request.t,
            triggers: request.input.revise.triggers,
          });
        }
        return scripted.decide(request);
      },
    };
    const log = memoryLog();
    await runHamlet(log, { days: 4, brain, config: often });
    const started = log.read(MAIN, { toSeq: 1 })[0]!;
    expect(started.type === "SimulationStarted" && started.payload.carried).toContain(
      "revise_profile",
    );
    expect(purposes.has("revise_profile")).toBe(false);
    const revised = log.read(MAIN).filter((e) => e.type === "ProfileRevised");
    expect(revised.length).toBeGreaterThan(0);
    // One revision for each act call that asked one, at its time, for what made it due.
    expect(
      revised.map((e) => ({ npcId: e.payload.npcId, t: e.t, triggers: e.payload.triggers })),
    ).toEqual(asked);
  }, 120_000);

  it("a run that carries first profiles asks each in the NPC's first act call of its own", async () => {
    const scripted = ScriptedBrain.make();
    const purposes = new Set<string>();
    const asked: Array<{ npcId: string; t: number }> = [];
    const brain: BrainShape = {
      name: "scripted",
      decide: (request) => {
        purposes.add(request.purpose);
        if (request.purpose === "act" && request.input.firstProfile !== undefined) {
          expect(request.input.conversation).toBeUndefined();
          asked.push({ npcId: request.npcId!, t: request.t });
        }
        return scripted.decide(request);
      },
    };
    const log = memoryLog();
    await runHamlet(log, { days: 2, brain });
    expect(purposes.has("profile")).toBe(false);
    const generated = log.read(MAIN).filter((e) => e.type === "ProfileGenerated");
    expect(generated.length).toBeGreaterThan(0);
    // Once each, at the act call that asked it; the NPC never asked again after.
    expect(generated.map((e) => ({ npcId: e.payload.npcId, t: e.t }))).toEqual(asked);
    expect(new Set(asked.map((a) => a.npcId)).size).toBe(asked.length);
  }, 120_000);

  it.each([
    ["revision", "revise", "ProfileRevised"],
    ["profile", "firstProfile", "ProfileGenerated"],
  ] as const)(
    "an act answer that leaves the %s out leaves it to be asked again at the NPC's next turn",
    async (key, asks, recorded) => {
      const scripted = ScriptedBrain.make();
      const asked = new Map<string, number>();
      const brain: BrainShape = {
        name: "scripted",
        decide: (request) =>
          Effect.map(scripted.decide(request), (answer) => {
            if (request.purpose !== "act" || request.input[asks] === undefined) return answer;
            asked.set(request.npcId!, (asked.get(request.npcId!) ?? 0) + 1);
            const { [key]: _, ...rest } = answer.output as Record<string, unknown>;
            return { ...answer, output: rest } as typeof answer;
          }),
      };
      const log = memoryLog();
      await runHamlet(log, { days: 4, brain, config: often });
      expect(log.read(MAIN).filter((e) => e.type === recorded)).toHaveLength(0);
      expect([...asked.values()].some((n) => n > 1)).toBe(true);
    },
    120_000,
  );

  it("first profiles and revisions are asked with the NPC's dossier: lore and what it knows", async () => {
    const scripted = ScriptedBrain.make();
    const seen: Array<{ purpose: string; sections: Array<string> }> = [];
    const brain: BrainShape = {
      name: "scripted",
      decide: (request) => {
        if (request.purpose === "profile" || request.purpose === "revise_profile") {
          const d = request.dossier?.whole() ?? null;
          seen.push({
            purpose: request.purpose,
            sections: (d?.sections ?? []).filter((x) => x.items.length > 0).map((x) => x.name),
          });
        }
        return scripted.decide(request);
      },
    };
    // A run that does not carry revisions (one recorded before) asks them on their own.
    await runHamlet(memoryLog(), { days: 3, brain, config: often, carried: [] });
    const profiles = seen.filter((x) => x.purpose === "profile");
    const revisions = seen.filter((x) => x.purpose === "revise_profile");
    expect(profiles.length).toBeGreaterThan(0);
    expect(revisions.length).toBeGreaterThan(0);
    for (const x of profiles) expect(x.sections).toContain("lore");
    for (const x of revisions)
      expect(x.sections).toEqual(expect.arrayContaining(["profile", "memories"]));
  }, 120_000);

  it("with no triggers and no busy stretches nothing is revised", async () => {
    const log = memoryLog();
    await runHamlet(log, { days: 3, config: { profileTriggers: [], profileBusyDays: 0 } });
    expect(log.read(MAIN).filter((e) => e.type === "ProfileRevised")).toHaveLength(0);
  }, 120_000);

  it("a snapshot holds the revised profiles, and a run resumed from it goes on as the straight one", async () => {
    const snap = { ...often, snapshotEveryEvents: 200, snapshotsKept: 2 };
    const straight = memoryLog();
    let live: NpcActors | null = null;
    await runHamlet(straight, {
      days: 5,
      config: snap,
      onActors: (a) => {
        live = a;
      },
    });
    const held = live!.allFacts();
    expect(held.some((f) => f.profile !== null && f.sinceProfile.at! > 0)).toBe(true);

    const split = memoryLog();
    await runHamlet(split, { days: 5, maxTicks: 70, config: snap });
    const restored = new EngineSnapshots(split, MAIN, { everyEvents: 0, kept: 2 }).restore(
      split.head(MAIN),
    );
    expect(restored).not.toBeNull();
    const upTo = split.read(MAIN).filter((e) => e.seq <= restored!.seq);
    expect(upTo.some((e) => e.type === "ProfileRevised")).toBe(true);
    // What the snapshot holds is what the log up to it folds to, revisions included.
    const atSnap = foldLog(split, 1, emptyRunFold());
    const fromSnap = foldLog(split, restored!.seq + 1, restored!.fold);
    expect(profilesOf(fromSnap)).toEqual(profilesOf(atSnap));
    const since = (f: NpcFacts) => f.sinceProfile;
    expect([...fromSnap.npcs.facts.values()].map(since)).toEqual(
      [...atSnap.npcs.facts.values()].map(since),
    );

    let resumed: NpcActors | null = null;
    await runHamlet(split, {
      days: 5,
      resume: true,
      config: snap,
      onActors: (a) => {
        resumed = a;
      },
    });
    expect(events(split)).toEqual(events(straight));
    expect(readModel(split)).toEqual(readModel(straight));
    expect(resumed!.allFacts().map((f) => f.profile)).toEqual(held.map((f) => f.profile));
  }, 180_000);

  it("a revision is due only after the least gap, for an enabled trigger or a busy stretch", () => {
    const base: NpcFacts = {
      npcId: ids.npc("ada"),
      profile: {
        backstory: "b",
        personality: "p",
        speechStyle: "s",
        goals: [],
        fears: [],
        loyalties: [],
        relationshipSeed: "r",
      },
      sinceProfile: { at: 0 as never, completed: ["Mend"], broken: [], feuds: [], memories: 2 },
      memories: new Map(),
      rumours: new Map(),
      concerns: 0,
      news: [],
      regard: new Map(),
      tasks: new Map(),
      open: new Map(),
      workingOn: null,
      agenda: null,
    };
    const config = {
      profileTriggers: ["task_completed"] as const,
      profileWeights: { task_completed: 1, promise_broken: 2, feud: 4 },
      profileThreshold: 1,
      profileBusyDays: 2,
      profileBusyMemories: 2,
      profileMinHours: 24,
    };
    expect(revisionDue(base, (23 * 60) as never, config)).toBeNull();
    expect(revisionDue(base, (24 * 60) as never, config)).toEqual(["task_completed"]);
    expect(revisionDue(base, (48 * 60) as never, config)).toEqual([
      "task_completed",
      "heavy_activity",
    ]);
    expect(revisionDue(base, (48 * 60) as never, { ...config, profileTriggers: [] })).toEqual([
      "heavy_activity",
    ]);
    expect(
      revisionDue(base, (48 * 60) as never, { ...config, profileTriggers: [], profileBusyDays: 0 }),
    ).toBeNull();
    expect(revisionDue({ ...base, profile: null }, (48 * 60) as never, config)).toBeNull();
  });
});
