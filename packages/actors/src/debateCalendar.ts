/**
 * When background debates come due. A topic falls at its hour on its first day and every
 * `everyDays` days after; a debate is due in a tick (or a skip's step) when that moment
 * lies in the span (from, t] and no debate of that topic was held on that day.
 */
import {
  type DebateId,
  type DebateTopic,
  type GameTime,
  MINUTES_PER_DAY,
  MINUTES_PER_HOUR,
} from "@hearsay/core";

export interface DueDebate {
  readonly topic: DebateTopic;
  readonly day: number;
  readonly debateId: DebateId;
}

/** The id of `topic`'s debate on `day`. */
export const debateIdOf = (topic: DebateTopic, day: number): DebateId =>
  `${topic.id}-day${day}` as DebateId;

/** The debates due in (from, t], by day then topic id, leaving out those already held. */
export const dueDebates = (
  topics: ReadonlyArray<DebateTopic>,
  from: GameTime,
  t: GameTime,
  held: ReadonlySet<DebateId>,
): ReadonlyArray<DueDebate> => {
  const out: Array<DueDebate> = [];
  const firstDay = Math.floor(from / MINUTES_PER_DAY) - 1;
  const lastDay = Math.floor(t / MINUTES_PER_DAY);
  for (const topic of topics) {
    for (let day = Math.max(topic.firstDay, firstDay); day <= lastDay; day++) {
      if ((day - topic.firstDay) % topic.everyDays !== 0) continue;
      const at = day * MINUTES_PER_DAY + topic.hour * MINUTES_PER_HOUR;
      if (at <= from || at > t) continue;
      const debateId = debateIdOf(topic, day);
      if (!held.has(debateId)) out.push({ topic, day, debateId });
    }
  }
  return out.sort((a, b) => a.day - b.day || (a.topic.id < b.topic.id ? -1 : 1));
};
