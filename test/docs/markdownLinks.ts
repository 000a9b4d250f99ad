/**
 * The links of a markdown page and the anchors its headings get, as GitHub renders them:
 * enough markdown to check a repository's own pages (links and images inline or by
 * reference, outside code spans and fenced blocks; ATX headings), not a general parser.
 */

export interface MarkdownLink {
  readonly target: string;
  /** 1-based line of the page the link is on. */
  readonly line: number;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** Each line of the page outside fenced code blocks, with its 1-based number. */
const proseLines = (text: string): Array<{ readonly text: string; readonly line: number }> => {
  const out: Array<{ text: string; line: number }> = [];
  let fence: string | null = null;
  text.split("\n").forEach((line, i) => {
    const open = FENCE.exec(line)?.[1];
    if (fence === null && open !== undefined) fence = open;
    else if (
      fence !== null &&
      open !== undefined &&
      open[0] === fence[0] &&
      open.length >= fence.length
    )
      fence = null;
    else if (fence === null) out.push({ text: line, line: i + 1 });
  });
  return out;
};

/** The line with its code spans (`…`, ``…``) blanked out, so their text is no link. */
const withoutCodeSpans = (line: string): string =>
  line.replace(/(`+)[\s\S]*?\1/g, (span) => " ".repeat(span.length));

const INLINE = /\]\(\s*<?([^()\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const REFERENCE = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/;

/** Every link and image target of the page, in order. */
export const markdownLinks = (text: string): Array<MarkdownLink> =>
  proseLines(text).flatMap(({ text: raw, line }) => {
    const prose = withoutCodeSpans(raw);
    const inline = [...prose.matchAll(INLINE)].map((m) => ({ target: m[1] ?? "", line }));
    const reference = REFERENCE.exec(prose)?.[1];
    return reference === undefined ? inline : [...inline, { target: reference, line }];
  });

/** GitHub's anchor for a heading's text: inline markup dropped, punctuation removed. */
export const slugOf = (heading: string): string =>
  heading
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/`/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");

const HEADING = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;
const HTML_ANCHOR = /<a\s+(?:name|id)="([^"]+)"/g;

/** Every anchor a link into the page can name: its headings' (a repeat gets -1, -2 …) and explicit `<a id>`s. */
export const headingSlugs = (text: string): ReadonlySet<string> => {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: line } of proseLines(text)) {
    for (const m of line.matchAll(HTML_ANCHOR)) if (m[1] !== undefined) slugs.add(m[1]);
    const heading = HEADING.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slugOf(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  return slugs;
};
