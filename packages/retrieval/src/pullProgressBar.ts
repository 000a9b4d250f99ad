/**
 * A terminal progress bar for model pulls (cli-progress on stderr), to pass as
 * `onPullProgress`. Layers and libraries never draw on their own; the CLI opts in.
 */
import cliProgress from "cli-progress";
import type { PullProgress } from "./OllamaEmbedder.ts";

/** Returns a progress callback that draws one bar per pulled layer, and a `stop`. */
export const pullProgressBar = (
  stream: NodeJS.WritableStream = process.stderr,
): { readonly onPullProgress: (p: PullProgress) => void; readonly stop: () => void } => {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: "pulling {status} [{bar}] {percentage}% {value}/{total} bytes",
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let total = 0;
  return {
    onPullProgress: (p) => {
      if (p.total > 0 && (!started || p.total !== total)) {
        if (started) bar.stop();
        total = p.total;
        bar.start(total, p.completed, { status: p.status });
        started = true;
      } else if (started) bar.update(Math.min(p.completed || 0, total), { status: p.status });
    },
    stop: () => {
      if (started) bar.stop();
      started = false;
    },
  };
};
