/**
 * Bytes of a lore file to text, refusing what is not UTF-8 text: an empty file, a
 * binary file (NUL bytes or mostly control characters), invalid UTF-8 (with the byte
 * offset of the first bad sequence) and oversized files. A UTF-8 BOM is dropped and
 * CRLF / CR line endings become LF, so the chunker sees one kind of text.
 */
import { Result } from "effect";
import { LoreFileError } from "./LoreFileError.ts";

/** Largest lore file accepted (bytes). */
export const MAX_LORE_BYTES = 8 * 1024 * 1024;

/** Byte offset of the first invalid UTF-8 sequence, or -1 when the bytes are valid. */
const firstInvalidUtf8 = (b: Uint8Array): number => {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    let need = 0;
    let min = 0;
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = c & (0xff >> (need + 2));
    for (let k = 1; k <= need; k++) {
      const n = b[i + k];
      if (n === undefined || (n & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (n & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
};

/** True when the bytes look like a binary file rather than text. */
const looksBinary = (b: Uint8Array): boolean => {
  const n = Math.min(b.length, 8192);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const c = b[i]!;
    if (c === 0) return true;
    if (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) control++;
  }
  return n > 0 && control / n > 0.1;
};

/** Decodes a lore file's bytes to LF-normalised text, or says why it cannot. */
export const decodeLoreText = (
  path: string,
  bytes: Uint8Array,
): Result.Result<string, LoreFileError> => {
  if (bytes.length > MAX_LORE_BYTES) {
    return Result.fail(
      new LoreFileError({
        path,
        problem: "too-large",
        detail: `${bytes.length} bytes is over the ${MAX_LORE_BYTES}-byte limit`,
      }),
    );
  }
  if (looksBinary(bytes)) {
    return Result.fail(
      new LoreFileError({ path, problem: "binary", detail: "is a binary file, not markdown text" }),
    );
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) {
    return Result.fail(
      new LoreFileError({
        path,
        problem: "invalid-utf8",
        detail: `invalid UTF-8 at byte ${bad}`,
      }),
    );
  }
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  text = text.replace(/\r\n?/g, "\n");
  if (text.trim().length === 0) {
    return Result.fail(new LoreFileError({ path, problem: "empty", detail: "the file is empty" }));
  }
  return Result.succeed(text);
};
