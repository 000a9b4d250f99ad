/**
 * The command reference users read matches the command: docs/CLI.md has a section for
 * every command (and subcommand) that names each of its flags, and the README's CLI
 * table links every command to its section. A flag added, renamed or removed without its
 * documentation fails here, rather than leaving a reference that disagrees with --help.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type AnyCommand, commands } from "../src/commands/index.ts";

const read = (path: string): string =>
  readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), "utf8");

const cliDoc = read("docs/CLI.md");
const readme = read("README.md");

/**
 * The parts of effect/cli's command this needs: its help document (the flags --help
 * lists) and its subcommand groups. Both are on every command at run time; the public
 * type leaves them out.
 */
interface Introspected {
  readonly buildHelpDoc: (path: ReadonlyArray<string>) => {
    readonly flags: ReadonlyArray<{ readonly name: string }>;
  };
  readonly subcommands: ReadonlyArray<{ readonly commands: ReadonlyArray<AnyCommand> }>;
  readonly name: string;
}

interface Leaf {
  readonly path: ReadonlyArray<string>;
  readonly flags: ReadonlyArray<string>;
}

/** Every runnable command under `command`, by its path below `hearsay`, with its flags. */
const leaves = (command: AnyCommand, parent: ReadonlyArray<string>): Array<Leaf> => {
  const c = command as unknown as Introspected;
  const path = [...parent, c.name];
  const children = c.subcommands.flatMap((g) => g.commands);
  if (children.length > 0) return children.flatMap((child) => leaves(child, path));
  return [{ path, flags: c.buildHelpDoc(["hearsay", ...path]).flags.map((f) => f.name) }];
};

const all = (await Promise.all(commands.map(async (e) => leaves(await e.load(), [])))).flat();

/** The text of docs/CLI.md's section `## \`hearsay <path>\``, up to the next section. */
const section = (path: ReadonlyArray<string>): string | null => {
  const heading = `## \`hearsay ${path.join(" ")}\``;
  const start = cliDoc.split("\n").findIndex((l) => l.trim() === heading);
  if (start === -1) return null;
  const rest = cliDoc.split("\n").slice(start + 1);
  const end = rest.findIndex((l) => l.startsWith("## "));
  return (end === -1 ? rest : rest.slice(0, end)).join("\n");
};

describe("the command reference", () => {
  it("knows every command, subcommands included", () => {
    expect(all.map((l) => l.path.join(" "))).toEqual(
      expect.arrayContaining(["run", "lore import", "index rebuild", "index status", "serve"]),
    );
    expect(all.find((l) => l.path[0] === "run")?.flags).toContain("checkpoint-every");
  });

  it.each(all.map((l) => [l.path.join(" "), l] as const))(
    "docs/CLI.md documents `%s` and each of its flags",
    (_, leaf) => {
      const text = section(leaf.path);
      expect(
        text,
        `no section "## \`hearsay ${leaf.path.join(" ")}\`" in docs/CLI.md`,
      ).not.toBeNull();
      const missing = leaf.flags.filter((f) => !new RegExp(`--${f}(?![\\w-])`).test(text ?? ""));
      expect(missing, `flags missing from its section in docs/CLI.md`).toEqual([]);
    },
  );

  it.each(all.map((l) => [l.path.join(" "), l] as const))(
    "the README's CLI table links `%s` to its section",
    (name, leaf) => {
      const anchor = `docs/CLI.md#hearsay-${leaf.path.join("-")}`;
      expect(readme).toContain(`[\`${name}\`](${anchor})`);
    },
  );
});
