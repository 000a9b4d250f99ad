/**
 * Event upcasting: how an event written at an older schema `version` becomes the current
 * one before it is decoded, so an old log replays after an event's schema changes.
 *
 * An upcaster is one pure step, `from` → `from + 1`, over a payload. A type's steps form
 * a chain ending at its current version; `upcastWith` checks the chains once, when it is
 * built, and then upgrades each raw event along its chain. An event already at its
 * current version (every event this build writes) is returned as it is — the same
 * object — so the read path pays a map lookup and nothing else.
 *
 * Changing an event's schema means: bump the version in its `defineEvent`, and add the
 * step from the old version to `eventUpcasters` below. The committed recorded log under
 * test/fixtures/recorded/ must keep replaying (its test fails otherwise).
 */

/** A JSON object payload, as stored. */
export type RawPayload = Readonly<Record<string, unknown>>;

/** One upgrade step of one event type's payload, from `from` to `from + 1`. */
export interface Upcaster {
  /** The event type it upgrades. */
  readonly type: string;
  /** The version it reads; it writes `from + 1`. */
  readonly from: number;
  /** What changed, in a line (shown by tests and tools). */
  readonly change: string;
  /** The payload at `from + 1` from the payload at `from`. Pure; must not mutate. */
  readonly up: (payload: RawPayload) => RawPayload;
}

/** The reason an older RelationshipChanged implies, which kept none of its own. */
export const REASON_UNRECORDED = "recorded before changes kept their reason";

/** The upgrade steps of this build's event catalogue, oldest first per type. */
export const eventUpcasters: ReadonlyArray<Upcaster> = [
  {
    type: "RelationshipChanged",
    from: 1,
    change: "gains `reason`: why the regard changed",
    // Version 1 edges came from the world's own relationships (their summary says why)
    // or from a talk's drift; the summary is the best account of either there is.
    up: (p) => ({
      ...p,
      reason:
        typeof p.summary === "string" && p.summary.trim() !== ""
          ? p.summary.slice(0, 300)
          : REASON_UNRECORDED,
    }),
  },
  {
    type: "LlmCallRecorded",
    from: 1,
    change: "counts the model answers a call refused, and their tokens (none were counted)",
    up: (p) => ({ ...p, rejected: { answers: 0, promptTokens: 0, outputTokens: 0 } }),
  },
  {
    type: "WorldEventOccurred",
    from: 1,
    change: "gains `lapsesAt`: when it leaves dossiers (events recorded before never lapse)",
    up: (p) => ({ ...p, lapsesAt: null }),
  },
  {
    type: "LlmCallRecorded",
    from: 2,
    change: "records the brain policy's priority class and reason (none was applied)",
    up: (p) => ({ ...p, policy: null }),
  },
  {
    type: "TaskStatusChanged",
    from: 1,
    change: "gains `by`: the party who moved the task (none was recorded)",
    up: (p) => ({ ...p, by: null }),
  },
];

/** A function that brings a raw event up to its current version (others unchanged). */
export type Upcast = (raw: unknown) => unknown;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Builds the upcaster for a catalogue: `current` maps each event type to the version
 * this build writes. Throws (a programming error, at load) when a step names an unknown
 * type, reaches past the current version, repeats, or leaves a gap below it.
 *
 * The result upgrades an object whose `type` is known and whose integer `version` is
 * below the current one and covered by the chain: each step in turn rewrites `payload`,
 * and `version` becomes the current one. Anything else — current or newer versions,
 * versions older than the chain reaches, input that is not an event — is returned
 * unchanged, for the decoder to accept or to refuse with its own words.
 */
export const upcastWith = (
  upcasters: ReadonlyArray<Upcaster>,
  current: ReadonlyMap<string, number>,
): Upcast => {
  const chains = new Map<string, Map<number, Upcaster>>();
  for (const step of upcasters) {
    const now = current.get(step.type);
    if (now === undefined) {
      throw new Error(`upcast: a step for unknown event type "${step.type}"`);
    }
    if (!Number.isInteger(step.from) || step.from < 0 || step.from >= now) {
      throw new Error(
        `upcast: ${step.type} step from v${step.from} must start below the current v${now}`,
      );
    }
    const chain = chains.get(step.type) ?? new Map<number, Upcaster>();
    if (chain.has(step.from)) {
      throw new Error(`upcast: two ${step.type} steps from v${step.from}`);
    }
    chain.set(step.from, step);
    chains.set(step.type, chain);
  }
  for (const [type, chain] of chains) {
    const oldest = Math.min(...chain.keys());
    const now = current.get(type)!;
    for (let v = oldest; v < now; v++) {
      if (!chain.has(v)) {
        throw new Error(`upcast: ${type} has no step from v${v} (chain v${oldest} → v${now})`);
      }
    }
  }

  return (raw) => {
    if (!isRecord(raw)) return raw;
    const { type, version, payload } = raw;
    if (typeof type !== "string" || typeof version !== "number") return raw;
    const now = current.get(type);
    if (now === undefined || version >= now || !Number.isInteger(version)) return raw;
    const chain = chains.get(type);
    if (chain === undefined || !chain.has(version) || !isRecord(payload)) return raw;
    let p: RawPayload = payload;
    for (let v = version; v < now; v++) p = chain.get(v)!.up(p);
    return { ...raw, version: now, payload: p };
  };
};
