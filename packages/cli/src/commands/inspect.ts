/**
 * `hearsay inspect --db PATH [--port N] [--save ID] [--host 127.0.0.1]`: serves a local,
 * read-only web page over a recorded simulation — timeline, who knows what, NPCs and
 * their dossiers, debates and conversations, cost — and prints its URL. Serves until
 * Ctrl-C. The page must be built first (`pnpm run build`); the error says so if not.
 */
import { recordedIndexMode, replayEmbedding, retrievalDossiers } from "@hearsay/engine";
import { DEFAULT_PORT, startInspector } from "@hearsay/inspector";
import { Console, Effect, Option, Schema } from "effect";
import { Command, Flag } from "effect/cli";
import { LONG_HISTORY_EVENTS, progressNote } from "../Progress.ts";

const Port = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 65_535 }));

export const inspectCommand = Command.make(
  "inspect",
  {
    db: Flag.String("db").pipe(
      Flag.withDescription("SQLite database of a recorded run"),
      Flag.withDefault("hearsay.db"),
    ),
    port: Flag.Int("port").pipe(
      Flag.withSchema(Port),
      Flag.withDescription(`Port to serve on (0: any free port)`),
      Flag.withDefault(DEFAULT_PORT),
    ),
    save: Flag.String("save").pipe(
      Flag.withDescription("Save to show first (default: main)"),
      Flag.optional,
    ),
    host: Flag.String("host").pipe(
      Flag.withDescription("Loopback address to listen on"),
      Flag.withDefault("127.0.0.1"),
    ),
  },
  Effect.fn(function* (args) {
    const saveId = Option.getOrUndefined(args.save);
    const inspector = yield* Effect.tryPromise({
      try: () =>
        startInspector({
          dbPath: args.db,
          port: args.port,
          host: args.host,
          // A save ranked by a live model is shown with its cached vectors (never the server).
          dossiers: (log, id) =>
            retrievalDossiers(log, id, {
              embedding: replayEmbedding(log, id),
              indexMode: recordedIndexMode(log, id),
            }),
          ...(saveId === undefined ? {} : { saveId }),
          // A long log takes minutes to read before the page is served: say what it does.
          onIndexing: (stage, events) => {
            if (events >= LONG_HISTORY_EVENTS) progressNote(`reading ${events} events: ${stage}`);
          },
        }),
      catch: (e) => e,
    });
    yield* Console.log(
      `inspecting ${args.db} (save ${inspector.saveId}, ${inspector.head} events, read-only)\n` +
        `open ${inspector.url} — Ctrl-C to stop`,
    );
    yield* Effect.callback<void>((resume) => {
      const stop = () => resume(Effect.void);
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    yield* Effect.promise(() => inspector.close());
  }),
).pipe(Command.withDescription("Serve a local web page over a recorded simulation"));
