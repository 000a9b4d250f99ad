/**
 * The `format` an Ollama chat is constrained by: the JSON Schema of the purpose's
 * output Schema (draft 2020-12, excess properties refused), derived once per purpose and
 * for each set of carried fields its input does not ask for. Ollama turns it into a
 * grammar, so well-behaved models answer in shape; the Effect Schema still decodes every
 * answer, because the grammar is only a first filter.
 *
 * A field an answer gives only when its input asks (a purpose carried in another's answer:
 * `act`'s `profile` and `revision`, `debate_turn`'s `summary` and `outcome`) is left out of
 * the format when the input does not ask for it, so the grammar never lets a model spend
 * tokens on what the engine will not read.
 */
import { Schema } from "effect";
import { type PurposeName, purposes } from "../Purpose.ts";

type JsonSchema = Record<string, unknown>;

const cache = new Map<string, JsonSchema>();

/** The carried fields of `purpose`'s answer that `input` does not ask for. */
export const unaskedFields = (purpose: PurposeName, input: unknown): ReadonlyArray<string> => {
  const has = (key: string) =>
    input !== null && typeof input === "object" && (input as JsonSchema)[key] !== undefined;
  switch (purpose) {
    case "act":
      return [...(has("firstProfile") ? [] : ["profile"]), ...(has("revise") ? [] : ["revision"])];
    case "debate_turn":
      return has("closes") ? [] : ["summary", "outcome"];
    default:
      return [];
  }
};

/** An object schema without `keys`; a union's members each without them. */
const without = (schema: JsonSchema, keys: ReadonlyArray<string>): JsonSchema => {
  if (Array.isArray(schema.anyOf))
    return { ...schema, anyOf: (schema.anyOf as Array<JsonSchema>).map((s) => without(s, keys)) };
  const properties = schema.properties as JsonSchema | undefined;
  if (properties === undefined) return schema;
  const kept = Object.fromEntries(Object.entries(properties).filter(([k]) => !keys.includes(k)));
  const required = (schema.required as Array<string> | undefined)?.filter((k) => !keys.includes(k));
  return { ...schema, properties: kept, ...(required === undefined ? {} : { required }) };
};

/** The JSON Schema object passed as `format` for a purpose, asked with `input`. */
export const outputFormat = (purpose: PurposeName, input?: unknown): JsonSchema => {
  const dropped = unaskedFields(purpose, input);
  const key = `${purpose}:${dropped.join(",")}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const doc = Schema.toJsonSchemaDocument(purposes[purpose].output, { onExcessProperty: "error" });
  const defs = doc.definitions as JsonSchema;
  const format = without(
    {
      ...(doc.schema as JsonSchema),
      ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
    },
    dropped,
  );
  cache.set(key, format);
  return format;
};
