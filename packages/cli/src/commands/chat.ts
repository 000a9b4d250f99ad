/**
 * `hearsay chat --db PATH --npc ID [--save ID] [--brain scripted|ollama]`: a terminal
 * conversation with one NPC of a world. Each line typed is a turn (the reply is printed
 * as it streams); `/dossier` shows what the NPC was handed for its last reply,
 * `/memories` what it now remembers of you, `/skip 1d` lets the world move on (the talk
 * ends and is digested first), `/quit` ends. End of input or Ctrl-C ends the talk the
 * same way: every turn already printed was committed with its reply, a turn cut off by
 * Ctrl-C is dropped whole, and what is left of the talk is digested before the exit.
 */
import { createInterface } from "node:readline";
import { formatGameTime, renderDossier } from "@hearsay/core";
import type { TalkWorld } from "@hearsay/engine";
import { Effect, Option, Schema } from "effect";
import { Command, Flag } from "effect/cli";
import { brainFlags } from "../brainFlags.ts";
import { describeError } from "../describeError.ts";
import { onDatabase } from "../onDatabase.ts";
import { LONG_HISTORY_EVENTS, progressNote } from "../Progress.ts";
import { type BrainChoice, openLog, openTalkWorld } from "../serve/openTalkWorld.ts";

const help = "commands: /dossier, /memories, /skip <N>d, /quit (or end of input, or Ctrl-C)";

const Days = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 3650 }));

/** `/skip 1d`, `/skip 3`: whole days, or null when the argument is not one. */
const skipDays = (arg: string): number | null => {
  const m = /^(\d+)\s*d?$/i.exec(arg.trim() || "1d");
  const n = m === null ? Number.NaN : Number(m[1]);
  return Schema.is(Days)(n) ? n : null;
};

const write = (s: string) => process.stdout.write(s);

const converse = async (talk: TalkWorld, npcId: string): Promise<number> => {
  const npc = talk.state.npcs.get(talk.npc(npcId))!;
  write(`Talking with ${npc.name} (${npc.role}) — ${formatGameTime(talk.t)}. ${help}\n`);
  const rl = createInterface({ input: process.stdin, terminal: false });
  let conversationId: string | null = null;
  let lastQuery: string | null = null;
  let inflight: AbortController | null = null;
  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
    inflight?.abort();
    rl.close();
  };
  process.on("SIGINT", onSigint);
  const end = async () => {
    if (conversationId === null) return;
    const id = conversationId;
    conversationId = null;
    await talk.endConversation(npcId, id);
  };
  try {
    for await (const raw of rl) {
      if (interrupted) break;
      const line = raw.trim();
      if (line === "") continue;
      if (line === "/quit" || line === "/exit") break;
      if (line === "/help") {
        write(`${help}\n`);
        continue;
      }
      if (line === "/dossier") {
        const d = talk.dossier(npcId, lastQuery);
        write(d === null ? "(no dossier)\n" : `${renderDossier(d)}\n`);
        continue;
      }
      if (line === "/memories") {
        // What is said but not digested yet is digested now, so the list is up to date.
        if (conversationId !== null) await talk.endConversation(npcId, conversationId);
        const ms = talk.memories(npcId, true);
        if (ms.length === 0) write(`${npc.name} remembers nothing of you.\n`);
        for (const m of ms)
          write(
            `- [${m.category}, ${m.expiresAt === null ? "permanent" : `until ${formatGameTime(m.expiresAt as never)}`}] ${m.text}\n`,
          );
        continue;
      }
      if (line.startsWith("/skip")) {
        const days = skipDays(line.slice(5));
        if (days === null) {
          write("usage: /skip <N>d (whole days, 1 to 3650)\n");
          continue;
        }
        await end();
        const t = await talk.skipDays(days);
        write(
          `(${days === 1 ? "1 day passes" : `${days} days pass`} — it is now ${formatGameTime(t)})\n`,
        );
        continue;
      }
      if (line.startsWith("/")) {
        write(`unknown command ${line.split(" ")[0]}; ${help}\n`);
        continue;
      }
      inflight = new AbortController();
      write(`${npc.name}: `);
      try {
        const r = await talk.takeTurn(
          { npcId, conversationId, message: line, signal: inflight.signal },
          { text: write, restart: () => write(" — ") },
        );
        conversationId = r.conversationId;
        lastQuery = line;
        write("\n");
        for (const a of r.actions)
          write(`(${npc.name} proposes a task: ${a.title} [${a.taskId}])\n`);
      } catch (e) {
        write("\n");
        if (interrupted) break;
        process.stderr.write(`hearsay: ${describeError(e)}\n`);
      } finally {
        inflight = null;
      }
    }
    await end();
    return interrupted ? 130 : 0;
  } finally {
    process.off("SIGINT", onSigint);
    rl.close();
  }
};

export const chatCommand = Command.make(
  "chat",
  {
    db: Flag.String("db").pipe(Flag.withDescription("SQLite database file of a world")),
    npc: Flag.String("npc").pipe(Flag.withDescription("Id of the NPC to talk to")),
    save: Flag.String("save").pipe(
      Flag.withDescription("Save id within the database"),
      Flag.withDefault("main"),
    ),
    ...brainFlags,
    simulation: Flag.String("simulation").pipe(
      Flag.withDescription(
        "World folder the save was started from (default: the one its log names)",
      ),
      Flag.optional,
    ),
  },
  Effect.fn(
    function* (args) {
      const log = yield* openLog(args.db);
      const choice: BrainChoice = {
        brain: args.brain,
        model: Option.getOrUndefined(args.model),
        configPath: Option.getOrUndefined(args.config),
        quiet: false,
      };
      const code = yield* Effect.gen(function* () {
        const talk = yield* openTalkWorld(log, args.save, {
          simulation: Option.getOrUndefined(args.simulation),
          choice,
        });
        yield* Effect.try({ try: () => talk.npc(args.npc), catch: (e) => e });
        // On a long run, what every NPC knows is read once before the first reply: said and
        // done before the prompt rather than in a first reply that keeps the player waiting.
        if (talk.head >= LONG_HISTORY_EVENTS) {
          progressNote(`reading what every NPC knows from ${talk.head} events, once`);
          yield* Effect.try({ try: () => talk.dossiers.refresh?.(), catch: (e) => e });
        }
        const code = yield* Effect.tryPromise({
          try: () => converse(talk, args.npc),
          catch: (e) => e,
        });
        // The talk's rows go into the vector files now, noted level with the database,
        // so the next open of this world trusts them without reading every row again.
        yield* Effect.try({ try: () => talk.dossiers.flush?.(), catch: (e) => e });
        return code;
      }).pipe(Effect.ensuring(Effect.sync(() => log.db.close())));
      if (code !== 0) process.exitCode = code;
    },
    (effect, args) => onDatabase(args.db)(effect),
  ),
).pipe(Command.withDescription("Talk with an NPC in a world from the terminal"));
