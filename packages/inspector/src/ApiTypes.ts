/**
 * The inspector's JSON API as types: what each `/api/*` route answers. The server builds
 * these and the web page reads them, so this file is the contract between the two (the
 * page imports it type-only). Every view takes `at` — a seq in the save's log — and
 * answers for the world as it was right after that event.
 */

/** Where the day scrubber stands: one event of the log. */
export interface Cursor {
  readonly seq: number;
  readonly t: number;
  readonly day: number;
  /** `day 3, 14:00`. */
  readonly time: string;
  readonly type: string;
  readonly summary: string;
}

export interface SaveSummary {
  readonly saveId: string;
  readonly name: string;
  readonly head: number;
  readonly parent: { readonly saveId: string; readonly seq: number } | null;
}

/** `/api/meta`: the database, its saves, the chosen save's run and the days it spans. */
export interface Meta {
  readonly dbPath: string;
  readonly saves: ReadonlyArray<SaveSummary>;
  readonly saveId: string;
  readonly head: number;
  readonly firstDay: number;
  readonly lastDay: number;
  readonly simulation: string | null;
  readonly seed: number | null;
  readonly brain: string | null;
  readonly tickMinutes: number | null;
  readonly npcCount: number;
  readonly eventTypes: ReadonlyArray<string>;
  readonly dossiers: boolean;
}

/** `/api/cursor`: the event at a seq, or the last event of a day, and its neighbours. */
export interface CursorAnswer {
  readonly cursor: Cursor;
  readonly prevSeq: number | null;
  readonly nextSeq: number | null;
  readonly dayFirstSeq: number;
  readonly dayLastSeq: number;
}

/** A page of rows. */
export interface Page<T> {
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
  readonly rows: ReadonlyArray<T>;
}

/** `/api/world`: the scrubber's overview of the world at `at`. */
export interface WorldAt {
  readonly cursor: Cursor;
  readonly byLocation: ReadonlyArray<{ readonly locationId: string; readonly npcs: number }>;
  readonly byActivity: Readonly<Record<string, number>>;
  readonly eventsSoFar: number;
  readonly knowledgeFacts: number;
  readonly liveMemories: number;
  readonly openTasks: number;
  /** Tasks by status (proposed, active, completed, cancelled, expired, …). */
  readonly tasksByStatus: Readonly<Record<string, number>>;
  /** Deadlines moved by agreement so far. */
  readonly deadlinesMoved: number;
  readonly debates: number;
}

/** `/api/timeline`: events per game day by type, for every day of the save. */
export interface Timeline {
  readonly days: ReadonlyArray<{
    readonly day: number;
    readonly firstSeq: number;
    readonly lastSeq: number;
    readonly counts: Readonly<Record<string, number>>;
  }>;
  readonly types: ReadonlyArray<string>;
}

/** One line of an event list. */
export interface EventRow {
  readonly seq: number;
  readonly t: number;
  readonly time: string;
  readonly type: string;
  readonly summary: string;
}

/** How one NPC came to know an item. */
export interface Knower {
  readonly npcId: string;
  readonly name: string;
  readonly seq: number;
  readonly t: number;
  readonly time: string;
  readonly via: string;
  readonly fromNpcId: string | null;
  readonly confidence: number;
}

/** A knowable item (world event, memory, debate) as the inspector shows it. */
export interface ItemRef {
  readonly kind: "world_event" | "memory" | "debate";
  readonly id: string;
}

/** `/api/event`: one event, where and when it happened, and who came to know it. */
export interface EventDetail {
  readonly event: EventRow & { readonly id: string; readonly payload: unknown };
  readonly day: number;
  readonly locationId: string | null;
  readonly npcIds: ReadonlyArray<string>;
  /** The item the event is (or is about), if it can be known. */
  readonly item: ItemRef | null;
  /** Who knew that item at the cursor. */
  readonly knowers: ReadonlyArray<Knower>;
}

/** A row of the who-knows-what item list. */
export interface ItemSummary extends ItemRef {
  readonly t: number;
  readonly time: string;
  readonly text: string;
  readonly knowers: number;
}

/** `/api/item`: who knew an item at the cursor, and how it spread. */
export interface ItemDetail {
  readonly item: ItemSummary;
  /** Whose memory it is (memories only). */
  readonly ownerNpcId: string | null;
  readonly knowers: ReadonlyArray<Knower>;
  /** Hops of the spread: `from` told or passed it to `to` (`from` null: first-hand). */
  readonly spread: ReadonlyArray<{
    readonly from: string | null;
    readonly to: string;
    readonly via: string;
    readonly confidence: number;
    readonly t: number;
  }>;
}

/** `/api/matrix`: NPCs × chosen items; each cell is how the NPC knew it, or null. */
export interface Matrix {
  readonly items: ReadonlyArray<ItemSummary>;
  readonly npcs: Page<{
    readonly npcId: string;
    readonly name: string;
    readonly cells: ReadonlyArray<{ readonly via: string; readonly confidence: number } | null>;
  }>;
}

