/**
 * `hearsay branch --db PATH --at SEQ | --at-day D --into NAME [--save ID]`: makes a new
 * save whose history is the parent's up to that point — nothing is copied — and which
 * `hearsay run --resume --save NAME [--seed S] [--brain …]` continues. The parent is not
 * touched. `--at-day D` branches as the world stood at 00:00 of day D; `--at SEQ` must be
 * where a tick ends (the error names the nearest ones).
 */
import { formatGameTime, type GameTime, ids } from "@hearsay/core";
import { branchSave, requireSave } from "@hearsay/engine";
import { openForWriting, SqliteEventLog } from "@hearsay/store";
import { Console, Effect, Option } from "effect";
import { Command, Flag } from "effect/cli";
import { attempt, CliFailure } from "../attempt.ts";
import { onDatabase } from "../onDatabase.ts";
import { dbFlag, NonNegative, saveFlag } from "../saveFlags.ts";

export const branchCommand = Command.make(
  "branch",
  {
    db: dbFlag("SQLite database of a recorded run"),
    save: saveFlag("Save to branch from"),
    at: Flag.Int("at").pipe(
      Flag.withSchema(NonNegative),
      Flag.withDescription("Branch after this seq (where a tick ends)"),
      Flag.optional,
    ),
    atDay: Flag.Int("at-day").pipe(
      Flag.withSchema(NonNegative),
      Flag.withDescription("Branch as the world stood at 00:00 of this game day"),
      Flag.optional,
    ),
    into: Flag.String("into").pipe(Flag.withDescription("Name (and id) of the new save")),
  },
  Effect.fn(
    function* (args) {
      if (Option.isSome(args.at) === Option.isSome(args.atDay)) {
        return yield* Effect.fail(
          new CliFailure({ message: "pass exactly one of --at SEQ and --at-day D" }),
        );
      }
      const db = yield* attempt(() => openForWriting(args.db, { mode: "existing" }));
      const log = new SqliteEventLog(db);
      const branched = yield* attempt(() => {
        const parent = requireSave(log, ids.save(args.save), args.db);
        return branchSave({
          log,
          from: parent.saveId,
          at: Option.isSome(args.at)
            ? { seq: args.at.value }
            : { day: Option.getOrThrow(args.atDay) },
          into: args.into,
        });
      }).pipe(Effect.ensuring(Effect.sync(() => db.close())));
      const when =
        branched.t === null ? "before anything happened" : formatGameTime(branched.t as GameTime);
      yield* Console.log(
        [
          `branched save "${args.save}" at seq ${branched.seq} (${when}) into "${branched.save.saveId}"; "${args.save}" is unchanged`,
          `continue it with: hearsay run --resume --db ${args.db} --save ${branched.save.saveId} [--seed S] [--brain scripted|ollama]`,
        ].join("\n"),
      );
    },
    (effect, args) => onDatabase(args.db)(effect),
  ),
).pipe(Command.withDescription("Branch a save at a seq or a game day"));
