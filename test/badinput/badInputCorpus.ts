/**
 * The bad-input corpus: every broken file under test/fixtures/badinput with what its
 * one-line error must name (the file, the field or value at fault). Simulation folders
 * and config files are committed; databases are derived at test time from a good one
 * (truncated, stamped with a newer schema version) because a committed binary database
 * would go stale with the schema.
 */
import { join } from "node:path";
import { repoRoot } from "../support/hearsayCli.ts";

/** Where the corpus lives. */
export const corpusDir = join(repoRoot, "test", "fixtures", "badinput");

/** A bad input and the words its error line must contain. */
export interface BadCase {
  readonly name: string;
  readonly mentions: ReadonlyArray<string>;
}

/** Simulation folders: malformed world files and broken lore. */
export const simulationCases: ReadonlyArray<BadCase> = [
  { name: "bad-json", mentions: ["bad-json/world.json", "JSON"] },
  { name: "not-an-object", mentions: ["not-an-object/world.json", "object"] },
  { name: "missing-field", mentions: ["missing-field/world.json", "npcs[0].name"] },
  { name: "wrong-type", mentions: ["wrong-type/world.json", "meta.tickMinutes", "sixty"] },
  { name: "unknown-field", mentions: ["unknown-field/world.json", "npcs[1].age"] },
  {
    name: "misspelt-section",
    mentions: ["misspelt-section/world.json", "relationship", "did you mean `relationships`?"],
  },
  {
    name: "unknown-faction",
    mentions: ["unknown-faction/world.json", "npcs[2].factionId", "bakers"],
  },
  { name: "unknown-location", mentions: ["unknown-location/world.json", "npcs[4].home", "church"] },
  { name: "unknown-npc", mentions: ["unknown-npc/world.json", "relationships[1].to", "zed"] },
  { name: "duplicate-id", mentions: ["duplicate-id/world.json", "npcs[3].id", "ada"] },
  { name: "missing-lore", mentions: ["missing-lore/world.json", "lore/nowhere.md"] },
  // The lore path is named in world.json; debates.json (first in path order) must not be blamed.
  {
    name: "missing-lore-split",
    mentions: ["missing-lore-split/world.json", "lore[0]", "lore/nowhere.md"],
  },
  { name: "binary-lore", mentions: ["binary-lore/lore/ledger.md", "binary"] },
  { name: "invalid-utf8-lore", mentions: ["invalid-utf8-lore/lore/ledger.md", "UTF-8", "byte 54"] },
  { name: "empty-lore", mentions: ["empty-lore/lore/ledger.md", "empty"] },
  { name: "no-world-files", mentions: ["no-world-files", "world.json"] },
];

/** `hearsay.config` files for the brain (mind's `loadMindConfig`). */
export const configCases: ReadonlyArray<BadCase> = [
  { name: "bad-json", mentions: ["bad-json.config", "JSON"] },
  { name: "not-an-object", mentions: ["not-an-object.config", "object"] },
  { name: "section-not-object", mentions: ["section-not-object.config", "ollama"] },
  {
    name: "unknown-setting",
    mentions: ["unknown-setting.config", "ollama.hots", "did you mean `hosts`?"],
  },
  {
    name: "misspelt-section",
    mentions: ["misspelt-section.config", "olama", "did you mean `ollama`?"],
  },
  {
    name: "misspelt-budgets",
    mentions: ["misspelt-budgets.config", "budget", "did you mean `budgets`?"],
  },
  { name: "bad-url", mentions: ["bad-url.config", "ollama.host", "ftp:/nowhere"] },
  { name: "bad-concurrency", mentions: ["bad-concurrency.config", "ollama.concurrency"] },
  { name: "bad-timeout", mentions: ["bad-timeout.config", "ollama.timeoutMs", "soon"] },
  { name: "bad-fallback", mentions: ["bad-fallback.config", "fallback"] },
  { name: "bad-budget", mentions: ["bad-budget.config", "budgets.maxCalls", "-5"] },
  { name: "bad-hosts", mentions: ["bad-hosts.config", "ollama.hosts", "modles"] },
  { name: "bad-policy", mentions: ["bad-policy.config", "policy.purposes", "urgent"] },
];

/** Garbage model answers, by purpose, with the error each must decode to. */
export const answerCases: ReadonlyArray<
  BadCase & { readonly purpose: "act" | "profile" | "extract_memories"; readonly tag: string }
> = [
  { purpose: "act", name: "not-json", tag: "InvalidAnswer", mentions: ["act", "not valid JSON"] },
  {
    purpose: "act",
    name: "truncated-json",
    tag: "InvalidAnswer",
    mentions: ["act", "not valid JSON"],
  },
  { purpose: "act", name: "empty", tag: "InvalidAnswer", mentions: ["act", "not valid JSON"] },
  {
    purpose: "act",
    name: "control-bytes",
    tag: "InvalidAnswer",
    mentions: ["act", "not valid JSON"],
  },
  {
    purpose: "act",
    name: "fenced-garbage",
    tag: "InvalidAnswer",
    mentions: ["act", "not valid JSON"],
  },
  { purpose: "act", name: "array", tag: "InvalidAnswer", mentions: ["act", "format"] },
  { purpose: "act", name: "unknown-action", tag: "InvalidAnswer", mentions: ["act", "action"] },
  { purpose: "act", name: "missing-field", tag: "InvalidAnswer", mentions: ["act", "reason"] },
  { purpose: "act", name: "too-long", tag: "InvalidAnswer", mentions: ["act", "text"] },
  { purpose: "act", name: "out-of-range", tag: "InvalidAnswer", mentions: ["act", "hours"] },
  {
    purpose: "act",
    name: "unknown-location",
    tag: "UnknownId",
    mentions: ["act", "`to`", "atlantis"],
  },
  { purpose: "act", name: "unknown-npc", tag: "UnknownId", mentions: ["act", "`to`", "zed"] },
  {
    purpose: "act",
    name: "unknown-task",
    tag: "UnknownId",
    mentions: ["act", "`taskId`", "steal-bell"],
  },
  {
    purpose: "profile",
    name: "wrong-types",
    tag: "InvalidAnswer",
    mentions: ["profile", "backstory"],
  },
  {
    purpose: "profile",
    name: "missing-fields",
    tag: "InvalidAnswer",
    mentions: ["profile", "personality"],
  },
  {
    purpose: "extract_memories",
    name: "bad-lifetime",
    tag: "InvalidAnswer",
    mentions: ["extract_memories", "lifetime"],
  },
  {
    purpose: "extract_memories",
    name: "too-many",
    tag: "InvalidAnswer",
    mentions: ["extract_memories", "memories"],
  },
  {
    purpose: "extract_memories",
    name: "importance-out-of-range",
    tag: "InvalidAnswer",
    mentions: ["extract_memories", "importance"],
  },
];
