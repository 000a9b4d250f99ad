/**
 * The read models as an Effect service: rebuild them from the log, read their canonical
 * state and its hash (what Checkpoint events carry), and ask who knows what. Only the
 * projector writes read models; this service never does except through a rebuild.
 */
import type { GameTime, ItemKind, NpcId } from "@hearsay/core";
import { Context, Effect, Layer } from "effect";
import type { KnownItem } from "./KnowledgeQueries.ts";
import type { ProjectionState } from "./ProjectionState.ts";
import { StoreDatabase } from "./StoreDatabase.ts";
import type { StoreFailure, UnknownSave } from "./StoreError.ts";
import { storeEffect } from "./storeEffect.ts";

export class Projections extends Context.Service<
  Projections,
  {
    /** Deletes and refolds one save's read models (or every save's); returns events folded. */
    readonly rebuild: (saveId?: string) => Effect.Effect<number, UnknownSave | StoreFailure>;
    /** Every projection row of the save, canonical and JSON-able. */
    readonly state: (saveId: string) => Effect.Effect<ProjectionState, UnknownSave | StoreFailure>;
    /** sha256 of the canonical state. */
    readonly hash: (saveId: string) => Effect.Effect<string, UnknownSave | StoreFailure>;
    /** Does the NPC know the item at `t`? */
    readonly knowsAt: (
      saveId: string,
      npcId: NpcId,
      itemKind: ItemKind | "lore",
      itemId: string,
      t: GameTime,
    ) => Effect.Effect<boolean, StoreFailure>;
    /** Every item the NPC knows at `t` (optionally of one kind), ordered by kind then id. */
    readonly knownItems: (
      saveId: string,
      npcId: NpcId,
      t: GameTime,
      kind?: ItemKind,
    ) => Effect.Effect<ReadonlyArray<KnownItem>, StoreFailure>;
  }
>()("@hearsay/store/Projections") {
  /** The read models over the `StoreDatabase` connection. */
  static readonly layer: Layer.Layer<Projections, never, StoreDatabase> = Layer.effect(
    Projections,
    Effect.gen(function* () {
      const { log } = yield* StoreDatabase;
      return Projections.of({
        rebuild: (saveId) =>
          storeEffect<number, UnknownSave>("rebuildProjections", () =>
            log.rebuildProjections(saveId),
          ),
        state: (saveId) =>
          storeEffect<ProjectionState, UnknownSave>("projectionState", () =>
            log.projectionState(saveId),
          ),
        hash: (saveId) =>
          storeEffect<string, UnknownSave>("projectionHash", () => log.projectionHash(saveId)),
        knowsAt: (saveId, npcId, itemKind, itemId, t) =>
          storeEffect("knowsAt", () => log.knowsAt(saveId, npcId, itemKind, itemId, t)),
        knownItems: (saveId, npcId, t, kind) =>
          storeEffect("knownItems", () => log.knownItems(saveId, npcId, t, kind)),
      });
    }),
  );
}
