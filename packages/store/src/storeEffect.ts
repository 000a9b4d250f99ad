/**
 * How the Effect services call the synchronous store: run the call, and turn whatever it
 * throws into the error channel — the store's own typed errors as they are, anything else
 * (an SQLite I/O error, a full disk) as a `StoreFailure` naming the operation.
 */
import { Effect } from "effect";
import { type StoreError, type StoreFailure, toStoreError } from "./StoreError.ts";

/**
 * Runs a synchronous store call as an Effect. `E` lists the typed errors the call is
 * documented to throw; anything else arrives as `StoreFailure`.
 */
export const storeEffect = <A, E extends StoreError = never>(
  operation: string,
  f: () => A,
): Effect.Effect<A, E | StoreFailure> =>
  Effect.try({ try: f, catch: (u) => toStoreError(operation, u) as E | StoreFailure });
