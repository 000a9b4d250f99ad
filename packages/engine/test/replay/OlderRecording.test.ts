/**
 * A recording made before agendas, stable dossier rules and profile revisions by
 * significance (test/fixtures/recorded/hamlet-v15: the hamlet fixture as it was
 * committed before them) still refolds, exports and re-runs from its recordings alone:
 * its start names no dossier rules, so its dossiers are built as they were; its answers
 * plan no agendas, so no step is taken that it did not record; and `replay --verify`
 * reports, as its first divergence, the one behaviour that changed on the way — the
 * profile revision the newer rule no longer makes — rather than failing to read it.
 */
import { readFileSync } from "node:fs";
import { exportJsonl, recordedDossierRules, refoldLog, verifyLog } from "@hearsay/engine";
import { describe, expect, it } from "vitest";
import { hamlet, loadJsonl, MAIN, parseJsonl } from "./fixtures.ts";
import { upcastWithOldVersions } from "./oldVersions.ts";

const OLD_LOG = new URL("../../../../test/fixtures/recorded/hamlet-v15/log.jsonl", import.meta.url);

describe("a recording made before agendas and stable dossiers", () => {
  const text = readFileSync(OLD_LOG, "utf8");
  const lines = parseJsonl(text);
  const log = loadJsonl(text);

  it("refolds with every checkpoint matching", () => {
    const report = refoldLog({ log, saveId: MAIN, upcast: upcastWithOldVersions });
    expect(report.mismatch).toBeNull();
    expect(report.folded).toBe(lines.length);
  });

  it("exports every event", () => {
    const out = parseJsonl(
      [...exportJsonl({ log, saveId: MAIN, upcast: upcastWithOldVersions })].join(""),
    );
    expect(out.map((l) => l.seq)).toEqual(lines.map((l) => l.seq));
  });

  it("is read by the dossier rules it was recorded under", () => {
    expect(recordedDossierRules(log, MAIN)).toBe("moment");
  });

  it("re-runs from its recordings alone up to the first profile revision the newer rule does not ask for", async () => {
    const report = await verifyLog({
      log,
      saveId: MAIN,
      simulation: hamlet(),
      upcast: upcastWithOldVersions,
    });
    // The revision's call comes first: the re-run does not ask it.
    const firstRevision = lines.find(
      (l) =>
        l.type === "LlmCallRecorded" &&
        (l.payload as { purpose?: string }).purpose === "revise_profile",
    );
    expect(firstRevision).toBeDefined();
    expect(report.ok).toBe(false);
    expect(report.divergence?.seq).toBe(firstRevision!.seq);
  });
});
