/**
 * The `format` an Ollama chat is constrained by: the JSON Schema of the purpose's
 * output Schema (draft 2020-12, excess properties refused), derived once per purpose.
 * Ollama turns it into a grammar, so well-behaved models answer in shape; the Effect
 * Schema still decodes every answer, because the grammar is only a first filter.
 */
import { Schema } from "effect";
import { type PurposeName, purposes } from "../Purpose.ts";

const cache = new Map<PurposeName, Record<string, unknown>>();

/** The JSON Schema object passed as `format` for a purpose. */
export const outputFormat = (purpose: PurposeName): Record<string, unknown> => {
  const hit = cache.get(purpose);
  if (hit !== undefined) return hit;
  const doc = Schema.toJsonSchemaDocument(purposes[purpose].output, { onExcessProperty: "error" });
  const defs = doc.definitions as Record<string, unknown>;
  const format = {
    ...(doc.schema as Record<string, unknown>),
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
  cache.set(purpose, format);
  return format;
};
