/**
 * Canonical JSON (RFC 8785, via `json-canonicalize`) and the sha256 state hash. Two states
 * that are equal as data hash the same whatever order their keys were built in; this is
 * what Checkpoint events carry and what replay compares.
 */
import { createHash } from "node:crypto";
import { canonicalize } from "json-canonicalize";

/** RFC 8785 canonical JSON text of a JSON-compatible value. */
export const canonicalJson = (value: unknown): string => {
  const text: string | undefined = canonicalize(value);
  if (text === undefined) throw new TypeError("canonicalJson: value has no JSON form");
  return text;
};

/** sha256 hex of a string. */
export const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/** sha256 hex of a value's canonical JSON. */
export const stateHash = (value: unknown): string => sha256(canonicalJson(value));
