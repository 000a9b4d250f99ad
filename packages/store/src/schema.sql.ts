/**
 * The database schema, as migrations. Version 1 is the event log and every read model;
 * version 2 adds the incremental projection digest (see ProjectionDigest.ts); version 3
 * adds the thread and planned-happening read models (see NarrativeProjector.ts); version
 * 6 adds when a world event lapses (`world_events.lapses_at`, a late digest column); version
 * 7 drops the secondary indexes no reader uses (`unreadIndexes`); version 8 gives every save
 * its key space (ItemKeys.ts) and asks for a refold where that changes keys; version 9
 * records how far a save's read models lag its log (`saves.projected_seq`).
 * Read models are folds over the log (only the projector writes them) and every row
 * carries `save_id` and `campaign_id`. Base tables keep rowids so the FTS5 tables can
 * use them as external content.
 */
import {
  digestColumns,
  digestMigrationSql,
  digestTriggersSql,
  lateDigestTriggersSql,
} from "./ProjectionDigest.ts";

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Tables the projector owns: dropped and refolded by `rebuildProjections`. */
export const projectionTables = [
  "world_state",
  "characters",
  "npc_activity",
  "npc_profiles",
  "memories",
  "world_events",
  "knowledge",
  "relationships",
  "tasks",
  "conversation_turns",
  "conversation_summaries",
  "lore_sources",
  "lore_chunks",
  "background_debates",
  "llm_calls",
  "warnings",
  "threads",
  "happenings",
  "happening_props",
] as const;

/** FTS5 tables over projection text, each external-content on its base table's rowid. */
export const ftsTables = {
  memories_fts: "memories",
  world_events_fts: "world_events",
  lore_chunks_fts: "lore_chunks",
  conversation_summaries_fts: "conversation_summaries",
  background_debates_fts: "background_debates",
} as const;