/** A line of the NPC list. */
export interface NpcRow {
  readonly npcId: string;
  readonly name: string;
  readonly role: string;
  readonly factionId: string | null;
  readonly locationId: string;
  readonly activity: string;
}

/** A directed relationship edge at the cursor. */
export interface Edge {
  readonly from: string;
  readonly to: string;
  readonly fromName: string;
  readonly toName: string;
  readonly trust: number;
  readonly respect: number;
  readonly suspicion: number;
  readonly summary: string;
  readonly t: number;
}

export interface TaskRow {
  readonly taskId: string;
  readonly title: string;
  readonly status: string;
  readonly role: "assignee" | "proposer";
  readonly deadline: number | null;
  readonly proposedAt: number;
}

/** `/api/npc`: one NPC at the cursor. */
export interface NpcPage {
  readonly npc: NpcRow & { readonly traits: ReadonlyArray<string> };
  readonly note: string;
  readonly destination: string | null;
  readonly profile: unknown | null;
  readonly edges: ReadonlyArray<Edge>;
  readonly tasks: ReadonlyArray<TaskRow>;
  readonly threads: ReadonlyArray<{
    readonly conversationId: string;
    readonly partnerId: string;
    readonly partnerName: string;
    readonly lastT: number;
    readonly lastLine: string;
    readonly summary: string | null;
  }>;
  readonly present: ReadonlyArray<string>;
}

export interface MemoryRow {
  readonly memoryId: string;
  readonly text: string;
  readonly category: string;
  readonly importance: number;
  readonly recordedAt: number;
  readonly expiresAt: number | null;
  /** Lifetime in game minutes; null: permanent. */
  readonly lifetime: number | null;
  readonly state: "live" | "expired" | "forgotten" | "capped";
  readonly goneAt: number | null;
}

/** `/api/dossier`: the dossier the NPC would get at the cursor. */
export interface DossierAnswer {
  readonly available: boolean;
  readonly reason: string | null;
  readonly dossier: {
    readonly budget: number;
    readonly totalTokens: number;
    readonly query: string | null;
    readonly sections: ReadonlyArray<{
      readonly name: string;
      readonly budget: number;
      readonly tokens: number;
      readonly items: ReadonlyArray<{
        readonly kind: string;
        readonly id: string;
        readonly score: number;
        readonly tokens: number;
        readonly text: string;
      }>;
    }>;
  } | null;
}

export interface DebateRow {
  readonly debateId: string;
  readonly t: number;
  readonly time: string;
  readonly topic: string;
  readonly participants: ReadonlyArray<{ readonly npcId: string; readonly name: string }>;
  readonly summary: string;
  readonly outcome: string;
  /** What each participant took away: its memories of the debate. */
  readonly takeaways: ReadonlyArray<{ readonly npcId: string; readonly text: string }>;
}

export interface ConversationRow {
  readonly conversationId: string;
  readonly t: number;
  readonly time: string;
  readonly locationId: string | null;
  readonly participants: ReadonlyArray<{ readonly npcId: string; readonly name: string }>;
  readonly turns: ReadonlyArray<{ readonly speakerId: string; readonly text: string }>;
  /** Each participant's own summary: what it took away. */
  readonly takeaways: ReadonlyArray<{ readonly npcId: string; readonly text: string }>;
}

/** `/api/cost`: model calls, tokens, latency and significance gating up to the cursor. */
export interface Cost {
  readonly days: ReadonlyArray<{
    readonly day: number;
    readonly calls: number;
    readonly errors: number;
    readonly promptTokens: number;
    readonly outputTokens: number;
    readonly latencyMs: number;
    readonly wakeUps: number;
    readonly asked: number;
    readonly gated: number;
  }>;
  readonly byPurpose: ReadonlyArray<{
    readonly purpose: string;
    readonly calls: number;
    readonly promptTokens: number;
    readonly outputTokens: number;
    readonly latencyMs: number;
  }>;
  readonly byNpc: Page<{
    readonly npcId: string;
    readonly name: string;
    readonly calls: number;
    readonly promptTokens: number;
    readonly outputTokens: number;
    readonly latencyMs: number;
  }>;
  readonly totals: {
    readonly calls: number;
    readonly promptTokens: number;
    readonly outputTokens: number;
    readonly latencyMs: number;
    readonly wakeUps: number;
    readonly asked: number;
    readonly gated: number;
  };
  /**
   * Calls per game day, priority class (null: recorded without a brain policy) and
   * purpose: how many the model answered, and how many fell back and why — the tick's
   * budget held for higher classes, a budget spent, the model failed.
   */
  readonly byClass: ReadonlyArray<{
    readonly day: number;
    readonly priority: string | null;
    readonly purpose: string;
    readonly calls: number;
    readonly model: number;
    readonly fellBack: number;
    readonly held: number;
    readonly budget: number;
    readonly failed: number;
  }>;
  /** False when the run did not record its brain calls (a scripted run by default). */
  readonly callsRecorded: boolean;
}
