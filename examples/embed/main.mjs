#!/usr/bin/env node
/**
 * hearsay as a library, as a game server or a mod host would use it: open a world, run
 * it for a game day, read what one NPC knows (its dossier), and talk to that NPC.
 *
 *   node main.mjs [database]      (default: a new file in the system's temp folder)
 *
 * Everything here comes from the packages' public exports. The scripted brain needs no
 * model server; swap in `OllamaBrain.make({ config })` from @hearsay/mind for a real one.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatGameTime, ids, renderDossier } from "@hearsay/core";
import {
  dossierAt,
  loadSimulation,
  retrievalDossiers,
  runSimulation,
  TalkWorld,
} from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";

const dbPath = process.argv[2] ?? join(mkdtempSync(join(tmpdir(), "hearsay-embed-")), "world.db");
const npcId = "ada";

// 1. Open a world: a folder of JSON files (here ./world, beside this file).
const simulation = loadSimulation(fileURLToPath(new URL("./world", import.meta.url)));
const db = openDatabase(dbPath);
const log = new SqliteEventLog(db);
const saveId = ids.save("main");
const brain = ScriptedBrain.make();

try {
  // 2. Run it for one game day. Every event lands in the database's log.
  const summary = await runSimulation({
    world: simulation.world,
    worldHash: simulation.worldHash,
    lore: simulation.lore,
    log,
    saveId,
    days: 1,
    seed: 7,
    brain,
    recordBrain: false,
    dossiers: retrievalDossiers,
    resume: false,
  });
  console.log(
    `ran "${simulation.world.meta.name}" for 1 day: ${summary.ticks} ticks, ${summary.head} events in ${dbPath}`,
  );

  // 3. What the NPC would be handed at the end of that day: its dossier.
  const day = simulation.world.meta.start.day;
  const { dossier } = dossierAt({ log, saveId, npcId, day, query: "the ford" });
  console.log(`\n# Dossier of ${dossier.npcName} at ${formatGameTime(dossier.t)}`);
  console.log(renderDossier(dossier));

  // 4. Talk to the NPC. Each turn is stored; ending the talk turns it into memories.
  const talk = new TalkWorld({ simulation, log, saveId, brain, recordBrain: false });
  const name = talk.state.npcs.get(talk.npc(npcId))?.name ?? npcId;
  const turn = await talk.takeTurn({ npcId, message: "Good morning! Is the ford safe today?" });
  console.log(`\nplayer: Good morning! Is the ford safe today?\n${name}: ${turn.reply}`);
  await talk.endConversation(npcId, turn.conversationId);
  const memories = talk.memories(npcId, true);
  console.log(`${name} now remembers ${memories.length} thing(s) about the player.`);
} finally {
  db.close();
}
