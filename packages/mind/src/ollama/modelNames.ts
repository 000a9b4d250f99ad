/**
 * Ollama model names: `name` means `name:latest`, and a model is an embedding model if
 * its name or family says so (nomic-bert, bert, bge, e5, gte, minilm…). Used to find
 * a model on the server and to choose a stand-in of the right kind.
 */
import type { ModelResponse } from "ollama";

/** `llama3.2` → `llama3.2:latest`; names with a tag are kept. */
export const normalizeModel = (name: string): string => {
  const trimmed = name.trim();
  const slash = trimmed.lastIndexOf("/");
  return trimmed.slice(slash + 1).includes(":") ? trimmed : `${trimmed}:latest`;
};

/** Whether two names refer to the same model. */
export const sameModel = (a: string, b: string): boolean => normalizeModel(a) === normalizeModel(b);

const EMBEDDING = /embed|bert|bge|minilm|(^|[^a-z])e5([^a-z]|$)|gte|arctic-embed/i;

/** Whether an installed model is an embedding model. */
export const isEmbeddingModel = (
  model: Pick<ModelResponse, "name"> & { details?: Partial<ModelResponse["details"]> },
): boolean =>
  EMBEDDING.test(model.name) ||
  EMBEDDING.test(model.details?.family ?? "") ||
  (model.details?.families ?? []).some((f) => EMBEDDING.test(f));
