/**
 * `hearsay index rebuild --db PATH [--collection C]` rebuilds the vector index beside a
 * database from its SQLite rows (vectors, and HNSW graphs for the collections a run
 * keeps them for: world events, lore, debates), with a progress bar — the
 * index is a cache, so this is always safe, and it works with the index files deleted.
 * `hearsay index status --db PATH [--json]` shows, per collection, what the saved index
 * holds (count, dimensions, embedder and model, graph segments, bytes) and whether it is
 * stale against SQLite, changing nothing.
 */
import { existsSync } from "node:fs";
import { runGraphCollections } from "@hearsay/engine";
import { openReadOnly } from "@hearsay/inspector";
import {
  type CollectionName,
  collectionNames,
  indexStatus,
  makeHashingEmbedder,
  VectorIndexes,
} from "@hearsay/retrieval";
import { openForWriting } from "@hearsay/store";
import { Console, Effect, Option } from "effect";
import { Command, Flag } from "effect/cli";
import { attempt, CliFailure } from "../attempt.ts";
import { type ProgressSink, progressBar } from "../Progress.ts";
import { dbFlag } from "../saveFlags.ts";

const collectionFlag = Flag.Literals("collection", collectionNames).pipe(
  Flag.withDescription(`Only this collection (${collectionNames.join(", ")}; default: all)`),
  Flag.optional,
);

const needDb = (path: string) =>
  existsSync(path)
    ? Effect.void
    : Effect.fail(
        new CliFailure({
          message: `${path}: no such database. Fix: give --db the file a run wrote (hearsay run --db ${path})`,
        }),
      );

const wantedOf = (c: Option.Option<CollectionName>): ReadonlyArray<CollectionName> =>
  Option.isSome(c) ? [c.value] : collectionNames;

const rebuildCommand = Command.make(
  "rebuild",
  {
    db: dbFlag("SQLite database whose index to rebuild"),
    collection: collectionFlag,
    quiet: Flag.Boolean("quiet").pipe(
      Flag.withDescription("No progress output"),
      Flag.withDefault(false),
    ),
  },
  Effect.fn(function* (args) {
    yield* needDb(args.db);
    // The writer lock: a rebuild rewrites the index files a running run writes too.
    const db = yield* attempt(() => openForWriting(args.db, { mode: "existing" }));
    const embedder = makeHashingEmbedder();
    let bar: ProgressSink | null = null;
    let stage = "";
    const began = performance.now();
    const { reports } = yield* VectorIndexes.rebuild(db, embedder, {
      dbPath: args.db,
      collections: wantedOf(args.collection),
      // The graphs a run keeps, so the rebuilt index is the one the next run loads.
      graphCollections: runGraphCollections,
      onProgress: (p) => {
        const now = `${p.collection} ${p.phase}`;
        if (now !== stage) {
          bar?.stop();
          stage = now;
          bar = progressBar(p.total, `${now} {bar} {value}/{total}`, args.quiet);
        }
        bar?.update(p.done, { step: now });
      },
    }).pipe(
      Effect.ensuring(
        Effect.sync(() => {
          (bar as ProgressSink | null)?.stop();
          db.close();
        }),
      ),
    );
    const secs = ((performance.now() - began) / 1000).toFixed(1);
    for (const r of reports) {
      yield* Console.log(
        `${r.collection}: ${r.count} vectors${r.graph ? ", HNSW graph" : ""}${r.onDemand ? ", the rest embedded when searched" : ""} (${r.reason})`,
      );
    }
    yield* Console.log(`rebuilt in ${secs} s with ${embedder.model}`);
  }),
).pipe(Command.withDescription("Rebuild the vector index beside a database from its rows"));

const statusCommand = Command.make(
  "status",
  {
    db: dbFlag("SQLite database whose index to inspect (read-only)"),
    collection: collectionFlag,
    json: Flag.Boolean("json").pipe(
      Flag.withDescription("Print the status as JSON"),
      Flag.withDefault(false),
    ),
  },
  Effect.fn(function* (args) {
    yield* needDb(args.db);
    const db = yield* attempt(() => openReadOnly(args.db));
    const embedder = makeHashingEmbedder();
    const status = yield* attempt(() =>
      indexStatus(db, args.db, embedder, wantedOf(args.collection)),
    ).pipe(Effect.ensuring(Effect.sync(() => db.close())));
    if (args.json) {
      yield* Console.log(JSON.stringify(status, null, 2));
      return;
    }
    for (const s of status) {
      const graph =
        s.graph.segments === 0
          ? "no graph"
          : `graph ${s.graph.segments} segment${s.graph.segments === 1 ? "" : "s"} over ${s.graph.rows} rows${s.graph.intact ? "" : " (damaged)"}`;
      yield* Console.log(
        `${s.collection}: ${s.count}/${s.rows} rows${s.onDemand ? " (the rest embedded when searched)" : ""}, ${s.dimensions ?? "?"}-d, model ${s.model ?? "none"} (embedder ${s.embedder}), ${graph}, ${s.bytes} bytes, ${s.stale ? `stale: ${s.reason}` : "up to date"}`,
      );
    }
  }),
).pipe(Command.withDescription("Show what the saved vector index holds and whether it is stale"));

export const indexCommand = Command.make("index").pipe(
  Command.withDescription("The vector index beside a database: rebuild it or show its status"),
  Command.withSubcommands([rebuildCommand, statusCommand]),
);
