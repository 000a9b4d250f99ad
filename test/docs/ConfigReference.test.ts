/**
 * docs/CONFIG.md names every setting the code reads, and no setting it does not: each
 * `hearsay.config` key (the keys the loader accepts, read off its refusal of an unknown
 * one, which lists them) and each engine config key with its nested fields. A key added
 * or renamed in the code without its line in the reference fails here.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultEngineConfig } from "@hearsay/engine";
import { loadMindConfig } from "@hearsay/mind";
import { Effect } from "effect";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const doc = readFileSync(join(root, "docs/CONFIG.md"), "utf8");

/** Keys named in the first column of the page's tables: `a`, `a.b`, or several in one cell. */
const tableKeys = (heading: string): Set<string> => {
  const start = doc.indexOf(heading);
  const end = doc.indexOf("\n## ", start + heading.length);
  const part = doc.slice(start, end === -1 ? undefined : end);
  const keys = new Set<string>();
  for (const line of part.split("\n")) {
    const first = /^\| ([^|]+) \|/.exec(line)?.[1];
    if (first === undefined) continue;
    for (const m of first.matchAll(/`([A-Za-z][\w.]*)`/g)) if (m[1] !== undefined) keys.add(m[1]);
  }
  return keys;
};

/** The keys `loadMindConfig` accepts at `section` (top level: null), from its "use one of …" fix. */
const acceptedKeys = (section: string | null): Array<string> => {
  const dir = mkdtempSync(join(tmpdir(), "hearsay-config-doc-"));
  try {
    const path = join(dir, "hearsay.config");
    const unknown = { qqqqqqqqqq: 1 };
    writeFileSync(path, JSON.stringify(section === null ? unknown : { [section]: unknown }));
    const error = Effect.runSync(Effect.flip(loadMindConfig({ path, env: {} })));
    const list = /use one of (.+)$/.exec(error.fix)?.[1];
    if (list === undefined) throw new Error(`unexpected fix: ${error.fix}`);
    return list.split(", ");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

describe("docs/CONFIG.md", () => {
  it("lists every hearsay.config key, and only those", () => {
    const sections = acceptedKeys(null);
    expect(sections).toContain("ollama");
    const accepted = sections.flatMap((s) => {
      if (s === "fallback" || s === "embedder") return [s];
      return acceptedKeys(s).map((k) => `${s}.${k}`);
    });
    expect(accepted).toContain("policy.nearHops");
    const documented = tableKeys("## `hearsay.config`");
    expect([...documented].sort()).toEqual([...accepted].sort());
  });

  it("lists every engine config key and nested field", () => {
    const expected = Object.entries(defaultEngineConfig).flatMap(([key, value]) =>
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? [key, ...Object.keys(value).map((k) => `${key}.${k}`)]
        : [key],
    );
    expect(expected).toContain("memoryDecay.forgetBelow");
    const documented = tableKeys("## The engine config");
    expect(expected.filter((k) => !documented.has(k))).toEqual([]);
    expect([...documented].filter((k) => !expected.includes(k))).toEqual([]);
  });
});
