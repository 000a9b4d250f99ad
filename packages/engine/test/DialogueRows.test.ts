/**
 * A run's dossiers read their dialogue from the retrieval view, not from
 * `conversation_turns`: in a scripted run with real dossiers no dossier reads a turn's row
 * (a read of the read models would wait for the store's append), and the rows the view
 * keeps are the table's after every append.
 */
import { retrievalDossiers } from "@hearsay/engine";
import { DossierSource, makeHashingEmbedder, RetrievalEngine } from "@hearsay/retrieval";
import { describe, expect, it, vi } from "vitest";
import { freshLog, MAIN, ofType, run } from "./harness.ts";

describe("a run's dialogue rows", () => {
  it("are kept by the view, equal to the table's, and never read by a dossier", async () => {
    const log = freshLog();
    const reads = vi.spyOn(DossierSource.prototype, "turn");
    const rows = log.db.prepare(
      "SELECT conversation_id, turn_index, speaker_id, text, t FROM conversation_turns WHERE rowid = ?",
    );
    const mirror = new RetrievalEngine(log.db, { log, embedder: makeHashingEmbedder() });
    let dossiers = 0;
    let compared = 0;
    await run(log, {
      days: 12,
      dossiers: (l, saveId) => {
        const inner = retrievalDossiers(l, saveId);
        return {
          ...inner,
          deferred: (ask) => {
            dossiers += 1;
            return inner.deferred!(ask);
          },
        };
      },
      onAppend: (appended) => {
        const view = mirror.view(MAIN, appended);
        log.caughtUp(MAIN);
        for (const list of view.turns.values())
          for (let i = 0; i < list.length; i++) {
            const row = list.row(i);
            if (row === undefined) continue;
            expect(row).toEqual(rows.get(list.rowid(i)));
            compared += 1;
          }
      },
    });
    const turns = ofType(log, "ConversationTurn").length;
    expect(turns).toBeGreaterThan(40);
    expect(dossiers).toBeGreaterThan(30);
    expect(compared).toBeGreaterThan(turns);
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
  });
});
