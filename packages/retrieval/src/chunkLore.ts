/**
 * Markdown lore to chunks of about 100–300 words along the heading hierarchy. Each chunk
 * keeps its heading path, tags (front matter and #hashtags) and entity names (front
 * matter plus names found in its text and headings). Long sections are split at
 * paragraph, then sentence, then word bounds; tiny neighbouring sections under the same
 * top heading are merged (their sub-headings kept inline). Lists, tables, quotes, HTML
 * and code fences all count as text; front matter does not.
 *
 * Chunk ids are `${sourceId}#${ord}`, or derived from the content hash when no source
 * id is given, so the same file always yields the same ids on every machine.
 */
import { type LoreChunk, type LoreChunkId, sha256 } from "@hearsay/core";
import { Result } from "effect";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { toString as mdToString } from "mdast-util-to-string";
import { frontmatter } from "micromark-extension-frontmatter";
import { decodeLoreText } from "./decodeLoreText.ts";
import { findNames } from "./findNames.ts";
import { type LoreFrontMatter, parseFrontMatter } from "./frontMatter.ts";
import { LoreFileError } from "./LoreFileError.ts";

/** Options for {@link chunkLore}. */
export interface ChunkLoreOptions {
  /** Prefix of every chunk id (default: `lore-` + 12 hex digits of the content hash). */
  readonly sourceId?: string;
  /** Chunks smaller than this are merged with a neighbour when they fit (default 100). */
  readonly minWords?: number;
  /** No chunk is longer than this (default 300). */
  readonly maxWords?: number;
}

type Root = ReturnType<typeof fromMarkdown>;
type Node = Root["children"][number];

interface Block {
  readonly path: ReadonlyArray<string>;
  readonly text: string;
}

interface Draft {
  path: ReadonlyArray<string>;
  units: Array<string>;
  words: number;
}

/** Longest "word" kept whole; longer runs (base64, URLs) are cut so chunks stay bounded. */
const MAX_WORD = 60;

const squash = (s: string): string => s.replace(/\s+/g, " ").trim();

const countWords = (s: string): number => s.match(/\S+/g)?.length ?? 0;

const cutLongWords = (s: string): string =>
  s.replace(new RegExp(`\\S{${MAX_WORD + 1},}`, "g"), (w) =>
    (w.match(new RegExp(`.{1,${MAX_WORD}}`, "g")) ?? []).join(" "),
  );

/** Text blocks of a node (a list gives one block per item, a table one per row). */
const blockTexts = (node: Node): Array<string> => {
  switch (node.type) {
    case "list":
      return node.children.map((item) => `- ${squash(mdToString(item))}`);
    case "table":
      return node.children.map((row) => row.children.map((c) => squash(mdToString(c))).join(" | "));
    case "code":
      return [squash(node.value)];
    case "html":
      return [squash(node.value.replace(/<[^>]*>/g, " "))];
    case "thematicBreak":
    case "definition":
    case "yaml":
      return [];
    default:
      return [squash(mdToString(node))];
  }
};

/**
 * Splits text longer than `max` words into pieces of at most `max` words: whole
 * sentences packed greedily, a sentence longer than `max` cut at word bounds.
 */
