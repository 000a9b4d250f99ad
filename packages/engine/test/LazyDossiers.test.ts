import { defaultMemoryDecay } from "@hearsay/actors";
import type { Dossier, DossierReader, DossierSectionName } from "@hearsay/core";
import { type DossierSource, retrievalDossiers } from "@hearsay/engine";
import { ScriptedBrain, type SyncBrain } from "@hearsay/mind";
import type { SqliteEventLog } from "@hearsay/store";
import { describe, expect, it } from "vitest";
import { freshLog, logHash, ofType, run } from "./harness.ts";

/** Real retrieval dossiers, counting how many are built. */
const counted = () => {
  const built = { n: 0 };
  const dossiers = (log: SqliteEventLog, saveId: Parameters<typeof retrievalDossiers>[1]) => {
    const inner = retrievalDossiers(log, saveId);
    const source: DossierSource = {
      dossier: (r) => {
        built.n += 1;
        return inner.dossier(r);
      },
      deferred: (r) => {
        built.n += 1;
        return inner.deferred!(r);
      },
      flush: () => inner.flush?.(),
    };
    return source;
  };
  return { built, dossiers };
};

/**
 * The scripted brain behind a wrapper that reads every act request's dossier `reads`
 * times first, every section of it.
 */
const reading = (reads: number, seen: Array<Dossier | null>): SyncBrain => {
  const scripted = ScriptedBrain.make();
  return {
    ...scripted,
    decideSync: (request) => {
      if (request.purpose === "act")
        for (let i = 0; i < reads; i++) {
          seen.push(request.dossier?.whole() ?? null);
        }
      return scripted.decideSync(request);
    },
  };
};

/** The scripted brain, keeping every act request it is asked (to read their dossiers after). */
const keepingRequests = () => {
  const kept: Array<{ readonly dossier: DossierReader | null }> = [];
  const scripted = ScriptedBrain.make();
  const keeping: SyncBrain = {
    ...scripted,
    decideSync: (request) => {
      if (request.purpose === "act") kept.push(request);
      return scripted.decideSync(request);
    },
  };
  return { kept, keeping };
};

