/**
 * Reading a model's answer: the message text as JSON (tolerating a Markdown code fence
 * around it), decoded by the purpose's output Schema, then checked for unknown ids.
 * Each failure is typed and worded so the repair retry can show it to the model.
 */
import { Result } from "effect";
import { InvalidAnswer, type UnknownId } from "../BrainError.ts";
import {
  decodeOutput,
  type PurposeInput,
  type PurposeName,
  type PurposeOutput,
} from "../Purpose.ts";
import { validateAnswer } from "../validateAnswer.ts";

const unfence = (text: string): string => {
  const trimmed = text.trim();
  const fenced = /^```[a-z]*\s*\n([\s\S]*?)\n?```$/i.exec(trimmed);
  return fenced?.[1] ?? trimmed;
};

/** The decoded, id-checked output of a raw answer, or why it is not one. */
export const decodeAnswer = <P extends PurposeName>(
  purpose: P,
  input: PurposeInput<P>,
  raw: string,
  model: string,
): Result.Result<PurposeOutput<P>, InvalidAnswer | UnknownId> => {
  const invalid = (problem: string) =>
    Result.fail(
      new InvalidAnswer({ brain: "ollama", model, purpose, problem, raw: raw.slice(0, 400) }),
    );
  let json: unknown;
  try {
    json = JSON.parse(unfence(raw));
  } catch (e) {
    return invalid(`the answer is not valid JSON (${(e as Error).message})`);
  }
  const decoded = decodeOutput(purpose, json);
  if (Result.isFailure(decoded))
    return invalid(
      `the JSON does not match the required format: ${decoded.failure.message.replace(/\s+/g, " ")}`,
    );
  return validateAnswer(purpose, input, decoded.success);
};
