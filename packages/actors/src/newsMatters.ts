/**
 * Which news sets an NPC's agenda aside. Something it learnt without taking part in it
 * (`NewsItem`) makes it ask the brain again only when the news matters to it: it names the
 * NPC or someone it holds strong regard for, or it is important enough — its importance,
 * discounted by how sure the NPC can be of it (`confidence`: 1 first-hand, less with each
 * rumour hop), reaches `IMPORTANT`. The rest waits for its next call, whose dossier holds
 * it anyway. And news sets a plan aside only once the plan is `NEWS_QUIET` old
 * (`newsMayInterrupt`): a plan made in the last few hours stands, however much news comes
 * in — news comes in bursts (a scene's witnesses, a rumour passed round a tavern), and one
 * answer at the end of a burst weighs it as well as a call per piece would. The quiet spans
 * several of the engine's hourly wake-ups: an hour alone would never hold a plan back,
 * since the next wake-up after an answer is an hour later. Its own tasks need no rule here: a change to one changes the agenda's task
 * key (`agenda.ts`). A happening the engine cannot describe (lapsed, or not a world event)
 * counts, so nothing unknown is ignored.
 */
import {
  type GameTime,
  type ItemKind,
  MINUTES_PER_HOUR,
  type NpcId,
  type Via,
} from "@hearsay/core";

/** Something an NPC learnt by any way but taking part in it. */
export interface NewsItem {
  readonly itemKind: ItemKind;
  readonly itemId: string;
  readonly via: Via;
  readonly confidence: number;
}

/** What the engine can say of a world event an NPC heard of. */
export interface Happening {
  readonly importance: number;
  /** Who took part in it. */
  readonly participants: ReadonlyArray<NpcId>;
}

/** A world event's weight (importance × confidence) from which it matters to anyone. */
export const IMPORTANT = 0.6;

/**
 * A trust, respect or suspicion from which another NPC's doings — routine ones too, a chore
 * finished where it stands — matter to it. Regard grows with every friendly talk, so the
 * bar is near the top of the scale: a close friend or a sworn rival, not every neighbour
 * it has chatted with.
 */
export const STRONG_REGARD = 0.85;

/** What a piece of news is judged against: the NPC, its regard, and the world's events. */
export interface NewsReader {
  readonly self: NpcId;
  /**
   * How strongly it regards `other`, for or against: the largest magnitude of its trust,
   * respect and suspicion (0: it holds no regard for it).
   */
  regardFor(other: NpcId): number;
  /** The world event `id`, if the engine can describe it. */
  happening(id: string): Happening | null;
}

/** Whether `item` makes the NPC set its agenda aside and ask again. */
export const newsMatters = (item: NewsItem, reader: NewsReader): boolean => {
  if (item.itemKind !== "world_event") return true;
  const h = reader.happening(item.itemId);
  if (h === null) return true;
  if (h.importance * item.confidence >= IMPORTANT) return true;
  return h.participants.some((p) => p === reader.self || reader.regardFor(p) >= STRONG_REGARD);
};

/** How long a plan stands against news, from when it was made. */
export const NEWS_QUIET = 3 * MINUTES_PER_HOUR;

/**
 * Whether news may set aside a plan made at `plannedAt` (null: it has none) at `t`: only
 * once it is `NEWS_QUIET` old.
 */
export const newsMayInterrupt = (plannedAt: GameTime | null, t: GameTime): boolean =>
  plannedAt === null || t - plannedAt >= NEWS_QUIET;
