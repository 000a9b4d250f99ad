/**
 * docs/FORMATS.md, the export's public contract, describes every event the code writes:
 * a payload row per event type, marked with its version when that is above 1, naming
 * each of its payload's fields; and no row for a type the code does not have. An event
 * added, versioned or given a field without its line here fails.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { currentVersions, Event } from "@hearsay/core";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const doc = readFileSync(join(root, "docs/FORMATS.md"), "utf8");

/** The payload table's rows: type → (version marker, the row's text). */
const rows = new Map<string, { readonly version: number; readonly text: string }>();
const start = doc.indexOf("## Payloads");
for (const line of doc.slice(start, doc.indexOf("\n## ", start + 1)).split("\n")) {
  const m = /^\| `(\w+)`(?: \(v(\d+)\))? \| (.*) \|$/.exec(line);
  if (m?.[1] !== undefined) rows.set(m[1], { version: Number(m[2] ?? 1), text: m[3] ?? "" });
}

const members = Event.members.map((m) => ({
  type: m.fields.type.schema.literal as string,
  fields: Object.keys(m.fields.payload.fields),
}));

describe("docs/FORMATS.md payloads", () => {
  it("has a row for every event type and none other", () => {
    expect(members.length).toBeGreaterThan(30);
    expect([...rows.keys()].sort()).toEqual(members.map((m) => m.type).sort());
  });

  it.each(members.map((m) => [m.type, m] as const))(
    "%s: its version and every payload field",
    (type, member) => {
      const row = rows.get(type);
      expect(row?.version).toBe(currentVersions.get(type as never));
      const missing = member.fields.filter((f) => !row?.text.includes(`\`${f}`));
      expect(missing).toEqual([]);
    },
  );
});
