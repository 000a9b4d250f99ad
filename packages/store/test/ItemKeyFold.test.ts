/**
 * The fold's turn keys are held by conversation and turn index rather than by pair id: on
 * any mix of loaded rows, turn events (repeated, out of order, skipping ahead) and
 * look-ups, it keys every turn as a map from pair id to key would.
 */
import type { StoredEvent } from "@hearsay/core";
import { ItemKeyFold, type KeyChange, pairId } from "@hearsay/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runs } from "./harness.ts";

const turn = (seq: number, conversationId: string, turnIndex: number) =>
  ({
    type: "ConversationTurn",
    version: 1,
    id: `e${seq}`,
    seq,
    t: seq,
    payload: {
      conversationId,
      turnIndex,
      speakerId: "n1",
      listenerIds: [],
      locationId: null,
      text: "hi",
    },
  }) as unknown as StoredEvent;

const conversation = fc.constantFrom("c1", "c2", "c\u00001", "c\u0000", "");
const turnIndex = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 4 }), weight: 6 },
  fc.nat(),
  fc.constantFrom(2 ** 31, 2 ** 32, 2 ** 40, Number.MAX_SAFE_INTEGER),
);
const op = fc.oneof(
  fc.record({ op: fc.constant("step" as const), conversation, turnIndex }),
  fc.record({
    op: fc.constant("loadTurn" as const),
    conversation,
    turnIndex,
    key: fc.integer({ min: 1, max: 2 ** 40 }),
  }),
  fc.record({ op: fc.constant("turnKey" as const), conversation, turnIndex }),
);

describe("item key fold (conversation turns)", () => {
  it("property: keys turns as a map by pair id does, whatever the turn indexes", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 3 }),
        fc.array(op, { minLength: 10, maxLength: 80, size: "max" }),
        (space, ops) => {
          const base = space * 2 ** 32;
          const fold = new ItemKeyFold(base);
          const model = new Map<string, number>();
          const seen: Array<[string, number]> = [];
          let last = base;
          let seq = 0;
          for (const o of ops) {
            const id = pairId(o.conversation, o.turnIndex);
            seen.push([o.conversation, o.turnIndex]);
            if (o.op === "turnKey") {
              expect(fold.turnKey(o.conversation, o.turnIndex)).toBe(model.get(id));
              continue;
            }
            if (o.op === "step") {
              const want: Array<KeyChange> = [];
              if (!model.has(id)) {
                last += 1;
                model.set(id, last);
                want.push({ type: "added", table: "conversation_turns", id, key: last });
              }
              expect(fold.step(turn(++seq, o.conversation, o.turnIndex))).toEqual(want);
            } else {
              fold.loadTurn(o.conversation, o.turnIndex, o.key);
              model.set(id, o.key);
              if (o.key > last) last = o.key;
            }
            expect(fold.turnKey(o.conversation, o.turnIndex)).toBe(model.get(id));
          }
          for (const [c, i] of seen) expect(fold.turnKey(c, i)).toBe(model.get(pairId(c, i)));
        },
      ),
      { numRuns: runs(300) },
    );
  });
});
