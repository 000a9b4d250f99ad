/**
 * `hearsay export --db PATH [--save ID] --format jsonl [--out FILE] [--quiet]`: writes a
 * save's history, one event per line, in seq order, streamed a page at a time. The format
 * is a public contract, described in docs/FORMATS.md. The database is opened read-only;
 * with no --out the lines go to stdout and nothing else does; into a file, a history of
 * 100,000 events or more shows its progress on standard error.
 */
import { ids } from "@hearsay/core";
import { exportJsonl, requireSave } from "@hearsay/engine";
import { openForReading, SqliteEventLog } from "@hearsay/store";
import { Console, Effect, Option } from "effect";
import { Command, Flag } from "effect/cli";
import { AtomicFile } from "../AtomicFile.ts";
import { attempt } from "../attempt.ts";
import { onDatabase } from "../onDatabase.ts";
import { LONG_HISTORY_EVENTS, progressBar } from "../Progress.ts";
import { dbFlag, saveFlag } from "../saveFlags.ts";

/** Writes a chunk to stdout and waits until it is handed over (so memory stays bounded). */
const toStdout = (chunk: string): Promise<void> =>
  new Promise((resolve, reject) => {
    process.stdout.write(chunk, (e) => (e ? reject(e) : resolve()));
  });

/** A reader that went away (`… | head`) ends the export quietly, as it does for other tools. */
const isClosedPipe = (e: unknown): boolean =>
  typeof e === "object" && e !== null && (e as { code?: unknown }).code === "EPIPE";

/** The lines a chunk of the export holds (each event's line ends in a newline). */
const linesIn = (chunk: string): number => {
  let n = 0;
  for (let i = chunk.indexOf("\n"); i !== -1; i = chunk.indexOf("\n", i + 1)) n++;
  return n;
};

export const exportCommand = Command.make(
  "export",
  {
    db: dbFlag("SQLite database of a recorded run (opened read-only)"),
    save: saveFlag("Save to export"),
    format: Flag.Literals("format", ["jsonl"]).pipe(
      Flag.withDescription("Output format: jsonl (one event per line; see docs/FORMATS.md)"),
      Flag.withDefault("jsonl"),
    ),
    out: Flag.String("out").pipe(
      Flag.withDescription("Write to this file instead of stdout"),
      Flag.optional,
    ),
    quiet: Flag.Boolean("quiet").pipe(
      Flag.withDescription("No progress output"),
      Flag.withDefault(false),
    ),
  },
  Effect.fn(
    function* (args) {
      const out = Option.getOrUndefined(args.out);
      // Before the database is opened: an --out that is the database (or its WAL) would
      // otherwise be truncated to start the export.
      if (out !== undefined) yield* attempt(() => AtomicFile.refuseDatabase(out, args.db));
      const db = yield* attempt(() => openForReading(args.db));
      const log = new SqliteEventLog(db);
      const saveId = ids.save(args.save);
      const written = yield* Effect.tryPromise({
        try: async () => {
          const save = requireSave(log, saveId, args.db);
          // The lines go to a temporary file beside --out, renamed over it only once all
          // are written: a failure (a full disk) leaves no truncated export behind.
          const file = out === undefined ? null : AtomicFile.create(out);
          const ignore = () => {};
          process.stdout.on("error", ignore);
          // Into a file, a long history shows how far it is (the lines of stdout are the export).
          const bar =
            file !== null && save.head >= LONG_HISTORY_EVENTS
              ? progressBar(save.head, "export {bar} {value}/{total} events", args.quiet)
              : null;
          let lines = 0;
          try {
            for (const chunk of exportJsonl({ log, saveId })) {
              if (file === null) await toStdout(chunk);
              else file.write(chunk);
              if (bar !== null) {
                lines += linesIn(chunk);
                bar.update(lines, { events: lines });
              }
            }
            bar?.stop();
            file?.commit();
          } catch (e) {
            bar?.stop();
            file?.abandon();
            if (!isClosedPipe(e)) throw e;
          } finally {
            process.stdout.off("error", ignore);
          }
          return save.head;
        },
        catch: (e) => e,
      }).pipe(Effect.ensuring(Effect.sync(() => db.close())));
      if (Option.isSome(args.out)) {
        yield* Console.error(`exported ${written} events of save "${saveId}" to ${args.out.value}`);
      }
    },
    (effect, args) => onDatabase(args.db)(effect),
  ),
).pipe(Command.withDescription("Export a save's events as JSON lines"));
