/**
 * One line of plain words for any event, for timelines and the scrubber: who did what,
 * with NPC ids turned into names.
 */

type P = Record<string, unknown>;

const s = (v: unknown): string =>
  typeof v === "string" ? v : v === null || v === undefined ? "" : JSON.stringify(v);

const clip = (text: string, n = 140): string =>
  text.length > n ? `${text.slice(0, n - 1)}…` : text;

/** Summarises an event's payload; `name` turns an NPC id into its name. */
export const summarise = (type: string, payload: unknown, name: (id: string) => string): string => {
  const p = (payload ?? {}) as P;
  const n = (k: string) => name(s(p[k]));
  switch (type) {
    case "SimulationStarted":
      return `${s(p.simulation)} started (seed ${s(p.seed)}, ${s(p.brain)} brain)`;
    case "NpcRegistered":
      return `${s(p.name)}, ${s(p.role)}, at ${s(p.locationId)}`;
    case "ProfileGenerated":
      return `profile of ${n("npcId")}`;
    case "ProfileRevised": {
      const changed = Object.keys((p.changes ?? {}) as object);
      return `profile of ${n("npcId")} revised (${changed.length > 0 ? changed.join(", ") : "no change"}): ${s(p.reason)}`;
    }
    case "ClockAdvanced":
      return `clock ${s(p.mode)} to ${s(p.to)}`;
    case "NpcMoved":
      return `${n("npcId")} went from ${s(p.from)} to ${s(p.to)}`;
    case "NpcActivityChanged":
      return `${n("npcId")}: ${s(p.activity)} at ${s(p.locationId)} — ${s(p.note)}`;
    case "WorldEventOccurred":
      return `[${s(p.visibility)}] ${clip(s(p.text))}`;
    case "KnowledgeGained":
      return `${n("npcId")} learnt ${s(p.itemKind)} ${s(p.itemId)} (${s(p.via)}${p.fromNpcId ? ` from ${n("fromNpcId")}` : ""})`;
    case "MemoryRecorded":
      return `${n("ownerNpcId")} remembers: ${clip(s(p.text))}`;
    case "MemoryExpired":
      return `${n("ownerNpcId")} lost memory ${s(p.memoryId)} (${s(p.reason)})`;
    case "TaskProposed":
      return `task proposed: ${s(p.title)}${p.assignee ? ` for ${n("assignee")}` : ""}`;
    case "TaskStatusChanged":
      return `task ${s(p.taskId)}: ${s(p.from)} → ${s(p.to)}${p.by ? ` by ${n("by")}` : ""}`;
    case "TaskDeadlineMoved":
      return `task ${s(p.taskId)}: deadline moved to day ${Math.floor(Number(p.to) / 1440)} (${n("askedBy")} asked, ${n("agreedBy")} agreed)`;
    case "DebateHeld":
      return `debate: ${s(p.topic)} — ${clip(s(p.outcome), 80)}`;
    case "ConversationTurn":
      return `${n("speakerId")}: “${clip(s(p.text), 120)}”`;
    case "ConversationSummarized":
      return `${n("npcId")} sums up talk with ${n("partnerId")}`;
    case "RelationshipChanged":
      return `${n("fromId")} → ${n("toId")}: trust ${Number(p.trust).toFixed(2)}`;
    case "LlmCallRecorded":
      return `${s(p.purpose)} call${p.npcId ? ` for ${n("npcId")}` : ""} (${s(p.brain)})`;
    case "LoreImported":
      return `lore ${s(p.path)}`;
    case "Checkpoint":
      return `checkpoint through ${s(p.throughSeq)}`;
    case "MaintenanceRan":
      return `${s(p.job)} maintenance for day ${s(p.day)}: ${s(p.expired)} expired, ${s(p.forgotten)} forgotten, ${s(p.consolidated)} consolidated`;
    case "MemoriesConsolidated":
      return `${n("ownerNpcId")} put ${Array.isArray(p.sources) ? p.sources.length : 0} memories together into ${s(p.memoryId)}`;
    case "SimulationWarning":
      return `warning ${s(p.code)}: ${clip(s(p.message), 100)}`;
    case "PlayerInput": {
      const input = (p.input ?? {}) as P;
      const who = input.npcId ? ` to ${name(s(input.npcId))}` : "";
      return input.kind === "turn"
        ? `player${who}: “${clip(s(input.message), 120)}”`
        : `player input: ${s(input.kind).replace("_", " ")}${who}`;
    }
    case "RunResumed":
      return `run resumed (seed ${s(p.seed)}, ${s(p.brain)})`;
    default:
      return type;
  }
};
