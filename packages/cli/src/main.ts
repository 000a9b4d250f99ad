/**
 * The `hearsay` command: parses arguments (every one decoded by its Schema), runs the
 * subcommand, and turns any failure into one line on stderr with a non-zero exit —
 * 2 for a bad invocation, 1 for anything that went wrong while running. Only the
 * subcommand named is loaded (see commands/index.ts), so start-up stays short.
 */
import * as NodeServices from "@effect/platform-node/NodeServices";
import { clipMessage } from "@hearsay/core";
import { Cause, Effect, Layer } from "effect";
import { CliOutput, Command } from "effect/cli";
import { commandsFor } from "./commands/index.ts";
import { describeError } from "./describeError.ts";

const args = process.argv.slice(2);

const hearsay = Command.make("hearsay").pipe(
  Command.withDescription("A local-first world simulation engine for LLM-driven NPCs"),
  Command.withSubcommands(await commandsFor(args)),
);

/** Help and version as usual; a bad invocation is reported below in one line, not as a page of help. */
const presenter: CliOutput.Presenter = {
  present: (event) =>
    event._tag === "InvalidInvocation" ? Effect.void : CliOutput.defaultPresenter.present(event),
};

const program = Command.runWith(hearsay, { version: "0.1.0" })(args).pipe(
  Effect.provide(Layer.mergeAll(NodeServices.layer, CliOutput.layerPresenter(presenter))),
);

Effect.runPromiseExit(program).then((exit) => {
  if (exit._tag === "Success") return;
  const error = Cause.squash(exit.cause) as {
    _tag?: string;
    errors?: ReadonlyArray<{ message: string }>;
  };
  if (error._tag === "ShowHelp") {
    const first = error.errors?.[0];
    if (first === undefined) return; // --help was asked for and shown
    process.stderr.write(
      `hearsay: ${clipMessage(first.message).replace(/\s*\n\s*/g, " ")} (see \`hearsay --help\`)\n`,
    );
    process.exitCode = 2;
    return;
  }
  process.stderr.write(`hearsay: ${describeError(error)}\n`);
  process.exitCode = 1;
});
