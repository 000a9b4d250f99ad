/**
 * Who shares a scene summary call, and what its prompt may hold. On any scene — lines
 * said to some, debates among some, happenings known to some, witnesses whose summaries
 * already cover part of it — the prompt of a shared call holds nothing one of its
 * witnesses could not know: every line, debate, happening and name in it is one each
 * witness heard, took part in, knows of or met there, a speech style only of someone
 * they all heard speak, and nothing private (traits, role, faction, regard) of anyone.
 * Every witness with something to remember is asked exactly once, shared or alone.
 */
import { ids, type NpcId, type SceneId, type WorldEventId } from "@hearsay/core";
import { type BrainRequest, renderPrompt, type SummarizeSceneInput } from "@hearsay/mind";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SceneDebateHeld, SceneExchange, SceneHappening } from "../src/NarrativeLedger.ts";
import { type SceneRecord, shareScene, witnessView } from "../src/SceneWitnesses.ts";

const runs = (n: number) => (process.env.HEARSAY_DEEP ? n * 20 : n);

const pool = ["a", "b", "c", "d", "e"].map((x) => ids.npc(x));

interface Facts {
  readonly after: number;
  readonly knows: ReadonlySet<string>;
}

const arbScene = fc
  .record({
    lines: fc.array(
      fc.record({
        speaker: fc.constantFrom(...pool),
        listeners: fc.subarray(pool, { minLength: 1, maxLength: 2 }),
      }),
      { maxLength: 8 },
    ),
    debates: fc.array(fc.subarray(pool, { minLength: 2 }), { maxLength: 2 }),
    happenings: fc.nat(3),
    witnesses: fc.subarray(pool, { minLength: 1 }),
    gone: fc.subarray(pool, { maxLength: 1 }),
  })
  .chain((s) => {
    const items = s.lines.length + s.debates.length + s.happenings;
    return fc.record({
      scene: fc.constant(s),
      facts: fc.tuple(
        ...pool.map(() =>
          fc.record({
            after: fc.integer({ min: 0, max: items + 1 }),
            knows: fc.subarray([0, 1, 2].map((i) => `we-${i}`)).map((k) => new Set<string>(k)),
          }),
        ),
      ),
      // Mixes the order lines, debates and happenings came in.
      order: fc.shuffledSubarray(
        Array.from({ length: items }, (_, i) => i),
        { minLength: items, maxLength: items },
      ),
    });
  })
  .map(({ scene, facts, order }) => {
    let k = 0;
    const seqOf = () => order[k++]! + 1;
    const lines: Array<SceneExchange> = scene.lines
      .map((l) => ({ l, seq: seqOf() }))
      .map(({ l, seq }) => ({
        seq,
        speakerId: l.speaker,
        listenerIds: l.listeners.filter((x) => x !== l.speaker),
        text: `LINE${seq}`,
      }))
      .filter((l) => l.listenerIds.length > 0)
      .sort((a, b) => a.seq - b.seq);
    const debates: Array<SceneDebateHeld> = scene.debates
      .map((participants) => ({ participants, seq: seqOf() }))
      .map(({ participants, seq }) => ({
        seq,
        debateId: ids.debate(`debate-${seq}`),
        topic: `DEBATE${seq}`,
        participants,
        summary: `DSUM${seq}`,
        outcome: `DOUT${seq}`,
      }))
      .sort((a, b) => a.seq - b.seq);
    const happenings: Array<SceneHappening> = Array.from({ length: scene.happenings }, (_, i) => ({
      seq: seqOf(),
      worldEventId: `we-${i}` as WorldEventId,
      text: `HAPP${i}`,
    })).sort((a, b) => a.seq - b.seq);
    const record: SceneRecord = {
      sceneId: "scene-1" as SceneId,
      locationName: "the Mill",
      lines,
      debates,
      happenings,
    };
    const factsOf = new Map(pool.map((id, i) => [id, facts[i]! as Facts]));
    return { record, factsOf, witnesses: scene.witnesses, gone: new Set(scene.gone) };
  });

type Case = typeof arbScene extends fc.Arbitrary<infer T> ? T : never;

/** Every witness's own view, with private markers in everything only it holds. */
const viewsOf = (c: Case): Array<SummarizeSceneInput> =>
  c.witnesses.flatMap((self) => {
    const facts = c.factsOf.get(self)!;
    const view = witnessView(c.record, {
      self: {
        id: self,
        name: `NAME-${self}`,
        role: `ROLE-${self}`,
        factionId: null,
        traits: [`TRAIT-${self}`],
        speechStyle: `STYLE-${self}`,
      },
      after: facts.after,
      knows: (id) => facts.knows.has(id),
      glimpse: (id) =>
        c.gone.has(id)
          ? null
          : {
              id,
              name: `NAME-${id}`,
              role: `GLIMPSE-${self}-${id}`,
              factionId: null,
              regard: 0.37,
            },
      nameOf: (id) => `NAME-${id}`,
    });
    return view === null ? [] : [view];
  });

