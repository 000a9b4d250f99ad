/**
 * Where a run's engine snapshots come from and go: taken after an append that crosses
 * a multiple of the configured cadence (in events), and, on a resume, the newest one
 * this build can read is the state the log's tail is folded onto. The log is never
 * touched: a run with snapshots writes the same events as one without.
 */
import type { StoredEvent } from "@hearsay/core";
import { EngineSnapshotStore, type SaveInfo, type SqliteEventLog } from "@hearsay/store";
import type { EngineState } from "./EngineState.ts";
import { decodeState, encodeState, stateFingerprint } from "./EngineStateCodec.ts";

export interface SnapshotCadence {
  /** A snapshot whenever the log's head crosses a multiple of this many events (0: never). */
  readonly everyEvents: number;
  /** Snapshots kept per save (older ones are deleted). */
  readonly kept: number;
}

export class EngineSnapshots {
  private readonly store: EngineSnapshotStore;
  private readonly format = stateFingerprint();

  constructor(
    private readonly log: SqliteEventLog,
    private readonly saveId: string,
    private readonly cadence: SnapshotCadence,
  ) {
    this.store = new EngineSnapshotStore(log.db);
  }

  /**
   * Fills `state` from the newest usable snapshot at or before `head` and returns its
   * seq (0 when there is none: fold from the start). A snapshot whose seq no longer
   * holds the event it was taken after is not used.
   */
  restore(state: EngineState, head: number): number {
    // A branch shares its parent's history up to where it branched: a snapshot the
    // parent (or its parent) took by then is one of the branch's too.
    let snap: { readonly seq: number; readonly text: string } | undefined;
    let save: SaveInfo | undefined = this.log.save(this.saveId);
    for (let upTo = head; save !== undefined; ) {
      const found = this.store.latest(save.saveId, this.format, upTo);
      if (found !== undefined && (snap === undefined || found.seq > snap.seq)) snap = found;
      if (save.parent === null) break;
      upTo = Math.min(upTo, save.parent.seq);
      save = this.log.save(save.parent.saveId);
    }
    if (snap === undefined) return 0;
    // The text is the id of the event at its seq, a line break, and the state.
    const cut = snap.text.indexOf("\n");
    const [at] = this.log.read(this.saveId, { fromSeq: snap.seq, toSeq: snap.seq });
    if (at === undefined || at.id !== snap.text.slice(0, cut)) return 0;
    decodeState(snap.text.slice(cut + 1), state);
    return snap.seq;
  }

  /** After an append ending with `last`, from head `before`: a snapshot if it crossed the cadence. */
  afterAppend(state: EngineState, before: number, last: StoredEvent | undefined): void {
    const n = this.cadence.everyEvents;
    if (n <= 0 || last === undefined || state.seq !== last.seq) return;
    if (Math.floor(before / n) === Math.floor(last.seq / n)) return;
    const text = `${last.id}\n${encodeState(state)}`;
    this.store.write(this.saveId, last.seq, this.format, text, this.cadence.kept);
  }
}
