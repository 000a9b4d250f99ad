/**
 * `hearsay lore import FILE|FOLDER --db PATH [--save ID]`: adds lore to a recorded save
 * through its event log — one `LoreImported` per file (a folder is searched for .md and
 * .markdown files), appended in one transaction at the save's current game time, so
 * replay and branches see it. A file whose content the save already holds under the
 * same path is skipped. A bad file (binary, invalid UTF-8, empty, no text) refuses the
 * whole import with one line per bad file, and nothing is written; chunks (100–300
 * words, along headings) land in `lore_chunks`, and vectors follow on the next run.
 */
import { existsSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import { ids } from "@hearsay/core";
import { requireSave } from "@hearsay/engine";
import { importLore, readLoreFiles } from "@hearsay/retrieval";
import { openForWriting, SqliteEventLog } from "@hearsay/store";
import { Console, Effect, Result } from "effect";
import { Argument, Command } from "effect/cli";
import { attempt, CliFailure } from "../attempt.ts";
import { onDatabase } from "../onDatabase.ts";
import { dbFlag, saveFlag } from "../saveFlags.ts";

const fail = (message: string) => Effect.fail(new CliFailure({ message }));

export const loreImportCommand = Command.make(
  "import",
  {
    path: Argument.String("path").pipe(
      Argument.withDescription("A markdown file, or a folder searched for .md and .markdown files"),
    ),
    db: dbFlag("SQLite database of a recorded run"),
    save: saveFlag("Save to add the lore to"),
  },
  Effect.fn(
    function* (args) {
      if (!existsSync(args.path)) {
        return yield* fail(`${args.path}: no such file or folder; check the path`);
      }
      const folder = statSync(args.path).isDirectory();
      const read = readLoreFiles([args.path], folder ? args.path : dirname(args.path));
      if (Result.isFailure(read)) return yield* fail(read.failure.message);
      const files = read.success;
      if (files.length === 0) {
        return yield* fail(
          `${args.path}: no .md or .markdown files in this folder; add lore files or name one file`,
        );
      }
      // The writer lock: an import refuses while a run, chat or serve writes this file.
      const db = yield* attempt(() => openForWriting(args.db, { mode: "existing" }));
      const outcome = yield* attempt(() => {
        const log = new SqliteEventLog(db);
        const save = requireSave(log, ids.save(args.save), args.db);
        const head = log.head(save.saveId);
        const t = head === 0 ? 0 : log.read(save.saveId, { fromSeq: head })[0]!.t;
        return importLore(db, log, { saveId: save.saveId, t, files });
      }).pipe(Effect.ensuring(Effect.sync(() => db.close())));
      if (Result.isFailure(outcome)) return yield* fail(outcome.failure.message);
      const report = outcome.success;
      const imported = report.files.filter((f) => f.status === "imported");
      const lines = report.files.map((f) =>
        f.status === "imported"
          ? `imported  ${f.path}: ${f.chunks} chunk(s)`
          : `unchanged ${f.path}: the save already holds this content`,
      );
      lines.push(
        `${imported.length} file(s) imported (${imported.reduce((a, f) => a + f.chunks, 0)} chunks), ${report.files.length - imported.length} unchanged, into save "${args.save}" of ${basename(args.db)} (head seq ${report.head})`,
      );
      yield* Console.log(lines.join("\n"));
    },
    (effect, args) => onDatabase(args.db)(effect),
  ),
).pipe(Command.withDescription("Import markdown lore into a save (hash-skips unchanged files)"));

export const loreCommand = Command.make("lore").pipe(
  Command.withDescription("Manage a save's lore"),
  Command.withSubcommands([loreImportCommand]),
);
