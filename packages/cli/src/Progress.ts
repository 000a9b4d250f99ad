/**
 * Progress for long work: a live bar on a terminal (cli-progress), or a plain line every
 * few percent when output is a file or a CI log. The CLI owns the wall clock; the engine
 * only reports game time and counts.
 *
 * A bar never shows more than all of its work: a count past the total it was given (a
 * scan that met rows written after it was counted) raises the total to it.
 */
import cliProgress from "cli-progress";

export interface ProgressSink {
  update(done: number, info: Readonly<Record<string, string | number>>): void;
  stop(): void;
}

/** Where a bar writes: standard error, or a test's stand-in. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * From this many events a history is long: the commands that read one whole (a dossier's
 * refold, the inspector's index, an export into a file, a talk's view) say what they do.
 * Shorter ones are read in a few seconds and say nothing.
 */
export const LONG_HISTORY_EVENTS = 100_000;

/** One line saying what long work begins (none when quiet). */
export const progressNote = (
  text: string,
  quiet = false,
  out: ProgressStream = process.stderr,
): void => {
  if (!quiet) out.write(`  ${text}\n`);
};

/** A bar over `total` units whose payload fields fill `format`. */
export const progressBar = (
  total: number,
  format: string,
  quiet = false,
  out: ProgressStream = process.stderr,
): ProgressSink => {
  if (quiet) return { update: () => {}, stop: () => {} };
  let whole = Math.max(0, total);
  /** `done` as a count within the bar, raising the bar's total when it is past it. */
  const within = (done: number): number => {
    const n = Math.max(0, done);
    if (n > whole) whole = n;
    return n;
  };
  if (out.isTTY === true) {
    const bar = new cliProgress.SingleBar(
      {
        format,
        stream: out as NodeJS.WritableStream,
        hideCursor: true,
        etaBuffer: 50,
        fps: 10,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(whole, 0, {});
    return {
      update: (done, info) => {
        const before = whole;
        const n = within(done);
        if (whole !== before) bar.setTotal(whole);
        bar.update(n, info);
      },
      stop: () => bar.stop(),
    };
  }
  // The first count is shown whatever it is: long work says when it begins.
  let lastShown = -10;
  return {
    update: (done, info) => {
      const n = within(done);
      const pct = whole === 0 ? 100 : Math.floor((n / whole) * 100);
      if (pct >= lastShown + 10 || (n >= whole && lastShown < 100)) {
        lastShown = pct;
        const fields = Object.entries(info)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ");
        out.write(`  ${pct}% (${fields})\n`);
      }
    },
    stop: () => {},
  };
};