const schemaV1 = `
CREATE TABLE saves (
  save_id TEXT PRIMARY KEY,
  campaign_id TEXT NOT NULL,
  name TEXT NOT NULL,
  parent_save_id TEXT REFERENCES saves(save_id),
  parent_seq INTEGER,
  head_seq INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE events (
  save_id TEXT NOT NULL REFERENCES saves(save_id),
  seq INTEGER NOT NULL,
  campaign_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  t INTEGER NOT NULL,
  day INTEGER NOT NULL,
  type TEXT NOT NULL,
  version INTEGER NOT NULL,
  payload TEXT NOT NULL,
  PRIMARY KEY (save_id, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX events_event_id ON events(save_id, event_id);
CREATE INDEX events_day ON events(save_id, day, seq);
CREATE INDEX events_type ON events(save_id, type, seq);

CREATE TABLE snapshots (
  save_id TEXT NOT NULL REFERENCES saves(save_id),
  seq INTEGER NOT NULL,
  campaign_id TEXT NOT NULL,
  state TEXT NOT NULL,
  state_hash TEXT NOT NULL,
  actors TEXT,
  PRIMARY KEY (save_id, seq)
);

CREATE TABLE world_state (
  save_id TEXT PRIMARY KEY,
  campaign_id TEXT NOT NULL,
  simulation TEXT NOT NULL,
  world_hash TEXT NOT NULL,
  seed INTEGER NOT NULL,
  tick_minutes INTEGER NOT NULL,
  end_day INTEGER NOT NULL,
  brain TEXT NOT NULL,
  t INTEGER NOT NULL,
  last_checkpoint_seq INTEGER
);

CREATE TABLE characters (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  npc_id TEXT NOT NULL,
  name TEXT NOT NULL,
  role TEXT NOT NULL,
  faction_id TEXT,
  location_id TEXT NOT NULL,
  traits TEXT NOT NULL,
  registered_at INTEGER NOT NULL,
  PRIMARY KEY (save_id, npc_id)
);
CREATE INDEX characters_location ON characters(save_id, location_id, npc_id);
CREATE INDEX characters_faction ON characters(save_id, faction_id, npc_id);

-- Each NPC's live activity (NpcActivityChanged): what it is doing, where, until when.
CREATE TABLE npc_activity (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  npc_id TEXT NOT NULL,
  activity TEXT NOT NULL,
  location_id TEXT NOT NULL,
  destination TEXT,
  until INTEGER,
  task_id TEXT,
  attending_to TEXT NOT NULL,
  holding TEXT NOT NULL,
  note TEXT NOT NULL,
  t INTEGER NOT NULL,
  PRIMARY KEY (save_id, npc_id)
);

CREATE TABLE npc_profiles (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  npc_id TEXT NOT NULL,
  profile TEXT NOT NULL,
  generated_at INTEGER NOT NULL,
  PRIMARY KEY (save_id, npc_id)
);

CREATE TABLE memories (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  memory_id TEXT NOT NULL,
  owner_npc_id TEXT NOT NULL,
  text TEXT NOT NULL,
  category TEXT NOT NULL,
  importance REAL NOT NULL,
  recorded_at INTEGER NOT NULL,
  expires_at INTEGER,
  gone_at INTEGER,
  gone_reason TEXT,
  location_id TEXT,
  entities TEXT NOT NULL,
  about_kind TEXT,
  about_id TEXT,
  UNIQUE (save_id, memory_id)
);
CREATE INDEX memories_owner ON memories(save_id, owner_npc_id, recorded_at);
CREATE INDEX memories_location ON memories(save_id, location_id);

CREATE TABLE world_events (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  world_event_id TEXT NOT NULL,
  t INTEGER NOT NULL,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  location_id TEXT,
  faction_id TEXT,
  visibility TEXT NOT NULL,
  importance REAL NOT NULL,
  participants TEXT NOT NULL,
  entities TEXT NOT NULL,
  UNIQUE (save_id, world_event_id)
);
CREATE INDEX world_events_location ON world_events(save_id, location_id, t);
CREATE INDEX world_events_faction ON world_events(save_id, faction_id, t);
CREATE INDEX world_events_t ON world_events(save_id, t);

CREATE TABLE knowledge (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  npc_id TEXT NOT NULL,
  item_kind TEXT NOT NULL,
  item_id TEXT NOT NULL,
  t INTEGER NOT NULL,
  via TEXT NOT NULL,
  from_npc_id TEXT,
  confidence REAL NOT NULL,
  PRIMARY KEY (save_id, npc_id, item_kind, item_id)
) WITHOUT ROWID;
CREATE INDEX knowledge_item ON knowledge(save_id, item_kind, item_id, t);

CREATE TABLE relationships (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  from_id TEXT NOT NULL,
  to_id TEXT NOT NULL,
  trust REAL NOT NULL,
  respect REAL NOT NULL,
  suspicion REAL NOT NULL,
  summary TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (save_id, from_id, to_id)
) WITHOUT ROWID;

CREATE TABLE tasks (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  proposed_by TEXT,
  assignee TEXT,
  location_id TEXT,
  faction_id TEXT,
  deadline INTEGER,
  status TEXT NOT NULL,
  reason TEXT NOT NULL,
  proposed_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (save_id, task_id)
);
CREATE INDEX tasks_assignee ON tasks(save_id, assignee, status);
CREATE INDEX tasks_status ON tasks(save_id, status, deadline);

CREATE TABLE conversation_turns (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  turn_index INTEGER NOT NULL,
  t INTEGER NOT NULL,
  speaker_id TEXT NOT NULL,
  listener_ids TEXT NOT NULL,
  location_id TEXT,
  text TEXT NOT NULL,
  PRIMARY KEY (save_id, conversation_id, turn_index)
);
CREATE INDEX conversation_turns_t ON conversation_turns(save_id, t);

CREATE TABLE conversation_summaries (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  npc_id TEXT NOT NULL,
  partner_id TEXT NOT NULL,
  through_turn INTEGER NOT NULL,
  summary TEXT NOT NULL,
  t INTEGER NOT NULL,
  UNIQUE (save_id, conversation_id, npc_id)
);
CREATE INDEX conversation_summaries_npc ON conversation_summaries(save_id, npc_id, partner_id);

CREATE TABLE lore_sources (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  source_id TEXT NOT NULL,
  path TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  imported_at INTEGER NOT NULL,
  chunk_count INTEGER NOT NULL,
  PRIMARY KEY (save_id, source_id)
);

CREATE TABLE lore_chunks (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  chunk_id TEXT NOT NULL,
  source_id TEXT NOT NULL,
  ord INTEGER NOT NULL,
  heading_path TEXT NOT NULL,
  text TEXT NOT NULL,
  tags TEXT NOT NULL,
  entities TEXT NOT NULL,
  UNIQUE (save_id, chunk_id)
);
CREATE INDEX lore_chunks_source ON lore_chunks(save_id, source_id, ord);

CREATE TABLE background_debates (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  debate_id TEXT NOT NULL,
  t INTEGER NOT NULL,
  topic TEXT NOT NULL,
  participants TEXT NOT NULL,
  location_id TEXT,
  faction_id TEXT,
  summary TEXT NOT NULL,
  outcome TEXT NOT NULL,
  UNIQUE (save_id, debate_id)
);
CREATE INDEX background_debates_t ON background_debates(save_id, t);

CREATE TABLE llm_calls (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  t INTEGER NOT NULL,
  npc_id TEXT,
  purpose TEXT NOT NULL,
  input_hash TEXT NOT NULL,
  brain TEXT NOT NULL,
  model TEXT NOT NULL,
  prompt_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  latency_ms REAL NOT NULL,
  error TEXT,
  PRIMARY KEY (save_id, call_id)
);
CREATE INDEX llm_calls_input ON llm_calls(save_id, input_hash, seq);

CREATE TABLE warnings (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  t INTEGER NOT NULL,
  code TEXT NOT NULL,
  message TEXT NOT NULL,
  npc_id TEXT,
  PRIMARY KEY (save_id, seq)
);

-- Vectors from a live embedding model, content-addressed so rebuilding an index never
-- calls a model again. Not a projection: a cache of outcomes keyed by their input.
CREATE TABLE embeddings (
  model TEXT NOT NULL,
  text_hash TEXT NOT NULL,
  dim INTEGER NOT NULL,
  vector BLOB NOT NULL,
  PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;

CREATE VIRTUAL TABLE memories_fts USING fts5(text, entities, content='memories', content_rowid='rowid', tokenize='porter unicode61');
CREATE VIRTUAL TABLE world_events_fts USING fts5(text, entities, content='world_events', content_rowid='rowid', tokenize='porter unicode61');
CREATE VIRTUAL TABLE lore_chunks_fts USING fts5(text, entities, content='lore_chunks', content_rowid='rowid', tokenize='porter unicode61');
CREATE VIRTUAL TABLE conversation_summaries_fts USING fts5(summary, content='conversation_summaries', content_rowid='rowid', tokenize='porter unicode61');
CREATE VIRTUAL TABLE background_debates_fts USING fts5(topic, summary, outcome, content='background_debates', content_rowid='rowid', tokenize='porter unicode61');
`;

