/** Streaming a reply from Ollama: the words of `text` as they arrive, and the fallback when the stream fails. */
import { ids } from "@hearsay/core";
import {
  type BrainRequest,
  defaultMindConfig,
  ScriptedBrain,
  streamOllamaReply,
  textFieldPrefix,
} from "@hearsay/mind";
import { Effect } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const request: BrainRequest<"reply"> = {
  purpose: "reply",
  npcId: ids.npc("ada"),
  t: 600 as never,
  seed: 1,
  dossier: null,
  input: {
    conversationId: ids.conversation("conv1.0"),
    self: {
      id: ids.npc("ada"),
      name: "Ada",
      role: "miller",
      factionId: null,
      traits: [],
      speechStyle: null,
    },
    player: { id: ids.npc("player"), name: "the player" },
    locationName: "The Mill",
    regard: { trust: 0, respect: 0, suspicion: 0, summary: "" },
    summary: null,
    turns: [],
    message: "I promise I'll mend the wheel.",
    scene: null,
  },
};

/** A fetch that answers /api/chat with `content` streamed as NDJSON in `pieces` parts. */
const streamingFetch =
  (content: string, pieces: number): typeof fetch =>
  async () => {
    const size = Math.ceil(content.length / pieces);
    const lines = Array.from({ length: pieces }, (_, i) =>
      JSON.stringify({
        model: "m",
        message: { role: "assistant", content: content.slice(i * size, (i + 1) * size) },
        done: false,
      }),
    );
    lines.push(
      JSON.stringify({
        model: "m",
        message: { role: "assistant", content: "" },
        done: true,
        prompt_eval_count: 10,
        eval_count: 5,
      }),
    );
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const l of lines) controller.enqueue(new TextEncoder().encode(`${l}\n`));
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "application/x-ndjson" } });
  };

const collect = () => {
  const events: Array<string> = [];
  return {
    events,
    listener: {
      text: (d: string) => void events.push(d),
      restart: () => void events.push("<restart>"),
    },
  };
};

describe("textFieldPrefix", () => {
  it("reads a prefix of the text field from any prefix of the encoded answer, and all of it at the end", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.nat(), (text, cut) => {
        const json = JSON.stringify({ text, actions: [] });
        const prefix = textFieldPrefix(json.slice(0, cut % (json.length + 1)));
        if (prefix !== null) expect(text.startsWith(prefix)).toBe(true);
        expect(textFieldPrefix(json)).toBe(text);
      }),
    );
  });

  it("answers null until the field's string has begun, and for a field that is not first", () => {
    expect(textFieldPrefix('{"te')).toBeNull();
    expect(textFieldPrefix('{"actions": [], "text": "hi"}')).toBeNull();
    expect(textFieldPrefix('{ "text" : "a\\u00')).toBe("a");
  });
});

describe("streamOllamaReply", () => {
  it("hands on the reply's words before the answer is complete, and they join to its text", async () => {
    const answer = { text: "I'll hold you to that, friend — the wheel by Friday.", actions: [] };
    const { events, listener } = collect();
    const streamer = streamOllamaReply({
      config: { ...defaultMindConfig, ollamaUrl: "http://127.0.0.1:9" },
      fallback: ScriptedBrain.make(),
      fetch: streamingFetch(JSON.stringify(answer), 6),
    });
    const result = await Effect.runPromise(streamer(request, listener));
    expect(result.output).toEqual(answer);
    expect(result.meta).toMatchObject({
      brain: "ollama",
      fallbackReason: null,
      promptTokens: 10,
      outputTokens: 5,
    });
    expect(events.length).toBeGreaterThan(2);
    expect(events.join("")).toBe(answer.text);
  });

  it("falls back when the streamed answer does not decode, telling the listener to start over", async () => {
    const { events, listener } = collect();
    const streamer = streamOllamaReply({
      config: { ...defaultMindConfig, ollamaUrl: "http://127.0.0.1:9" },
      fallback: ScriptedBrain.make(),
      fetch: streamingFetch('{"text": "Half an answer and then', 3),
    });
    const result = await Effect.runPromise(streamer(request, listener));
    expect(result.meta.brain).toBe("scripted");
    expect(result.meta.fallbackReason).toMatch(/streamed/);
    const restart = events.indexOf("<restart>");
    expect(restart).toBeGreaterThan(0);
    expect(events.slice(restart + 1).join("")).toBe(result.output.text);
  });
});
