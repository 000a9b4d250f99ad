/**
 * Canonical JSON (RFC 8785, via `json-canonicalize`) and the sha256 state hash. Two states
 * that are equal as data hash the same whatever order their keys were built in; this is
 * what Checkpoint events carry and what replay compares.
 */
import { createHash } from "node:crypto";
import { canonicalize } from "json-canonicalize";

/**
 * Throws where JSON has no form for a value. json-canonicalize writes the bare word
 * `undefined` for a function or symbol (anywhere) and for a top-level undefined, which is
 * not JSON; undefined members are fine (dropped from objects, null in arrays, as in JSON).
 */
const assertJsonable = (value: unknown, path: string, within: Array<object>): void => {
  if (typeof value === "function" || typeof value === "symbol") {
    throw new TypeError(`canonicalJson: a ${typeof value} at ${path} has no JSON form`);
  }
  if (value === null || typeof value !== "object" || within.includes(value)) return; // cycles: canonicalize reports them
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return;
  within.push(value);
  for (const [k, v] of Object.entries(value)) assertJsonable(v, `${path}.${k}`, within);
  within.pop();
};

/** RFC 8785 canonical JSON text of a JSON-compatible value; throws a TypeError for others. */
export const canonicalJson = (value: unknown): string => {
  if (value === undefined) throw new TypeError("canonicalJson: undefined has no JSON form");
  assertJsonable(value, "$", []);
  return canonicalize(value);
};

/** sha256 hex of a string. */
export const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/** sha256 hex of a value's canonical JSON. */
export const stateHash = (value: unknown): string => sha256(canonicalJson(value));
