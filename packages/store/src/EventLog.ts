/**
 * The event log as an Effect service (port and its SQLite adapter in one place, since
 * the store has one backend): saves and branches, appends with optimistic concurrency,
 * and reads by seq or by game day. Each append commits its projection updates in the
 * same transaction.
 */
import type { StoredEvent } from "@hearsay/core";
import { Context, Effect, Layer } from "effect";
import type { SaveInfo } from "./EventHistory.ts";
import type { AppendResult, NewSave } from "./SqliteEventLog.ts";
import { StoreDatabase } from "./StoreDatabase.ts";
import type {
  InvalidBranchPoint,
  InvalidEvent,
  SaveExists,
  StaleSeq,
  StoreFailure,
  UnknownSave,
} from "./StoreError.ts";
import { storeEffect } from "./storeEffect.ts";

export class EventLog extends Context.Service<
  EventLog,
  {
    /** Creates a save, or a branch of one (sharing its history up to `parent.seq`). */
    readonly createSave: (
      spec: NewSave,
    ) => Effect.Effect<SaveInfo, SaveExists | UnknownSave | InvalidBranchPoint | StoreFailure>;
    /**
     * Appends a batch in one transaction (all or nothing). Events whose id is already in
     * the history are skipped.
     */
    readonly append: (
      saveId: string,
      expectedSeq: number,
      events: ReadonlyArray<unknown>,
    ) => Effect.Effect<AppendResult, StaleSeq | InvalidEvent | UnknownSave | StoreFailure>;
    /** The seq of the save's last event (0 when empty). */
    readonly head: (saveId: string) => Effect.Effect<number, UnknownSave | StoreFailure>;
    /** The save's history with seq in [fromSeq, toSeq] (default: all), in seq order. */
    readonly read: (
      saveId: string,
      range?: { readonly fromSeq?: number; readonly toSeq?: number },
    ) => Effect.Effect<ReadonlyArray<StoredEvent>, UnknownSave | StoreFailure>;
    /** The save's history on game days [fromDay, toDay] (both included). */
    readonly readDays: (
      saveId: string,
      fromDay: number,
      toDay: number,
    ) => Effect.Effect<ReadonlyArray<StoredEvent>, UnknownSave | StoreFailure>;
    /** Every save, ordered by id. */
    readonly saves: () => Effect.Effect<ReadonlyArray<SaveInfo>, StoreFailure>;
    /** One save. */
    readonly save: (saveId: string) => Effect.Effect<SaveInfo, UnknownSave | StoreFailure>;
  }
>()("@hearsay/store/EventLog") {
  /** The log over the `StoreDatabase` connection. */
  static readonly layer: Layer.Layer<EventLog, never, StoreDatabase> = Layer.effect(
    EventLog,
    Effect.gen(function* () {
      const { log } = yield* StoreDatabase;
      return EventLog.of({
        createSave: (spec) =>
          storeEffect<SaveInfo, SaveExists | UnknownSave | InvalidBranchPoint>("createSave", () =>
            log.createSave(spec),
          ),
        append: (saveId, expectedSeq, events) =>
          storeEffect<AppendResult, StaleSeq | InvalidEvent | UnknownSave>("append", () =>
            log.append(saveId, expectedSeq, events),
          ),
        head: (saveId) => storeEffect<number, UnknownSave>("head", () => log.head(saveId)),
        read: (saveId, range) =>
          storeEffect<ReadonlyArray<StoredEvent>, UnknownSave>("read", () =>
            log.read(saveId, range),
          ),
        readDays: (saveId, fromDay, toDay) =>
          storeEffect<ReadonlyArray<StoredEvent>, UnknownSave>("readDays", () =>
            log.readDays(saveId, fromDay, toDay),
          ),
        saves: () => storeEffect("saves", () => log.saves()),
        save: (saveId) => storeEffect<SaveInfo, UnknownSave>("save", () => log.save(saveId)),
      });
    }),
  );
}
