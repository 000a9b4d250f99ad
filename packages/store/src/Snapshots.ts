/**
 * Snapshots as an Effect service: take one (with the engine's actor snapshots, if any),
 * load the newest usable one, and restore a save's read models from a snapshot plus the
 * tail of its log. Automatic snapshots every N events are set by `snapshotEvery` on the
 * `StoreDatabase` layer.
 */
import { Context, Effect, Layer } from "effect";
import type { Snapshot, SnapshotInfo } from "./SnapshotStore.ts";
import { StoreDatabase } from "./StoreDatabase.ts";
import { SnapshotNotFound, type StoreFailure, type UnknownSave } from "./StoreError.ts";
import { storeEffect } from "./storeEffect.ts";

export class Snapshots extends Context.Service<
  Snapshots,
  {
    /** Snapshots the save's read models at its head, with optional actor state (JSON). */
    readonly take: (
      saveId: string,
      actors?: unknown,
    ) => Effect.Effect<SnapshotInfo, UnknownSave | StoreFailure>;
    /** The newest snapshot usable for the save at or before `atOrBefore` (default: head). */
    readonly load: (
      saveId: string,
      atOrBefore?: number,
    ) => Effect.Effect<Snapshot, SnapshotNotFound | UnknownSave | StoreFailure>;
    /** The snapshots stored for the save itself, oldest first. */
    readonly list: (
      saveId: string,
    ) => Effect.Effect<ReadonlyArray<SnapshotInfo>, UnknownSave | StoreFailure>;
    /** Replaces the save's read models with a snapshot plus a fold of the events after it. */
    readonly restore: (
      saveId: string,
      atOrBefore?: number,
    ) => Effect.Effect<
      { readonly fromSeq: number; readonly folded: number },
      SnapshotNotFound | UnknownSave | StoreFailure
    >;
  }
>()("@hearsay/store/Snapshots") {
  /** Snapshots over the `StoreDatabase` connection. */
  static readonly layer: Layer.Layer<Snapshots, never, StoreDatabase> = Layer.effect(
    Snapshots,
    Effect.gen(function* () {
      const { log } = yield* StoreDatabase;
      return Snapshots.of({
        take: (saveId, actors) =>
          storeEffect<SnapshotInfo, UnknownSave>("takeSnapshot", () =>
            log.takeSnapshot(saveId, actors),
          ),
        load: (saveId, atOrBefore) =>
          storeEffect<Snapshot | undefined, UnknownSave>("loadSnapshot", () =>
            log.loadSnapshot(saveId, atOrBefore),
          ).pipe(
            Effect.flatMap((snap) =>
              snap === undefined
                ? Effect.fail(new SnapshotNotFound({ saveId, seq: atOrBefore ?? null }))
                : Effect.succeed(snap),
            ),
          ),
        list: (saveId) =>
          storeEffect<ReadonlyArray<SnapshotInfo>, UnknownSave>("snapshots", () =>
            log.snapshots(saveId),
          ),
        restore: (saveId, atOrBefore) =>
          storeEffect<
            { readonly fromSeq: number; readonly folded: number },
            SnapshotNotFound | UnknownSave
          >("restoreFromSnapshot", () => log.restoreFromSnapshot(saveId, atOrBefore)),
      });
    }),
  );
}
