import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importLore, type LoreImportFailed, readLoreFiles } from "@hearsay/retrieval";
import { Result } from "effect";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openWorld, type TestWorld } from "./fixtures.ts";

let world: TestWorld;
beforeEach(() => {
  world = openWorld();
});
afterEach(() => world.db.close());

const chunks = () =>
  world.db
    .prepare("SELECT chunk_id, source_id FROM lore_chunks WHERE save_id = ? ORDER BY rowid")
    .all(world.saveId) as Array<{
    chunk_id: string;
    source_id: string;
  }>;
const good = "# Harbor\n\nThe harbor of Keln is guarded by Captain Venn.\n";

describe("importLore", () => {
  it("imports through the event log and skips unchanged content", () => {
    const r1 = importLore(world.db, world.log, {
      saveId: world.saveId,
      t: 5,
      files: [{ path: "keln.md", bytes: good }],
    });
    expect(Result.isSuccess(r1) && r1.success.files[0]!.status).toBe("imported");
    expect(chunks()).toEqual([{ chunk_id: "lore:keln.md#0", source_id: "lore:keln.md" }]);
    const events = world.log.read(world.saveId).filter((e) => e.type === "LoreImported");
    expect(events).toHaveLength(1);
    const head = world.log.head(world.saveId);
    const r2 = importLore(world.db, world.log, {
      saveId: world.saveId,
      t: 6,
      files: [{ path: "keln.md", bytes: good }],
    });
    expect(Result.isSuccess(r2) && r2.success.files[0]!.status).toBe("unchanged");
    expect(world.log.head(world.saveId)).toBe(head);
  });

  it("replaces a changed file's chunks, and can change back", () => {
    const other = `${good}\n## Tides\n\n${"The tide rises and falls. ".repeat(40)}`;
    for (const [i, bytes] of [good, other, good].entries()) {
      const r = importLore(world.db, world.log, {
        saveId: world.saveId,
        t: i,
        files: [{ path: "keln.md", bytes }],
      });
      expect(Result.isSuccess(r) && r.success.files[0]!.status).toBe("imported");
    }
    expect(chunks().map((c) => c.chunk_id)).toEqual(["lore:keln.md#0"]);
  });

  it("writes nothing when any file is bad, and names every bad file", () => {
    const head = world.log.head(world.saveId);
    const bad = [
      { path: "ok.md", bytes: good },
      { path: "empty.md", bytes: "" },
      { path: "binary.md", bytes: new Uint8Array([0, 1, 2, 3, 255]) },
      { path: "latin1.md", bytes: new Uint8Array([0x48, 0x69, 0xe9, 0x0a]) },
      { path: "front.md", bytes: "---\ntitle: Only front matter\n---\n" },
    ];
    const r = importLore(world.db, world.log, { saveId: world.saveId, t: 1, files: bad });
    expect(Result.isFailure(r)).toBe(true);
    const err = (r as Result.Failure<unknown, LoreImportFailed>).failure;
    expect(err.errors.map((e) => `${e.path}:${e.problem}`)).toEqual([
      "empty.md:empty",
      "binary.md:binary",
      "latin1.md:invalid-utf8",
      "front.md:no-text",
    ]);
    expect(err.message.split("\n")).toHaveLength(4);
    expect(world.log.head(world.saveId)).toBe(head);
    expect(chunks()).toEqual([]);
  });

  it("accepts awkward but valid files: CRLF, code fences, front matter, one huge section", () => {
    const files = [
      { path: "crlf.md", bytes: "# A\r\n\r\nLine one about the Mill.\r\n" },
      { path: "code.md", bytes: "# Spells\n\n```\nfireball(3)\n```\n" },
      { path: "front.md", bytes: "---\ntags: [magic]\n---\n# Magic\n\nMagic is rare.\n" },
      { path: "huge.md", bytes: `# Epic\n\n${"word ".repeat(50_000)}` },
      { path: "flat.md", bytes: "No headings here, just a note about Keln." },
    ];
    const r = importLore(world.db, world.log, { saveId: world.saveId, t: 1, files });
    if (Result.isFailure(r)) throw new Error(r.failure.message);
    const counts = Object.fromEntries(r.success.files.map((f) => [f.path, f.chunks]));
    expect(counts["huge.md"]).toBeGreaterThanOrEqual(167);
    expect(counts["crlf.md"]).toBe(1);
    const tags = world.db
      .prepare("SELECT tags FROM lore_chunks WHERE source_id = 'lore:front.md'")
      .pluck()
      .get();
    expect(JSON.parse(String(tags))).toEqual(["magic"]);
  });

  it("reads files and directories relative to a root, and names unreadable paths", () => {
    const dir = mkdtempSync(join(tmpdir(), "hearsay-lore-"));
    try {
      mkdirSync(join(dir, "sub"));
      writeFileSync(join(dir, "b.md"), good);
      writeFileSync(join(dir, "sub", "a.markdown"), good);
      writeFileSync(join(dir, "sub", "skip.txt"), "not lore");
      const r = readLoreFiles([dir], dir);
      expect(Result.isSuccess(r) && r.success.map((f) => f.path)).toEqual([
        "b.md",
        "sub/a.markdown",
      ]);
      const missing = readLoreFiles([join(dir, "nope.md")], dir);
      expect(Result.isFailure(missing) && missing.failure.errors[0]!.message).toMatch(
        /^nope\.md: .*check the path/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
