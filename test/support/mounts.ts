/**
 * Small file systems for tests that need one: a tiny tmpfs that fills up (a full disk)
 * and one remounted read-only (read-only media). Mounting needs root (CAP_SYS_ADMIN);
 * where it is refused, `mountTmpfs` says so and the test that needs it is skipped.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";

/** Mounts a tmpfs of `kib` KiB at `dir` (created); false when this process may not mount. */
export const mountTmpfs = (dir: string, kib: number): boolean => {
  mkdirSync(dir, { recursive: true });
  if (process.platform !== "linux" || process.getuid?.() !== 0) return false;
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${kib}k`, "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/** Makes the tmpfs at `dir` read-only. */
export const remountReadOnly = (dir: string): void => {
  execFileSync("mount", ["-o", "remount,ro", dir], { stdio: "ignore" });
};

/** Unmounts `dir` (lazily, so a straggling child cannot keep it busy). */
export const unmount = (dir: string): void => {
  try {
    execFileSync("umount", ["-l", dir], { stdio: "ignore" });
  } catch {
    // Not mounted (the mount was refused): nothing to undo.
  }
};
