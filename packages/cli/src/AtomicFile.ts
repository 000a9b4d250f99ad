/**
 * Every file the CLI writes is written whole or not at all: the bytes go to a temporary
 * file in the same folder (same file system, so the rename is atomic), which is synced
 * and renamed over the target only when everything was written. A failure part-way — a
 * full disk, a killed process — leaves the target as it was (or absent) and the
 * temporary file removed (a kill leaves a `.<name>.<pid>.tmp` beside it, never a
 * truncated target). Also refuses a target that is a database the command works on.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { CliFailure } from "./attempt.ts";

/** A failed write, said about the target (which is left as it was). */
const failed = (path: string, e: unknown): CliFailure =>
  new CliFailure({
    message: `${path}: cannot write it (${e instanceof Error ? e.message : String(e)}); nothing was written there`,
  });

/** Where a path would point once written: its real folder, plus its name. */
const canonical = (path: string): string => {
  const abs = resolve(path);
  if (existsSync(abs)) return realpathSync(abs);
  const dir = dirname(abs);
  return join(existsSync(dir) ? realpathSync(dir) : dir, basename(abs));
};

export class AtomicFile {
  private fd: number | null;

  private constructor(
    readonly path: string,
    private readonly tmp: string,
  ) {
    try {
      this.fd = openSync(tmp, "wx");
    } catch (e) {
      throw failed(path, e);
    }
  }

  /** Starts writing `path` (nothing appears there until `commit`). */
  static create(path: string): AtomicFile {
    const tmp = join(
      dirname(resolve(path)),
      `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
    );
    return new AtomicFile(path, tmp);
  }

  /**
   * Refuses an output path that is the database at `db` or one of its side files
   * (`-wal`, `-shm`, `-lock`, `-journal`): writing it would destroy what is exported.
   */
  static refuseDatabase(out: string, db: string): void {
    const target = canonical(out);
    for (const suffix of ["", "-wal", "-shm", "-lock", "-journal"]) {
      if (target === canonical(`${db}${suffix}`)) {
        throw new CliFailure({
          message: `--out ${out} is the database ${suffix === "" ? db : `${db}'s ${suffix.slice(1)} file`}: writing there would destroy it; choose another output file`,
        });
      }
    }
  }

  /** Appends `text`, all of it (a short write is continued, a failed one throws). */
  write(text: string): void {
    if (this.fd === null) throw new Error(`${this.path}: already committed or abandoned`);
    const bytes = Buffer.from(text, "utf8");
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done);
    } catch (e) {
      this.abandon();
      throw failed(this.path, e);
    }
  }

  /** Syncs the bytes to disk and moves them to `path` in one step. */
  commit(): void {
    if (this.fd === null) throw new Error(`${this.path}: already committed or abandoned`);
    try {
      try {
        fsyncSync(this.fd);
      } finally {
        closeSync(this.fd);
        this.fd = null;
      }
      renameSync(this.tmp, this.path);
    } catch (e) {
      this.abandon();
      throw failed(this.path, e);
    }
  }

  /** Throws the bytes away; `path` is left as it was. */
  abandon(): void {
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch {
        // The descriptor is gone either way; the file is removed next.
      }
      this.fd = null;
    }
    rmSync(this.tmp, { force: true });
  }
}
