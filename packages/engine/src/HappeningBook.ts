/**
 * The engine's fold of planned happenings (see PlannedHappenings.ts for their rules):
 * each happening's status, window and props, and what NPCs carried off from completed
 * ones — their inventory. Props of a happening that is not completed, and props nobody
 * acquired, never leave its record here.
 */
import type {
  Event,
  FactionId,
  GameTime,
  HappeningId,
  HappeningStatus,
  LocationId,
  NpcId,
  Visibility,
} from "@hearsay/core";

export interface PropRuntime {
  readonly id: string;
  readonly name: string;
  readonly acquirable: boolean;
  holder: NpcId | null;
}

export interface HappeningRuntime {
  readonly id: HappeningId;
  readonly name: string;
  readonly kind: string;
  readonly locationId: LocationId;
  readonly factionId: FactionId | null;
  readonly hostId: NpcId | null;
  readonly visibility: Visibility;
  readonly startsAt: GameTime;
  readonly endsAt: GameTime;
  status: HappeningStatus;
  readonly props: Map<string, PropRuntime>;
}

export class HappeningBook {
  readonly byId = new Map<HappeningId, HappeningRuntime>();
  /** Planned or active happenings: the ones the rules still look at. */
  readonly live = new Set<HappeningId>();
  /** NPC → names of the props it carried off from completed happenings, in order. */
  private readonly inventory = new Map<NpcId, Array<string>>();

  apply(event: Event): void {
    switch (event.type) {
      case "HappeningPlanned": {
        const p = event.payload;
        if (this.byId.has(p.happeningId)) return;
        this.byId.set(p.happeningId, {
          id: p.happeningId,
          name: p.name,
          kind: p.kind,
          locationId: p.locationId,
          factionId: p.factionId,
          hostId: p.hostId,
          visibility: p.visibility,
          startsAt: p.startsAt,
          endsAt: p.endsAt,
          status: "planned",
          props: new Map(),
        });
        this.live.add(p.happeningId);
        return;
      }
      case "HappeningStatusChanged": {
        const h = this.byId.get(event.payload.happeningId);
        if (!h) return;
        h.status = event.payload.to;
        if (h.status === "active") return;
        this.live.delete(h.id);
        if (h.status !== "completed") return;
        for (const prop of h.props.values()) {
          if (prop.holder === null) continue;
          const held = this.inventory.get(prop.holder) ?? [];
          held.push(prop.name);
          this.inventory.set(prop.holder, held);
        }
        return;
      }
      case "PropIntroduced": {
        const p = event.payload;
        const h = this.byId.get(p.happeningId);
        if (!h || h.props.has(p.propId)) return;
        h.props.set(p.propId, {
          id: p.propId,
          name: p.name,
          acquirable: p.acquirable,
          holder: null,
        });
        return;
      }
      case "PropAcquired": {
        const p = event.payload;
        const prop = this.byId.get(p.happeningId)?.props.get(p.propId);
        if (prop && prop.holder === null) prop.holder = p.npcId;
        return;
      }
      default:
        return;
    }
  }

  /** What `npc` holds from completed happenings (its inventory), oldest first. */
  holdingOf(npc: NpcId): ReadonlyArray<string> {
    return this.inventory.get(npc) ?? [];
  }
}
