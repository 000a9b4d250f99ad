/**
 * The identity of a brain call. Replay finds a recorded answer by this hash, so it
 * covers everything an answer may depend on — purpose, NPC, time, input and the
 * rendered dossier — and nothing that may not (the seed is the run's, not the call's).
 */
import { canonicalJson, renderDossier, sha256 } from "@hearsay/core";
import type { BrainRequest } from "./Brain.ts";

/** sha256 of `canonicalJson({purpose, npcId, t, input, prompt})`, prompt the rendered dossier. */
export const inputHash = (request: BrainRequest): string =>
  sha256(
    canonicalJson({
      purpose: request.purpose,
      npcId: request.npcId,
      t: request.t,
      input: request.input,
      prompt: request.dossier === null ? null : renderDossier(request.dossier),
    }),
  );
