/**
 * Finding whom a line names: the prefix-indexed finder returns exactly the NPCs whose
 * name occurs in the text — the same set a scan of every name with `includes` gives —
 * including names shorter than the index's prefix and names shared by several NPCs.
 */
import type { NpcId } from "@hearsay/core";
import { NameFinder } from "@hearsay/engine";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 10 : n });

// A small alphabet makes names overlap and occur inside one another often.
const word = fc.string({ unit: fc.constantFrom("a", "b", "n", " ", "A"), maxLength: 7 });

describe("NameFinder", () => {
  it("property: finds exactly the NPCs a scan with includes finds", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: 30 }), word), { maxLength: 25 }),
        fc.array(word, { maxLength: 6 }),
        (npcs, pieces) => {
          const finder = new NameFinder();
          const names = new Map<NpcId, string>();
          for (const [n, name] of npcs) {
            const id = `n${n}` as NpcId;
            if (names.has(id)) continue;
            names.set(id, name);
            finder.add(id, name);
          }
          const text = pieces.join(" said ");
          const want = [...names].filter(([, name]) => text.includes(name)).map(([id]) => id);
          expect([...finder.find(text)].sort()).toEqual(want.sort());
        },
      ),
      runs(300),
    );
  });

  it("finds full names in a line, and not a name the line only begins", () => {
    const finder = new NameFinder();
    finder.add("ana" as NpcId, "Ana Reed");
    finder.add("bo" as NpcId, "Bo");
    finder.add("ana2" as NpcId, "Ana Reed");
    finder.add("cal" as NpcId, "Cal Mire");
    expect([...finder.find("Ana Reed told Bo about Cal.")].sort()).toEqual(["ana", "ana2", "bo"]);
  });
});
