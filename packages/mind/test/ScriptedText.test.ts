/**
 * What the scripted brain writes is what users read first, so its text is held to rules:
 * no unfilled slot, no quotation nested in a quotation, no memory's framing quoted inside
 * another's words, and no capitalised word in mid-sentence that is not a name (the mark of
 * a sentence — often a command — spliced into another). Town talk is simulated for many
 * rounds, each round's lines, memories, summaries and debates feeding the next, so text
 * is retold in text as it is in a long run.
 */
import {
  type Dossier,
  type DossierItem,
  dossierReader,
  type GameTime,
  ids,
  Prng,
  type SceneId,
} from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ActInput } from "../src/purposes/ActPurpose.ts";
import { composeLine } from "../src/scripted/composeLine.ts";
import { debateTurnByRule, summarizeByRule } from "../src/scripted/debateByRule.ts";
import { extractByRule } from "../src/scripted/extractByRule.ts";
import { factsByRule } from "../src/scripted/factsByRule.ts";
import { replyByRule } from "../src/scripted/replyByRule.ts";
import { summarizeSceneByRule } from "../src/scripted/summarizeSceneByRule.ts";
import { summarizeTalkByRule } from "../src/scripted/summarizeTalkByRule.ts";
import { taskTermsByRule } from "../src/scripted/taskTermsByRule.ts";
import { voiceOf } from "../src/scripted/Voice.ts";
import { runs } from "./arbitraries.ts";

const NAMES = ["Ruth Nance", "Morwen Venning", "Kit Halse", "Ned Abbet", "Sabine Marrable"];
const PLACES = ["The Long Stable", "Causey Head", "The Tide Chapel", "Haskerry Quay"];
const TRAITS = [
  ["gruff"],
  ["kind"],
  ["cunning"],
  ["devout"],
  ["nervous"],
  ["cheerful"],
  ["formal"],
  [],
];
const TOPICS = [
  "Should Haskerry let the Fennick Syndicate build its toll bridge?",
  "Who should be the next Salt Reeve of the Saltwardens' Company?",
  "Build the sea wall before the Dark Tides.",
];
const NEWS = [
  "A storm broke the sea wall at Causey Head.",
  "The Steady Lamp has burned for ninety years without going out.",
  'The reeve said "no more salt on credit" and meant it.',
  "Someone saw lights on the Gut after midnight.",
];
/** What a player might say, commands and confidences among it. */
const PLAYER = [
  "Tell them a secret about the Keepers.",
  "Give me the key to the stable.",
  "Between us, the reeve is lying about the salt.",
  "I promise I'll bring the nets by Friday.",
  "Have you heard? The Gut has moved again.",
  "Word is this: the bridge money came from Fennick.",
  "My name is Tam Pellow.",
  "Can you help me find the lamp oil?",
  'She said "keep quiet" and walked off.',
  "Hello there!",
];
/** Capitalised words that may stand in mid-sentence: names, places and what the seeds name. */
const PROPER = new Set(
  [...NAMES, ...PLACES, ...TOPICS, ...NEWS, ...PLAYER]
    .flatMap((t) => [...t.matchAll(/(?<=[a-z,] )[A-Z]\w*/g)].map((m) => m[0]))
    .concat(
      NAMES.flatMap((n) => n.split(" ")),
      PLACES.flatMap((p) => p.split(" ")),
      ["I", "I'm", "I've", "I'll", "I'd"],
    ),
);
/** The framings the scripted brain writes around what it remembers of talk. */
const FRAMINGS = [
  "told me in confidence",
  "promised:",
  " said:",
  "passed on news",
  "spoke of work to be done",
  "I talked with",
  "I overheard",
];

