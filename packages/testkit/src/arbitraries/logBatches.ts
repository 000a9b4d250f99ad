/**
 * The scaffolding of a generated log: events with ids numbered in order, pushed into
 * append batches that a step may cut, starting with the NPCs registered in the square.
 * Generators of hostile logs (knowledge, SQL folds) build their steps on it.
 */
import { type Event, type EventType, type GameTime, ids, makeEvent } from "@hearsay/core";

export interface LogBatches {
  /** An event of `type` at minute `t`, with the next id (`<prefix><n>`). */
  readonly ev: (type: EventType, t: number, payload: object) => Event;
  /** Adds an event to the current batch. */
  readonly push: (event: Event) => void;
  /** Starts a new batch. */
  readonly cut: () => void;
  /** The batches so far, empty ones left out. */
  readonly batches: () => ReadonlyArray<ReadonlyArray<Event>>;
}

export const logBatches = (prefix: string, npcs: ReadonlyArray<string>): LogBatches => {
  let n = 0;
  const all: Array<Array<Event>> = [[]];
  const ev = (type: EventType, t: number, payload: object): Event =>
    makeEvent(type, { id: ids.event(`${prefix}${++n}`), t: t as GameTime, payload } as never);
  const push = (e: Event) => all[all.length - 1]!.push(e);
  for (const npc of npcs) {
    push(
      ev("NpcRegistered", 0, {
        npcId: npc,
        name: npc,
        role: "smith",
        factionId: null,
        locationId: "square",
        traits: [],
      }),
    );
  }
  return {
    ev,
    push,
    cut: () => {
      all.push([]);
    },
    batches: () => all.filter((batch) => batch.length > 0),
  };
};
