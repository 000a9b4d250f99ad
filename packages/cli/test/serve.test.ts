/** `hearsay serve` over real HTTP on 127.0.0.1: bad input, auth, one writer per save, streams cut short. */
import { ids, PLAYER_ID } from "@hearsay/core";
import { loadSimulation, runGraphCollections, TalkWorld } from "@hearsay/engine";
import { type ReplyStreamer, ScriptedBrain } from "@hearsay/mind";
import {
  collectionNames,
  indexStatus,
  makeHashingEmbedder,
  VectorIndexes,
} from "@hearsay/retrieval";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServe } from "../src/serve/startServe.ts";
import { tinyPath, tinyWorldDb } from "./talkFixture.ts";

const TOKEN = "t0ken";
const sim = loadSimulation(tinyPath);
let log: SqliteEventLog;
let server: RunningServer;

/** The scripted answer, handed on a word every 20 ms, as a slow model would stream it. */
const slowStreamer: ReplyStreamer = (request, listener) => {
  const brain = ScriptedBrain.make();
  return Effect.promise(async () => {
    const answer = brain.decideSync(request);
    const text = (answer.output as { text?: string }).text ?? "";
    for (const word of text.split(" ")) {
      listener.text(`${word} `);
      await new Promise((r) => setTimeout(r, 20));
    }
    return answer;
  });
};

beforeAll(async () => {
  log = new SqliteEventLog(openDatabase(await tinyWorldDb()));
  server = await startServe({
    log,
    token: TOKEN,
    maxBodyBytes: 4096,
    open: (save) =>
      new TalkWorld({
        simulation: sim,
        log,
        saveId: ids.save(save),
        brain: ScriptedBrain.make(),
        recordBrain: false,
        ...(slowStreamerFor.has(save) ? { streamer: slowStreamer } : {}),
      }),
  });
});
afterAll(async () => {
  await server.close();
  log.db.close();
});

/** Saves whose replies stream slowly. */
const slowStreamerFor = new Set<string>();

const call = (path: string, init: RequestInit & { auth?: boolean } = {}) =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: {
      "content-type": "application/json",
      ...(init.auth === false ? {} : { authorization: `Bearer ${TOKEN}` }),
      ...(init.headers as Record<string, string> | undefined),
    },
  });

const turns = (conversationId: string) =>
  log
    .read(ids.save("main"))
    .filter((e) => e.type === "ConversationTurn" && e.payload.conversationId === conversationId)
    .map((e) => e.payload as { turnIndex: number; speakerId: string; text: string });

