/**
 * Whether a database file is damaged, asked after something failed on it in a way that
 * names no file (a decode error, an undefined row): SQLite's `quick_check` over a
 * read-only connection. Only failures pay for it, never a healthy command.
 */
import { openHearsayReadOnly } from "./openForReading.ts";

/** What is wrong with the file at `path`, or null when `quick_check` finds it whole. */
export const findDamage = (path: string): string | null => {
  try {
    const db = openHearsayReadOnly(path);
    try {
      const rows = db.pragma("quick_check(3)", { simple: false }) as Array<{
        quick_check: string;
      }>;
      const problems = rows.map((r) => r.quick_check).filter((r) => r !== "ok");
      return problems.length === 0 ? null : `quick_check: ${problems.join("; ")}`;
    } finally {
      db.close();
    }
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
};
