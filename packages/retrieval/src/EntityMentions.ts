/**
 * Which entity names a text mentions: every phrase of one to four consecutive words that
 * is an interned entity name (lower case). A phrase is lengthened only while some name
 * goes on from it, so most words cost one lookup rather than four phrases built and looked
 * up: which names are found is the same, since a name of more words always begins with
 * each of its shorter word-prefixes.
 */
import type { Interner } from "./Interner.ts";
import { words } from "./words.ts";

/** The longest phrase looked up, in words. */
const MAX_WORDS = 4;

/** An interner's names' proper word-prefixes, filled up to `size` names (names only grow). */
interface Prefixes {
  size: number;
  readonly set: Set<string>;
}

const prefixesOf = new WeakMap<Interner, Prefixes>();

/** The proper word-prefixes (of up to `MAX_WORDS - 1` words) of every name `entities` holds. */
const prefixes = (entities: Interner): ReadonlySet<string> => {
  let p = prefixesOf.get(entities);
  if (p === undefined) {
    p = { size: 0, set: new Set() };
    prefixesOf.set(entities, p);
  }
  for (; p.size < entities.size; p.size++) {
    const parts = entities.value(p.size).split(" ");
    let prefix = "";
    for (let k = 0; k < parts.length - 1 && k < MAX_WORDS - 1; k++) {
      prefix = k === 0 ? parts[0]! : `${prefix} ${parts[k]}`;
      p.set.add(prefix);
    }
  }
  return p.set;
};

/** Entity names (interned, lower case) that occur in `text` as 1–4 word phrases. */
export const entitiesIn = (entities: Interner, text: string): Set<number> => {
  const out = new Set<number>();
  const ws = words(text);
  const going = prefixes(entities);
  for (let i = 0; i < ws.length; i++) {
    let phrase = "";
    for (let n = 0; n < MAX_WORDS && i + n < ws.length; n++) {
      phrase = n === 0 ? ws[i]! : `${phrase} ${ws[i + n]}`;
      const e = entities.find(phrase);
      if (e >= 0) out.add(e);
      if (!going.has(phrase)) break;
    }
  }
  return out;
};
