/**
 * Whether to ready a call (render its prompt, build its dossier, hash it) while it waits
 * for a model slot, or only once it holds one. Readying ahead takes that work off the
 * critical path when the model is slow — the usual case, hundreds of milliseconds per
 * answer — but on one event loop it can make an answer that arrives meanwhile wait to
 * be read; when answers come back about as fast as a call is readied, readying in the
 * slot is better. So both are timed (exponential moving averages) and a call is readied
 * ahead only while a slot is busy and the model's round trip is at least `ratio` times
 * the readying. Timing only decides when a dossier is built, never what it holds (a
 * tick's store does not change while its calls run), so this cannot change a log.
 */

/** Weight of the newest sample in the moving averages. */
const ALPHA = 0.2;

export class ReadyAhead {
  private roundTrip = 0;
  private readying = 0;

  constructor(
    /** How many times longer than readying a round trip must be (default 2). */
    readonly ratio = 2,
  ) {}

  /** Notes how long one model round trip took (ms). */
  noteRoundTrip(ms: number): void {
    this.roundTrip = this.roundTrip === 0 ? ms : this.roundTrip + ALPHA * (ms - this.roundTrip);
  }

  /** Notes how long readying one call took (ms). */
  noteReadying(ms: number): void {
    this.readying = this.readying === 0 ? ms : this.readying + ALPHA * (ms - this.readying);
  }

  /** Ready the next call now, while `busy` slots are with the model? */
  worthIt(busy: number): boolean {
    return busy > 0 && this.roundTrip > 0 && this.roundTrip >= this.ratio * this.readying;
  }
}
