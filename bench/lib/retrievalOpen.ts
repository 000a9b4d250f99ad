/**
 * Opens a finished retrieval bench world (written by `bench retrieval`, its index saved)
 * for the tools that study it without re-measuring it: the tier profile and the partition
 * sweep. The world's cast comes from the `.done` marker the bench wrote beside the db.
 */
import { readFileSync } from "node:fs";
import { ids, Prng } from "@hearsay/core";
import { runSearchOptions } from "@hearsay/engine";
import { makeHashingEmbedder, RetrievalEngine, VectorIndexes } from "@hearsay/retrieval";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { worldPath } from "./retrievalRun.ts";
import { makeWorld, type Npc } from "./retrievalWorld.ts";

/** The world of `n` memories, its memories index loaded, behind a retrieval engine. */
export const openBenchWorld = (n: number, exactVectors = false) => {
  const dbPath = worldPath(n);
  const built = JSON.parse(String(readFileSync(`${dbPath}.done`))) as { npcs: Array<Npc> };
  const db = openDatabase(dbPath);
  const log = new SqliteEventLog(db);
  const saveId = ids.save("bench");
  const w = makeWorld(Prng.derive(7, "names"));
  const embedder = makeHashingEmbedder();
  const { index } = Effect.runSync(VectorIndexes.open(db, embedder, { collections: ["memories"] }));
  const engine = new RetrievalEngine(db, {
    log,
    embedder,
    index,
    ...runSearchOptions,
    ...(exactVectors ? { exactVectors } : {}),
  });
  return { built, db, log, saveId, w, embedder, index, engine };
};
