/**
 * Token counting for budgets. hearsay does not ship a model's tokenizer; it uses an
 * estimate calibrated to over-count Llama-3-family BPE on English prose and prompt
 * markup: the larger of one token per 3.5 characters and 1.35 tokens per word, plus
 * one per line break. Over-counting only ever leaves budget unused; under-counting
 * could overflow a model's context, so the estimate leans high (see its tests).
 */
export const estimateTokens = (text: string): number => {
  if (text.length === 0) return 0;
  let words = 0;
  let inWord = false;
  let lines = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || c === 9 || c === 10 || c === 13;
    if (c === 10) lines++;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return Math.max(Math.ceil(text.length / 3.5), Math.ceil(words * 1.35)) + lines;
};
