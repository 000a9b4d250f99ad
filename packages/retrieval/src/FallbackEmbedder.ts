/**
 * A live model's embedder for the engine's synchronous hot loop, with a way down: texts
 * are looked up in the embeddings cache by (model, text hash) and only the missing ones
 * sent to the model, in batches; when the model fails, the embedder switches — once, for
 * good — to the hashing embedder at the same dimension and reports the switch, so its
 * owner re-embeds every collection (vectors of two models never mix) and records it.
 *
 * Where the switch happens is given as a position the log can reproduce: the save's head
 * seq when it failed and how many texts had been asked for since that head. A replay,
 * which must never call the server, uses a primary that only reads the cache and is told
 * the recorded position, so it switches at the same request the run did.
 */
import { Effect } from "effect";
import type { EmbedderError, EmbedderShape } from "./Embedder.ts";
import type { EmbeddingCache } from "./EmbeddingCache.ts";
import { makeHashingEmbedder } from "./HashingEmbedder.ts";

/** Where and why an embedder fell back to hashing. */
export interface EmbedderSwitch {
  readonly from: string;
  readonly to: string;
  /** The save's head seq when it happened. */
  readonly atSeq: number;
  /** Texts asked for since that head, before the failing request. */
  readonly afterTexts: number;
  readonly detail: string;
}

/** The warning code a switch is recorded under, and its message. */
export const EMBEDDER_FALLBACK = "embedder_fallback";

export const switchMessage = (s: EmbedderSwitch): string =>
  `embedder ${s.from} failed at seq ${s.atSeq} after ${s.afterTexts} texts (${s.detail}); the run embeds with ${s.to} from here`;

/** The position recorded in a switch's message, or null when it is not one. */
export const parseSwitchMessage = (message: string): RecordedSwitch | null => {
  const m = /failed at seq (\d+) after (\d+) texts \((.*)\); the run embeds with /s.exec(message);
  return m ? { atSeq: Number(m[1]), afterTexts: Number(m[2]), detail: m[3]! } : null;
};

/** A switch as the log records it: a replay makes it at the same place, for the same reason. */
export interface RecordedSwitch {
  readonly atSeq: number;
  readonly afterTexts: number;
  readonly detail: string;
}

export interface FallbackEmbedderOptions {
  /** The model's name, e.g. `ollama:nomic-embed-text`. */
  readonly model: string;
  readonly dimensions: number;
  /** One request to the model. @throws EmbedderError */
  readonly embedBatch: (texts: ReadonlyArray<string>) => ReadonlyArray<Float32Array>;
  /** Where vectors are looked up first and stored after (null: none). */
  readonly cache: EmbeddingCache | null;
  /** The save's head seq now (positions a switch). */
  readonly position: () => number;
  /** Texts per request (default 64). */
  readonly batchSize?: number;
  /** Start on hashing (a run whose log already records a switch). */
  readonly startSwitched?: boolean;
  /** Switch at this recorded position (a replay). */
  readonly switchAt?: RecordedSwitch | null;
  readonly onSwitch?: (s: EmbedderSwitch) => void;
}

export interface FallbackEmbedder extends EmbedderShape {
  /** The switch, once it happened. */
  readonly switched: () => EmbedderSwitch | null;
  /** The name of the model it started with (what the run records). */
  readonly primary: string;
}

export const makeFallbackEmbedder = (options: FallbackEmbedderOptions): FallbackEmbedder => {
  const hashing = makeHashingEmbedder({ dimensions: options.dimensions });
  const batchSize = Math.max(1, options.batchSize ?? 64);
  let current: "primary" | "hashing" = options.startSwitched === true ? "hashing" : "primary";
  let switched: EmbedderSwitch | null = null;
  let seq = -1;
  let asked = 0;

  const doSwitch = (afterTexts: number, detail: string): void => {
    current = "hashing";
    switched = {
      from: options.model,
      to: hashing.model,
      atSeq: seq,
      afterTexts,
      detail,
    };
    options.onSwitch?.(switched);
  };

  const fromModel = (texts: ReadonlyArray<string>): Array<Float32Array> => {
    const out: Array<Float32Array | undefined> = texts.map((t) => options.cache?.get(t));
    const missing: Array<number> = [];
    out.forEach((v, i) => {
      if (!v) missing.push(i);
    });
    for (let i = 0; i < missing.length; i += batchSize) {
      const idx = missing.slice(i, i + batchSize);
      const batch = idx.map((j) => texts[j]!);
      const fresh = options.embedBatch(batch);
      options.cache?.putMany(batch, fresh);
      idx.forEach((j, k) => {
        out[j] = fresh[k];
      });
    }
    return out as Array<Float32Array>;
  };

  const embedManySync = (texts: ReadonlyArray<string>): ReadonlyArray<Float32Array> => {
    const head = options.position();
    if (head !== seq) {
      seq = head;
      asked = 0;
    }
    const before = asked;
    asked += texts.length;
    if (current === "primary") {
      const at = options.switchAt;
      if (at && (seq > at.atSeq || (seq === at.atSeq && before >= at.afterTexts))) {
        doSwitch(before, at.detail);
      } else {
        try {
          return fromModel(texts);
        } catch (e) {
          doSwitch(before, (e as EmbedderError).message ?? String(e));
        }
      }
    }
    return texts.map((t) => hashing.embedSync!(t));
  };

  const self: FallbackEmbedder = {
    get model() {
      return current === "primary" ? options.model : hashing.model;
    },
    dimensions: options.dimensions,
    embedSync: (text) => embedManySync([text])[0]!,
    embedManySync,
    embed: (texts) => Effect.sync(() => embedManySync(texts)),
    switched: () => switched,
    primary: options.model,
  };
  return self;
};
