/**
 * A child process for index damage that may take the process down (a damaged USearch
 * graph file is read by native code): opens the index beside the database given on the
 * command line, probes it, and prints one JSON line with the reports and the probe's
 * hash. A crash shows up in the parent as a signal, not as a dead test worker.
 *
 * Usage: node --import tsx test/indexloss/probeIndexChild.ts <db> <options JSON>
 */
import { stateHash } from "@hearsay/core";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { openIndex, probe } from "./indexProbe.ts";

const [dbPath, optionsJson] = process.argv.slice(2);
if (dbPath === undefined || optionsJson === undefined) {
  process.stderr.write("usage: probeIndexChild.ts <db> <options JSON>\n");
  process.exit(2);
}
const db = openDatabase(dbPath);
try {
  const log = new SqliteEventLog(db);
  const { index, reports } = openIndex(db, dbPath, JSON.parse(optionsJson));
  const answers = probe(db, log, index);
  process.stdout.write(
    `${JSON.stringify({
      reports: reports.map((r) => ({
        collection: r.collection,
        outcome: r.outcome,
        reason: r.reason,
      })),
      probe: stateHash(answers),
    })}\n`,
  );
} finally {
  db.close();
}
