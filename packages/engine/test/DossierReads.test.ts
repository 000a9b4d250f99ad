/**
 * The run's wrapper of a dossier source (`readTracked`) passes each append's events on to
 * the source's catch-up: the retrieval view folds them as they are, and reads the log
 * back only when it is handed nothing.
 */
import type { StoredEvent } from "@hearsay/core";
import { describe, expect, it } from "vitest";
import { DossierReads, readTracked } from "../src/DossierReads.ts";
import type { DossierSource } from "../src/TickContext.ts";

/** Only identity matters here: the wrapper hands the very array on. */
const stored = (seq: number): StoredEvent => ({ seq }) as unknown as StoredEvent;

describe("readTracked", () => {
  it("hands the source's catch-up the events just appended", () => {
    const seen: Array<ReadonlyArray<StoredEvent> | undefined> = [];
    const source: DossierSource = {
      dossier: () => null,
      refresh: (appended) => {
        seen.push(appended);
      },
    };
    const tracked = readTracked(source, new DossierReads());
    const batch = [stored(1), stored(2)];
    tracked.refresh!(batch);
    tracked.refresh!();
    expect(seen[0]).toBe(batch);
    expect(seen).toEqual([batch, undefined]);
  });
});
