/**
 * The whole store as one layer: the database at a path (opened, migrated, closed with the
 * scope) and the `EventLog`, `Projections` and `Snapshots` services over it.
 */
import { Layer } from "effect";
import { EventLog } from "./EventLog.ts";
import { Projections } from "./Projections.ts";
import { Snapshots } from "./Snapshots.ts";
import { type OpenError, StoreDatabase, type StoreDatabaseOptions } from "./StoreDatabase.ts";

/** Every store service, over the database at `path` (`":memory:"` for a fresh one). */
export const storeLayer = (
  path: string,
  opts: StoreDatabaseOptions = {},
): Layer.Layer<StoreDatabase | EventLog | Projections | Snapshots, OpenError> =>
  Layer.mergeAll(EventLog.layer, Projections.layer, Snapshots.layer).pipe(
    Layer.provideMerge(StoreDatabase.layer(path, opts)),
  );
