import { entitiesIn, Interner, words } from "@hearsay/retrieval";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** Every 1–4 word phrase looked up, none skipped: what `entitiesIn` must find. */
const reference = (entities: Interner, text: string): Set<number> => {
  const out = new Set<number>();
  const ws = words(text);
  for (let i = 0; i < ws.length; i++) {
    let phrase = "";
    for (let n = 0; n < 4 && i + n < ws.length; n++) {
      phrase = n === 0 ? ws[i]! : `${phrase} ${ws[i + n]}`;
      const e = entities.find(phrase);
      if (e >= 0) out.add(e);
    }
  }
  return out;
};

const vocabulary = ["hoop", "yard", "amos", "faircloth", "long", "causey", "st.", "o'neil", ""];
const word = fc.constantFrom(...vocabulary);
/** Names of one to five words, some with doubled or stray spaces. */
const name = fc
  .array(word, { minLength: 1, maxLength: 5 })
  .map((ws) => ws.join(" "))
  .chain((n) => fc.constantFrom(n, ` ${n}`, n.replace(" ", "  ")));
const text = fc.array(word, { maxLength: 14 }).map((ws) => ws.join(" "));

describe("entity mentions", () => {
  it("property: finds what looking up every 1–4 word phrase finds, as names are added", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(name, { maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        fc.array(text, { minLength: 1, maxLength: 4 }),
        (rounds, texts) => {
          const entities = new Interner();
          for (const names of rounds) {
            for (const n of names) entities.intern(n);
            for (const t of texts) expect(entitiesIn(entities, t)).toEqual(reference(entities, t));
          }
        },
      ),
    );
  });

  it("finds a four-word name and the shorter names inside it", () => {
    const entities = new Interner();
    const long = entities.intern("the long causey road");
    const short = entities.intern("long causey");
    entities.intern("causey road end");
    expect(entitiesIn(entities, "Down the Long Causey road, past the yard")).toEqual(
      new Set([long, short]),
    );
  });
});
