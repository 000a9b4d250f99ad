/**
 * Timing for benchmarks: run a piece of work several times (after a warm-up) and keep
 * every sample, so a result reports its median and spread rather than one lucky number.
 */

/**
 * Samples of one measurement, in milliseconds: wall time, and this process's CPU time
 * (user + system), which other processes on a busy machine disturb far less.
 */
export interface Timing {
  readonly samplesMs: ReadonlyArray<number>;
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  readonly cpuSamplesMs: ReadonlyArray<number>;
  readonly cpuMedianMs: number;
}

const median = (xs: ReadonlyArray<number>): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/** Summarises wall and CPU samples. */
export const summarise = (
  samplesMs: ReadonlyArray<number>,
  cpuSamplesMs: ReadonlyArray<number> = [],
): Timing => ({
  samplesMs,
  medianMs: median(samplesMs),
  minMs: Math.min(...samplesMs),
  maxMs: Math.max(...samplesMs),
  cpuSamplesMs,
  cpuMedianMs: cpuSamplesMs.length > 0 ? median(cpuSamplesMs) : 0,
});

/**
 * Times `work` `repeat` times after `warmup` untimed runs. `setup` runs before each run
 * (timed or not) and is not timed; its result is passed to `work`.
 */
export const measure = <S>(
  opts: { readonly repeat?: number; readonly warmup?: number; readonly setup: () => S },
  work: (state: S) => void,
): Timing => {
  const samples: Array<number> = [];
  const cpuSamples: Array<number> = [];
  const repeat = opts.repeat ?? 3;
  for (let i = 0; i < (opts.warmup ?? 0) + repeat; i++) {
    const state = opts.setup();
    const cpu = process.cpuUsage();
    const start = performance.now();
    work(state);
    const ms = performance.now() - start;
    const used = process.cpuUsage(cpu);
    if (i >= (opts.warmup ?? 0)) {
      samples.push(ms);
      cpuSamples.push((used.user + used.system) / 1000);
    }
  }
  return summarise(samples, cpuSamples);
};

/** Items per second for `count` items done in `ms` milliseconds. */
export const perSecond = (count: number, ms: number): number =>
  ms > 0 ? Math.round((count / ms) * 1000) : 0;
