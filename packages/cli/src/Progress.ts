/**
 * Progress for long work: a live bar on a terminal (cli-progress), or a plain line every
 * few percent when output is a file or a CI log. The CLI owns the wall clock; the engine
 * only reports game time and counts.
 */
import cliProgress from "cli-progress";

export interface ProgressSink {
  update(done: number, info: Readonly<Record<string, string | number>>): void;
  stop(): void;
}

/** A bar over `total` units whose payload fields fill `format`. */
export const progressBar = (total: number, format: string, quiet = false): ProgressSink => {
  if (quiet) return { update: () => {}, stop: () => {} };
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format, stream: process.stderr, hideCursor: true, etaBuffer: 50, fps: 10 },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, {});
    return {
      update: (done, info) => bar.update(done, info),
      stop: () => bar.stop(),
    };
  }
  let lastShown = -1;
  return {
    update: (done, info) => {
      const pct = total === 0 ? 100 : Math.floor((done / total) * 100);
      if (pct >= lastShown + 10 || (done >= total && lastShown < 100)) {
        lastShown = pct;
        const fields = Object.entries(info)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ");
        process.stderr.write(`  ${pct}% (${fields})\n`);
      }
    },
    stop: () => {},
  };
};
