/**
 * Every `hearsay` subcommand, in the order `hearsay --help` lists them, each loaded only
 * when it runs: a command's module pulls in the engine, the store or a web server, and
 * `hearsay --help` or `hearsay stats` should not pay for the others. A new command is one
 * file in this folder and one entry here; the description is the one its file gives
 * (a test holds them equal), repeated here so the listing needs no module loaded.
 */
import type { Command } from "effect/cli";

// biome-ignore lint/suspicious/noExplicitAny: each command has its own input, error and requirement types
export type AnyCommand = Command.Command<any, any, any, any, never>;

export interface CommandEntry {
  readonly name: string;
  readonly description: string;
  readonly load: () => Promise<AnyCommand>;
}

export const commands: ReadonlyArray<CommandEntry> = [
  {
    name: "run",
    description: "Run a simulation headless",
    load: async () => (await import("./run.ts")).runCommand,
  },
  {
    name: "replay",
    description: "Replay a recorded run: refold and check its checkpoints, or --verify it",
    load: async () => (await import("./replay.ts")).replayCommand,
  },
  {
    name: "skip",
    description: "Move a stored run some game days on: a jump or an elision",
    load: async () => (await import("./skip.ts")).skipCommand,
  },
  {
    name: "branch",
    description: "Branch a save at a seq or a game day",
    load: async () => (await import("./branch.ts")).branchCommand,
  },
  {
    name: "dossier",
    description: "Show the dossier an NPC would be given at a moment of a recorded run",
    load: async () => (await import("./dossier.ts")).dossierCommand,
  },
  {
    name: "export",
    description: "Export a save's events as JSON lines",
    load: async () => (await import("./export.ts")).exportCommand,
  },
  {
    name: "lore",
    description: "Manage a save's lore",
    load: async () => (await import("./lore.ts")).loreCommand,
  },
  {
    name: "stats",
    description: "Brain calls, tokens and latency of a run",
    load: async () => (await import("./stats.ts")).statsCommand,
  },
  {
    name: "index",
    description: "The vector index beside a database: rebuild it or show its status",
    load: async () => (await import("./indexCommand.ts")).indexCommand,
  },
  {
    name: "doctor",
    description: "Check the model server and models for --brain ollama",
    load: async () => (await import("./doctor.ts")).doctorCommand,
  },
  {
    name: "inspect",
    description: "Serve a local web page over a recorded simulation",
    load: async () => (await import("./inspect.ts")).inspectCommand,
  },
  {
    name: "chat",
    description: "Talk with an NPC in a world from the terminal",
    load: async () => (await import("./chat.ts")).chatCommand,
  },
  {
    name: "serve",
    description: "Serve a world to a game over local HTTP/JSON",
    load: async () => (await import("./serve.ts")).serveCommand,
  },
];

/**
 * The subcommands to build the parser from for these arguments: the one named, loaded
 * whole; or, when none is named (`hearsay --help`, a typo), every one as a bare name
 * and description, which is all the listing and the unknown-command message need.
 * Shell completions describe every flag, so they load everything.
 */
export const commandsFor = async (
  args: ReadonlyArray<string>,
): Promise<ReadonlyArray<AnyCommand>> => {
  const { Command } = await import("effect/cli");
  if (args.includes("--completions")) return Promise.all(commands.map((c) => c.load()));
  // The first argument that names a command is the subcommand (a later one is a value).
  const first = args.find((a) => commands.some((c) => c.name === a));
  const named = commands.find((c) => c.name === first);
  if (named !== undefined) return [await named.load()];
  return commands.map((c) => Command.make(c.name).pipe(Command.withDescription(c.description)));
};
