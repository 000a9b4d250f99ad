/**
 * The brain's configuration: a `hearsay.config` JSON file and environment variables,
 * each field decoded by Schema. Precedence, lowest first: defaults, `OLLAMA_HOST`
 * (read as Ollama's tools read it), the file, `HEARSAY_*` variables. A bad value fails
 * with `MindConfigError` naming where it came from (the file or the variable), the
 * field, what was wrong and how to fix it. File layout:
 *
 *   { "ollama": { "host", "hosts", "chatModel", "embeddingModel", "timeoutMs", "concurrency",
 *                 "temperature", "numCtx", "keepAlive" },
 *     "fallback": ["<model>", …, "scripted"],
 *     "embedder": "hashing" | "ollama",
 *     "budgets": { "maxCalls", "maxCallsPerDay", "maxTokens" },
 *     "policy": { "purposes", "principalNpcs", "sceneSize", "deadlineHours", "firstMeeting",
 *                 "nearHops", "speakerMemories", "listenerMemories", "oneLineScenes",
 *                 "twoLineScenes", "fewHeardScenes", "debateScenes" } }
 *
 * `ollama.hosts` ([{ "url", "concurrency", "models"? }]) spreads chat calls over several
 * servers; without it the one `ollama.host` with `ollama.concurrency` slots serves them.
 *
 * Any other key, at the top or in a section, is refused with the nearest known one
 * ("olama": did you mean `ollama`?): a misspelt setting must not be silently ignored.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { clipMessage, didYouMean } from "@hearsay/core";
import { Effect, Result, Schema } from "effect";
import { DEFAULT_OLLAMA_URL, ollamaHost } from "./ollama/ollamaHost.ts";
import { defaultPolicy, PolicyConfig } from "./policy/BrainPolicy.ts";

const Name = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200));
const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0));
const Url = Schema.String.check(
  Schema.isPattern(/^https?:\/\/[^\s/]+(\/\S*)?$/),
  Schema.makeFilter((s: string) => URL.canParse(s), { expected: "a URL" }),
);

export const Budgets = Schema.Struct({
  /** Model calls per run; then the fallback's non-model entries answer. */
  maxCalls: Schema.NullOr(Count),
  /** Model calls per game day. */
  maxCallsPerDay: Schema.NullOr(Count),
  /** Prompt plus output tokens per run. */
  maxTokens: Schema.NullOr(Count),
});
export type Budgets = typeof Budgets.Type;

/** One model server of several: where, how many calls at once, and (absent: any) which models. */
export const ModelHostConfig = Schema.Struct({
  url: Url,
  concurrency: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 64 })),
  models: Schema.optionalKey(Schema.Array(Name)),
});
export type ModelHostConfig = typeof ModelHostConfig.Type;

/** Several model servers; null: the one `ollamaUrl` with `concurrency` slots. */
export const ModelHostsConfig = Schema.NullOr(
  Schema.Array(ModelHostConfig).check(Schema.isMinLength(1), Schema.isMaxLength(64)),
);

/** Which embedder ranks by meaning; null: `ollama` when the brain is ollama, else `hashing`. */
export const EmbedderChoice = Schema.NullOr(Schema.Literals(["hashing", "ollama"]));
export type EmbedderChoice = typeof EmbedderChoice.Type;

/** How the vector index beside a database is kept: vectors and HNSW graphs, or none. */
export const IndexModeChoice = Schema.Literals(["embedded", "disabled"]);

export const MindConfig = Schema.Struct({
  ollamaUrl: Url,
  /** Chat calls spread over these servers when given (embeddings stay on `ollamaUrl`). */
  hosts: ModelHostsConfig,
  chatModel: Name,
  embeddingModel: Name,
  /** What answers when the chat model fails, in order: model names, then `scripted`. */
  fallback: Schema.Array(Name),
  timeoutMs: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 3_600_000 })),
  concurrency: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 64 })),
  temperature: Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 2 })),
  numCtx: Schema.Int.check(Schema.isBetween({ minimum: 256, maximum: 1_048_576 })),
  keepAlive: Schema.String.check(Schema.isPattern(/^-?\d+(\.\d+)?(ms|s|m|h)?$/)),
  budgets: Budgets,
  /** Which calls go to a model, and in what order a budget is spent (see BrainPolicy). */
  policy: PolicyConfig,
  embedder: EmbedderChoice,
  indexMode: IndexModeChoice,
});
export type MindConfig = typeof MindConfig.Type;

export const defaultMindConfig: MindConfig = {
  ollamaUrl: DEFAULT_OLLAMA_URL,
  hosts: null,
  chatModel: "llama3.2:3b",
  embeddingModel: "nomic-embed-text",
  fallback: ["scripted"],
  timeoutMs: 120_000,
  concurrency: 2,
  temperature: 0.7,
  numCtx: 8192,
  keepAlive: "10m",
  budgets: { maxCalls: null, maxCallsPerDay: null, maxTokens: null },
  policy: defaultPolicy,
  embedder: null,
  indexMode: "embedded",
};

