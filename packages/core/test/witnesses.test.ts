import {
  type FactionId,
  ids,
  type LocationId,
  type NpcId,
  Visibility,
  witnessesOf,
} from "@hearsay/core";
import { Schema } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const npcs = ["a", "b", "c", "d", "e", "f"].map(ids.npc);
const locs = ["inn", "mill", "ford"].map(ids.location);
const facs = ["guild", "watch"].map(ids.faction);

const arbWorld = fc.record({
  at: fc.array(fc.constantFrom(...locs), { minLength: npcs.length, maxLength: npcs.length }),
  of: fc.array(fc.option(fc.constantFrom(...facs), { nil: null }), {
    minLength: npcs.length,
    maxLength: npcs.length,
  }),
});
const arbHappening = fc.record({
  visibility: fc.constantFrom(...Visibility.literals),
  locationId: fc.option(fc.constantFrom(...locs), { nil: null }),
  factionId: fc.option(fc.constantFrom(...facs), { nil: null }),
  participants: fc.uniqueArray(fc.constantFrom(...npcs), { maxLength: 3 }),
});

const population = (w: { at: LocationId[]; of: (FactionId | null)[] }) => ({
  presentAt: (l: LocationId) => npcs.filter((_, i) => w.at[i] === l),
  membersOf: (f: FactionId) => npcs.filter((_, i) => w.of[i] === f),
  everyone: () => npcs,
});

describe("witnessesOf", () => {
  it("a private event is known to its participants only", () => {
    const got = witnessesOf(
      { visibility: "private", locationId: locs[0]!, factionId: null, participants: [npcs[1]!] },
      population({ at: npcs.map(() => locs[0]!), of: npcs.map(() => null) }),
    );
    expect(got).toEqual([{ npcId: npcs[1], via: "participant" }]);
  });

  it("property: exactly the NPCs the rule names, each once, in id order, by the most direct way", () => {
    fc.assert(
      fc.property(arbWorld, arbHappening, (w, h) => {
        const pop = population(w);
        const got = witnessesOf(h, pop);
        const ids_ = got.map((g) => g.npcId);
        expect(ids_).toEqual([...new Set(ids_)].sort());
        for (const [i, npc] of npcs.entries()) {
          const participant = h.participants.includes(npc);
          const present = h.locationId !== null && w.at[i] === h.locationId;
          const member = h.factionId !== null && w.of[i] === h.factionId;
          const expected: string | undefined = participant
            ? "participant"
            : present && ["local", "rumor", "faction"].includes(h.visibility)
              ? "witnessed"
              : member && h.visibility === "faction"
                ? "faction"
                : h.visibility === "global"
                  ? "broadcast"
                  : undefined;
          expect(got.find((g) => g.npcId === (npc as NpcId))?.via).toBe(expected);
        }
      }),
    );
  });

  it("visibility kinds are the five the design names", () => {
    expect(Schema.decodeUnknownSync(Visibility)("rumor")).toBe("rumor");
    expect(() => Schema.decodeUnknownSync(Visibility)("secret")).toThrow();
  });
});
