/**
 * Where a run's engine snapshots come from and go: taken after an append that crosses
 * a multiple of the configured cadence (in events), and, on a resume, the newest one
 * this build can read is the state the log's tail is folded onto. The log is never
 * touched: a run with snapshots writes the same events as one without.
 */
import type { StoredEvent } from "@hearsay/core";
import { EngineSnapshotStore, type SaveInfo, type SqliteEventLog } from "@hearsay/store";
import { decodeRoots, encodeRoots, snapshotFingerprint } from "./EngineStateCodec.ts";
import { emptyRunFold, type RunFold } from "./RunFold.ts";

/** This build's snapshot format: the codec's and the shape of a run's fold. */
export const runFoldFormat = (): string => snapshotFingerprint(emptyRunFold());

export interface SnapshotCadence {
  /** A snapshot whenever the log's head crosses a multiple of this many events (0: never). */
  readonly everyEvents: number;
  /** Snapshots kept per save (older ones are deleted). */
  readonly kept: number;
}

export class EngineSnapshots {
  private readonly store: EngineSnapshotStore;
  private readonly format = runFoldFormat();

  constructor(
    private readonly log: SqliteEventLog,
    private readonly saveId: string,
    private readonly cadence: SnapshotCadence,
  ) {
    this.store = new EngineSnapshotStore(log.db);
  }

  /**
   * The newest usable snapshot at or before `head` as a fold, with its seq (null when
   * there is none: fold from the start). A snapshot whose seq no longer holds the event
   * it was taken after, or that does not decode into this build's fold, is not used.
   */
  restore(head: number): { readonly seq: number; readonly fold: RunFold } | null {
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
    if (snap === undefined) return null;
    // The text is the id of the event at its seq, a line break, and the state.
    const cut = snap.text.indexOf("\n");
    const [at] = this.log.read(this.saveId, { fromSeq: snap.seq, toSeq: snap.seq });
    if (at === undefined || at.id !== snap.text.slice(0, cut)) return null;
    try {
      return { seq: snap.seq, fold: decodeRoots(snap.text.slice(cut + 1), emptyRunFold()) };
    } catch {
      // A cache that does not fit is no cache: the log is folded instead.
      return null;
    }
  }

  /** After an append ending with `last`, from head `before`: a snapshot if it crossed the cadence. */
  afterAppend(fold: () => RunFold, before: number, last: StoredEvent | undefined): void {
    const n = this.cadence.everyEvents;
    if (n <= 0 || last === undefined) return;
    if (Math.floor(before / n) === Math.floor(last.seq / n)) return;
    const now = fold();
    if (now.engine.seq !== last.seq) return;
    const text = `${last.id}\n${encodeRoots(now)}`;
    // Stored after the batches sent before it (on the append worker, while the run has
    // one): never a snapshot ahead of the log, and the run does not wait for it.
    this.log.writeEngineSnapshot({
      saveId: this.saveId,
      seq: last.seq,
      format: this.format,
      text,
      keep: this.cadence.kept,
    });
  }
}
