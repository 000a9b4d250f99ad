/**
 * The JSONL export (a public contract, docs/FORMATS.md): one event per
 * line in seq order with its envelope and payload, streamed page by page, every line
 * decoding back to the stored event; a branch exports its whole history as its own.
 */
import { dayOf, decodeEvent, type GameTime, ids } from "@hearsay/core";
import {
  branchSave,
  comparable,
  exportJsonl,
  lastSeqAtOrBefore,
  lastSeqOfDay,
} from "@hearsay/engine";
import type { SqliteEventLog } from "@hearsay/store";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { MAIN, memoryLog, parseJsonl, runHamlet } from "./fixtures.ts";

let log: SqliteEventLog;
beforeAll(async () => {
  log = memoryLog();
  await runHamlet(log, { days: 2 });
});

describe("the JSONL export", () => {
  it("has one line per event with the envelope first and the payload the log holds", () => {
    const text = [...exportJsonl({ log, saveId: MAIN })].join("");
    expect(text.endsWith("\n")).toBe(true);
    const lines = parseJsonl(text);
    const stored = log.read(MAIN);
    expect(lines).toHaveLength(stored.length);
    for (const [i, line] of lines.entries()) {
      expect(Object.keys(line)).toEqual([
        "seq",
        "saveId",
        "campaignId",
        "day",
        "t",
        "type",
        "version",
        "id",
        "payload",
      ]);
      expect(line.seq).toBe(i + 1);
      expect(line.saveId).toBe("main");
      expect(line.day).toBe(dayOf(line.t as GameTime));
      expect(comparable(decodeEvent(line))).toEqual(comparable(stored[i]!));
    }
    const knowledge = lines.filter((l) => l.type === "KnowledgeGained");
    const memories = lines.filter((l) => l.type === "MemoryRecorded");
    expect(knowledge.length).toBeGreaterThan(0);
    expect(memories.length).toBeGreaterThan(0);
    for (const k of knowledge)
      expect(k.payload).toMatchObject({
        npcId: expect.any(String),
        itemKind: expect.any(String),
        itemId: expect.any(String),
        via: expect.any(String),
      });
    for (const m of memories)
      expect(m.payload).toMatchObject({
        memoryId: expect.any(String),
        ownerNpcId: expect.any(String),
      });
  });

  it("streams: any page size gives the same text, one chunk per page", () => {
    const whole = [...exportJsonl({ log, saveId: MAIN })].join("");
    const head = log.head(MAIN);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), (pageSize) => {
        const chunks = [...exportJsonl({ log, saveId: MAIN, pageSize })];
        expect(chunks).toHaveLength(Math.ceil(head / pageSize));
        expect(chunks.join("")).toBe(whole);
      }),
      { numRuns: 15 },
    );
  });

  it("exports a branch's whole history as the branch's own events", () => {
    const b = branchSave({ log, from: MAIN, at: { day: 1 }, into: "fork" });
    const lines = parseJsonl([...exportJsonl({ log, saveId: ids.save("fork") })].join(""));
    const parent = parseJsonl([...exportJsonl({ log, saveId: MAIN, toSeq: b.seq })].join(""));
    expect(lines).toHaveLength(b.seq);
    expect(lines.map((l) => ({ ...l, saveId: "main" }))).toEqual(parent);
  });
});

describe("points in the history", () => {
  it("the last seq at or before a time, and the last seq of a day, agree with a scan", () => {
    const events = log.read(MAIN);
    const last = events[events.length - 1]!.t;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: last + 120 }), (t) => {
        expect(lastSeqAtOrBefore(log, MAIN, t)).toBe(events.filter((e) => e.t <= t).length);
      }),
      { numRuns: 100 },
    );
    for (const day of [0, 1, 2, 3]) {
      expect(lastSeqOfDay(log, MAIN, day)).toBe(events.filter((e) => dayOf(e.t) <= day).length);
    }
  });
});