/** A configuration value that does not decode: where, which field, what, and the fix. */
export class MindConfigError extends Schema.TaggedError<MindConfigError>()("MindConfigError", {
  source: Schema.String,
  field: Schema.String,
  problem: Schema.String,
  fix: Schema.String,
}) {
  override get message(): string {
    return clipMessage(`${this.source}: ${this.field}: ${this.problem}. Fix: ${this.fix}`);
  }
}

type Env = Readonly<Record<string, string | undefined>>;

const num = (s: string): unknown => (s.trim() === "" ? s : Number(s));
const nullableNum = (s: string): unknown => (/^(|none|null|off)$/i.test(s.trim()) ? null : num(s));

interface Field {
  readonly file: readonly [string] | readonly [string, string];
  readonly env: string | null;
  readonly fromEnv: (s: string) => unknown;
  readonly schema: Schema.Codec<unknown, unknown>;
  readonly fix: string;
}

const f = (
  file: Field["file"],
  env: string | null,
  schema: Schema.Top,
  fix: string,
  fromEnv: (s: string) => unknown = (s) => s,
): Field => ({
  file,
  env,
  schema: schema as unknown as Schema.Codec<unknown, unknown>,
  fix,
  fromEnv,
});

/** Each config key: its place in the file, its variable, its Schema and the fix to suggest. */
const fields: Record<Exclude<keyof MindConfig, "budgets" | "policy">, Field> &
  Record<keyof Budgets, Field> &
  Record<keyof PolicyConfig, Field> = {
  purposes: f(
    ["policy", "purposes"],
    null,
    PolicyConfig.fields.purposes,
    'map purposes to a class, e.g. { "summarize_scene": "scripted", "reply": "critical" } (classes: scripted, low, normal, high, critical)',
  ),
  principalNpcs: f(
    ["policy", "principalNpcs"],
    "HEARSAY_PRINCIPAL_NPCS",
    PolicyConfig.fields.principalNpcs,
    'list NPC ids, e.g. ["npc-mara", "npc-tobias"] (comma-separated in the variable)',
    (s) =>
      s
        .split(",")
        .map((x) => x.trim())
        .filter((x) => x.length > 0),
  ),
  sceneSize: f(
    ["policy", "sceneSize"],
    null,
    PolicyConfig.fields.sceneSize,
    "give a whole number of participants from 2, or null to ignore scene size",
  ),
  deadlineHours: f(
    ["policy", "deadlineHours"],
    null,
    PolicyConfig.fields.deadlineHours,
    "give whole game hours from 1, or null to ignore deadlines",
  ),
  firstMeeting: f(
    ["policy", "firstMeeting"],
    null,
    PolicyConfig.fields.firstMeeting,
    "give true or false",
  ),
  nearHops: f(
    ["policy", "nearHops"],
    null,
    PolicyConfig.fields.nearHops,
    "give whole travel hops from 0 (0: the same place), or null to ignore the player and the camera",
  ),
  speakerMemories: f(
    ["policy", "speakerMemories"],
    null,
    PolicyConfig.fields.speakerMemories,
    'give "model" or "scripted"',
  ),
  listenerMemories: f(
    ["policy", "listenerMemories"],
    null,
    PolicyConfig.fields.listenerMemories,
    'give "model" or "scripted"',
  ),
  oneLineScenes: f(
    ["policy", "oneLineScenes"],
    null,
    PolicyConfig.fields.oneLineScenes,
    'give "model" or "scripted"',
  ),
  twoLineScenes: f(
    ["policy", "twoLineScenes"],
    null,
    PolicyConfig.fields.twoLineScenes,
    'give "model" or "scripted"',
  ),
  fewHeardScenes: f(
    ["policy", "fewHeardScenes"],
    null,
    PolicyConfig.fields.fewHeardScenes,
    'give "model" or "scripted"',
  ),
  debateScenes: f(
    ["policy", "debateScenes"],
    null,
    PolicyConfig.fields.debateScenes,
    'give "model" or "scripted"',
  ),
  ollamaUrl: f(
    ["ollama", "host"],
    "HEARSAY_OLLAMA_URL",
    Url,
    "give an http(s) URL such as http://127.0.0.1:11434",
  ),
  hosts: f(
    ["ollama", "hosts"],
    "HEARSAY_OLLAMA_HOSTS",
    ModelHostsConfig,
    'give a list of servers, e.g. [{ "url": "http://gpu1:11434", "concurrency": 2 }, { "url": "http://gpu2:11434", "concurrency": 4, "models": ["llama3.2:3b"] }] (JSON in the variable)',
    (s) => {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        return s;
      }
    },
  ),
  chatModel: f(
    ["ollama", "chatModel"],
    "HEARSAY_CHAT_MODEL",
    Name,
    'name an Ollama model such as "llama3.2:3b"',
  ),
  embeddingModel: f(
    ["ollama", "embeddingModel"],
    "HEARSAY_EMBEDDING_MODEL",
    Name,
    'name an embedding model such as "nomic-embed-text"',
  ),
  embedder: f(
    ["embedder"],
    "HEARSAY_EMBEDDER",
    EmbedderChoice,
    'give "hashing" or "ollama" (or leave it out: ollama with the ollama brain, else hashing)',
    (s) => s.trim(),
  ),
  indexMode: f(
    ["index", "mode"],
    "HEARSAY_INDEX_MODE",
    IndexModeChoice,
    'give "embedded" (vectors and graphs) or "disabled" (keywords and filters only)',
    (s) => s.trim(),
  ),
  fallback: f(
    ["fallback"],
    "HEARSAY_FALLBACK",
    Schema.Array(Name),
    'list model names and/or "scripted", e.g. ["llama3.2:1b", "scripted"] (comma-separated in the variable)',
    (s) =>
      s
        .split(",")
        .map((x) => x.trim())
        .filter((x) => x.length > 0),
  ),
  timeoutMs: f(
    ["ollama", "timeoutMs"],
    "HEARSAY_TIMEOUT_MS",
    MindConfig.fields.timeoutMs,
    "give whole milliseconds between 1 and 3600000, e.g. 120000",
    num,
  ),
  concurrency: f(
    ["ollama", "concurrency"],
    "HEARSAY_CONCURRENCY",
    MindConfig.fields.concurrency,
    "give a whole number from 1 to 64 (match the server's OLLAMA_NUM_PARALLEL)",
    num,
  ),
  temperature: f(
    ["ollama", "temperature"],
    "HEARSAY_TEMPERATURE",
    MindConfig.fields.temperature,
    "give a number from 0 to 2, e.g. 0.7",
    num,
  ),
  numCtx: f(
    ["ollama", "numCtx"],
    "HEARSAY_NUM_CTX",
    MindConfig.fields.numCtx,
    "give the context size in tokens, e.g. 8192",
    num,
  ),
  keepAlive: f(
    ["ollama", "keepAlive"],
    "HEARSAY_KEEP_ALIVE",
    MindConfig.fields.keepAlive,
    'give a duration such as "10m", "1h" or "-1" (keep loaded)',
    (s) => s.trim(),
  ),
  maxCalls: f(
    ["budgets", "maxCalls"],
    "HEARSAY_MAX_CALLS",
    Budgets.fields.maxCalls,
    "give a whole number of calls, or null for no limit",
    nullableNum,
  ),
  maxCallsPerDay: f(
    ["budgets", "maxCallsPerDay"],
    "HEARSAY_MAX_CALLS_PER_DAY",
    Budgets.fields.maxCallsPerDay,
    "give a whole number of calls per game day, or null",
    nullableNum,
  ),
  maxTokens: f(
    ["budgets", "maxTokens"],
    "HEARSAY_MAX_TOKENS",
    Budgets.fields.maxTokens,
    "give a whole number of tokens, or null for no limit",
    nullableNum,
  ),
};