describe("dossiers are built when a brain reads them", () => {
  it("a brain that reads every dossier writes the same log as the scripted brain, which reads few", async () => {
    const lazy = counted();
    const eager = counted();
    const a = freshLog();
    const b = freshLog();
    const seen: Array<Dossier | null> = [];
    // Memories a brain reads are reinforced (by design, what it reads is then part of
    // the log): with reinforcement off, reading more must change nothing.
    const config = { memoryDecay: { ...defaultMemoryDecay, reinforceBy: 0 } };
    const lazyRun = await run(a, { dossiers: lazy.dossiers, days: 2, config });
    await run(b, { dossiers: eager.dossiers, days: 2, brain: reading(1, seen), config });
    expect(logHash(a)).toBe(logHash(b));
    // With it on, the reader's memories are reinforced; the scripted brain reads none.
    const c = freshLog();
    await run(c, { dossiers: counted().dossiers, days: 2, brain: reading(1, []) });
    expect(ofType(c, "MemoryReinforced").length).toBeGreaterThan(
      ofType(a, "MemoryReinforced").length,
    );
    // The eager brain saw a real dossier on each turn call; the scripted one asked for fewer.
    expect(eager.built.n).toBe(seen.length);
    expect(seen.some((d) => d !== null && d.sections.length > 0)).toBe(true);
    expect(lazy.built.n).toBeGreaterThan(0);
    expect(lazy.built.n).toBeLessThan(eager.built.n);
    expect(lazyRun.brainCallsByPurpose.act).toBeGreaterThanOrEqual(eager.built.n);
  });

  it("builds a request's dossier at most once, however often it is read", async () => {
    const once = counted();
    const thrice = counted();
    const seen: Array<Dossier | null> = [];
    await run(freshLog(), { dossiers: once.dossiers, days: 1, brain: reading(1, []) });
    await run(freshLog(), { dossiers: thrice.dossiers, days: 1, brain: reading(3, seen) });
    expect(thrice.built.n).toBe(once.built.n);
    // The three reads of one request are the very same object.
    for (let i = 0; i < seen.length; i += 3) {
      expect(seen[i + 1]).toBe(seen[i]);
      expect(seen[i + 2]).toBe(seen[i]);
    }
  });

  it("a request holds its dossier reader as a value: copying a request builds nothing", async () => {
    const c = counted();
    const scripted = ScriptedBrain.make();
    let copied = 0;
    const copying: SyncBrain = {
      ...scripted,
      decideSync: (request) => {
        if (request.purpose === "act") {
          const before = c.built.n;
          // A plain data property, not a getter that calls back into the engine.
          const held = Object.getOwnPropertyDescriptor(request, "dossier");
          expect(held?.get).toBeUndefined();
          const copy = { ...request };
          expect(copy.dossier).toBe(request.dossier);
          expect(JSON.stringify(copy)).toContain('"purpose":"act"');
          expect(c.built.n).toBe(before);
          copied += 1;
        }
        return scripted.decideSync(request);
      },
    };
    await run(freshLog(), { dossiers: c.dossiers, days: 1, brain: copying });
    expect(copied).toBeGreaterThan(0);
  });

  it("a brain that never reads a dossier never has one built", async () => {
    const none = counted();
    const scripted = ScriptedBrain.make();
    // Every act is answered with rest, reading nothing; other purposes take no dossier.
    const resting: SyncBrain = {
      ...scripted,
      name: "resting",
      decideSync: (request) =>
        request.purpose === "act"
          ? ({
              output: { action: "rest", hours: 1 },
              meta: {
                brain: "resting",
                model: "",
                promptTokens: 0,
                outputTokens: 0,
                latencyMs: 0,
                fallbackReason: null,
              },
            } as never)
          : scripted.decideSync(request),
    };
    const summary = await run(freshLog(), { dossiers: none.dossiers, days: 1, brain: resting });
    expect(summary.brainCallsByPurpose.act ?? 0).toBeGreaterThan(0);
    expect(none.built.n).toBe(0);
  });

  it("builds only the sections a brain reads, and none of the rest after the turn", async () => {
    const { kept, keeping } = keepingRequests();
    await run(freshLog(), { dossiers: counted().dossiers, days: 2, brain: keeping });
    // After the run, the dossiers the scripted brain opened (to speak) hold what it read:
    // the dialogue to reply, or the sections of news (world events, debates, lore) to pass
    // one on. It never reads threads or its memories to speak, so no dossier has them, and
    // reading them now cannot build them.
    const read = (d: DossierReader, name: DossierSectionName): "built" | "unopened" | "sealed" => {
      try {
        return d.section(name) === undefined ? "unopened" : "built";
      } catch (e) {
        expect(String(e)).toMatch(/read after its turn ended/);
        return "sealed";
      }
    };
    const readers = kept.map((r) => r.dossier!);
    expect(readers.map((d) => read(d, "threads"))).not.toContain("built");
    const opened = readers.filter((d) => read(d, "threads") === "sealed");
    expect(opened.length).toBeGreaterThan(0);
    const readable = (d: DossierReader, name: DossierSectionName): boolean =>
      read(d, name) === "built";
    const replied = opened.filter((d) => readable(d, "dialogue") && !readable(d, "memories"));
    const shared = opened.filter((d) => readable(d, "world_events") && readable(d, "lore"));
    expect(opened.some((d) => readable(d, "memories"))).toBe(false);
    expect(replied.length).toBeGreaterThan(0);
    expect(shared.length).toBeGreaterThan(0);
  });

  it("a dossier not read while its turn was decided is never built later, from a later store", async () => {
    const late = counted();
    const { kept, keeping } = keepingRequests();
    await run(freshLog(), { dossiers: late.dossiers, days: 1, brain: keeping });
    const builtDuringRun = late.built.n;
    // Unread: sealed before anything was asked of the source, it has no dossier at all.
    // (A dossier opened during its turn throws on a section it did not read.)
    const unread = kept.filter((r) => {
      try {
        return r.dossier?.whole() === null;
      } catch {
        return false;
      }
    }).length;
    expect(unread).toBeGreaterThan(0);
    expect(late.built.n).toBe(builtDuringRun);
  });
});