const splitUnit = (text: string, max: number): Array<string> => {
  if (countWords(text) <= max) return [text];
  const sentences = text.match(/[^.!?]+(?:[.!?]+["')\]]*|$)\s*/g) ?? [text];
  const out: Array<string> = [];
  let cur: Array<string> = [];
  const flush = () => {
    if (cur.length > 0) out.push(cur.join(" "));
    cur = [];
  };
  for (const s of sentences) {
    const ws = s.trim().split(/\s+/).filter(Boolean);
    if (cur.length + ws.length > max) flush();
    for (let i = 0; i < ws.length; i += max) {
      const part = ws.slice(i, i + max);
      if (cur.length + part.length > max) flush();
      cur.push(...part);
    }
  }
  flush();
  return out;
};

/** Packs units of one section into drafts of at most `max` words, with no tiny tail. */
const pack = (path: ReadonlyArray<string>, units: Array<string>, min: number, max: number) => {
  const drafts: Array<Draft> = [];
  let cur: Draft = { path, units: [], words: 0 };
  for (const u of units.flatMap((x) => splitUnit(x, max))) {
    const w = countWords(u);
    if (cur.words > 0 && cur.words + w > max) {
      drafts.push(cur);
      cur = { path, units: [], words: 0 };
    }
    cur.units.push(u);
    cur.words += w;
  }
  if (cur.words > 0) drafts.push(cur);
  const last = drafts[drafts.length - 1];
  const prev = drafts[drafts.length - 2];
  if (last && prev && last.words < min) {
    // Rebalance the last two so the tail is not a scrap; each half stays within max.
    const all = [...prev.units, ...last.units].flatMap((u) => splitUnit(u, Math.ceil(max / 2)));
    const total = prev.words + last.words;
    const a: Draft = { path, units: [], words: 0 };
    const b: Draft = { path, units: [], words: 0 };
    for (const u of all) {
      const target = a.words < total / 2 ? a : b;
      target.units.push(u);
      target.words += countWords(u);
    }
    drafts.splice(drafts.length - 2, 2, ...[a, b].filter((d) => d.words > 0));
  }
  return drafts;
};

const commonPrefix = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): Array<string> => {
  const out: Array<string> = [];
  for (let i = 0; i < Math.min(a.length, b.length) && a[i] === b[i]; i++) out.push(a[i]!);
  return out;
};

/** Merges tiny neighbours that share a top heading, keeping lost sub-headings inline. */
const mergeTiny = (drafts: Array<Draft>, min: number, max: number): Array<Draft> => {
  const out: Array<Draft> = [];
  for (const d of drafts) {
    const prev = out[out.length - 1];
    const sameTop = prev !== undefined && (prev.path[0] ?? "") === (d.path[0] ?? "");
    if (prev && sameTop && (d.words < min || prev.words < min) && prev.words + d.words <= max) {
      const shared = commonPrefix(prev.path, d.path);
      const label = (p: ReadonlyArray<string>) => p.slice(shared.length).join(" / ");
      if (prev.path.length > shared.length) prev.units.unshift(`${label(prev.path)}:`);
      if (d.path.length > shared.length) prev.units.push(`${label(d.path)}:`);
      prev.units.push(...d.units);
      prev.words += d.words;
      prev.path = shared;
    } else out.push({ ...d, units: [...d.units] });
  }
  return out;
};

const hashtags = (text: string): Array<string> =>
  [...text.matchAll(/(?:^|\s)#([\p{L}][\p{L}\p{N}_-]*)/gu)].map((m) => m[1]!.toLowerCase());

const stem = (path: string): string => {
  const base = path.split(/[\\/]/).pop() ?? path;
  return base.replace(/\.(md|markdown|txt)$/i, "") || base;
};

/** Parses decoded markdown into heading-scoped blocks and its front matter. */
const parse = (file: string, text: string): { blocks: Array<Block>; meta: LoreFrontMatter } => {
  const tree = fromMarkdown(text, {
    extensions: [frontmatter(["yaml", "toml"])],
    mdastExtensions: [frontmatterFromMarkdown(["yaml", "toml"])],
  });
  let meta: LoreFrontMatter = { title: null, tags: [], entities: [] };
  const stack: Array<string> = [];
  const blocks: Array<Block> = [];
  for (const node of tree.children) {
    const raw = node as { type: string; value?: string };
    if (raw.type === "yaml" || raw.type === "toml") {
      meta = parseFrontMatter(raw.value ?? "");
      continue;
    }
    if (node.type === "heading") {
      const title = squash(mdToString(node));
      stack.length = node.depth - 1;
      stack[node.depth - 1] = title;
      continue;
    }
    const headings = stack.filter((s): s is string => typeof s === "string" && s.length > 0);
    const path = headings.length > 0 ? headings : [meta.title ?? stem(file)];
    for (const t of blockTexts(node)) if (t.length > 0) blocks.push({ path, text: t });
  }
  return { blocks, meta };
};

/**
 * Chunks one lore file. Fails with a {@link LoreFileError} naming `path` when the bytes
 * are empty, binary, not UTF-8, too large, or hold no text outside front matter.
 */
export const chunkLore = (
  path: string,
  bytes: Uint8Array | string,
  options: ChunkLoreOptions = {},
): Result.Result<ReadonlyArray<LoreChunk>, LoreFileError> => {
  const min = options.minWords ?? 100;
  const max = options.maxWords ?? 300;
  const decoded =
    typeof bytes === "string"
      ? decodeLoreText(path, Buffer.from(bytes, "utf8"))
      : decodeLoreText(path, bytes);
  if (Result.isFailure(decoded)) return Result.fail(decoded.failure);
  const text = cutLongWords(decoded.success);
  const { blocks, meta } = parse(path, text);
  if (blocks.length === 0) {
    return Result.fail(
      new LoreFileError({ path, problem: "no-text", detail: "no text outside the front matter" }),
    );
  }
  const sections: Array<{ path: ReadonlyArray<string>; units: Array<string> }> = [];
  for (const b of blocks) {
    const last = sections[sections.length - 1];
    if (last && last.path.join("\u0000") === b.path.join("\u0000")) last.units.push(b.text);
    else sections.push({ path: b.path, units: [b.text] });
  }
  const drafts = mergeTiny(
    sections.flatMap((s) => pack(s.path, s.units, min, max)),
    min,
    max,
  );
  const prefix = options.sourceId ?? `lore-${sha256(decoded.success).slice(0, 12)}`;
  return Result.succeed(
    drafts.map((d, ord): LoreChunk => {
      const body = d.units.join("\n");
      const named = findNames(`${d.path.join(". ")}. ${body}`);
      return {
        chunkId: `${prefix}#${ord}` as LoreChunkId,
        headingPath: d.path,
        text: body,
        tags: [...new Set([...meta.tags, ...hashtags(body)])],
        entities: [...new Set([...meta.entities, ...named])].slice(0, 24),
      };
    }),
  );
};
