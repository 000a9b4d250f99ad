/**
 * Every `hearsay` subcommand, in the order `hearsay --help` lists them. A new command is
 * one file in this folder and one line here.
 */
import { chatCommand } from "./chat.ts";
import { doctorCommand } from "./doctor.ts";
import { inspectCommand } from "./inspect.ts";
import { runCommand } from "./run.ts";
import { serveCommand } from "./serve.ts";
import { statsCommand } from "./stats.ts";

export const commands = [
  runCommand,
  statsCommand,
  doctorCommand,
  inspectCommand,
  chatCommand,
  serveCommand,
] as const;
