/**
 * Every `hearsay` subcommand, in the order `hearsay --help` lists them. A new command is
 * one file in this folder and one line here.
 */
import { branchCommand } from "./branch.ts";
import { chatCommand } from "./chat.ts";
import { doctorCommand } from "./doctor.ts";
import { dossierCommand } from "./dossier.ts";
import { exportCommand } from "./export.ts";
import { indexCommand } from "./indexCommand.ts";
import { inspectCommand } from "./inspect.ts";
import { replayCommand } from "./replay.ts";
import { runCommand } from "./run.ts";
import { serveCommand } from "./serve.ts";
import { statsCommand } from "./stats.ts";

export const commands = [
  runCommand,
  replayCommand,
  branchCommand,
  dossierCommand,
  exportCommand,
  statsCommand,
  indexCommand,
  doctorCommand,
  inspectCommand,
  chatCommand,
  serveCommand,
] as const;
