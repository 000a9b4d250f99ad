/**
 * Records test/fixtures/recorded/hamlet/log.jsonl, the committed recorded log that the
 * replay tests keep replaying. Run it again only when a change to the engine is meant
 * to change what a run writes (the fixture test then says so):
 *
 *   NODE_OPTIONS=--conditions=@hearsay/source npx tsx packages/engine/test/replay/recordFixture.ts
 *
 * The run: the hamlet, seed 7, 3 days, checkpoints every 6 ticks, answered by the
 * stand-in live brain (every call recorded, some failed); interrupted after 30 ticks and
 * continued with seed 8 (a RunResumed). Then a few events are written back in the shape
 * of their test-only version 0 (oldVersions.ts), as an older build would have stored them.
 */
import { writeFileSync } from "node:fs";
import { decodeEvent } from "@hearsay/core";
import { exportJsonl } from "@hearsay/engine";
import { HAMLET_LOG, MAIN, memoryLog, runHamlet } from "./fixtures.ts";
import { downcast } from "./oldVersions.ts";
import { standInBrain } from "./standInBrain.ts";

/** How many events of each test-only old version the fixture holds. */
const OLD = { MemoryExpired: 2, RelationshipChanged: 3 } as const;

export const recordHamlet = async (): Promise<string> => {
  const log = memoryLog();
  const common = {
    brain: standInBrain(),
    recordBrain: true,
    config: { checkpointEveryTicks: 6 },
  } as const;
  await runHamlet(log, { ...common, maxTicks: 30 });
  await runHamlet(log, { ...common, resume: true, seed: 8 });
  const left: Record<string, number> = { ...OLD };
  const out: Array<string> = [];
  for (const chunk of exportJsonl({ log, saveId: MAIN })) {
    for (const line of chunk.split("\n")) {
      if (line === "") continue;
      const exported = JSON.parse(line) as { type: string; seq: number; day: number };
      const old =
        (left[exported.type] ?? 0) > 0 &&
        (exported.day > 0 || exported.type === "RelationshipChanged")
          ? downcast(decodeEvent(exported))
          : null;
      if (old === null) {
        out.push(line);
        continue;
      }
      left[exported.type]! -= 1;
      const { type, version, payload } = old as { type: string; version: number; payload: unknown };
      out.push(JSON.stringify({ ...exported, type, version, payload }));
    }
  }
  return `${out.join("\n")}\n`;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = await recordHamlet();
  writeFileSync(HAMLET_LOG, text);
  console.log(`wrote ${text.split("\n").length - 1} events to ${HAMLET_LOG}`);
}