/**
 * The keys a file may hold, read off `fields` so a new setting can never be refused as
 * unknown: each section with its keys (`ollama`, `budgets`), and the top-level keys.
 */
const sectionKeys: Record<string, ReadonlyArray<string>> = {};
const topLevelKeys: Array<string> = [];
for (const field of Object.values(fields)) {
  const [head, key] = field.file;
  if (head === undefined) continue;
  if (!topLevelKeys.includes(head)) topLevelKeys.push(head);
  if (key !== undefined) sectionKeys[head] = [...(sectionKeys[head] ?? []), key];
}

const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u);

export interface LoadMindConfigOptions {
  /** The config file; a missing file is an error only when this is given. */
  readonly path?: string;
  /** Where to look for `hearsay.config` when no path is given (default: process.cwd()). */
  readonly cwd?: string;
  /** The environment (default: process.env). */
  readonly env?: Env;
}

const readFile = (
  path: string,
  required: boolean,
): Effect.Effect<Record<string, unknown>, MindConfigError> =>
  Effect.suspend(() => {
    if (!existsSync(path))
      return required
        ? Effect.fail(
            new MindConfigError({
              source: path,
              field: "(file)",
              problem: "no such file",
              fix: "check the path, or leave it out to use defaults",
            }),
          )
        : Effect.succeed({});
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, "utf8"));
    } catch (e) {
      return Effect.fail(
        new MindConfigError({
          source: path,
          field: "(file)",
          problem: `not valid JSON (${(e as Error).message})`,
          fix: "write the file as one JSON object",
        }),
      );
    }
    if (!isRecord(parsed))
      return Effect.fail(
        new MindConfigError({
          source: path,
          field: "(file)",
          problem: "not a JSON object",
          fix: 'start the file with "{" and put settings under "ollama", "fallback" and "budgets"',
        }),
      );
    const topKeys = topLevelKeys;
    const stray = Object.keys(parsed).find((k) => !topKeys.includes(k));
    if (stray !== undefined) {
      const hint = didYouMean(stray, topKeys);
      return Effect.fail(
        new MindConfigError({
          source: path,
          field: stray,
          problem: "unknown section",
          fix:
            hint === ""
              ? `use one of ${topKeys.join(", ")}`
              : `${hint} (one of ${topKeys.join(", ")})`,
        }),
      );
    }
    for (const [section, keys] of Object.entries(sectionKeys)) {
      const value = parsed[section];
      if (value === undefined) continue;
      if (!isRecord(value))
        return Effect.fail(
          new MindConfigError({
            source: path,
            field: section,
            problem: "expected an object",
            fix: `make "${section}" an object with keys ${keys.join(", ")}`,
          }),
        );
      const unknown = Object.keys(value).find((k) => !keys.includes(k));
      if (unknown !== undefined) {
        const hint = didYouMean(unknown, keys);
        return Effect.fail(
          new MindConfigError({
            source: path,
            field: `${section}.${unknown}`,
            problem: "unknown setting",
            fix:
              hint === "" ? `use one of ${keys.join(", ")}` : `${hint} (one of ${keys.join(", ")})`,
          }),
        );
      }
    }
    return Effect.succeed(parsed);
  });