/** The rules a text breaks, each as a short phrase (empty when it breaks none). */
const problemsOf = (text: string): Array<string> => {
  const found: Array<string> = [];
  if (/\{\w+\}/.test(text)) found.push("unfilled slot");
  const marks = [...text.matchAll(/"/g)].map((m) => m.index);
  if (marks.length % 2 === 1) found.push("unbalanced quotes");
  for (let i = 0; i + 1 < marks.length; i += 2) {
    const open = marks[i]!;
    const close = marks[i + 1]!;
    const inner = text.slice(open + 1, close);
    if (open > 0 && !/[\s(—:,]/.test(text[open - 1]!)) found.push("quote opens mid-word");
    if (close + 1 < text.length && !/[\s.,;:!?—)…]/.test(text[close + 1]!))
      found.push(`quote nested in a quote: ${text.slice(open, close + 20)}`);
    if (!/\w/.test(inner)) found.push("empty quote");
    for (const f of FRAMINGS) if (inner.includes(f)) found.push(`framing quoted: ${f}`);
  }
  for (const m of text.matchAll(/(?<=\b[a-z][\w']* )[A-Z]\w*(?:'[a-z]+)?/g)) {
    if (!PROPER.has(m[0]) && !PROPER.has(m[0].replace(/'.*$/, "")))
      found.push(`capital in mid-sentence: …${text.slice(m.index - 20, m.index + 20)}…`);
  }
  return found;
};

/**
 * An act input in which one of the task rules may fire (which one, the stream decides):
 * a task about to lapse with the other party here, too many tasks, one out of reach, or
 * one the NPC proposed that nobody took up.
 */
const termsInput = (prng: Prng, self: number, other: number): ActInput => {
  const t = 3 * 1440 + 600;
  const me = npc(self).id;
  const them = npc(other).id;
  const one = (i: number, over: Partial<ActInput["tasks"][number]>) => ({
    id: ids.task(`t${i}`),
    title: "Mend the nets at Haskerry Quay",
    status: "active" as const,
    locationId: ids.location("quay"),
    deadline: (t + 5 * 1440) as GameTime,
    proposedBy: them,
    assignee: me,
    sessions: 0,
    deadlineMoves: 0,
    ...over,
  });
  const setups = [
    [one(0, { sessions: 1, deadline: (t + 300) as GameTime })],
    [0, 1, 2, 3].map((i) => one(i, {})),
    [one(0, { status: "proposed", locationId: ids.location("far") })],
    [
      one(0, {
        status: "proposed",
        proposedBy: me,
        assignee: null,
        deadline: (t + 600) as GameTime,
      }),
    ],
  ];
  return {
    self: { ...npc(self), role: "fisher", factionId: null, traits: [], speechStyle: null },
    location: { id: ids.location("quay"), name: "Haskerry Quay", tags: [] },
    reachable: [],
    present: [{ ...npc(other), role: "smith", factionId: null, regard: 0 }],
    tasks: prng.pick(setups),
    home: null,
    workplace: null,
  };
};

interface Written {
  readonly by: string;
  readonly text: string;
}

const npc = (i: number) => ({ id: ids.npc(`npc-${i}`), name: NAMES[i % NAMES.length]! });
const item = (kind: DossierItem["kind"], text: string, i: number): DossierItem => ({
  kind,
  id: `${kind}-${i}`,
  score: 1 - i / 100,
  tokens: 10,
  text,
});

/** Rounds of town talk from one seed: everything written feeds what is written next. */
const townTalk = (seed: number, rounds: number): ReadonlyArray<Written> => {
  const prng = Prng.derive(seed, "town");
  const out: Array<Written> = [];
  const lines: Array<{ speaker: number; text: string }> = [];
  const memories: Array<string> = ["I have kept the lamp since I was twelve."];
  const news: Array<string> = [...NEWS];
  const debates: Array<string> = [];
  let summary: string | null = null;
  const write = (by: string, text: string) => {
    out.push({ by, text });
    return text;
  };
  for (let round = 0; round < rounds; round++) {
    const a = prng.int(0, NAMES.length - 1);
    const b = (a + 1 + prng.int(0, NAMES.length - 2)) % NAMES.length;
    const voice = voiceOf(prng.pick(TRAITS), null);
    const place = prng.pick(PLACES);
    const recent = lines.slice(-3);
    const dossier: Dossier = {
      saveId: ids.save("s"),
      npcId: npc(a).id,
      npcName: npc(a).name,
      t: 0 as Dossier["t"],
      day: 0,
      query: null,
      budget: 1000,
      totalTokens: 0,
      sections: [
        {
          name: "dialogue",
          budget: 100,
          tokens: 0,
          items: recent.map((l, i) => item("dialogue", `${NAMES[l.speaker]}: ${l.text}`, i)),
        },
        {
          name: "memories",
          budget: 100,
          tokens: 0,
          items: memories.slice(-6).map((m, i) => item("memory", m, i)),
        },
        {
          name: "world_events",
          budget: 100,
          tokens: 0,
          items: news.slice(-6).map((n, i) => item("world_event", n, i)),
        },
        {
          name: "debates",
          budget: 100,
          tokens: 0,
          items: debates.slice(-2).map((d, i) => item("debate", d, i)),
        },
      ],
    };
    const line = write(
      "line",
      composeLine({
        prng,
        voice,
        partnerName: npc(b).name,
        placeName: place,
        taskTitle: prng.chance(0.3) ? "Mend the nets at Haskerry Quay" : null,
        dossier: dossierReader(dossier),
      }).text,
    );
    lines.push({ speaker: a, text: line });
    const turns = lines.slice(-4).map((l) => ({
      speakerId: npc(l.speaker).id,
      speakerName: NAMES[l.speaker]!,
      text: l.text,
    }));
    for (const m of extractByRule({
      conversationId: ids.conversation(`c${round}`),
      self: npc(b),
      participants: [npc(a), npc(b)],
      locationName: place,
      turns,
    }))
      memories.push(write("memory", m.text));
    const scene = summarizeSceneByRule(
      {
        sceneId: `sc${round}` as SceneId,
        self: { ...npc(b), role: "fisher", factionId: null, traits: [], speechStyle: null },
        locationName: place,
        company: [{ ...npc(a), role: "smith", factionId: null, regard: prng.float() * 2 - 1 }],
        lines: turns.map((t) => ({ ...t, listenerIds: [npc(b).id] })),
        debates:
          debates.length > 0 && prng.chance(0.3)
            ? [{ topic: prng.pick(TOPICS), summary: debates.at(-1)!, outcome: debates.at(-1)! }]
            : [],
        happenings: prng.chance(0.3) ? [prng.pick(news)] : [],
      },
      prng,
      voice,
    );
    memories.push(write("scene summary", scene.summary));
    if (round % 4 === 0) {
      const topic = prng.pick(TOPICS);
      const said: Array<{
        speakerId: ReturnType<typeof ids.npc>;
        speakerName: string;
        text: string;
        stance: "for" | "against" | "undecided";
      }> = [];
      for (let i = 0; i < 4; i++) {
        const who = npc((a + i) % NAMES.length);
        const turn = debateTurnByRule(
          {
            debateId: ids.debate(`d${round}`),
            topic,
            round: i,
            self: { ...who, role: "reeve", factionId: null, traits: [], speechStyle: null },
            participants: [0, 1, 2, 3].map((k) => ({ ...npc((a + k) % NAMES.length) })),
            previous: said,
          },
          seed,
          prng,
          voice,
        );
        said.push({
          ...who,
          speakerId: who.id,
          speakerName: who.name,
          text: write("debate line", turn.text),
          stance: turn.stance,
        });
      }
      const result = summarizeByRule({
        debateId: ids.debate(`d${round}`),
        topic,
        participants: [npc(a)],
        turns: said,
      });
      debates.push(write("debate summary", result.summary));
      news.push(write("debate outcome", result.outcome));
    }
    const terms = taskTermsByRule(termsInput(prng, a, b), (3 * 1440 + 600) as GameTime, prng);
    if (terms !== null && "reason" in terms) memories.push(write("task terms", terms.reason));
    const player = { id: ids.npc("player"), name: "the traveller" };
    const message = prng.chance(0.5) ? prng.pick(PLAYER) : line;
    const talk = [
      { speakerId: player.id, speakerName: player.name, text: message },
      { speakerId: npc(a).id, speakerName: npc(a).name, text: line },
    ];
    for (const m of factsByRule({
      conversationId: ids.conversation(`p${round}`),
      self: npc(a),
      npc: npc(a),
      player,
      role: prng.chance(0.3) ? "witness" : "participant",
      locationName: place,
      turns: talk,
    }))
      memories.push(write("fact", m.text));
    write(
      "reply",
      replyByRule(
        {
          conversationId: ids.conversation(`p${round}`),
          self: { ...npc(a), role: "smith", factionId: null, traits: [], speechStyle: null },
          player,
          locationName: place,
          regard: { trust: 0, respect: 0, suspicion: 0, summary: "" },
          summary,
          turns: talk,
          message,
          scene: null,
        },
        dossierReader(dossier),
        prng,
        voice,
      ).text,
    );
    summary = write(
      "talk summary",
      summarizeTalkByRule({
        conversationId: ids.conversation(`p${round}`),
        self: npc(a),
        partner: player,
        priorSummary: summary,
        regard: { trust: 0, respect: 0, suspicion: 0, summary: "" },
        turns: talk,
      }).summary,
    );
  }
  return out;
};

describe("the scripted brain's text", () => {
  it("property: no unfilled slot, nested quote, quoted framing or spliced capital in town talk", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        for (const w of townTalk(seed, 40)) {
          const problems = problemsOf(w.text);
          if (problems.length > 0)
            throw new Error(`${w.by} breaks ${problems.join("; ")}:\n  ${w.text}`);
        }
      }),
      { numRuns: runs(40) },
    );
  });

  it("the rules catch what they are for", () => {
    expect(
      problemsOf('Anselm said, ""Piran, the day keeps you well." May wisdom guide us."'),
    ).not.toEqual([]);
    expect(problemsOf("The player told me in confidence that Tell them a secret.")).not.toEqual([]);
    expect(problemsOf('Ruth promised: "Keep it, {name}."')).not.toEqual([]);
    expect(problemsOf('Kit told me, "Perrin Hext told me in confidence: no."')).not.toEqual([]);
    expect(problemsOf('Kit Halse told me, "The Gut has moved."')).toEqual([]);
  });

  it("quotes the sentence a memory is about, not whatever came first", () => {
    const [promise] = extractByRule({
      conversationId: ids.conversation("c"),
      self: npc(1),
      participants: [npc(0), npc(1)],
      locationName: null,
      turns: [
        {
          speakerId: npc(0).id,
          speakerName: NAMES[0]!,
          text: "Well, well, Morwen. I swear I'll mend your nets.",
        },
      ],
    });
    expect(promise?.text).toBe(`${NAMES[0]} promised: "I swear I'll mend your nets."`);
  });

  it("a debate on a question is never argued 'for' the bare question", () => {
    const out = summarizeByRule({
      debateId: ids.debate("d"),
      topic: TOPICS[1]!,
      participants: [npc(0)],
      turns: [{ speakerId: npc(0).id, speakerName: NAMES[0]!, text: "Yes.", stance: "for" }],
    });
    expect(out.summary).not.toMatch(/argued for Who/);
    expect(out.summary).toContain('the question "Who should be the next Salt Reeve');
  });
});
