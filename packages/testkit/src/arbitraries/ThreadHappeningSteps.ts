/**
 * Generated thread and planned-happening events for `SequenceBuilder`: threads open and
 * close (once, sometimes a second close the fold must ignore), happenings are planned and
 * move along their legal lifecycle, props are introduced while a happening exists and
 * acquired — now and then twice, or for a prop that was never introduced, which the fold
 * must also handle. Pure: the same numbers build the same payloads.
 */
import {
  canMoveHappening,
  type EventType,
  type HappeningStatus,
  happeningMoves,
  type NpcId,
} from "@hearsay/core";
import type { SmallWorld } from "./SmallWorld.ts";

/** The event types these steps build. */
export type ThreadHappeningType =
  | "ThreadOpened"
  | "ThreadClosed"
  | "HappeningPlanned"
  | "HappeningStatusChanged"
  | "PropIntroduced"
  | "PropAcquired";

const kinds = ["promise", "feud", "debt", "question", "secret"] as const;
const at = <A>(xs: ReadonlyArray<A>, n: number): A => xs[n % xs.length]!;

export class ThreadHappeningSteps {
  private readonly threads: Array<string> = [];
  private readonly happenings = new Map<string, HappeningStatus>();
  private readonly props: Array<{ readonly happeningId: string; readonly propId: string }> = [];

  constructor(
    private readonly world: SmallWorld,
    private readonly text: (a: number, b: number) => string,
  ) {}

  private npc(k: number): NpcId {
    return at(this.world.npcs, k).id;
  }

  /** The event one step makes (`n` is a fresh number for ids, `t` the time). */
  make(
    type: ThreadHappeningType,
    a: number,
    b: number,
    c: number,
    n: number,
    t: number,
  ): { readonly type: EventType; readonly payload: unknown } {
    switch (type) {
      case "ThreadOpened": {
        const id = `thread-${n}`;
        this.threads.push(id);
        const ids = [...new Set([this.npc(a), this.npc(a + 1 + (b % 2))])].sort();
        return {
          type,
          payload: {
            threadId: id,
            kind: at(kinds, b),
            text: this.text(a, c),
            npcIds: ids,
            source: c % 3 === 0 ? null : { kind: at(["task", "conversation"], c), id: `src-${c}` },
          },
        };
      }
      case "ThreadClosed": {
        if (this.threads.length === 0) return this.make("ThreadOpened", a, b, c, n, t);
        return {
          type,
          payload: {
            threadId: at(this.threads, a),
            outcome: at(["resolved", "dropped"], b),
            reason: this.text(b, c),
          },
        };
      }
      case "HappeningPlanned": {
        const id = `happening-${n}`;
        this.happenings.set(id, "planned");
        return {
          type,
          payload: {
            happeningId: id,
            name: this.text(a, b),
            kind: at(["market", "feast", "raid"], a),
            description: this.text(b, c),
            locationId: at(this.world.locations, b),
            factionId: c % 2 === 0 ? at(this.world.factions, c) : null,
            hostId: b % 3 === 0 ? null : this.npc(b),
            visibility: at(["local", "global", "faction"], c),
            startsAt: t + 60,
            endsAt: t + 60 * (2 + (a % 4)),
          },
        };
      }
      case "HappeningStatusChanged": {
        const open = [...this.happenings].filter(([, st]) => happeningMoves[st].length > 0);
        if (open.length === 0) return this.make("HappeningPlanned", a, b, c, n, t);
        const [id, from] = at(open, a);
        const to = at(happeningMoves[from], b);
        if (!canMoveHappening(from, to)) throw new Error(`illegal move ${from} → ${to}`);
        this.happenings.set(id, to);
        return {
          type,
          payload: {
            happeningId: id,
            from,
            to,
            reason: this.text(c, a),
            attendees: c % 2 === 0 ? [this.npc(c)] : [],
          },
        };
      }
      case "PropIntroduced": {
        const all = [...this.happenings.keys()];
        if (all.length === 0) return this.make("HappeningPlanned", a, b, c, n, t);
        const happeningId = at(all, a);
        // Few prop ids, so a prop is now and then introduced twice (the first one wins).
        const propId = `prop-${b % 4}`;
        this.props.push({ happeningId, propId });
        return {
          type,
          payload: {
            happeningId,
            propId,
            name: `the ${this.text(b, c)}`,
            description: this.text(c, b),
            acquirable: c % 2 === 0,
          },
        };
      }
      case "PropAcquired": {
        const prop =
          this.props.length > 0 && c % 5 !== 0
            ? at(this.props, a)
            : { happeningId: `happening-ghost-${c % 2}`, propId: "prop-ghost" };
        return { type, payload: { ...prop, npcId: this.npc(b) } };
      }
    }
  }
}
