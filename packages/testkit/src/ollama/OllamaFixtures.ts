/**
 * The recorded Ollama responses the fixture server answers from, read from
 * `packages/testkit/fixtures/ollama/`: `version.json`, `models.json` (each model's
 * /api/tags entry, its /api/show answer, and whether it starts installed),
 * `pull.ndjson` (a pull's progress lines) and `chat/<purpose>.json` (answer templates
 * per behaviour).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface FixtureModel {
  readonly installed: boolean;
  readonly tag: { readonly name: string; readonly size: number; readonly digest: string } & Record<
    string,
    unknown
  >;
  readonly show: { readonly model_info: Record<string, unknown> } & Record<string, unknown>;
}

/** Answer templates for one purpose, by behaviour. */
export interface ChatTemplates {
  readonly good: ReadonlyArray<unknown>;
  readonly schema_invalid: ReadonlyArray<unknown>;
  readonly unknown_ids: ReadonlyArray<unknown>;
  readonly malformed: ReadonlyArray<string>;
}

export interface OllamaFixtures {
  readonly version: string;
  readonly models: ReadonlyArray<FixtureModel>;
  readonly pullLines: ReadonlyArray<string>;
  readonly chat: Readonly<Record<string, ChatTemplates>>;
}

/** The fixtures shipped with the testkit. */
export const defaultFixturesDir = fileURLToPath(new URL("../../fixtures/ollama/", import.meta.url));

const json = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

/** Reads a fixtures directory. */
export const loadOllamaFixtures = (dir: string = defaultFixturesDir): OllamaFixtures => {
  const chatDir = join(dir, "chat");
  const chat: Record<string, ChatTemplates> = {};
  if (existsSync(chatDir))
    for (const file of readdirSync(chatDir).sort())
      if (file.endsWith(".json"))
        chat[file.slice(0, -5)] = json(join(chatDir, file)) as ChatTemplates;
  return {
    version: (json(join(dir, "version.json")) as { version: string }).version,
    models: json(join(dir, "models.json")) as ReadonlyArray<FixtureModel>,
    pullLines: readFileSync(join(dir, "pull.ndjson"), "utf8")
      .split("\n")
      .filter((l) => l.trim().length > 0),
    chat,
  };
};
