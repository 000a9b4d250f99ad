/**
 * The fixture server in a process of its own, for callers that block their own thread
 * while they wait for it (the engine's synchronous embedder): prints its URL on the
 * first line of stdout and serves until stdin closes. `--corpus FILE` (a JSON array of
 * texts) fits /api/embed's model on those texts.
 */
import { readFileSync } from "node:fs";
import { OllamaFixtureServer } from "./OllamaFixtureServer.ts";

const at = process.argv.indexOf("--corpus");
const corpus =
  at >= 0 ? (JSON.parse(readFileSync(process.argv[at + 1]!, "utf8")) as Array<string>) : undefined;
const server = await OllamaFixtureServer.start(corpus ? { embedCorpus: corpus } : {});
process.stdout.write(`${server.url}\n`);
process.stdin.resume();
process.stdin.on("end", () => void server.kill().then(() => process.exit(0)));
