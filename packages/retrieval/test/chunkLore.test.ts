import { chunkLore, type LoreFileError } from "@hearsay/retrieval";
import { Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const ok = (path: string, text: string | Uint8Array, opts = {}) => {
  const r = chunkLore(path, text, opts);
  if (Result.isFailure(r)) throw new Error(r.failure.message);
  return r.success;
};
const fail = (path: string, bytes: string | Uint8Array): LoreFileError => {
  const r = chunkLore(path, bytes);
  if (Result.isSuccess(r)) throw new Error("expected a failure");
  return r.failure;
};
const countWords = (s: string) => s.match(/\S+/g)?.length ?? 0;
const para = (n: number, word = "lorem") =>
  Array.from({ length: n }, (_, i) => `${word}${i}${i % 12 === 11 ? "." : ""}`).join(" ");

describe("chunkLore", () => {
  it("chunks along headings with heading paths, tags and entities", () => {
    const md = `---\ntitle: Keln\ntags: [harbor, trade]\nentities:\n  - Captain Aldra Venn\n---\n# Keln Harbor\n\n${para(150)} The Guild of Salt meets at the Old Mill.\n\n## Tides\n\n${para(160, "tide")}\n`;
    const chunks = ok("lore/keln.md", md, { sourceId: "lore:keln.md" });
    expect(chunks.map((c) => c.headingPath)).toEqual([["Keln Harbor"], ["Keln Harbor", "Tides"]]);
    expect(chunks.map((c) => c.chunkId)).toEqual(["lore:keln.md#0", "lore:keln.md#1"]);
    expect(chunks[0]!.tags).toEqual(["harbor", "trade"]);
    expect(chunks[0]!.entities).toEqual(
      expect.arrayContaining(["Captain Aldra Venn", "Guild of Salt", "Old Mill"]),
    );
    expect(chunks.every((c) => !c.text.includes("title:"))).toBe(true);
  });

  it("splits one 50,000-word section into bounded chunks without losing a word", () => {
    const text = `# Chronicle\n\n${para(50_000)}\n`;
    const chunks = ok("lore/big.md", text);
    expect(chunks.length).toBeGreaterThan(160);
    for (const c of chunks) {
      expect(countWords(c.text)).toBeLessThanOrEqual(300);
      expect(countWords(c.text)).toBeGreaterThanOrEqual(100);
      expect(c.text.length).toBeLessThanOrEqual(20_000);
    }
    expect(
      chunks
        .map((c) => c.text)
        .join(" ")
        .split(/\s+/),
    ).toEqual(para(50_000).split(/\s+/));
  });

  it("keeps text with no headings under the title or file name", () => {
    expect(ok("lore/notes.md", "Just a paragraph about the Old Mill.")[0]!.headingPath).toEqual([
      "notes",
    ]);
    expect(ok("lore/notes.md", "---\ntitle: Field Notes\n---\nSome text.")[0]!.headingPath).toEqual(
      ["Field Notes"],
    );
  });

  it("keeps code fences as text and merges tiny sections", () => {
    const md =
      "# Rules\n\n## A\n\nShort one.\n\n## B\n\n```\nlet x = 1;\n```\n\n## C\n\nAnother short one.\n";
    const chunks = ok("lore/rules.md", md);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.headingPath).toEqual(["Rules"]);
    expect(chunks[0]!.text).toContain("let x = 1;");
    expect(chunks[0]!.text).toContain("B:");
  });

  it("chunks CRLF and LF files identically", () => {
    const md = `# Title\n\n${para(120)}\n\n## Sub\n\n${para(130, "sub")}\n`;
    expect(ok("a.md", md.replace(/\n/g, "\r\n"))).toEqual(ok("a.md", md));
  });

  it("refuses bad files with an error naming the file", () => {
    expect(fail("lore/empty.md", "").problem).toBe("empty");
    expect(fail("lore/blank.md", " \n\t\n").problem).toBe("empty");
    expect(fail("lore/front.md", "---\ntitle: x\n---\n").problem).toBe("no-text");
    const bin = fail("lore/pic.md", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
    expect(bin.problem).toBe("binary");
    const utf = fail("lore/latin1.md", new Uint8Array([0x41, 0x42, 0xe9, 0x43]));
    expect(utf.problem).toBe("invalid-utf8");
    expect(utf.message).toMatch(/^lore\/latin1\.md: invalid UTF-8 at byte 2; /);
    expect(bin.message.startsWith("lore/pic.md: ")).toBe(true);
  });

  it("gives the same ids for the same content", () => {
    const md = "# A\n\nSome lore about the Old Mill.";
    expect(ok("x.md", md).map((c) => c.chunkId)).toEqual(ok("y.md", md).map((c) => c.chunkId));
  });

  it("never exceeds the word limit and keeps every body word (property)", () => {
    const word = fc.stringMatching(/^[a-z]{1,12}$/);
    const section = fc.record({
      level: fc.integer({ min: 1, max: 3 }),
      title: fc.stringMatching(/^[A-Z][a-z]{2,8}$/),
      paras: fc.array(fc.array(word, { minLength: 1, maxLength: 400 }), {
        minLength: 1,
        maxLength: 4,
      }),
    });
    fc.assert(
      fc.property(fc.array(section, { minLength: 1, maxLength: 6 }), (sections) => {
        const md = sections
          .map(
            (s) =>
              `${"#".repeat(s.level)} ${s.title}\n\n${s.paras.map((p) => p.join(" ")).join("\n\n")}`,
          )
          .join("\n\n");
        const chunks = ok("p.md", md);
        const body = sections.flatMap((s) => s.paras.flat());
        const got = chunks.flatMap((c) => c.text.split(/\s+/)).filter((w) => !w.endsWith(":"));
        for (const c of chunks) expect(countWords(c.text)).toBeLessThanOrEqual(300 + 6);
        expect(got.filter((w) => /^[a-z]+$/.test(w))).toEqual(body);
      }),
      { numRuns: process.env.HEARSAY_DEEP ? 2000 : 60 },
    );
  });
});
