/**
 * `hearsay serve --db PATH [--port N] [--host H] [--token T] [--allow-host NAMES]`: the
 * local HTTP/JSON service a game mod talks to (see ../serve/startServe.ts and
 * /openapi.json). It listens on loopback unless told otherwise — beyond it only with a
 * non-blank token — and runs until interrupted; every write it makes is an event in the
 * database's log, as `hearsay run` and `chat` make them.
 */
import { ids } from "@hearsay/core";
import { Console, Effect, Option, Schema } from "effect";
import { Command, Flag } from "effect/cli";
import { CliFailure } from "../attempt.ts";
import { brainFlags } from "../brainFlags.ts";
import { onDatabase } from "../onDatabase.ts";
import { LONG_HISTORY_EVENTS, progressNote } from "../Progress.ts";
import { brainFor, openLog, simulationOf, talkWorldOf } from "../serve/openTalkWorld.ts";
import { serveRefusal, startServe, tokenOf } from "../serve/startServe.ts";

const Port = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 65_535 }));
const Bytes = Schema.Int.check(Schema.isBetween({ minimum: 256, maximum: 64 * 1024 * 1024 }));

export const serveCommand = Command.make(
  "serve",
  {
    db: Flag.String("db").pipe(Flag.withDescription("SQLite database file of a world")),
    port: Flag.Int("port").pipe(
      Flag.withSchema(Port),
      Flag.withDescription("Port (default 7341; 0 picks a free one)"),
      Flag.withDefault(7341),
    ),
    host: Flag.String("host").pipe(
      Flag.withDescription("Interface to listen on (default loopback)"),
      Flag.withDefault("127.0.0.1"),
    ),
    token: Flag.String("token").pipe(
      Flag.withDescription(
        "Require `Authorization: Bearer <token>` (default: $HEARSAY_TOKEN if set)",
      ),
      Flag.optional,
    ),
    allowHost: Flag.String("allow-host").pipe(
      Flag.withDescription(
        "Host names to answer besides the bound address, comma-separated (e.g. a LAN name of this machine)",
      ),
      Flag.withDefault(""),
    ),
    maxBody: Flag.Int("max-body").pipe(
      Flag.withSchema(Bytes),
      Flag.withDescription("Largest body accepted, in bytes (default 65536)"),
      Flag.withDefault(65_536),
    ),
    ...brainFlags,
    simulation: Flag.String("simulation").pipe(
      Flag.withDescription(
        "World folder the saves were started from (default: the one each log names)",
      ),
      Flag.optional,
    ),
    digestEvery: Flag.Int("digest-every").pipe(
      Flag.withSchema(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))),
      Flag.withDescription("Digest a talk every N player turns (default 4; always at its end)"),
      Flag.withDefault(4),
    ),
  },
  Effect.fn(
    function* (args) {
      // Blank is no token; refused before the database is touched.
      const token = tokenOf(Option.getOrUndefined(args.token) ?? process.env.HEARSAY_TOKEN);
      const allowHosts = args.allowHost
        .split(",")
        .map((h) => h.trim())
        .filter((h) => h !== "");
      const refusal = serveRefusal({ host: args.host, token, allowHosts });
      if (refusal !== null) return yield* Effect.fail(new CliFailure({ message: refusal }));
      const log = yield* openLog(args.db);
      const brain = yield* brainFor({
        brain: args.brain,
        model: Option.getOrUndefined(args.model),
        configPath: Option.getOrUndefined(args.config),
        quiet: true,
      });
      const simulation = Option.getOrUndefined(args.simulation);
      const server = yield* Effect.tryPromise({
        try: () =>
          startServe({
            log,
            host: args.host,
            port: args.port,
            token,
            allowHosts,
            maxBodyBytes: args.maxBody,
            open: (save) => {
              const saveId = ids.save(save);
              const sim = Effect.runSync(simulationOf(log, saveId, simulation));
              const world = Effect.runSync(
                talkWorldOf(log, saveId, sim, brain, Option.getOrUndefined(args.config), {
                  digestEvery: args.digestEvery,
                }),
              );
              // As chat does: a long run's view of what every NPC knows is read once, when
              // the save is first asked for, and said (that request waits for it).
              if (world.head >= LONG_HISTORY_EVENTS) {
                progressNote(
                  `save "${save}": reading what every NPC knows from ${world.head} events, once`,
                );
                world.dossiers.refresh?.();
              }
              return world;
            },
          }),
        catch: (e) =>
          new CliFailure({
            message: `cannot listen on ${args.host}:${args.port}: ${(e as Error).message}`,
          }),
      });
      yield* Console.log(
        `hearsay serve: listening on ${server.url} (${args.db}${token === null ? "" : ", token required"}); API at ${server.url}/openapi.json; Ctrl-C stops`,
      );
      yield* Effect.callback<void>((resume) => {
        const stop = () => resume(Effect.void);
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
      yield* Effect.tryPromise({
        try: () => server.close(),
        catch: (e) =>
          new CliFailure({
            message: `${args.db}: while stopping, ${(e as Error).message} (the next open checks the index row by row)`,
          }),
      }).pipe(Effect.ensuring(Effect.sync(() => log.db.close())));
    },
    (effect, args) => onDatabase(args.db)(effect),
  ),
).pipe(Command.withDescription("Serve a world to a game over local HTTP/JSON"));
