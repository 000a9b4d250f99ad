/**
 * A test-only schema history for the recorded fixture. The catalogue is at version 1
 * for every event; to prove an old log still replays after a schema change, the fixture
 * holds events written at an imagined version 0 of two types, and these are the steps a
 * real change would have added to core's `eventUpcasters`:
 *
 * - MemoryExpired v0 had no `reason` (every loss was an expiry): v1 adds it.
 * - RelationshipChanged v0 called its `summary` a `note`: v1 renames it (and core's
 *   real v1 → v2 step derives `reason` from it, so only an edge whose reason is its
 *   summary — the world's starting edges — can be written back losslessly).
 *
 * `downcast` writes an event back in its v0 shape (the recorder uses it); `upcast` is
 * core's upcaster with these steps added.
 */
import {
  currentVersions,
  type Event,
  eventUpcasters,
  type RawPayload,
  type Upcaster,
  upcastWith,
} from "@hearsay/core";

export const oldVersionSteps: ReadonlyArray<Upcaster> = [
  {
    type: "MemoryExpired",
    from: 0,
    change: "reason added; every v0 loss was an expiry",
    up: (p) => ({ ...p, reason: "expired" }),
  },
  {
    type: "RelationshipChanged",
    from: 0,
    change: "note renamed summary",
    up: ({ note, ...rest }) => ({ ...rest, summary: note }),
  },
];

/** Core's upcaster plus the test-only v0 steps. */
export const upcastWithOldVersions = upcastWith(
  [...eventUpcasters, ...oldVersionSteps],
  currentVersions,
);

/** The v0 shape of an event, for the types above (null for others, or a v1-only value). */
export const downcast = (e: Event): Record<string, unknown> | null => {
  if (e.type === "MemoryExpired" && e.payload.reason === "expired") {
    const { reason: _, ...rest } = e.payload;
    return { ...e, version: 0, payload: rest };
  }
  if (e.type === "RelationshipChanged" && e.payload.reason === e.payload.summary) {
    const { summary, reason: _, ...rest } = e.payload;
    return { ...e, version: 0, payload: { ...rest, note: summary } satisfies RawPayload };
  }
  return null;
};
