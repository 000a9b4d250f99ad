/**
 * What `hearsay dossier` prints while it works, as a log file shows it: nothing for a
 * short history, and for a long one each stage as it begins — the refold with its
 * percentage, the folding after the scan, the vector index, the view — and nothing at all
 * with `--quiet`.
 */
import { describe, expect, it } from "vitest";
import { dossierProgress } from "../src/dossierProgress.ts";
import { LONG_HISTORY_EVENTS } from "../src/Progress.ts";

/** A stand-in for standard error when it is not a terminal: the lines written. */
const lines = () => {
  const written: Array<string> = [];
  return { out: { isTTY: false, write: (s: string) => written.push(s) }, written };
};

/** What a dossier reports of a history of `last` events, its index `rows` rows. */
const report = (quiet: boolean, last: number, rows: number): Array<string> => {
  const { out, written } = lines();
  const shown = dossierProgress(quiet, out);
  for (let seq = 0; seq <= last; seq += Math.ceil(last / 20)) shown.callbacks.onRefold?.(seq, last);
  shown.callbacks.onRefold?.(last, last);
  for (let done = 0; done <= rows; done += Math.ceil(rows / 4))
    shown.callbacks.onIndex?.({ collection: "memories", phase: "embed", done, total: rows });
  shown.callbacks.onView?.(last);
  shown.stop();
  return written;
};

describe("hearsay dossier's progress", () => {
  it("says nothing of a short history, even with a large index", () => {
    expect(report(false, LONG_HISTORY_EVENTS - 1, 50_000)).toEqual([]);
  });

  it("says each stage of a long history as it begins", () => {
    const written = report(false, 2_000_000, 50_000);
    const at = (text: string) => written.findIndex((l) => l.includes(text));
    expect(written[0]).toBe("  refolding 2000000 events: the world as it stood then\n");
    expect(written).toContain("  100% (seq 2000000, last 2000000)\n");
    expect(at("folding the read models")).toBeGreaterThan(at("100% (seq"));
    expect(at("step index memories embed")).toBeGreaterThan(at("folding the read models"));
    expect(written.at(-1)).toBe("  loading what every NPC knew through seq 2000000\n");
    // Each stage is said once: the refold's note and its last line are not said again.
    expect(written.filter((l) => l.includes("refolding")).length).toBe(1);
    expect(written.filter((l) => l.includes("folding the read models")).length).toBe(1);
  });

  it("says nothing with --quiet", () => {
    expect(report(true, 2_000_000, 50_000)).toEqual([]);
  });
});
