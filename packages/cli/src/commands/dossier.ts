/**
 * `hearsay dossier --db PATH --npc ID --day D [--hour H] [--query TEXT] [--budget N]
 * [--json] [--quiet] [--save ID]`: what that NPC would be handed at that moment of a recorded run
 * (default: the last minute of the day) — built from the history up to then by the same
 * retrieval a run uses. Text mode prints the rendered prompt; --json prints the dossier
 * (format in docs/FORMATS.md; item ids are the export's ids). The
 * database is opened read-only.
 */
import { formatGameTime, ids, renderDossier } from "@hearsay/core";
import { dossierAt } from "@hearsay/engine";
import { openForReading, SqliteEventLog } from "@hearsay/store";
import { Console, Effect, Option, Schema } from "effect";
import { Command, Flag } from "effect/cli";
import { attempt } from "../attempt.ts";
import { dossierProgress } from "../dossierProgress.ts";
import { onDatabase } from "../onDatabase.ts";
import { dbFlag, NonNegative, saveFlag } from "../saveFlags.ts";

const Hour = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 23 }));
const Budget = Schema.Int.check(Schema.isBetween({ minimum: 100, maximum: 1_000_000 }));

export const dossierCommand = Command.make(
  "dossier",
  {
    db: dbFlag("SQLite database of a recorded run (opened read-only)"),
    save: saveFlag("Save to read"),
    npc: Flag.String("npc").pipe(Flag.withDescription("The NPC's id")),
    day: Flag.Int("day").pipe(Flag.withSchema(NonNegative), Flag.withDescription("Game day")),
    hour: Flag.Int("hour").pipe(
      Flag.withSchema(Hour),
      Flag.withDescription("Hour of that day (default: its last minute, 23:59)"),
      Flag.optional,
    ),
    query: Flag.String("query").pipe(
      Flag.withDescription("Query text to retrieve by"),
      Flag.optional,
    ),
    budget: Flag.Int("budget").pipe(
      Flag.withSchema(Budget),
      Flag.withDescription("Total token budget (default: the engine's)"),
      Flag.optional,
    ),
    json: Flag.Boolean("json").pipe(
      Flag.withDescription("Print the dossier as JSON"),
      Flag.withDefault(false),
    ),
    quiet: Flag.Boolean("quiet").pipe(
      Flag.withDescription("No progress output"),
      Flag.withDefault(false),
    ),
  },
  Effect.fn(
    function* (args) {
      const db = yield* attempt(() => openForReading(args.db));
      const log = new SqliteEventLog(db);
      const shown = dossierProgress(args.quiet);
      const inspection = yield* attempt(() =>
        dossierAt({
          ...shown.callbacks,
          log,
          saveId: ids.save(args.save),
          npcId: args.npc,
          day: args.day,
          ...(Option.isSome(args.hour) ? { hour: args.hour.value } : {}),
          ...(Option.isSome(args.query) ? { query: args.query.value } : {}),
          ...(Option.isSome(args.budget) ? { budget: args.budget.value } : {}),
        }),
      ).pipe(
        Effect.ensuring(
          Effect.sync(() => {
            shown.stop();
            db.close();
          }),
        ),
      );
      const d = inspection.dossier;
      if (args.json) {
        yield* Console.log(
          JSON.stringify(
            {
              saveId: d.saveId,
              npcId: d.npcId,
              npcName: d.npcName,
              day: d.day,
              t: d.t,
              time: formatGameTime(d.t),
              throughSeq: inspection.throughSeq,
              query: d.query,
              budget: d.budget,
              totalTokens: d.totalTokens,
              sections: d.sections.map((s) => ({
                name: s.name,
                budget: s.budget,
                tokens: s.tokens,
                items: s.items.map((i) => ({
                  kind: i.kind,
                  id: i.id,
                  score: i.score,
                  tokens: i.tokens,
                  text: i.text,
                })),
              })),
            },
            null,
            2,
          ),
        );
        return;
      }
      yield* Console.log(
        `# Dossier of ${d.npcName} (${d.npcId}) at ${formatGameTime(d.t)}, through seq ${inspection.throughSeq}: ${d.totalTokens} of ${d.budget} tokens\n\n${renderDossier(d)}`,
      );
    },
    (effect, args) => onDatabase(args.db)(effect),
  ),
).pipe(
  Command.withDescription("Show the dossier an NPC would be given at a moment of a recorded run"),
);
