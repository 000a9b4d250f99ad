import { describe, expect, it } from "vitest";
import { headingSlugs, markdownLinks, slugOf } from "./markdownLinks.ts";

describe("markdownLinks", () => {
  it("finds inline links, images and references, with their lines", () => {
    const page = 'See [a](docs/A.md#x) and ![b](img.png "t").\n\n[ref]: ../B.md\n';
    expect(markdownLinks(page)).toEqual([
      { target: "docs/A.md#x", line: 1 },
      { target: "img.png", line: 1 },
      { target: "../B.md", line: 3 },
    ]);
  });

  it("skips code spans and fenced blocks", () => {
    const page = "`[a](x.md)` and ``[b](y.md)``\n```md\n[c](z.md)\n```\n[d](w.md)\n";
    expect(markdownLinks(page)).toEqual([{ target: "w.md", line: 5 }]);
  });
});

describe("headingSlugs", () => {
  it("makes GitHub's anchors", () => {
    expect(slugOf("Talking to NPCs: `hearsay chat` and `hearsay serve`")).toBe(
      "talking-to-npcs-hearsay-chat-and-hearsay-serve",
    );
    expect(slugOf("`hearsay.config`: the brain and the index")).toBe(
      "hearsayconfig-the-brain-and-the-index",
    );
    expect(slugOf("hearsay — architecture")).toBe("hearsay--architecture");
    expect(slugOf("See [the CLI](CLI.md) (all_of it)")).toBe("see-the-cli-all_of-it");
  });

  it("numbers repeated headings and ignores fenced ones", () => {
    const page = '# A\n## A\n```\n# B\n```\n<a id="c"></a>\n';
    expect([...headingSlugs(page)].sort()).toEqual(["a", "a-1", "c"]);
  });
});
