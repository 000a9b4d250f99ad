/**
 * The identity of a brain call. Replay finds a recorded answer by this hash, so it
 * covers everything an answer may depend on — purpose, NPC, time, input and the
 * rendered dossier — and nothing that may not (the seed is the run's, not the call's).
 *
 * It is on every live call's path (the recorder hashes each call), so it is cheap: the
 * canonical JSON of the whole request is written piece by piece into the digest — only
 * the small `input` goes through the canonicaliser, the long prompt is one
 * `JSON.stringify` — and the result is remembered per request object, so the brain
 * (which warms it while a call waits for a model slot) and the recorder hash a request
 * once. Requests are immutable values; a dossier is fixed once read.
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "@hearsay/core";
import type { BrainRequest } from "./Brain.ts";
import { dossierText } from "./dossierText.ts";

const hashes = new WeakMap<object, string>();

/**
 * sha256 of `canonicalJson({purpose, npcId, t, input, prompt})`, prompt the rendered
 * dossier (or null). The keys are written in RFC 8785 order (input, npcId, prompt,
 * purpose, t), so the digest is byte for byte that of canonicalising the whole object.
 */
export const inputHash = (request: BrainRequest): string => {
  const known = hashes.get(request);
  if (known !== undefined) return known;
  const dossier = request.dossier?.whole() ?? null;
  // An undefined member is dropped by canonical JSON, as the whole-object form did.
  const input = request.input === undefined ? "" : `"input":${canonicalJson(request.input)},`;
  const hash = createHash("sha256")
    .update(`{${input}"npcId":`)
    .update(canonicalJson(request.npcId))
    .update(`,"prompt":`)
    .update(dossier === null ? "null" : JSON.stringify(dossierText(dossier)))
    .update(`,"purpose":`)
    .update(canonicalJson(request.purpose))
    .update(`,"t":`)
    .update(canonicalJson(request.t))
    .update("}")
    .digest("hex");
  hashes.set(request, hash);
  return hash;
};