/** What one witness could know: the items it heard, took part in or knows, and whom it met. */
const couldKnow = (c: Case, w: NpcId) => {
  const after = c.factsOf.get(w)!.after;
  const known = new Set<string>();
  const met = new Set<NpcId>([w]);
  const heardSpeak = new Set<NpcId>([w]);
  for (const l of c.record.lines)
    if (l.seq > after && (l.speakerId === w || l.listenerIds.includes(w))) {
      known.add(l.text);
      heardSpeak.add(l.speakerId);
      for (const id of [l.speakerId, ...l.listenerIds]) met.add(id);
    }
  for (const d of c.record.debates)
    if (d.seq > after && d.participants.includes(w)) {
      for (const t of [d.topic, d.summary, d.outcome]) known.add(t);
      for (const id of d.participants) {
        met.add(id);
        heardSpeak.add(id);
      }
    }
  for (const h of c.record.happenings)
    if (h.seq > after && c.factsOf.get(w)!.knows.has(h.worldEventId)) known.add(h.text);
  return { known, met, heardSpeak };
};

const promptOf = (input: BrainRequest<"summarize_shared_scene">["input"]): string => {
  const { system, user } = renderPrompt({
    purpose: "summarize_shared_scene",
    npcId: null,
    t: 600 as never,
    seed: 1,
    dossier: null,
    input,
  });
  return `${system}\n${user}`;
};

describe("shared scene summaries", () => {
  it("a shared prompt holds nothing one of its witnesses could not know", () => {
    let shared = 0;
    fc.assert(
      fc.property(arbScene, (c) => {
        const views = viewsOf(c);
        const { shared: groups, alone } = shareScene(views);
        // Each witness with something to remember is asked once.
        const asked = [
          ...groups.flatMap((g) => g.input.witnesses.map((w) => w.id)),
          ...alone.map((v) => v.self.id),
        ];
        expect([...asked].sort()).toEqual(views.map((v) => v.self.id).sort());
        for (const g of groups) {
          shared++;
          const text = promptOf(g.input);
          const minds = g.input.witnesses.map((w) => couldKnow(c, w.id));
          for (const [marker] of text.matchAll(/(?:LINE|DEBATE|DSUM|DOUT|HAPP)\d+/g))
            for (const m of minds) expect(m.known.has(marker!)).toBe(true);
          for (const [, id] of text.matchAll(/NAME-([a-e])/g))
            for (const m of minds) expect(m.met.has(ids.npc(id!))).toBe(true);
          for (const [, id] of text.matchAll(/STYLE-([a-e])/g))
            for (const m of minds) expect(m.heardSpeak.has(ids.npc(id!))).toBe(true);
          expect(text).not.toMatch(/TRAIT-|ROLE-|GLIMPSE-|0\.37|"regard"/);
        }
      }),
      { numRuns: runs(400) },
    );
    // The property said something about shared prompts, not only about lone ones (about
    // one scene in twenty shares a call; over 400 scenes fewer than 6 would mean the
    // generator stopped making them).
    expect(shared).toBeGreaterThan(5);
  });

  it("two who only talked with each other share a call; one who also heard a third does not", () => {
    const [a, b, c] = pool as [NpcId, NpcId, NpcId];
    const line = (seq: number, speakerId: NpcId, to: NpcId): SceneExchange => ({
      seq,
      speakerId,
      listenerIds: [to],
      text: `LINE${seq}`,
    });
    const record: SceneRecord = {
      sceneId: "scene-1" as SceneId,
      locationName: "the Mill",
      lines: [line(1, a, b), line(2, b, a), line(3, c, ids.npc("d")), line(4, ids.npc("d"), c)],
      debates: [],
      happenings: [{ seq: 5, worldEventId: "we-0" as WorldEventId, text: "HAPP0" }],
    };
    const views = [a, b, c, ids.npc("d")].flatMap((self) => {
      const v = witnessView(record, {
        self: {
          id: self,
          name: `NAME-${self}`,
          role: "",
          factionId: null,
          traits: [],
          speechStyle: null,
        },
        after: 0,
        // d alone knows of the happening, so its view differs from c's.
        knows: () => self === ids.npc("d"),
        glimpse: (id) => ({ id, name: `NAME-${id}`, role: "", factionId: null, regard: 0 }),
        nameOf: (id) => `NAME-${id}`,
      });
      return v === null ? [] : [v];
    });
    const { shared, alone } = shareScene(views);
    expect(shared.map((g) => g.input.witnesses.map((w) => w.id))).toEqual([[a, b]]);
    expect(shared[0]!.input.lines.map((l) => l.text)).toEqual(["LINE1", "LINE2"]);
    expect(shared[0]!.input.present.map((p) => p.id)).toEqual([a, b]);
    expect(alone.map((v) => v.self.id)).toEqual([c, ids.npc("d")]);
  });
});
