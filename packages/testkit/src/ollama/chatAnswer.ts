/**
 * What the fixture server says to a chat. It reads the purpose and the input the
 * prompt carries (the `(purpose: <name>)` heading and the ```` ```json purpose-input ````
 * block of @hearsay/mind's prompts, with the fields of its ```` ```json purpose-standing ````
 * block when it has one), picks a template for the current behaviour — by a
 * hash of the prompt, skipping templates whose `$path` / `{{path}}` references the
 * input cannot fill — and fills it, so "good" answers name ids the input offers
 * (`{ "$each": path, "as": template }` repeats a template for each element of a list;
 * `{ "$optional": template }` in a list, or as an object's value, is left out when the
 * input cannot fill it — or, with `"if": path`, when the input has nothing at `path`;
 * `{ "$first": [templates] }` is the first of them the input can fill).
 */
import { createHash } from "node:crypto";
import type { ChatTemplates } from "./OllamaFixtures.ts";

export type AnswerKind = "good" | "schema_invalid" | "unknown_ids" | "malformed";

interface ChatMessage {
  readonly role: string;
  readonly content: string;
}

/** The purpose and input a prompt carries, if it is one of hearsay's. */
export const readPrompt = (
  messages: ReadonlyArray<ChatMessage>,
): { purpose: string; input: unknown } | null => {
  for (const m of messages) {
    if (m.role !== "user") continue;
    const purpose = /\(purpose: ([a-z_]+)\)/.exec(m.content)?.[1];
    const block = /(`{3,})json purpose-input\n([\s\S]*?)\n\1/.exec(m.content)?.[2];
    const standing = /(`{3,})json purpose-standing\n([\s\S]*?)\n\1/.exec(m.content)?.[2];
    if (purpose !== undefined && block !== undefined) {
      try {
        const rest: unknown = JSON.parse(block);
        if (standing === undefined) return { purpose, input: rest };
        return { purpose, input: { ...(JSON.parse(standing) as object), ...(rest as object) } };
      } catch {
        return null;
      }
    }
  }
  return null;
};

const MISSING = Symbol("missing");

const lookup = (root: unknown, path: string): unknown => {
  let cur: unknown = root;
  for (const key of path.split(".")) {
    if (cur === null || typeof cur !== "object") return MISSING;
    cur = (cur as Record<string, unknown>)[key];
    if (cur === undefined) return MISSING;
  }
  return cur;
};

/**
 * The input as templates see it: an `act` input's `tasks` lists every open task its NPC is
 * a party to, so `heldTasks` (the ones assigned to it) is what a "work" or "give up"
 * answer may name.
 */
const templateView = (input: unknown): unknown => {
  if (input === null || typeof input !== "object") return input;
  const { tasks, self } = input as { tasks?: unknown; self?: { id?: unknown } };
  if (!Array.isArray(tasks) || self === undefined) return input;
  return {
    ...input,
    heldTasks: tasks.filter((t) => (t as { assignee?: unknown }).assignee === self.id),
  };
};

/** Fills `$path` values and `{{path}}` interpolations; MISSING if a reference is absent. */
const fillTemplate = (template: unknown, input: unknown): unknown => {
  if (typeof template === "string") {
    if (template.startsWith("$")) return lookup(input, template.slice(1));
    let missing = false;
    const text = template.replace(/\{\{([\w.]+)\}\}/g, (_, path: string) => {
      const v = lookup(input, path);
      if (v === MISSING) missing = true;
      return String(v);
    });
    return missing ? MISSING : text;
  }
  if (Array.isArray(template)) {
    // `{ "$optional": template }` in a list: the element, or nothing when the input
    // cannot fill it (a planned step naming someone present, when nobody is).
    const out = template.flatMap((t) => {
      const optional = (t as { $optional?: unknown } | null)?.$optional;
      if (optional === undefined) return [fillTemplate(t, input)];
      const filled = fillTemplate(optional, input);
      return filled === MISSING ? [] : [filled];
    });
    return out.includes(MISSING) ? MISSING : out;
  }
  if (template !== null && typeof template === "object") {
    // `{ "$each": "path", "as": template }`: the template once per element of the array
    // at `path`, with the element as `item` — so an answer can hold one entry for each
    // of a list the input gives (a summary per witness).
    const each = (template as { $each?: unknown }).$each;
    if (typeof each === "string") {
      const list = lookup(input, each);
      if (!Array.isArray(list)) return MISSING;
      const as = (template as { as?: unknown }).as;
      const out = list.map((item) => fillTemplate(as, { ...(input as object), item }));
      return out.includes(MISSING) ? MISSING : out;
    }
    // `{ "$first": [templates] }`: the first of them the input can fill.
    const first = (template as { $first?: unknown }).$first;
    if (Array.isArray(first)) {
      for (const option of first) {
        const filled = fillTemplate(option, input);
        if (filled !== MISSING) return filled;
      }
      return MISSING;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(template)) {
      const optional = (v as { $optional?: unknown } | null)?.$optional;
      if (optional !== undefined) {
        // A key the answer gives only when the input asks for it (a profile revision, a
        // closing debate turn's summary).
        const when = (v as { if?: unknown }).if;
        if (typeof when === "string" && lookup(input, when) === MISSING) continue;
        const filled = fillTemplate(optional, input);
        if (filled !== MISSING) out[k] = filled;
        continue;
      }
      const filled = fillTemplate(v, input);
      if (filled === MISSING) return MISSING;
      out[k] = filled;
    }
    return out;
  }
  return template;
};

/** The answer text for a prompt under a behaviour. */
export const chatAnswer = (
  templates: ChatTemplates | undefined,
  kind: AnswerKind,
  input: unknown,
  promptText: string,
): string => {
  const start = createHash("sha256").update(promptText).digest().readUInt32BE(0);
  if (templates === undefined) return "{}";
  if (kind === "malformed") {
    const list = templates.malformed.length > 0 ? templates.malformed : ["{"];
    return list[start % list.length] as string;
  }
  const list = templates[kind].length > 0 ? templates[kind] : templates.good;
  const view = templateView(input);
  for (let i = 0; i < list.length; i++) {
    const filled = fillTemplate(list[(start + i) % list.length], view);
    if (filled !== MISSING) return JSON.stringify(filled);
  }
  return JSON.stringify(list[0] ?? {});
};