/** Threads (open tensions) and planned happenings with their props: issue 8's read models. */
const schemaV3 = `
CREATE TABLE threads (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  thread_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  npc_ids TEXT NOT NULL,
  source_kind TEXT,
  source_id TEXT,
  opened_at INTEGER NOT NULL,
  status TEXT NOT NULL,
  reason TEXT,
  closed_at INTEGER,
  PRIMARY KEY (save_id, thread_id)
);
CREATE INDEX threads_opened ON threads(save_id, opened_at);

CREATE TABLE happenings (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  happening_id TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  description TEXT NOT NULL,
  location_id TEXT NOT NULL,
  faction_id TEXT,
  host_id TEXT,
  visibility TEXT NOT NULL,
  starts_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  status TEXT NOT NULL,
  reason TEXT NOT NULL,
  attendees TEXT NOT NULL,
  planned_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (save_id, happening_id)
);

CREATE TABLE happening_props (
  save_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  happening_id TEXT NOT NULL,
  prop_id TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  acquirable INTEGER NOT NULL,
  introduced_at INTEGER NOT NULL,
  holder_id TEXT,
  acquired_at INTEGER,
  PRIMARY KEY (save_id, happening_id, prop_id)
);
`;
const v3Tables: ReadonlyArray<string> = ["threads", "happenings", "happening_props"];
/** The projection tables of version 1 (migration 2's digest triggers cover these). */
const v1Tables = projectionTables.filter((t) => !v3Tables.includes(t));
const v3DigestColumns = digestColumns(schemaV3, v3Tables);

const v1DigestColumns = digestColumns(schemaV1, v1Tables);
/** world_events' digest columns once version 6 added `lapses_at` (a late column). */
const worldEventDigestColumns = [...(v1DigestColumns.get("world_events") ?? []), "lapses_at"];

