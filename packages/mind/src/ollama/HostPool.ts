/**
 * Chat calls spread over several model servers. Each host runs at most its own
 * `concurrency` calls; a call waits in a lane (one per NPC, or per purpose), lanes served
 * round-robin and FIFO within a lane, and is granted the host serving
 * its model that has the most free slots. A host whose call fails as a host fails —
 * refused, dropped, an HTTP 5xx, a timeout — is drained: while another host serving the
 * model is up it gets no new calls until its backoff (doubling per failure in a row,
 * capped) has passed, and then is tried again. The failed call is sent again to a host
 * it has not tried; when every host has failed it, it fails with the last host's own
 * error, for the fallback chain to take. With every host drained, calls still try them
 * (as a call to a lone server always does), so one host behaves as before.
 *
 * Which host answered never reaches the log: the engine fixes every request before any
 * answer arrives and commits in request order, so a run's log is the same over one host
 * or four. Time here is wall time (the client layer may read clocks); it decides only
 * when a drained host is tried again, and is injectable for tests.
 */
import { Effect, Result } from "effect";
import { ModelNotFound } from "../BrainError.ts";
import { type ModelHost, servesModel } from "./modelHosts.ts";

export interface HostPoolOptions {
  /** Milliseconds now (default performance.now). */
  readonly now?: () => number;
  /** The first backoff of a failed host (default 2,000 ms); it doubles per failure in a row. */
  readonly backoffMs?: number;
  /** The longest backoff (default 120,000 ms). */
  readonly maxBackoffMs?: number;
}

/** One host's state, as `stats()` shows it. */
export interface HostState {
  readonly url: string;
  readonly concurrency: number;
  running: number;
  /** Failures in a row; 0 when healthy. */
  failures: number;
  /** Until when (pool time) it gets no calls. */
  drainedUntil: number;
  /** Calls it answered, and calls that failed on it. */
  served: number;
  failed: number;
}

export interface HostPoolStats {
  readonly running: number;
  readonly waiting: number;
  readonly hosts: ReadonlyArray<Readonly<HostState>>;
}

/** A waiting call. */
export interface HostTicket {
  readonly lane: string;
  readonly model: string;
  /** Hosts this call already failed on. */
  readonly tried: ReadonlySet<number>;
  readonly grant: (host: number) => void;
  readonly refuse: (reason: string) => void;
  done: boolean;
  /** The host granted, once it is. */
  granted: number | null;
}

export class HostPool {
  private readonly state: Array<HostState>;
  private readonly lanes = new Map<string, Array<HostTicket>>();
  private readonly ring: Array<string> = [];
  private waitingCount = 0;
  private readonly now: () => number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;

  private constructor(
    readonly hosts: ReadonlyArray<ModelHost>,
    options: HostPoolOptions,
  ) {
    this.state = hosts.map((h) => ({
      url: h.url,
      concurrency: h.concurrency,
      running: 0,
      failures: 0,
      drainedUntil: Number.NEGATIVE_INFINITY,
      served: 0,
      failed: 0,
    }));
    this.now = options.now ?? (() => performance.now());
    this.backoffMs = options.backoffMs ?? 2_000;
    this.maxBackoffMs = options.maxBackoffMs ?? 120_000;
  }

  static make(hosts: ReadonlyArray<ModelHost>, options: HostPoolOptions = {}): HostPool {
    if (hosts.length === 0) throw new RangeError("HostPool: give at least one host");
    for (const h of hosts)
      if (!Number.isInteger(h.concurrency) || h.concurrency < 1)
        throw new RangeError(`HostPool: ${h.url}: concurrency must be a whole number ≥ 1`);
    return new HostPool(hosts, options);
  }

  /** Slots over all hosts, drained or not. */
  get capacity(): number {
    return this.hosts.reduce((a, h) => a + h.concurrency, 0);
  }

  stats(): HostPoolStats {
    return {
      running: this.state.reduce((a, h) => a + h.running, 0),
      waiting: this.waitingCount,
      hosts: this.state.map((h) => ({ ...h })),
    };
  }

  /** Whether every host is drained now (none has answered since it last failed). */
  allDrained(): boolean {
    const now = this.now();
    return this.state.every((h) => now < h.drainedUntil);
  }

  /** Asks for a host for `model`; `grant` or `refuse` is called (maybe at once). */
  enqueue(
    lane: string,
    model: string,
    tried: ReadonlySet<number>,
    grant: (host: number) => void,
    refuse: (reason: string) => void,
  ): HostTicket {
    const ticket: HostTicket = { lane, model, tried, grant, refuse, done: false, granted: null };
    const queue = this.lanes.get(lane);
    if (queue === undefined) {
      this.lanes.set(lane, [ticket]);
      this.ring.push(lane);
    } else queue.push(ticket);
    this.waitingCount++;
    this.pump();
    return ticket;
  }

  /** Withdraws a waiting ticket; false if it was already granted or refused. */
  cancel(ticket: HostTicket): boolean {
    if (ticket.done) return false;
    ticket.done = true;
    this.remove(ticket);
    return true;
  }

  /** Gives back a granted slot: `failed` drains the host. */
  release(host: number, failed: boolean): void {
    const h = this.state[host];
    if (h === undefined || h.running === 0)
      throw new Error(`HostPool.release: nothing is running on host ${host}`);
    h.running--;
    if (failed) {
      h.failed++;
      // Calls already on a host when it died fail together: one failure, not many.
      if (this.now() >= h.drainedUntil) {
        h.failures++;
        h.drainedUntil =
          this.now() + Math.min(this.maxBackoffMs, this.backoffMs * 2 ** (h.failures - 1));
      }
    } else {
      h.served++;
      h.failures = 0;
      h.drainedUntil = Number.NEGATIVE_INFINITY;
    }
    this.pump();
  }

