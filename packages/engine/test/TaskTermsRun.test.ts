/**
 * A month in the tiny world with the scripted brain (a fixed seed): parties give tasks up,
 * withdraw them and move their deadlines by agreement; only the parties and those who
 * were there learn of it; a moved deadline is the one that expires; and a resumed run,
 * from its log or from a snapshot, does all of it exactly as an uninterrupted one.
 */
import type { LocationId, NpcId } from "@hearsay/core";
import { describe, expect, it } from "vitest";
import { freshLog, logHash, MAIN, run } from "./harness.ts";

const spec = { days: 30, seed: 5 } as const;

describe("tasks renegotiated over a month", () => {
  it("are cancelled by a party and moved by agreement, and only those there learn of it", async () => {
    const log = freshLog();
    await run(log, spec);
    const events = log.read(MAIN);
    const tasks = new Map<string, { assignee: NpcId | null; proposedBy: NpcId | null }>();
    const status = new Map<string, string>();
    const deadline = new Map<string, number | null>();
    const at = new Map<NpcId, LocationId>();
    /** `taskId@t` of each party's change of terms → who made it. */
    const changes = new Map<string, NpcId>();
    let cancelled = 0;
    let moved = 0;
    for (const e of events) {
      switch (e.type) {
        case "NpcRegistered":
          at.set(e.payload.npcId, e.payload.locationId);
          break;
        case "NpcMoved":
          at.set(e.payload.npcId, e.payload.to);
          break;
        case "NpcActivityChanged":
          at.set(e.payload.npcId, e.payload.locationId);
          break;
        case "TaskProposed":
          tasks.set(e.payload.taskId, e.payload);
          status.set(e.payload.taskId, "proposed");
          deadline.set(e.payload.taskId, e.payload.deadline);
          break;
        case "TaskStatusChanged": {
          const p = e.payload;
          const task = tasks.get(p.taskId)!;
          expect(["proposed", "active"]).toContain(status.get(p.taskId));
          expect(p.from).toBe(status.get(p.taskId));
          status.set(p.taskId, p.to);
          if (p.to === "expired") expect(e.t).toBeGreaterThanOrEqual(deadline.get(p.taskId)!);
          if (p.to === "cancelled" && p.by !== null) {
            cancelled += 1;
            // Only a party calls a task off: its assignee, or its proposer.
            expect([task.assignee, task.proposedBy]).toContain(p.by);
            changes.set(`${p.taskId}@${e.t}`, p.by);
          }
          break;
        }
        case "TaskDeadlineMoved": {
          const p = e.payload;
          const task = tasks.get(p.taskId)!;
          moved += 1;
          expect(["proposed", "active"]).toContain(status.get(p.taskId));
          expect(p.from).toBe(deadline.get(p.taskId));
          expect(p.to).toBeGreaterThan(e.t);
          if (p.from !== null) expect(p.to).toBeGreaterThan(p.from);
          expect([task.assignee, task.proposedBy]).toContain(p.askedBy);
          // The other party agreed, there and then (or the task was the asker's own).
          if (p.agreedBy !== p.askedBy) {
            expect([task.assignee, task.proposedBy]).toContain(p.agreedBy);
            expect(at.get(p.agreedBy)).toBe(at.get(p.askedBy));
          }
          deadline.set(p.taskId, p.to);
          changes.set(`${p.taskId}@${e.t}`, p.askedBy);
          break;
        }
        case "MemoryRecorded": {
          const about = e.payload.about;
          if (about?.kind !== "task") break;
          const by = changes.get(`${about.id}@${e.t}`);
          if (by === undefined) break;
          const task = tasks.get(about.id)!;
          const owner = e.payload.ownerNpcId;
          // Quotations pair up and never nest; another's reason is theirs, quoted.
          const text = e.payload.text;
          expect((text.match(/"/g) ?? []).length % 2, text).toBe(0);
          expect(text, text).not.toMatch(/""|[a-z]": I /);
          // A party, or a witness standing where it happened.
          if (owner !== task.assignee && owner !== task.proposedBy)
            expect(at.get(owner), `${owner} learnt of ${about.id}`).toBe(at.get(by));
          break;
        }
      }
    }
    expect(cancelled).toBeGreaterThan(0);
    expect(moved).toBeGreaterThan(0);
  });

  it("a run resumed mid-way, from its log or from a snapshot, renegotiates exactly as an uninterrupted one", async () => {
    const whole = freshLog();
    await run(whole, spec);
    // Split a tick before the last cancellation or deadline move, whichever comes first,
    // so both kinds happen in the resumed part whatever the world's month brings.
    const events = whole.read(MAIN);
    const lastAt = (match: (e: (typeof events)[number]) => boolean) =>
      events.findLast(match)?.t ?? 0;
    const until = Math.min(
      lastAt((e) => e.type === "TaskStatusChanged" && e.payload.to === "cancelled"),
      lastAt((e) => e.type === "TaskDeadlineMoved"),
    );
    const maxTicks = events.filter((e) => e.type === "ClockAdvanced" && e.t < until).length - 1;
    expect(maxTicks).toBeGreaterThan(0);
    const split = freshLog();
    await run(split, { ...spec, maxTicks });
    const splitAt = split.head(MAIN);
    await run(split, { ...spec, resume: true });
    expect(logHash(split)).toBe(logHash(whole));
    const after = split.read(MAIN).filter((e) => e.seq > splitAt);
    expect(after.some((e) => e.type === "TaskStatusChanged" && e.payload.to === "cancelled")).toBe(
      true,
    );
    expect(after.some((e) => e.type === "TaskDeadlineMoved")).toBe(true);

    const snapped = freshLog();
    const snaps = { ...spec, config: { snapshotEveryEvents: 400 } };
    await run(snapped, { ...snaps, maxTicks });
    await run(snapped, { ...snaps, resume: true });
    expect(logHash(snapped)).toBe(logHash(whole));
  });
});
