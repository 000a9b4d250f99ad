/**
 * The streamer a conversation uses when none is given: the brain's own answer handed on
 * a word at a time (a scripted or recorded brain has its whole answer at once; this
 * keeps the path the same as a live model's stream). A live model streams through
 * `streamOllamaReply` from @hearsay/mind instead.
 */
import type { BrainShape, ReplyStreamer } from "@hearsay/mind";
import { Effect } from "effect";

/** Splits text into word-sized pieces that join back to it exactly. */
export const wordPieces = (text: string): ReadonlyArray<string> => text.match(/\S+\s*|\s+/g) ?? [];

export const replyStreamerOf =
  (brain: BrainShape): ReplyStreamer =>
  (request, listener) =>
    Effect.map(brain.decide(request), (answer) => {
      const text = (answer.output as { text?: unknown }).text;
      if (typeof text === "string") for (const piece of wordPieces(text)) listener.text(piece);
      return answer;
    });