describe("hearsay serve", () => {
  it("publishes an OpenAPI document naming every endpoint", async () => {
    const doc = (await (await call("/openapi.json", { auth: false })).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/saves/{save}/npcs/{npc}/turn",
        "/saves/{save}/tick",
        "/saves/{save}/actions",
        "/saves/{save}/export",
      ]),
    );
  });

  it("refuses a missing or wrong token, bad JSON, a body that does not decode, and oversize bodies", async () => {
    const head = log.head(ids.save("main"));
    const body = JSON.stringify({ message: "Hello" });
    expect(
      (await call("/saves/main/npcs/ada/turn", { method: "POST", body, auth: false })).status,
    ).toBe(401);
    expect(
      (
        await call("/saves/main/npcs/ada/turn", {
          method: "POST",
          body,
          headers: { authorization: "Bearer nope!" },
        })
      ).status,
    ).toBe(401);
    const bad = await call("/saves/main/npcs/ada/turn", { method: "POST", body: "{not json" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { field: string }).field).toBe("(body)");
    const wrong = await call("/saves/main/npcs/ada/turn", {
      method: "POST",
      body: JSON.stringify({ message: 42 }),
    });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { field: string }).field).toBe("message");
    const tick = await call("/saves/main/tick", {
      method: "POST",
      body: JSON.stringify({
        events: [{ kind: "fire", text: "Smoke.", visibility: "everywhere" }],
      }),
    });
    expect(((await tick.json()) as { field: string }).field).toBe("events.0.visibility");
    for (const [camera, field] of [
      [{ locationId: "moon" }, "camera.locationId"],
      [{ location: "mill" }, "camera.location"],
      ["mill", "camera"],
    ] as const) {
      const badCamera = await call("/saves/main/tick", {
        method: "POST",
        body: JSON.stringify({
          events: [{ kind: "fire", text: "Smoke.", visibility: "global" }],
          camera,
        }),
      });
      expect(badCamera.status).toBe(400);
      const failure = (await badCamera.json()) as { field: string; message: string };
      expect(failure.field).toBe(field);
      expect(failure.message.split("\n")).toHaveLength(1);
    }
    const big = await call("/saves/main/npcs/ada/turn", {
      method: "POST",
      body: JSON.stringify({ message: "x".repeat(10_000) }),
    });
    expect(big.status).toBe(413);
    expect(log.head(ids.save("main"))).toBe(head);
  });

  it("answers 404 for unknown saves, NPCs, conversations and tasks", async () => {
    const body = JSON.stringify({ message: "Hello" });
    expect((await call("/saves/nope/npcs/ada/turn", { method: "POST", body })).status).toBe(404);
    expect((await call("/saves/main/npcs/zed/turn", { method: "POST", body })).status).toBe(404);
    expect((await call("/saves/main/npcs/player/memories")).status).toBe(404);
    expect(
      (
        await call("/saves/main/npcs/ada/turn", {
          method: "POST",
          body: JSON.stringify({ message: "Hi", conversationId: "conv0.0" }),
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call("/saves/main/actions", {
          method: "POST",
          body: JSON.stringify({ taskId: "task-none", outcome: "accepted" }),
        })
      ).status,
    ).toBe(404);
  });

  it("stores all of 50 concurrent turns for one save, each with its reply, none interleaved", async () => {
    const first = (await (
      await call("/saves/main/npcs/bram/turn", {
        method: "POST",
        body: JSON.stringify({ message: "Hello!" }),
      })
    ).json()) as { conversationId: string };
    const sent = Array.from({ length: 50 }, (_, i) => `Message number ${i}.`);
    const answers = await Promise.all(
      sent.map((message) =>
        call("/saves/main/npcs/bram/turn", {
          method: "POST",
          body: JSON.stringify({ message, conversationId: first.conversationId }),
        }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as { turnIndex: number; reply: string },
        })),
      ),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const stored = turns(first.conversationId);
    expect(stored).toHaveLength(102);
    expect(stored.map((t) => t.turnIndex)).toEqual([...Array(102).keys()]);
    for (let i = 0; i < stored.length; i += 2) {
      expect(stored[i]!.speakerId).toBe(PLAYER_ID);
      expect(stored[i + 1]!.speakerId).toBe("bram");
    }
    expect(new Set(stored.filter((t) => t.speakerId === PLAYER_ID).map((t) => t.text))).toEqual(
      new Set(["Hello!", ...sent]),
    );
    for (const a of answers) expect(stored[a.body.turnIndex + 1]!.text).toBe(a.body.reply);
  });

  it("streams a reply as NDJSON, and a client that disconnects mid-stream leaves nothing half-written", async () => {
    slowStreamerFor.add("slow");
    log.createSave({
      saveId: ids.save("slow"),
      campaignId: log.save(ids.save("main")).campaignId,
      name: "slow",
      parent: { saveId: ids.save("main"), seq: log.head(ids.save("main")) },
    });
    const head = log.head(ids.save("slow"));
    const abort = new AbortController();
    const res = await call("/saves/slow/npcs/cora/turn?stream=1", {
      method: "POST",
      body: JSON.stringify({ message: "I promise I will fix the well." }),
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    const firstChunk = new TextDecoder().decode((await reader.read()).value);
    expect(JSON.parse(firstChunk.split("\n")[0]!)).toMatchObject({ type: "delta" });
    abort.abort();
    await new Promise((r) => setTimeout(r, 600));
    expect(log.head(ids.save("slow"))).toBe(head);

    const whole = await call("/saves/slow/npcs/cora/turn?stream=1", {
      method: "POST",
      body: JSON.stringify({ message: "I promise I will fix the well." }),
    });
    const lines = (await whole.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; text?: string; reply?: string });
    const done = lines.at(-1)!;
    expect(done.type).toBe("done");
    expect(
      lines
        .filter((l) => l.type === "delta")
        .map((l) => l.text)
        .join("")
        .trim(),
    ).toBe(done.reply);
    const stored = log
      .read(ids.save("slow"), { fromSeq: head + 1 })
      .filter((e) => e.type === "ConversationTurn");
    expect(stored).toHaveLength(2);
  });

  it("turns a world tick into world events with who learnt them, and an action result into a task move and a memory", async () => {
    const tick = (await (
      await call("/saves/main/tick", {
        method: "POST",
        body: JSON.stringify({
          events: [
            { kind: "fire", text: "The barn burned.", locationId: "mill", visibility: "local" },
          ],
        }),
      })
    ).json()) as {
      events: Array<{ worldEventId: string; learnt: Array<{ npcId: string; via: string }> }>;
    };
    const main = ids.save("main");
    const watched = async (camera: unknown) =>
      (
        (await (
          await call("/saves/main/tick", {
            method: "POST",
            body: JSON.stringify(camera === undefined ? { events: [] } : { events: [], camera }),
          })
        ).json()) as { camera: string | null }
      ).camera;
    expect(await watched({ locationId: "mill" })).toBe("mill");
    // Absent, the camera stays; null takes it away.
    expect(await watched(undefined)).toBe("mill");
    expect(await watched(null)).toBeNull();
    const atMill = [...log.read(main)].filter(
      (e) => e.type === "KnowledgeGained" && e.payload.itemId === tick.events[0]!.worldEventId,
    );
    expect(atMill.map((e) => (e.payload as { npcId: string }).npcId)).toEqual(
      tick.events[0]!.learnt.map((l) => l.npcId),
    );

    const offer = (await (
      await call("/saves/main/npcs/ada/turn", {
        method: "POST",
        body: JSON.stringify({ message: "Is there any work for me?" }),
      })
    ).json()) as { actions: Array<{ taskId: string }> };
    expect(offer.actions).toHaveLength(1);
    const taskId = offer.actions[0]!.taskId;
    const accepted = await call("/saves/main/actions", {
      method: "POST",
      body: JSON.stringify({ taskId, outcome: "accepted" }),
    });
    expect(((await accepted.json()) as { status: string }).status).toBe("active");
    const again = await call("/saves/main/actions", {
      method: "POST",
      body: JSON.stringify({ taskId, outcome: "rejected" }),
    });
    expect(again.status).toBe(409);
    const memories = (await (await call("/saves/main/npcs/ada/memories?about=player")).json()) as {
      memories: Array<{ text: string }>;
    };
    expect(memories.memories.map((m) => m.text)).toContain(
      `The player accepted the task I gave them: Help Ada Reed at The Mill.`,
    );
    const dossier = (await (await call("/saves/main/npcs/ada/dossier?query=work")).json()) as {
      text: string;
    };
    expect(dossier.text).toMatch(/Help Ada Reed/);
    const exported = await (await call("/saves/main/export")).text();
    expect(exported.trim().split("\n").length).toBe(log.head(main));
  });

  it("saves its talks' vectors when it stops, level with the database, so the next open reads no row", async () => {
    const path = await tinyWorldDb();
    const own = new SqliteEventLog(openDatabase(path));
    const running = await startServe({
      log: own,
      token: TOKEN,
      open: (save) =>
        new TalkWorld({
          simulation: sim,
          log: own,
          saveId: ids.save(save),
          brain: ScriptedBrain.make(),
          recordBrain: false,
        }),
    });
    const reply = await fetch(`${running.url}/saves/main/npcs/ada/turn`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ message: "I promise to mend the mill wheel." }),
    });
    expect(reply.status).toBe(200);
    await running.close();
    const scanned = new Set<string>();
    Effect.runSync(
      VectorIndexes.open(own.db, makeHashingEmbedder(), {
        graphCollections: runGraphCollections,
        onProgress: (p) => {
          if (p.phase === "scan") scanned.add(p.collection);
        },
      }),
    );
    // …and rightly: the files hold every row of the tables (checked row by row).
    const stale = indexStatus(own.db, path, makeHashingEmbedder(), collectionNames);
    own.db.close();
    expect([...scanned]).toEqual([]);
    expect(stale.filter((s) => s.stale)).toEqual([]);
  });
});
