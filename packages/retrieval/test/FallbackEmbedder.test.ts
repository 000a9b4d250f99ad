/**
 * The live model's run embedder: vectors cached by (model, text hash) so a text is sent
 * once per model, batches, the switch to hashing when the model fails (once, reported
 * with its position), and a replay that reads only the cache and switches at the same
 * request — even when the cache holds vectors the run never got.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  cachedReplayEmbedder,
  EmbedderError,
  type EmbedderSwitch,
  EmbeddingCache,
  hashingEmbed,
  makeFallbackEmbedder,
  normalize,
  parseSwitchMessage,
  switchMessage,
} from "@hearsay/retrieval";
import { openDatabase, type SqliteDatabase } from "@hearsay/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const DIMS = 16;
const MODEL = "ollama:fixture-embed";

/** A deterministic stand-in for the server's vectors (not the hashing embedder's). */
const modelVector = (text: string): Float32Array => {
  const v = new Float32Array(DIMS);
  for (let i = 0; i < text.length; i++) v[(text.charCodeAt(i) * 7 + i) % DIMS]! += 1;
  v[0]! += 0.5;
  return normalize(v);
};

/** A fake model that records its batches and fails from its `failFrom`-th call on. */
const fakeModel = (failFrom = Number.POSITIVE_INFINITY) => {
  const batches: Array<ReadonlyArray<string>> = [];
  return {
    batches,
    embedBatch: (texts: ReadonlyArray<string>) => {
      if (batches.length >= failFrom) {
        throw new EmbedderError({
          model: MODEL,
          reason: "unreachable",
          detail: "connection refused",
        });
      }
      batches.push(texts);
      return texts.map(modelVector);
    },
  };
};

const same = (a: ReadonlyArray<Float32Array>, b: ReadonlyArray<Float32Array>) =>
  expect(a.map((v) => Array.from(v))).toEqual(b.map((v) => Array.from(v)));

describe("FallbackEmbedder", () => {
  it("embeds a text once per model: later calls and a reopened database read the cache", () => {
    const path = join(mkdtempSync(join(tmpdir(), "hearsay-embed-")), "cache.db");
    let db = openDatabase(path);
    const model = fakeModel();
    const make = (d: SqliteDatabase, embedBatch = model.embedBatch) =>
      makeFallbackEmbedder({
        model: MODEL,
        dimensions: DIMS,
        cache: new EmbeddingCache(d, MODEL, DIMS),
        position: () => 1,
        batchSize: 4,
        embedBatch,
      });
    const texts = Array.from({ length: 10 }, (_, i) => `the miller's ${i} sacks`);
    const first = make(db).embedManySync!(texts);
    expect(model.batches.map((b) => b.length)).toEqual([4, 4, 2]);
    same(first, texts.map(modelVector));
    const again = make(db).embedManySync!([texts[3]!, "a new text", texts[7]!]);
    expect(model.batches.slice(3)).toEqual([["a new text"]]);
    same(again, [first[3]!, modelVector("a new text"), first[7]!]);
    db.close();
    db = openDatabase(path);
    const never = fakeModel(0);
    const reopened = make(db, never.embedBatch).embedManySync!(texts);
    same(reopened, first);
    expect(never.batches).toEqual([]);
    // Another model's vectors are not this model's.
    expect(new EmbeddingCache(db, "ollama:other", DIMS).get(texts[0]!)).toBeUndefined();
    db.close();
  });

  it("falls back to hashing at the same dimension when the model fails, once, with its position", () => {
    const db = openDatabase(":memory:");
    const model = fakeModel(2);
    const switches: Array<EmbedderSwitch> = [];
    let head = 5;
    const e = makeFallbackEmbedder({
      model: MODEL,
      dimensions: DIMS,
      cache: new EmbeddingCache(db, MODEL, DIMS),
      position: () => head,
      embedBatch: model.embedBatch,
      onSwitch: (s) => switches.push(s),
    });
    same(e.embedManySync!(["a", "b"]), [modelVector("a"), modelVector("b")]);
    head = 9;
    e.embedSync!("c");
    expect(e.model).toBe(MODEL);
    const fell = e.embedManySync!(["d", "a"]);
    same(fell, [hashingEmbed("d", DIMS), hashingEmbed("a", DIMS)]);
    expect(e.model).toBe(`hashing-v1-${DIMS}`);
    expect(switches).toHaveLength(1);
    expect(switches[0]).toMatchObject({ from: MODEL, atSeq: 9, afterTexts: 1 });
    expect(parseSwitchMessage(switchMessage(switches[0]!))).toEqual({
      atSeq: 9,
      afterTexts: 1,
      detail: "embedder ollama:fixture-embed: unreachable: connection refused",
    });
    // Cached texts too are hashing from now on: one model per run from the switch on.
    same(e.embedManySync!(["b"]), [hashingEmbed("b", DIMS)]);
    expect(model.batches).toHaveLength(2);
    expect(switches).toHaveLength(1);
  });

  it("replays from the cache alone and switches where the run did, whatever else is cached", () => {
    const word = fc.constantFrom("mill", "river", "toll", "ferry", "salt", "bridge", "oath");
    const call = fc.oneof(
      fc.record({ advance: fc.integer({ min: 1, max: 3 }) }),
      fc.record({
        texts: fc.array(
          fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(" ")),
          { minLength: 1, maxLength: 5 },
        ),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(call, { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 0, max: 12 }),
        fc.boolean(),
        (calls, failFrom, prefilled) => {
          const db = openDatabase(":memory:");
          const play = (
            make: (
              position: () => number,
              onSwitch: (s: EmbedderSwitch) => void,
            ) => {
              embedManySync?: (t: ReadonlyArray<string>) => ReadonlyArray<Float32Array>;
            },
          ) => {
            let head = 1;
            const switches: Array<EmbedderSwitch> = [];
            const e = make(
              () => head,
              (s) => switches.push(s),
            );
            const out: Array<Array<number>> = [];
            for (const c of calls) {
              if ("advance" in c) head += c.advance;
              else for (const v of e.embedManySync!(c.texts)) out.push(Array.from(v));
            }
            return { out, switches };
          };
          const model = fakeModel(failFrom);
          const run = play((position, onSwitch) =>
            makeFallbackEmbedder({
              model: MODEL,
              dimensions: DIMS,
              cache: new EmbeddingCache(db, MODEL, DIMS),
              batchSize: 2,
              position,
              onSwitch,
              embedBatch: model.embedBatch,
            }),
          );
          if (prefilled) {
            // Vectors the run never got (another save's, say) must not move the switch.
            const all = calls.flatMap((c) => ("texts" in c ? c.texts : []));
            new EmbeddingCache(db, MODEL, DIMS).putMany(all, all.map(modelVector));
          }
          const recorded = run.switches[0];
          const replay = play((position, onSwitch) =>
            cachedReplayEmbedder({
              db,
              model: "fixture-embed",
              dimensions: DIMS,
              position,
              onSwitch,
              switchAt: recorded ? parseSwitchMessage(switchMessage(recorded)) : null,
            }),
          );
          db.close();
          expect(replay.out).toEqual(run.out);
          // The same switch, down to its message (the log compares it).
          expect(replay.switches.map(switchMessage)).toEqual(run.switches.map(switchMessage));
        },
      ),
      { numRuns: 150 },
    );
  });
});
