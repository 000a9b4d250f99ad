import { hashingEmbed, makeHashingEmbedder, RetrievalEngine } from "@hearsay/retrieval";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** A hashing embedder that counts its `embedSync` calls, pure or said not to be. */
const counting = (pure: boolean) => {
  const inner = makeHashingEmbedder({ dimensions: 32 });
  const calls: Array<string> = [];
  return {
    calls,
    embedder: {
      ...inner,
      pure,
      embedSync: (text: string) => {
        calls.push(text);
        return inner.embedSync!(text);
      },
    },
  };
};

const engineWith = (embedder: ReturnType<typeof counting>["embedder"]) => {
  const db = openDatabase(":memory:");
  return new RetrievalEngine(db, { log: new SqliteEventLog(db), embedder });
};

const texts = fc.array(fc.constantFrom("the mill", "Harbour", "the mill ", "  ", "", "a b c"), {
  maxLength: 30,
});

describe("RetrievalEngine.embedQuery", () => {
  it("embeds each text once with a pure embedder, and gives its vector", () => {
    fc.assert(
      fc.property(texts, (asked) => {
        const { calls, embedder } = counting(true);
        const engine = engineWith(embedder);
        for (const text of asked) {
          const v = engine.embedQuery(text);
          if (text.trim().length === 0) expect(v).toBeNull();
          else expect(Array.from(v!)).toEqual(Array.from(hashingEmbed(text, 32)));
        }
        const wanted = new Set(asked.filter((t) => t.trim().length > 0));
        expect(calls.length).toBe(wanted.size);
        expect(new Set(calls)).toEqual(wanted);
      }),
    );
  });

  it("asks an embedder that is not pure every time (each call may be the one it records)", () => {
    fc.assert(
      fc.property(texts, (asked) => {
        const { calls, embedder } = counting(false);
        const engine = engineWith(embedder);
        for (const text of asked) engine.embedQuery(text);
        expect(calls).toEqual(asked.filter((t) => t.trim().length > 0));
      }),
    );
  });
});