  /**
   * Runs `job` on a host serving `model`. When it fails as a host fails
   * (`hostFailed`), the host is drained and the call goes to another host it has not
   * tried; when every host serving it has failed it, the last failure is the call's. A
   * model no host serves is `ModelNotFound`.
   */
  run<A, E>(
    lane: string,
    model: string,
    job: (host: ModelHost) => Effect.Effect<A, E>,
    hostFailed: (error: E) => boolean,
  ): Effect.Effect<A, E | ModelNotFound> {
    const attempt = (
      tried: ReadonlySet<number>,
      last: E | null,
    ): Effect.Effect<A, E | ModelNotFound> =>
      Effect.flatMap(
        Effect.uninterruptibleMask((restore) =>
          Effect.flatMap(restore(this.acquire(lane, model, tried)), (host) =>
            Effect.flatMap(
              Effect.result(restore(Effect.suspend(() => job(this.hosts[host]!)))),
              (result) =>
                Effect.sync(() => {
                  const failedHost = Result.isFailure(result) && hostFailed(result.failure);
                  this.release(host, failedHost);
                  return { host, result, failedHost };
                }),
            ).pipe(
              // Interrupted while running: the slot is given back, the host not blamed.
              Effect.onInterrupt(() => Effect.sync(() => this.release(host, false))),
            ),
          ),
        ).pipe(Effect.result),
        (outcome): Effect.Effect<A, E | ModelNotFound> => {
          if (Result.isFailure(outcome))
            return last === null ? Effect.fail(outcome.failure) : Effect.fail(last);
          const { host, result, failedHost } = outcome.success;
          if (Result.isSuccess(result)) return Effect.succeed(result.success);
          if (!failedHost) return Effect.fail(result.failure);
          return attempt(new Set([...tried, host]), result.failure);
        },
      );
    return attempt(new Set(), null);
  }

  private acquire(
    lane: string,
    model: string,
    tried: ReadonlySet<number>,
  ): Effect.Effect<number, ModelNotFound> {
    return Effect.callback<number, ModelNotFound>((resume) => {
      const ticket = this.enqueue(
        lane,
        model,
        tried,
        (host) => resume(Effect.succeed(host)),
        (reason) => resume(Effect.fail(new ModelNotFound({ model, reason }))),
      );
      // Interrupted while waiting: leave the queue, or give back a slot granted meanwhile.
      return Effect.sync(() => {
        if (!this.cancel(ticket) && ticket.granted !== null) this.release(ticket.granted, false);
      });
    });
  }

  /**
   * Hosts a ticket may use: serving its model and untried — the ones up if any are,
   * else the drained ones (with nowhere else to go, a call still tries them, as a call
   * to a lone server does).
   */
  private eligible(ticket: HostTicket): Array<number> {
    const now = this.now();
    const up: Array<number> = [];
    const drained: Array<number> = [];
    for (const [i, host] of this.hosts.entries()) {
      if (!servesModel(host, ticket.model) || ticket.tried.has(i)) continue;
      (now >= this.state[i]!.drainedUntil ? up : drained).push(i);
    }
    return up.length > 0 ? up : drained;
  }

  private free(host: number): number {
    const h = this.state[host]!;
    return h.concurrency - h.running;
  }

  private refusal(ticket: HostTicket): string {
    return ticket.tried.size === 0
      ? `no configured host serves ${ticket.model} (see ollama.hosts[].models)`
      : `every host serving ${ticket.model} failed`;
  }

  private remove(ticket: HostTicket): void {
    const queue = this.lanes.get(ticket.lane);
    if (queue === undefined) return;
    const i = queue.indexOf(ticket);
    if (i < 0) return;
    queue.splice(i, 1);
    this.waitingCount--;
    if (queue.length === 0) {
      this.lanes.delete(ticket.lane);
      const r = this.ring.indexOf(ticket.lane);
      if (r >= 0) this.ring.splice(r, 1);
    }
  }

  /**
   * Serves lanes in ring order: a lane's first call that a host can take now gets the
   * eligible host with the most free slots (the first such on a tie) and its lane goes to
   * the back. Within a lane calls keep their order, except that one waiting for a full
   * host does not hold back one behind it that another host could take (no slot idles
   * while a call could use it); a call no untried host serves is refused at once,
   * wherever it waits.
   */
  private pump(): void {
    let i = 0;
    while (i < this.ring.length) {
      const lane = this.ring[i]!;
      let acted = false;
      for (const ticket of this.lanes.get(lane)!) {
        const hosts = this.eligible(ticket);
        if (hosts.length === 0) {
          ticket.done = true;
          this.remove(ticket);
          ticket.refuse(this.refusal(ticket));
          acted = true;
          break;
        }
        let best = -1;
        for (const h of hosts)
          if (this.free(h) > 0 && (best < 0 || this.free(h) > this.free(best))) best = h;
        if (best < 0) continue;
        ticket.done = true;
        this.remove(ticket);
        if (this.lanes.has(lane)) {
          this.ring.splice(this.ring.indexOf(lane), 1);
          this.ring.push(lane);
        }
        this.state[best]!.running++;
        ticket.granted = best;
        ticket.grant(best);
        acted = true;
        break;
      }
      // A grant or a refusal may have changed every lane (its callback may enqueue).
      i = acted ? 0 : i + 1;
    }
  }
}
