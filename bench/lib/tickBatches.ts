/**
 * A log's events cut into the batches the engine appended: one per tick (each ends with
 * its ClockAdvanced), the run's first event alone. Benches append them back one batch at
 * a time to measure what storage alone costs.
 */
import type { StoredEvent } from "@hearsay/core";

export const tickBatches = (events: Iterable<StoredEvent>): Array<Array<StoredEvent>> => {
  const batches: Array<Array<StoredEvent>> = [];
  let batch: Array<StoredEvent> = [];
  for (const e of events) {
    batch.push(e);
    if (e.type === "ClockAdvanced" || e.seq === 1) {
      batches.push(batch);
      batch = [];
    }
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
};
