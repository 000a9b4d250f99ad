/**
 * The bare-log baseline: a run's events appended as one JSON row each into a fresh
 * SQLite table with nothing but a primary key, one transaction per tick — what merely
 * logging the run costs, with no read model, index or decoding. The engine bench sets a
 * whole run's wall time against it (the target: a run within ~3× of its bare log).
 * `storeLogOnly` is the step between: the store's own log table, without read models.
 */
import { decodeEvent, type StoredEvent } from "@hearsay/core";
import { DIGEST_FN, openDatabase, SqliteEventLog } from "@hearsay/store";
import Database from "better-sqlite3";
import { cpuNow } from "./cpuParts.ts";

/** Wall and CPU seconds the bare appends took, and the rows written. */
export interface BareLog {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly rows: number;
}

/** Times `work` (wall and this process's CPU); `work` returns the rows it wrote. */
const timed = (work: () => number): BareLog => {
  const c0 = cpuNow();
  const t0 = performance.now();
  const rows = work();
  return { seconds: (performance.now() - t0) / 1000, cpuSeconds: (cpuNow() - c0) / 1e6, rows };
};

/**
 * Appends `batches` (a run's ticks, in order) to a fresh table in `path` (default: a
 * database in memory, as the bench's run uses), one transaction per batch.
 */
export const bareLog = (
  batches: ReadonlyArray<ReadonlyArray<StoredEvent>>,
  path = ":memory:",
): BareLog => {
  const db = new Database(path);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.exec("CREATE TABLE bare_log (seq INTEGER PRIMARY KEY, event TEXT NOT NULL)");
    const insert = db.prepare("INSERT INTO bare_log (seq, event) VALUES (?, ?)");
    const tick = db.transaction((events: ReadonlyArray<StoredEvent>) => {
      for (const e of events) insert.run(e.seq, JSON.stringify(e));
    });
    const time = timed(() => {
      for (const b of batches) tick(b);
      return 0;
    });
    return { ...time, rows: Number(db.prepare("SELECT count(*) FROM bare_log").pluck().get()) };
  } finally {
    db.close();
  }
};

/**
 * The store's own log without its read models: the same batches inserted into a fresh
 * store's `events` table (its keys, its three indexes, the save's foreign key) with the
 * statement the store's append uses, the head moved, one transaction per batch — no
 * decoding, no projection, no digest. Between the bare log and the whole store append, it
 * tells what the log's shape costs and what the read models do.
 */
export const storeLogOnly = (batches: ReadonlyArray<ReadonlyArray<StoredEvent>>): BareLog => {
  const db = openDatabase(":memory:");
  try {
    const first = batches[0]?.[0];
    if (first === undefined) return { seconds: 0, cpuSeconds: 0, rows: 0 };
    new SqliteEventLog(db).createSave({
      saveId: first.saveId,
      campaignId: first.campaignId,
      name: "log only",
    });
    const insert = db.prepare(
      "INSERT INTO events (save_id, seq, campaign_id, event_id, t, day, type, version, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (save_id, event_id) DO NOTHING",
    );
    const head = db.prepare("UPDATE saves SET head_seq = ? WHERE save_id = ?");
    const tick = db.transaction((events: ReadonlyArray<StoredEvent>) => {
      for (const e of events) {
        insert.run(
          e.saveId,
          e.seq,
          e.campaignId,
          e.id,
          e.t,
          Math.floor(e.t / 1440),
          e.type,
          e.version,
          JSON.stringify(e.payload),
        );
      }
      const last = events[events.length - 1];
      if (last !== undefined) head.run(last.seq, last.saveId);
    });
    const time = timed(() => {
      for (const b of batches) tick(b);
      return 0;
    });
    return { ...time, rows: Number(db.prepare("SELECT count(*) FROM events").pluck().get()) };
  } finally {
    db.close();
  }
};

/**
 * Decoding alone: every event of `batches` through core's `decodeEvent`, as the store's
 * append does before it writes anything — its share of the store's append.
 */
export const decodeOnly = (batches: ReadonlyArray<ReadonlyArray<StoredEvent>>): BareLog => {
  return timed(() => {
    let rows = 0;
    for (const b of batches) for (const e of b) rows += decodeEvent(e) === undefined ? 0 : 1;
    return rows;
  });
};

/**
 * The whole store's append of `batches` (a run's ticks, in order) to a fresh store in
 * memory, read models and all, one append per batch: the engine bench's store baseline.
 * `digest` false drops the projection digest's triggers first.
 */
export const storeAppend = (
  batches: ReadonlyArray<ReadonlyArray<StoredEvent>>,
  digest = true,
): BareLog => {
  const db = openDatabase(":memory:");
  try {
    const first = batches[0]?.[0];
    if (first === undefined) return { seconds: 0, cpuSeconds: 0, rows: 0 };
    const log = new SqliteEventLog(db);
    log.createSave({ saveId: first.saveId, campaignId: first.campaignId, name: "store" });
    if (!digest) {
      const triggers = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND sql LIKE ?")
        .pluck()
        .all(`%${DIGEST_FN}(%`) as Array<string>;
      for (const name of triggers) db.exec(`DROP TRIGGER "${name}"`);
    }
    return timed(() => {
      let head = 0;
      for (const b of batches) head = log.append(first.saveId, head, b).head;
      return head;
    });
  } finally {
    db.close();
  }
};

/**
 * What keeping the projection digest costs the store's append: the whole store's append
 * of `batches` to fresh stores with the digest's triggers and without, alternated twice,
 * the least CPU of each (one pair alone moved by more than the digest's share with the
 * order it ran in).
 */
export const digestCost = (
  batches: ReadonlyArray<ReadonlyArray<StoredEvent>>,
): { readonly withDigest: BareLog; readonly withoutDigest: BareLog } => {
  const runs = [true, false, true, false].map((digest) => ({
    digest,
    run: storeAppend(batches, digest),
  }));
  const least = (digest: boolean): BareLog =>
    runs
      .filter((r) => r.digest === digest)
      .map((r) => r.run)
      .reduce((a, b) => (b.cpuSeconds < a.cpuSeconds ? b : a));
  return { withDigest: least(true), withoutDigest: least(false) };
};

/**
 * The store folding in batches (a run does not: it measured no net gain): `batches`
 * appended log rows only (`appendLogOnly`), the read models caught up every `every`
 * batches and at the end (`caughtUp`) — same rows and digest as appending them whole,
 * folded in larger ranges.
 */
export const storeCaughtUpEvery = (
  batches: ReadonlyArray<ReadonlyArray<StoredEvent>>,
  every: number,
): BareLog => {
  const db = openDatabase(":memory:");
  try {
    const first = batches[0]?.[0];
    if (first === undefined) return { seconds: 0, cpuSeconds: 0, rows: 0 };
    const log = new SqliteEventLog(db);
    log.createSave({ saveId: first.saveId, campaignId: first.campaignId, name: "log only" });
    return timed(() => {
      let head = 0;
      batches.forEach((b, i) => {
        head = log.appendLogOnly(first.saveId, head, b).head;
        if ((i + 1) % every === 0) log.caughtUp(first.saveId);
      });
      log.caughtUp(first.saveId);
      return head;
    });
  } finally {
    db.close();
  }
};
