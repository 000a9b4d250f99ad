/**
 * Entity names in prose: runs of capitalised words ("Old Mill", "Captain Aldra Venn"),
 * joined across `of`/`the`/`de`/`van`/`von` ("Keeper of the Light"). A lone capitalised
 * word at the start of a sentence ("Walking", "The") counts only if the same word also
 * appears capitalised mid-sentence somewhere in the text. This is the lorebook trigger:
 * names found in a chunk are matched against names in an NPC's scene and query.
 */
import { isStopword } from "./words.ts";

const NAME =
  /[\p{Lu}][\p{L}\p{M}'’-]*(?:\s+(?:(?:of|the|de|van|von|du|la)\s+)*[\p{Lu}][\p{L}\p{M}'’-]*)*/gu;

/** True when position `i` of `text` starts a sentence (or the text). */
const sentenceStart = (text: string, i: number): boolean => {
  let j = i - 1;
  while (j >= 0 && /[\s"'“‘(*_–—-]/u.test(text[j]!)) j--;
  return j < 0 || /[.!?:;\n#>|]/.test(text[j]!);
};

const clean = (s: string): string => s.replace(/['’]s$/u, "").replace(/[-'’]+$/u, "");

/** Distinct names in `text`, in order of first appearance (at most `max`). */
export const findNames = (text: string, max = 16): Array<string> => {
  const found: Array<{ name: string; atStart: boolean }> = [];
  const midSentence = new Set<string>();
  for (const m of text.matchAll(NAME)) {
    const atStart = sentenceStart(text, m.index);
    let parts = clean(m[0]).split(/\s+/);
    // "The Old Mill" at a sentence start is the name "Old Mill".
    while (parts.length > 1 && isStopword(parts[0]!.toLowerCase())) parts = parts.slice(1);
    const name = parts.join(" ");
    if (name.length < 2 || isStopword(name.toLowerCase())) continue;
    if (!atStart) midSentence.add(name.toLowerCase());
    found.push({ name, atStart: atStart && parts.length === 1 });
  }
  const out: Array<string> = [];
  const seen = new Set<string>();
  for (const { name, atStart } of found) {
    const key = name.toLowerCase();
    if (seen.has(key) || (atStart && !midSentence.has(key))) continue;
    seen.add(key);
    out.push(name);
    if (out.length >= max) break;
  }
  return out;
};