/** The columns the projection digest covers, per projection table. */
export const projectionDigestColumns: ReadonlyMap<string, ReadonlyArray<string>> = new Map([
  ...v1DigestColumns,
  ...v3DigestColumns,
  ["world_events", worldEventDigestColumns],
]);

/**
 * Secondary indexes of version 1 that no reader uses, dropped by migration 7. A query that
 * comes to need one adds its own index in a new migration.
 */
export const unreadIndexes: ReadonlyArray<string> = [
  "knowledge_item",
  "memories_location",
  "characters_location",
  "characters_faction",
  "world_events_location",
  "world_events_faction",
  "llm_calls_input",
];

export const migrations: ReadonlyArray<Migration> = [
  { version: 1, name: "event log and read models", sql: schemaV1 },
  {
    version: 2,
    name: "incremental projection digest",
    sql: digestMigrationSql(digestColumns(schemaV1, v1Tables)),
  },
  {
    version: 3,
    name: "threads and planned happenings",
    sql: `${schemaV3}\n${digestTriggersSql(v3DigestColumns)}`,
  },
  {
    version: 4,
    // A dossier's open tasks are the NPC's as assignee or as proposer: with this index
    // both halves are index lookups, instead of a scan of every open task in the world.
    name: "open tasks by proposer",
    sql: "CREATE INDEX tasks_proposer ON tasks(save_id, proposed_by, status);",
  },
  {
    version: 5,
    // The engine's own state at a seq (EngineSnapshotStore.ts): a cache a resume starts
    // from instead of folding the whole log. No read model; not in the digest.
    name: "engine snapshots",
    sql: `CREATE TABLE engine_snapshots (
  save_id TEXT NOT NULL REFERENCES saves(save_id),
  seq INTEGER NOT NULL,
  format TEXT NOT NULL,
  state BLOB NOT NULL,
  PRIMARY KEY (save_id, seq)
) WITHOUT ROWID;`,
  },
  {
    version: 6,
    // WorldEventOccurred v2's `lapsesAt`: when the event leaves dossiers. A late digest
    // column (ProjectionDigest.ts): null in every row written before, and left out of
    // the digest while null, so older logs keep their checkpoint hashes.
    name: "world events lapse",
    sql: `ALTER TABLE world_events ADD COLUMN lapses_at INTEGER;
${lateDigestTriggersSql("world_events", worldEventDigestColumns)}`,
  },
  {
    version: 7,
    // Indexes no query reads (every reader goes through a table's key or reads the save's
    // rows whole): each cost a b-tree write per row on the append's hottest tables —
    // knowledge and memories gain a row per fact — and space in every saved file.
    name: "drop unread indexes",
    sql: unreadIndexes.map((ix) => `DROP INDEX IF EXISTS ${ix};`).join("\n"),
  },
  {
    version: 8,
    // Item keys derived from the log (ItemKeys.ts): each save gets a key space, numbered
    // in the order the saves were created. A file of one save is already keyed by the
    // rule (its rowids were given in log order from 1); with more, every save's rows are
    // refolded from the log when the file is next opened for writing (`read_model_refolds`).
    name: "item keys per save",
    sql: `ALTER TABLE saves ADD COLUMN key_space INTEGER;
UPDATE saves SET key_space = (SELECT count(*) FROM saves AS earlier WHERE earlier.rowid < saves.rowid);
CREATE UNIQUE INDEX saves_key_space ON saves(key_space);
CREATE TABLE read_model_refolds (reason TEXT NOT NULL);
INSERT INTO read_model_refolds (reason)
  SELECT 'item keys per save (schema 8)' WHERE (SELECT count(*) FROM saves) > 1;`,
  },
  {
    version: 9,
    // Read models off the hot path: log rows may be appended alone and the read models
    // caught up later (SqliteEventLog.appendLogOnly / caughtUp). `projected_seq` is the last seq a
    // save's read models hold while they are behind its log; null when they hold it all.
    name: "read models behind the log",
    sql: "ALTER TABLE saves ADD COLUMN projected_seq INTEGER;",
  },
];

/** The schema version this build writes; a database newer than this is refused. */
export const SCHEMA_VERSION = migrations[migrations.length - 1]!.version;
