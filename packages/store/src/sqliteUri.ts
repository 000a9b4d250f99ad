/**
 * Lets a `file:` URI carry `immutable=1` (see openForReading). better-sqlite3 reads this
 * setting once, when its addon loads at the first connection, so every module that opens
 * a connection imports this one first. Plain paths are not affected; a path that itself
 * begins with `file:` is passed to SQLite as `./file:…`.
 */
process.env.SQLITE_USE_URI ??= "1";

/** `path` as SQLite must be given it when URIs are on. */
export const plainPath = (path: string): string => (path.startsWith("file:") ? `./${path}` : path);
