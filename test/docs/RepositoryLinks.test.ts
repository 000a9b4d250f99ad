/**
 * Every relative link a user can follow in the repository's markdown — the README, docs/,
 * bench/, examples/ and each package's README — reaches a file in the repository, and a
 * link with a #fragment reaches a heading of that file. A page moved or a heading renamed
 * would otherwise leave dead links that nothing notices; a link out of the checkout
 * (`../shared/…`, an absolute path) would point a user at a file they do not have.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { headingSlugs, markdownLinks } from "./markdownLinks.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

const mdIn = (dir: string): Array<string> =>
  existsSync(join(root, dir))
    ? readdirSync(join(root, dir))
        .filter((f) => f.endsWith(".md"))
        .map((f) => join(dir, f))
    : [];

const pages: Array<string> = [
  "README.md",
  ...mdIn("docs"),
  ...mdIn("bench"),
  ...readdirSync(join(root, "packages")).flatMap((p) => mdIn(join("packages", p))),
  ...readdirSync(join(root, "examples")).flatMap((e) => mdIn(join("examples", e))),
];

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** Where each link of `page` goes wrong, one line each; empty when every link resolves. */
const brokenLinks = (page: string): Array<string> => {
  const text = readFileSync(join(root, page), "utf8");
  const problems: Array<string> = [];
  for (const { target, line } of markdownLinks(text)) {
    if (isExternal(target)) continue;
    const at = `${page}:${line}: ${target}`;
    const [path = "", fragment] = target.split("#", 2);
    if (path.startsWith("/")) {
      problems.push(`${at}: an absolute path; link relative to ${page}`);
      continue;
    }
    const file = path === "" ? join(root, page) : resolve(root, dirname(page), decodeURI(path));
    const inRepo = relative(root, file);
    if (inRepo.startsWith("..")) {
      problems.push(`${at}: outside the repository; link a file in it`);
      continue;
    }
    if (!existsSync(file)) {
      problems.push(`${at}: no such file`);
      continue;
    }
    if (fragment === undefined || fragment === "") continue;
    if (statSync(file).isDirectory() || !file.endsWith(".md")) {
      problems.push(`${at}: a #fragment on a file that is not markdown`);
      continue;
    }
    if (!headingSlugs(readFileSync(file, "utf8")).has(fragment))
      problems.push(`${at}: no heading #${fragment} in ${inRepo}`);
  }
  return problems;
};

describe("markdown links", () => {
  it("finds the pages and their links", () => {
    expect(pages).toContain("README.md");
    expect(pages).toContain(join("docs", "ARCHITECTURE.md"));
    expect(markdownLinks(readFileSync(join(root, "README.md"), "utf8")).length).toBeGreaterThan(10);
  });

  it.each(pages)("%s: every relative link reaches a file and heading in the repository", (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });
});
