/**
 * A debate topic as the scripted brain names it inside its own sentences. Topics are
 * written as questions ("Should Haskerry let the Syndicate build its bridge?") or as
 * motions; either way it is set in quotes, never spliced into a sentence bare, where a
 * question would read as "argued for Should Haskerry …".
 */
import { unquotedText } from "./quoted.ts";

/** `the question "Should …?"` or `the motion "Build the bridge"`. */
export const topicRef = (topic: string): string => {
  const text = unquotedText(topic).replace(/[\s.!]+$/, "");
  return text.endsWith("?") ? `the question "${text}"` : `the motion "${text}"`;
};

/** `text` as a finished sentence: a full stop added unless it already ends in one. */
export const sentence = (text: string): string =>
  /[.!?…]["\u201d]?$/.test(text) ? text : `${text}.`;
