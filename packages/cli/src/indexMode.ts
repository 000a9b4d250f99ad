/**
 * The vector index mode a run uses: `index.mode` in `hearsay.config` (the same file the
 * brain reads; `--config` or ./hearsay.config when present), overridden by
 * `HEARSAY_INDEX_MODE`. `embedded` (default) keeps vectors and HNSW graphs beside the
 * database; `disabled` searches by keywords and filters only. It is one of the config's
 * settings, read with the rest (so the file is checked whole, unknown keys included); a
 * bad value is one line naming where it came from, the field and the fix.
 */
import { loadMindConfig } from "@hearsay/mind";
import type { IndexMode } from "@hearsay/retrieval";
import { Effect } from "effect";
import { CliFailure } from "./attempt.ts";

export const loadIndexMode = (opts: {
  readonly configPath: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
}): Effect.Effect<IndexMode, CliFailure> =>
  loadMindConfig({
    ...(opts.configPath === undefined ? {} : { path: opts.configPath }),
    ...(opts.env === undefined ? {} : { env: opts.env }),
    ...(opts.cwd === undefined ? {} : { cwd: opts.cwd }),
  }).pipe(
    Effect.map((c) => c.indexMode),
    Effect.mapError((e) => new CliFailure({ message: e.message })),
  );
