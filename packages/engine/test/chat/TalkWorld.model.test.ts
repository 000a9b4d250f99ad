/**
 * Model-based test of a save a player talks to: random sequences of turns (new or
 * continued conversations, some ending), conversation ends and game ticks, checked
 * after every step against a model of each conversation — turns gapless and
 * alternating player/NPC, summaries never ahead of the talk, the writer level with
 * the log.
 */
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PLAYER_ID, type StoredEvent, stateHash } from "@hearsay/core";
import { applyWorldTick, TalkWorld } from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { MAIN, run, tinyWorld } from "../harness.ts";

const world = tinyWorld();
const simulation = { world, worldHash: stateHash(world), lore: [] };
const npcs = ["ada", "bram", "cora", "fay"] as const;
const lines = [
  "Hello!",
  "I promise I'll guard the ford.",
  "Is there any work?",
  "Between us, I'm tired.",
  "Bye.",
];
let base = "";

beforeAll(async () => {
  base = join(mkdtempSync(join(tmpdir(), "hearsay-talk-model-")), "base.db");
  const log = new SqliteEventLog(openDatabase(base));
  await run(log, { world, days: 2, maxTicks: 8 });
  log.db.pragma("wal_checkpoint(TRUNCATE)");
  log.db.close();
});

interface Model {
  readonly open: Map<string, { id: string; next: number }>;
}
interface Real {
  readonly log: SqliteEventLog;
  readonly talk: TalkWorld;
}

const check = (m: Model, r: Real) => {
  const events = r.log.read(MAIN);
  const byConversation = new Map<string, Array<StoredEvent & { type: "ConversationTurn" }>>();
  for (const e of events)
    if (
      e.type === "ConversationTurn" &&
      [e.payload.speakerId, ...e.payload.listenerIds].includes(PLAYER_ID)
    ) {
      const list = byConversation.get(e.payload.conversationId) ?? [];
      list.push(e);
      byConversation.set(e.payload.conversationId, list);
    }
  for (const [id, turns] of byConversation) {
    expect(turns.map((t) => t.payload.turnIndex)).toEqual([...turns.keys()]);
    for (const t of turns)
      expect(t.payload.speakerId === PLAYER_ID).toBe(t.payload.turnIndex % 2 === 0);
    for (const s of events)
      if (s.type === "ConversationSummarized" && s.payload.conversationId === id)
        expect(s.payload.throughTurn).toBeLessThan(turns.length);
  }
  for (const [npc, c] of m.open) expect(byConversation.get(c.id)?.length, npc).toBe(c.next);
  expect(r.talk.head).toBe(r.log.head(MAIN));
};

class Turn implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly npc: string,
    readonly line: string,
    readonly fresh: boolean,
    readonly end: boolean,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const open = this.fresh ? undefined : m.open.get(this.npc);
    const res = await r.talk.takeTurn({
      npcId: this.npc,
      conversationId: open?.id ?? null,
      message: this.line,
      end: this.end,
    });
    expect(res.turnIndex).toBe(open?.next ?? 0);
    if (this.end) m.open.delete(this.npc);
    else m.open.set(this.npc, { id: res.conversationId, next: res.turnIndex + 2 });
    check(m, r);
  }
  toString = () => `turn(${this.npc}, ${this.fresh ? "new" : "cont"}${this.end ? ", end" : ""})`;
}

class End implements fc.AsyncCommand<Model, Real> {
  constructor(readonly npc: string) {}
  check = (m: Readonly<Model>) => m.open.has(this.npc);
  async run(m: Model, r: Real) {
    await r.talk.endConversation(this.npc, m.open.get(this.npc)!.id);
    m.open.delete(this.npc);
    check(m, r);
  }
  toString = () => `end(${this.npc})`;
}

class Tick implements fc.AsyncCommand<Model, Real> {
  constructor(readonly locationId: string) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const [ev] = await applyWorldTick(r.talk, [
      {
        kind: "noise",
        text: "A cart overturned.",
        locationId: this.locationId,
        factionId: null,
        visibility: "local",
        importance: 0.4,
        participants: [],
        entities: [],
      },
    ]);
    expect(
      ev!.learnt.every((l) => r.talk.state.npcs.get(l.npcId)!.locationId === this.locationId),
    ).toBe(true);
    check(m, r);
  }
  toString = () => `tick(${this.locationId})`;
}

const commands = [
  fc
    .tuple(fc.constantFrom(...npcs), fc.constantFrom(...lines), fc.boolean(), fc.boolean())
    .map(([n, l, fresh, end]) => new Turn(n, l, fresh, end)),
  fc.constantFrom(...npcs).map((n) => new End(n)),
  fc.constantFrom("green", "mill", "ford").map((l) => new Tick(l)),
];

describe("a save a player talks to (model-based)", () => {
  it("keeps every conversation gapless and alternating, and its writer level with the log", async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 12 }), async (cmds) => {
        const file = join(mkdtempSync(join(tmpdir(), "hearsay-talk-run-")), "w.db");
        copyFileSync(base, file);
        const log = new SqliteEventLog(openDatabase(file));
        const talk = new TalkWorld({
          simulation,
          log,
          saveId: MAIN,
          brain: ScriptedBrain.make(),
          recordBrain: false,
          options: { digestEvery: 2 },
        });
        try {
          await fc.asyncModelRun(() => ({ model: { open: new Map() }, real: { log, talk } }), cmds);
        } finally {
          log.db.close();
        }
      }),
      { numRuns: process.env.HEARSAY_DEEP ? 300 : 15 },
    );
  });
});