/** Loads and decodes the brain configuration. */
export const loadMindConfig = (
  options: LoadMindConfigOptions = {},
): Effect.Effect<MindConfig, MindConfigError> =>
  Effect.gen(function* () {
    const env = options.env ?? process.env;
    const path = options.path ?? resolve(options.cwd ?? process.cwd(), "hearsay.config");
    const file = yield* readFile(path, options.path !== undefined);
    const values: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(fields)) {
      const [a, b] = field.file;
      const section = file[a];
      const fromFile = b === undefined ? section : isRecord(section) ? section[b] : undefined;
      const fromEnv = field.env === null ? undefined : env[field.env];
      let value: unknown;
      let source: string;
      let shown: string | null = null;
      if (fromEnv !== undefined && fromEnv !== "") {
        value = field.fromEnv(fromEnv);
        shown = JSON.stringify(fromEnv);
        source = `environment variable ${field.env}`;
      } else if (fromFile !== undefined) {
        value = fromFile;
        source = path;
      } else if (key === "ollamaUrl") {
        value = ollamaHost(env.OLLAMA_HOST);
        shown = `${JSON.stringify(env.OLLAMA_HOST ?? "")} (read as ${JSON.stringify(value)})`;
        source = "environment variable OLLAMA_HOST";
      } else if (key === "concurrency" && env.OLLAMA_NUM_PARALLEL) {
        value = num(env.OLLAMA_NUM_PARALLEL);
        source = "environment variable OLLAMA_NUM_PARALLEL";
      } else {
        value =
          key in defaultMindConfig
            ? defaultMindConfig[key as keyof MindConfig]
            : key in defaultPolicy
              ? defaultPolicy[key as keyof PolicyConfig]
              : defaultMindConfig.budgets[key as keyof Budgets];
        source = "defaults";
      }
      // A misspelt key inside a value (a host's "modles") is refused, not dropped.
      const decoded = Schema.decodeUnknownResult(field.schema)(value, {
        onExcessProperty: "error",
      });
      if (Result.isFailure(decoded)) {
        const problem = `${shown ?? JSON.stringify(value)} is invalid (${decoded.failure.message.replace(/\s+/g, " ")})`;
        const name = source === path ? field.file.join(".") : key;
        return yield* new MindConfigError({ source, field: name, problem, fix: field.fix });
      }
      values[key] = decoded.success;
    }
    // Each field goes where its default lives: the top level, the policy or the budgets.
    const rest: Record<string, unknown> = {};
    const policy: Record<string, unknown> = {};
    const budgets: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      const into = key in defaultMindConfig ? rest : key in defaultPolicy ? policy : budgets;
      into[key] = value;
    }
    // Given hosts and no single host of its own, the first host is where embeddings go too.
    const hosts = rest.hosts as MindConfig["hosts"];
    const urlGiven =
      (isRecord(file.ollama) && file.ollama.host !== undefined) ||
      (env.HEARSAY_OLLAMA_URL ?? "") !== "";
    if (hosts !== null && hosts[0] !== undefined && !urlGiven) rest.ollamaUrl = hosts[0].url;
    return Schema.decodeUnknownSync(MindConfig)({ ...rest, budgets, policy });
  });
