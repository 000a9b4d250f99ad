/**
 * Bounded concurrency with a fair queue. At most `limit` jobs run at once — set it to
 * the model server's parallel slots, so the server stays busy without being flooded.
 * Waiting jobs sit in lanes (one per NPC, or per purpose) served round-robin, FIFO
 * within a lane, so one chatty lane cannot starve the others. The scheduler is plain
 * state (model-tested); `run` puts an Effect through it, releasing its slot however
 * the Effect ends, and leaving the queue if interrupted while waiting.
 */
import { Effect } from "effect";

/** A place in the queue, from `enqueue`. */
export interface FairQueueTicket {
  readonly lane: string;
  readonly start: () => void;
  granted: boolean;
  cancelled: boolean;
}

export interface FairQueueStats {
  readonly running: number;
  readonly waiting: number;
  readonly lanes: number;
}

export class FairQueue {
  private running = 0;
  private waitingCount = 0;
  private readonly lanes = new Map<string, Array<FairQueueTicket>>();
  /** Lanes with waiters, in service order; the head is served next. */
  private readonly ring: Array<string> = [];

  private constructor(readonly limit: number) {}

  /** A queue running at most `limit` (≥ 1) jobs at once. */
  static make(limit: number): FairQueue {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`FairQueue: limit must be a whole number ≥ 1, got ${limit}`);
    return new FairQueue(limit);
  }

  /** Asks for a slot in `lane`; `start` is called (maybe at once) when it is granted. */
  enqueue(lane: string, start: () => void): FairQueueTicket {
    const ticket: FairQueueTicket = { lane, start, granted: false, cancelled: false };
    const queue = this.lanes.get(lane);
    if (queue === undefined) {
      this.lanes.set(lane, [ticket]);
      this.ring.push(lane);
    } else queue.push(ticket);
    this.waitingCount++;
    this.pump();
    return ticket;
  }

  /** Withdraws a waiting ticket; false if it was already granted (release it instead). */
  cancel(ticket: FairQueueTicket): boolean {
    if (ticket.granted) return false;
    if (ticket.cancelled) return true;
    ticket.cancelled = true;
    const queue = this.lanes.get(ticket.lane);
    if (queue !== undefined) {
      const i = queue.indexOf(ticket);
      if (i >= 0) {
        queue.splice(i, 1);
        this.waitingCount--;
      }
      if (queue.length === 0) this.dropLane(ticket.lane);
    }
    return true;
  }

  /** Gives back a granted slot. */
  release(): void {
    if (this.running === 0) throw new Error("FairQueue.release: nothing is running");
    this.running--;
    this.pump();
  }

  stats(): FairQueueStats {
    return { running: this.running, waiting: this.waitingCount, lanes: this.ring.length };
  }

  /** Runs `effect` when a slot in `lane` is free; the slot is released however it ends. */
  run<A, E, R>(lane: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
    const wait = Effect.callback<void>((resume) => {
      const ticket = this.enqueue(lane, () => resume(Effect.void));
      return Effect.sync(() => {
        if (!this.cancel(ticket)) this.release();
      });
    });
    return Effect.uninterruptibleMask((restore) =>
      Effect.flatMap(restore(wait), () =>
        restore(effect).pipe(Effect.ensuring(Effect.sync(() => this.release()))),
      ),
    );
  }

  /** `run` for a promise-returning job. */
  runPromise<A>(lane: string, job: () => Promise<A>): Promise<A> {
    return new Promise<A>((resolve, reject) => {
      this.enqueue(lane, () => {
        Promise.resolve()
          .then(job)
          .then(
            (a) => {
              this.release();
              resolve(a);
            },
            (e: unknown) => {
              this.release();
              reject(e);
            },
          );
      });
    });
  }

  private dropLane(lane: string): void {
    this.lanes.delete(lane);
    const i = this.ring.indexOf(lane);
    if (i >= 0) this.ring.splice(i, 1);
  }

  private pump(): void {
    while (this.running < this.limit && this.ring.length > 0) {
      const lane = this.ring.shift() as string;
      const queue = this.lanes.get(lane) as Array<FairQueueTicket>;
      const ticket = queue.shift() as FairQueueTicket;
      this.waitingCount--;
      if (queue.length === 0) this.lanes.delete(lane);
      else this.ring.push(lane);
      ticket.granted = true;
      this.running++;
      ticket.start();
    }
  }
}
