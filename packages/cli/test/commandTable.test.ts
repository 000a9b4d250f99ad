/**
 * The lazy command table: `hearsay --help` lists each command by the name and
 * description in commands/index.ts without loading it, so those must be the ones the
 * command's own module gives; and a command name given as a flag's value must not be
 * taken for the subcommand.
 */
import { describe, expect, it } from "vitest";
import { commands, commandsFor } from "../src/commands/index.ts";

describe("the command table", () => {
  it.each(commands.map((c) => [c.name, c] as const))(
    "%s: its listing matches its module",
    async (_, entry) => {
      const loaded = await entry.load();
      expect(loaded.name).toBe(entry.name);
      expect(loaded.description).toBe(entry.description);
    },
  );

  it("has each name once", () => {
    expect(new Set(commands.map((c) => c.name)).size).toBe(commands.length);
  });

  it("loads only the command named first", async () => {
    const [only, ...rest] = await commandsFor(["dossier", "--npc", "run", "--db", "x.db"]);
    expect(rest).toEqual([]);
    expect(only?.name).toBe("dossier");
  });

  it("lists every command when none is named", async () => {
    const listed = await commandsFor(["--help"]);
    expect(listed.map((c) => c.name)).toEqual(commands.map((c) => c.name));
  });
});
