/**
 * The vocabulary of who may know what: how visible a happening is when it occurs, what
 * kinds of item can be known, and the ways an NPC can come to know one.
 */
import { Schema } from "effect";

/**
 * How widely a world event is seen when it happens:
 * - `private`: only its participants;
 * - `local`: everyone present at its location (and its participants);
 * - `faction`: members of its faction, wherever they are (and its participants);
 * - `global`: everyone (a broadcast);
 * - `rumor`: its participants and those present; others learn it only as it spreads.
 */
export const Visibility = Schema.Literals(["private", "local", "faction", "global", "rumor"]);
export type Visibility = typeof Visibility.Type;

/**
 * Kinds of item an NPC can know. Lore is public and needs no knowledge fact. A `thread`
 * (an unresolved tension, see events/threads.ts) is known like any other item.
 */
export const ItemKind = Schema.Literals(["world_event", "memory", "debate", "thread"]);
export type ItemKind = typeof ItemKind.Type;

/** How an NPC came to know an item. */
export const Via = Schema.Literals([
  "witnessed",
  "participant",
  "faction",
  "broadcast",
  "told",
  "rumor",
]);
export type Via = typeof Via.Type;

/** A reference to a knowable item; `key` makes it a map key. */
export interface ItemRef {
  readonly kind: ItemKind;
  readonly id: string;
}
export const itemKey = (kind: ItemKind, id: string): string => `${kind}:${id}`;
