/**
 * `hearsay doctor [--config FILE]`: is each chat host of `ollama.hosts` up with its
 * models, is the model server reachable, which models are
 * installed, the chat model's context size and the embedding model's dimensions — each
 * problem with its fix. Exits non-zero when something needs fixing before
 * `--brain ollama` can work; the scripted brain never needs any of it.
 */
import { doctorReport, loadMindConfig } from "@hearsay/mind";
import { Console, Effect, Option } from "effect";
import { Command, Flag } from "effect/cli";
import { CliFailure } from "../attempt.ts";

export const doctorCommand = Command.make(
  "doctor",
  {
    config: Flag.String("config").pipe(
      Flag.withDescription("Config file (default ./hearsay.config if present)"),
      Flag.optional,
    ),
    json: Flag.Boolean("json").pipe(
      Flag.withDescription("Print the report as JSON"),
      Flag.withDefault(false),
    ),
  },
  Effect.fn(function* (args) {
    const path = Option.getOrUndefined(args.config);
    const config = yield* loadMindConfig(path === undefined ? {} : { path });
    const report = yield* doctorReport({ config });
    if (args.json) {
      yield* Console.log(JSON.stringify(report, null, 2));
    } else {
      const mark = (ok: boolean) => (ok ? "ok " : "!! ");
      yield* Console.log(
        [
          ...(config.hosts === null
            ? []
            : report.hosts.map(
                (h, i) =>
                  `${mark(h.reachable && h.missing.length === 0)}host ${i}     ${h.url}${h.version ? ` (ollama ${h.version})` : ""}, serves ${h.serves.join(", ") || "none of the chat models"}${h.missing.length > 0 ? `, missing ${h.missing.join(", ")}` : ""}`,
              )),
          `${mark(report.server.reachable)}server     ${report.server.url}${report.server.version ? ` (ollama ${report.server.version})` : ""}`,
          `${mark(report.installed.length > 0)}installed  ${report.installed.map((m) => m.name).join(", ") || "no models"}`,
          `${mark(report.chatModel.installed)}chat       ${report.chatModel.name}${report.chatModel.contextLength ? `, context ${report.chatModel.contextLength} tokens` : ""}`,
          `${mark(report.embeddingModel.installed)}embedding  ${report.embeddingModel.name}${report.embeddingModel.dimensions ? `, ${report.embeddingModel.dimensions} dimensions` : ""}`,
          ...report.problems.map((p) => `   problem: ${p.problem}\n   fix:     ${p.fix}`),
        ].join("\n"),
      );
    }
    if (!report.ok) {
      return yield* Effect.fail(
        new CliFailure({
          message: `doctor found ${report.problems.length} problem(s); the scripted brain still works`,
        }),
      );
    }
  }),
).pipe(Command.withDescription("Check the model server and models for --brain ollama"));
