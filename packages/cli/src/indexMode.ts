/**
 * The vector index mode a run uses: `index.mode` in `hearsay.config` (the same file the
 * brain reads; `--config` or ./hearsay.config when present), overridden by
 * `HEARSAY_INDEX_MODE`. `embedded` (default) keeps vectors and HNSW graphs beside the
 * database; `disabled` searches by keywords and filters only. A bad value is one line
 * naming where it came from, the field and the fix.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { IndexMode } from "@hearsay/retrieval";
import { Effect } from "effect";
import { CliFailure } from "./attempt.ts";

const MODES: ReadonlyArray<IndexMode> = ["embedded", "disabled"];

const bad = (source: string, value: unknown) =>
  new CliFailure({
    message: `${source}: index.mode: ${JSON.stringify(value)} is not an index mode. Fix: use "embedded" or "disabled"`,
  });

export const loadIndexMode = (opts: {
  readonly configPath: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
}): Effect.Effect<IndexMode, CliFailure> =>
  Effect.suspend(() => {
    const env = opts.env ?? process.env;
    const fromEnv = env.HEARSAY_INDEX_MODE;
    if (fromEnv !== undefined && fromEnv !== "") {
      return MODES.includes(fromEnv as IndexMode)
        ? Effect.succeed(fromEnv as IndexMode)
        : Effect.fail(bad("HEARSAY_INDEX_MODE", fromEnv));
    }
    const path = opts.configPath ?? resolve(opts.cwd ?? process.cwd(), "hearsay.config");
    // A missing or unreadable file is the brain config's to report; here it means defaults.
    if (!existsSync(path)) return Effect.succeed("embedded" as IndexMode);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, "utf8"));
    } catch {
      return Effect.succeed("embedded" as IndexMode);
    }
    const index = (parsed as { index?: unknown } | null)?.index;
    if (index === undefined) return Effect.succeed("embedded" as IndexMode);
    const mode = (index as { mode?: unknown } | null)?.mode;
    if (typeof index !== "object" || index === null || Array.isArray(index)) {
      return Effect.fail(
        new CliFailure({
          message: `${path}: index: not an object. Fix: write "index": { "mode": "embedded" }`,
        }),
      );
    }
    if (mode === undefined) return Effect.succeed("embedded" as IndexMode);
    return MODES.includes(mode as IndexMode)
      ? Effect.succeed(mode as IndexMode)
      : Effect.fail(bad(path, mode));
  });
