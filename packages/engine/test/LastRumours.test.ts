/**
 * A talk passes on one of the speaker's latest rumours: `lastRumours` takes the last `n`
 * of them, in the order they were learnt, without copying the rest.
 */
import type { WorldEventId } from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lastRumours } from "../src/Conversations.ts";

const rumoursOf = (ids: ReadonlyArray<string>): Map<WorldEventId, number> =>
  new Map(ids.map((id, i) => [id as WorldEventId, (i % 10) / 10]));

describe("lastRumours", () => {
  it("is the last n ids in the order learnt, as a copy of every entry gives them", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { maxLength: 80 }), fc.nat(40), (ids, n) => {
        const rumours = rumoursOf(ids);
        const all = [...rumours.keys()];
        expect(lastRumours(rumours, n)).toEqual(n === 0 ? [] : all.slice(-n));
      }),
    );
  });

  it("keeps the order learnt once the window has wrapped", () => {
    const ids = Array.from({ length: 30 }, (_, i) => `w${i}`);
    expect(lastRumours(rumoursOf(ids), 4)).toEqual(["w26", "w27", "w28", "w29"]);
    // Raising a known rumour's confidence does not make it newer.
    const rumours = rumoursOf(ids);
    rumours.set("w0" as WorldEventId, 1);
    expect(lastRumours(rumours, 2)).toEqual(["w28", "w29"]);
  });
});
