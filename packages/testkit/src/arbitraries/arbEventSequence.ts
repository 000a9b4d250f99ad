/**
 * fast-check arbitraries for event sequences: valid (every event decodes with core's
 * `Event`), time-ordered, over a small world, and — unless asked otherwise — covering
 * every event type in the catalogue. Also batching (how an engine would append them, one
 * transaction per tick) and an interleaving of two sequences for isolation tests.
 */
import { type Event, type EventType, eventTypes } from "@hearsay/core";
import fc from "fast-check";
import { SequenceBuilder, type Step } from "./SequenceBuilder.ts";
import { type SmallWorld, smallWorld } from "./SmallWorld.ts";

/** Options for {@link arbEventSequence}. */
export interface EventSequenceOptions {
  /** The world (default: `smallWorld(4)`). */
  readonly world?: SmallWorld;
  /** Random steps after the opening (default 0–60). */
  readonly minSteps?: number;
  readonly maxSteps?: number;
  /** Append one step for each type the random steps missed (default true). */
  readonly everyType?: boolean;
}

/** Relative frequency of each event type in random steps (common things are common). */
const weights: Partial<Record<EventType, number>> = {
  ClockAdvanced: 3,
  KnowledgeGained: 5,
  MemoryRecorded: 4,
  MemoryExpired: 2,
  WorldEventOccurred: 3,
  ConversationTurn: 2,
};

const weightedTypes: ReadonlyArray<EventType> = eventTypes.flatMap((t) =>
  Array.from({ length: weights[t] ?? 1 }, () => t),
);

/** One random step. */
export const arbStep: fc.Arbitrary<Step> = fc.record({
  type: fc.constantFrom(...weightedTypes),
  a: fc.nat({ max: 999 }),
  b: fc.nat({ max: 999 }),
  c: fc.nat({ max: 999 }),
  dt: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 45 })),
});

/** Builds the events of an opening plus steps (and the missing types, when asked). */
export const buildSequence = (
  world: SmallWorld,
  steps: ReadonlyArray<Step>,
  opts: { readonly seed?: number; readonly everyType?: boolean } = {},
): ReadonlyArray<Event> => {
  const builder = new SequenceBuilder(world).start(opts.seed ?? 7);
  for (const s of steps) builder.step(s);
  if (opts.everyType ?? true) {
    const seen = new Set(builder.events().map((e) => e.type));
    eventTypes.forEach((type, i) => {
      if (!seen.has(type)) builder.step({ type, a: i, b: i * 7, c: i * 13, dt: 1 });
    });
  }
  return builder.events();
};

/** A valid, time-ordered event sequence over a small world. */
export const arbEventSequence = (
  opts: EventSequenceOptions = {},
): fc.Arbitrary<ReadonlyArray<Event>> => {
  const world = opts.world ?? smallWorld(4);
  return fc
    .tuple(
      fc.array(arbStep, { minLength: opts.minSteps ?? 0, maxLength: opts.maxSteps ?? 60 }),
      fc.integer({ min: 0, max: 1_000_000 }),
    )
    .map(([steps, seed]) =>
      buildSequence(world, steps, { seed, everyType: opts.everyType ?? true }),
    );
};

/** Cuts a sequence into consecutive non-empty batches at the given (sorted, unique) cut points. */
export const splitBatches = <A>(
  items: ReadonlyArray<A>,
  cuts: ReadonlyArray<number>,
): ReadonlyArray<ReadonlyArray<A>> => {
  const points = [...new Set(cuts.filter((c) => c > 0 && c < items.length))].sort((x, y) => x - y);
  const out: Array<ReadonlyArray<A>> = [];
  let from = 0;
  for (const p of [...points, items.length]) {
    if (p > from) out.push(items.slice(from, p));
    from = p;
  }
  return out;
};

/** A sequence cut into append batches (one per "tick"), in order. */
export const arbEventBatches = (
  opts: EventSequenceOptions = {},
): fc.Arbitrary<ReadonlyArray<ReadonlyArray<Event>>> =>
  arbEventSequence(opts).chain((events) =>
    fc
      .array(fc.nat({ max: Math.max(0, events.length) }), { maxLength: 12 })
      .map((cuts) => splitBatches(events, cuts)),
  );

/**
 * An interleaving of two lists: each element says which list to take the next item from
 * (`0` or `1`), and every item of both is taken exactly once, in its own order.
 */
export const arbInterleaving = <A, B>(
  left: ReadonlyArray<A>,
  right: ReadonlyArray<B>,
): fc.Arbitrary<
  ReadonlyArray<{ readonly side: 0; readonly item: A } | { readonly side: 1; readonly item: B }>
> =>
  fc
    .shuffledSubarray(
      Array.from({ length: left.length + right.length }, (_, i) => i),
      { minLength: left.length, maxLength: left.length },
    )
    .map((leftSlots) => {
      const isLeft = new Set(leftSlots);
      let l = 0;
      let r = 0;
      return Array.from({ length: left.length + right.length }, (_, i) =>
        isLeft.has(i)
          ? { side: 0 as const, item: left[l++]! }
          : { side: 1 as const, item: right[r++]! },
      );
    });
