/**
 * Lore import through the event log. Every file is read, validated and chunked first;
 * a file whose content hash matches what the save already holds is skipped; the rest
 * become one `LoreImported` event each, appended in ONE call — one transaction — so an
 * import is all or nothing: a bad file (empty, binary, invalid UTF-8, no text…) fails
 * the whole import with errors naming every bad file, and nothing is written. The
 * projector then fills `lore_chunks` and FTS; vectors follow on the next index update.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import {
  type EventId,
  type GameTime,
  type LoreChunk,
  type LoreSourceId,
  makeEvent,
  sha256,
} from "@hearsay/core";
import type { SqliteDatabase } from "@hearsay/store";
import { Result, Schema } from "effect";
import { type ChunkLoreOptions, chunkLore } from "./chunkLore.ts";
import { LoreFileError } from "./LoreFileError.ts";
import { prepare } from "./prepare.ts";

/** One file to import: a stable path (relative to the lore root) and its bytes. */
export interface LoreFileInput {
  readonly path: string;
  readonly bytes: Uint8Array | string;
  /** Default `lore:<path>`. */
  readonly sourceId?: string;
}

/** The event log calls an import needs (`SqliteEventLog` fits). */
export interface LoreEventLog {
  head(saveId: string): number;
  append(
    saveId: string,
    expectedSeq: number,
    events: ReadonlyArray<unknown>,
  ): { readonly head: number };
}

export interface ImportLoreOptions {
  readonly saveId: string;
  /** The game time the import happens at. */
  readonly t: number;
  readonly files: ReadonlyArray<LoreFileInput>;
  readonly chunking?: ChunkLoreOptions;
  /** Called after each file is read and chunked. */
  readonly onProgress?: (p: {
    readonly path: string;
    readonly done: number;
    readonly total: number;
  }) => void;
}

/** What happened to one file. */
export interface LoreFileOutcome {
  readonly path: string;
  readonly sourceId: string;
  readonly status: "imported" | "unchanged";
  readonly chunks: number;
  readonly contentHash: string;
}

export interface LoreImportReport {
  readonly files: ReadonlyArray<LoreFileOutcome>;
  /** The save's head seq after the import. */
  readonly head: number;
}

/** The import was refused; every bad file is listed and nothing was written. */
export class LoreImportFailed extends Schema.TaggedError<LoreImportFailed>()("LoreImportFailed", {
  errors: Schema.Array(LoreFileError),
}) {
  override get message(): string {
    return this.errors.map((e) => e.message).join("\n");
  }
}

/** The content hash lore sources are compared by: sha256 of the file's text. */
export const loreContentHash = (bytes: Uint8Array | string): string =>
  sha256(
    typeof bytes === "string"
      ? bytes
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"),
  );

/** Imports lore files into a save through its event log (all or nothing). */
export const importLore = (
  db: SqliteDatabase,
  log: LoreEventLog,
  options: ImportLoreOptions,
): Result.Result<LoreImportReport, LoreImportFailed> => {
  const known = prepare(
    db,
    "SELECT content_hash FROM lore_sources WHERE save_id = ? AND source_id = ?",
  ).pluck();
  const errors: Array<LoreFileError> = [];
  const outcomes: Array<LoreFileOutcome> = [];
  const events: Array<unknown> = [];
  const seen = new Set<string>();
  const head = log.head(options.saveId);
  options.files.forEach((f, i) => {
    const sourceId = f.sourceId ?? `lore:${f.path}`;
    const contentHash = loreContentHash(f.bytes);
    const chunked = chunkLore(f.path, f.bytes, { ...options.chunking, sourceId });
    options.onProgress?.({ path: f.path, done: i + 1, total: options.files.length });
    if (Result.isFailure(chunked)) {
      errors.push(chunked.failure);
      return;
    }
    if (seen.has(sourceId)) return;
    seen.add(sourceId);
    const chunks: ReadonlyArray<LoreChunk> = chunked.success;
    if (known.get(options.saveId, sourceId) === contentHash) {
      outcomes.push({
        path: f.path,
        sourceId,
        status: "unchanged",
        chunks: chunks.length,
        contentHash,
      });
      return;
    }
    outcomes.push({
      path: f.path,
      sourceId,
      status: "imported",
      chunks: chunks.length,
      contentHash,
    });
    events.push(
      makeEvent("LoreImported", {
        // The head makes the id unique even when a file returns to an earlier content.
        id: `lore:${sourceId}:${contentHash.slice(0, 16)}@${head}` as EventId,
        t: options.t as GameTime,
        payload: { sourceId: sourceId as LoreSourceId, path: f.path, contentHash, chunks },
      }),
    );
  });
  if (errors.length > 0) return Result.fail(new LoreImportFailed({ errors }));
  const after = events.length > 0 ? log.append(options.saveId, head, events).head : head;
  return Result.succeed({ files: outcomes, head: after });
};

const LORE_EXT = /\.(md|markdown)$/i;

/**
 * Reads lore files from paths (files, or directories searched recursively for .md and
 * .markdown), with paths relative to `root`, sorted. Unreadable paths are errors.
 */
export const readLoreFiles = (
  paths: ReadonlyArray<string>,
  root: string,
): Result.Result<ReadonlyArray<LoreFileInput>, LoreImportFailed> => {
  const out: Array<LoreFileInput> = [];
  const errors: Array<LoreFileError> = [];
  const rel = (p: string) => relative(root, p).split(sep).join("/");
  const visit = (p: string) => {
    try {
      if (statSync(p).isDirectory()) {
        for (const name of readdirSync(p).sort()) {
          const child = join(p, name);
          if (statSync(child).isDirectory() || LORE_EXT.test(name)) visit(child);
        }
      } else out.push({ path: rel(p), bytes: readFileSync(p) });
    } catch (e) {
      errors.push(
        new LoreFileError({
          path: rel(p),
          problem: "unreadable",
          detail: e instanceof Error ? e.message : String(e),
        }),
      );
    }
  };
  for (const p of paths) visit(p);
  if (errors.length > 0) return Result.fail(new LoreImportFailed({ errors }));
  return Result.succeed(out.sort((a, b) => a.path.localeCompare(b.path)));
};
