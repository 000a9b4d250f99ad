/**
 * The purposes a brain is asked to serve, each with its input Schema, its output Schema
 * (model output is decoded by it, so nothing undecoded reaches the engine) and the
 * instruction a prompt gives for it. This registry is the one place a purpose is named.
 */
import { type Result, Schema } from "effect";
import { ActInput, ActOutput, actInstruction } from "./purposes/ActPurpose.ts";
import {
  ConsolidateMemoriesInput,
  ConsolidateMemoriesOutput,
  consolidateMemoriesInstruction,
} from "./purposes/ConsolidateMemoriesPurpose.ts";
import {
  DebateTurnInput,
  DebateTurnOutput,
  debateTurnInstruction,
  SummarizeDebateInput,
  SummarizeDebateOutput,
  summarizeDebateInstruction,
} from "./purposes/DebatePurposes.ts";
import {
  ExtractMemoriesInput,
  ExtractMemoriesOutput,
  extractMemoriesInstruction,
} from "./purposes/ExtractMemoriesPurpose.ts";
import {
  ExtractFactsInput,
  ExtractFactsOutput,
  extractFactsInstruction,
  SummarizeTalkInput,
  SummarizeTalkOutput,
  summarizeTalkInstruction,
} from "./purposes/PlayerTalkPurposes.ts";
import { ProfileInput, ProfileOutput, profileInstruction } from "./purposes/ProfilePurpose.ts";
import { ReplyInput, ReplyOutput, replyInstruction } from "./purposes/ReplyPurpose.ts";
import {
  ReviseProfileInput,
  ReviseProfileOutput,
  reviseProfileInstruction,
} from "./purposes/ReviseProfilePurpose.ts";
import {
  SummarizeSceneInput,
  SummarizeSceneOutput,
  summarizeSceneInstruction,
} from "./purposes/SummarizeScenePurpose.ts";
import {
  SummarizeSharedSceneInput,
  SummarizeSharedSceneOutput,
  summarizeSharedSceneInstruction,
} from "./purposes/SummarizeSharedScenePurpose.ts";

/** One purpose: what it is given, what it must answer, and how a prompt asks for it. */
export interface PurposeSpec<I extends Schema.Top, O extends Schema.Top> {
  readonly input: I;
  readonly output: O;
  readonly instruction: string;
}

const spec = <I extends Schema.Top, O extends Schema.Top>(
  input: I,
  output: O,
  instruction: string,
): PurposeSpec<I, O> => ({ input, output, instruction });

/** Every purpose by name. */
export const purposes = {
  act: spec(ActInput, ActOutput, actInstruction),
  profile: spec(ProfileInput, ProfileOutput, profileInstruction),
  revise_profile: spec(ReviseProfileInput, ReviseProfileOutput, reviseProfileInstruction),
  extract_memories: spec(ExtractMemoriesInput, ExtractMemoriesOutput, extractMemoriesInstruction),
  debate_turn: spec(DebateTurnInput, DebateTurnOutput, debateTurnInstruction),
  summarize_debate: spec(SummarizeDebateInput, SummarizeDebateOutput, summarizeDebateInstruction),
  reply: spec(ReplyInput, ReplyOutput, replyInstruction),
  extract_facts: spec(ExtractFactsInput, ExtractFactsOutput, extractFactsInstruction),
  summarize_talk: spec(SummarizeTalkInput, SummarizeTalkOutput, summarizeTalkInstruction),
  summarize_scene: spec(SummarizeSceneInput, SummarizeSceneOutput, summarizeSceneInstruction),
  summarize_shared_scene: spec(
    SummarizeSharedSceneInput,
    SummarizeSharedSceneOutput,
    summarizeSharedSceneInstruction,
  ),
  consolidate_memories: spec(
    ConsolidateMemoriesInput,
    ConsolidateMemoriesOutput,
    consolidateMemoriesInstruction,
  ),
} as const;

export type PurposeName = keyof typeof purposes;

/** Purpose names in a stable order (for reports and tests). */
export const purposeNames: ReadonlyArray<PurposeName> = [
  "act",
  "profile",
  "revise_profile",
  "extract_memories",
  "debate_turn",
  "summarize_debate",
  "reply",
  "extract_facts",
  "summarize_talk",
  "summarize_scene",
  "summarize_shared_scene",
  "consolidate_memories",
];

/** The decoded input of a purpose. */
export type PurposeInput<P extends PurposeName> = (typeof purposes)[P]["input"]["Type"];
/** The decoded output of a purpose. */
export type PurposeOutput<P extends PurposeName> = (typeof purposes)[P]["output"]["Type"];

/** Whether a string names a purpose (for recorded events, whose `purpose` is a string). */
export const isPurposeName = (s: string): s is PurposeName => Object.hasOwn(purposes, s);

type AnyCodec = Schema.Codec<unknown, unknown>;

/** Encoders and decoders are compiled once per purpose, not once per call. */
const encoders = new Map<PurposeName, (output: unknown) => unknown>();
const decoders = new Map<
  PurposeName,
  (data: unknown) => Result.Result<unknown, Schema.SchemaError>
>();

/** The JSON form of a purpose's output, as an `LlmCallRecorded` event stores it. */
export const encodeOutput = <P extends PurposeName>(
  purpose: P,
  output: PurposeOutput<P>,
): Schema.Json => {
  let encode = encoders.get(purpose);
  if (encode === undefined) {
    encode = Schema.encodeSync(purposes[purpose].output as unknown as AnyCodec);
    encoders.set(purpose, encode);
  }
  return encode(output) as Schema.Json;
};

/** Decodes unknown data as a purpose's output; a Result, so a bad answer is a value. */
export const decodeOutput = <P extends PurposeName>(
  purpose: P,
  data: unknown,
): Result.Result<PurposeOutput<P>, Schema.SchemaError> => {
  let decode = decoders.get(purpose);
  if (decode === undefined) {
    decode = Schema.decodeUnknownResult(purposes[purpose].output as unknown as AnyCodec, {
      errors: "all",
    });
    decoders.set(purpose, decode);
  }
  return decode(data) as Result.Result<PurposeOutput<P>, Schema.SchemaError>;
};

/**
 * Compiles every purpose's decoder up front, so a live brain pays for it when it is
 * made rather than in its first call of each purpose.
 */
export const compileDecoders = (): void => {
  for (const purpose of purposeNames) decodeOutput(purpose, null);
};
