/**
 * The few front-matter fields lore uses — `title`, `tags` and `entities` (also `names`,
 * `aliases`) — read from YAML or TOML front matter without a YAML dependency: scalar
 * `key: value`, inline lists `key: [a, b]` and block lists (`key:` then `- a` lines).
 * Anything else in the front matter is ignored, never an error.
 */

/** What lore reads from a file's front matter. */
export interface LoreFrontMatter {
  readonly title: string | null;
  readonly tags: ReadonlyArray<string>;
  readonly entities: ReadonlyArray<string>;
}

const unquote = (s: string): string => {
  const t = s.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0]) {
    return t.slice(1, -1).trim();
  }
  return t;
};

const inlineList = (s: string): Array<string> => {
  const t = s.trim();
  const body = t.startsWith("[") && t.endsWith("]") ? t.slice(1, -1) : t;
  return body
    .split(",")
    .map(unquote)
    .filter((x) => x.length > 0);
};

/** Parses the raw text between the front-matter fences. */
export const parseFrontMatter = (raw: string): LoreFrontMatter => {
  const fields = new Map<string, Array<string>>();
  let listKey: string | null = null;
  for (const line of raw.split("\n")) {
    const item = /^\s*-\s+(.*)$/.exec(line);
    if (item && listKey !== null) {
      fields.get(listKey)!.push(unquote(item[1]!));
      continue;
    }
    const kv = /^([A-Za-z_][\w-]*)\s*[:=]\s*(.*)$/.exec(line);
    if (!kv) continue;
    const key = kv[1]!.toLowerCase();
    const value = kv[2]!.trim();
    if (value.length === 0) {
      listKey = key;
      fields.set(key, []);
    } else {
      listKey = null;
      fields.set(key, value.startsWith("[") ? inlineList(value) : [unquote(value)]);
    }
  }
  const list = (...keys: Array<string>): Array<string> => keys.flatMap((k) => fields.get(k) ?? []);
  const title = fields.get("title")?.[0] ?? null;
  const tags = list("tags", "tag").flatMap((t) => (t.includes(",") ? inlineList(t) : [t]));
  return {
    title: title !== null && title.length > 0 ? title : null,
    tags: [...new Set(tags.map((t) => t.toLowerCase()))],
    entities: [...new Set(list("entities", "names", "aliases"))],
  };
};
