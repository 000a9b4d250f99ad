/**
 * The projector's prepared statements, one per fold rule (see Projector.ts for the rules).
 * Kept apart so the fold reads as a switch over event types and the SQL reads as SQL.
 */
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";

/** Prepares every statement the projector runs. */
export const prepareProjectorStatements = (db: SqliteDatabase) => {
  const p = (sql: string): SqliteStatement => db.prepare(sql);
  return {
    simulationStarted: p(`INSERT INTO world_state
      (save_id, campaign_id, simulation, world_hash, seed, tick_minutes, end_day, brain, t, last_checkpoint_seq)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
      ON CONFLICT (save_id) DO UPDATE SET simulation = excluded.simulation,
        world_hash = excluded.world_hash, seed = excluded.seed, tick_minutes = excluded.tick_minutes,
        end_day = excluded.end_day, brain = excluded.brain, t = excluded.t`),
    clock: p("UPDATE world_state SET t = ? WHERE save_id = ?"),
    runResumed: p("UPDATE world_state SET seed = ?, brain = ?, end_day = ? WHERE save_id = ?"),
    checkpoint: p("UPDATE world_state SET last_checkpoint_seq = ? WHERE save_id = ?"),
    npcRegistered: p(`INSERT INTO characters
      (save_id, campaign_id, npc_id, name, role, faction_id, location_id, traits, registered_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (save_id, npc_id) DO UPDATE SET name = excluded.name, role = excluded.role,
        faction_id = excluded.faction_id, location_id = excluded.location_id, traits = excluded.traits`),
    npcMoved: p("UPDATE characters SET location_id = ? WHERE save_id = ? AND npc_id = ?"),
    activity: p(`INSERT INTO npc_activity
      (save_id, campaign_id, npc_id, activity, location_id, destination, until, task_id, attending_to, holding, note, t)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (save_id, npc_id) DO UPDATE SET activity = excluded.activity,
        location_id = excluded.location_id, destination = excluded.destination, until = excluded.until,
        task_id = excluded.task_id, attending_to = excluded.attending_to, holding = excluded.holding,
        note = excluded.note, t = excluded.t`),
    profile: p(`INSERT INTO npc_profiles (save_id, campaign_id, npc_id, profile, generated_at)
      VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (save_id, npc_id) DO UPDATE SET profile = excluded.profile, generated_at = excluded.generated_at`),
    // A revision holds only the changed fields: laid over the profile (arrays replaced
    // whole), as core's reviseProfile does. `generated_at` stays the first profile's time.
    profileRevised: p(`UPDATE npc_profiles SET profile = json_patch(profile, ?)
      WHERE save_id = ? AND npc_id = ?`),
    worldEvent: p(`INSERT INTO world_events
      (rowid, save_id, campaign_id, world_event_id, t, kind, text, location_id, faction_id, visibility, importance, participants, entities, lapses_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (save_id, world_event_id) DO NOTHING`),
    knowledge: p(`INSERT INTO knowledge
      (save_id, campaign_id, npc_id, item_kind, item_id, t, via, from_npc_id, confidence)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (save_id, npc_id, item_kind, item_id) DO UPDATE SET t = excluded.t, via = excluded.via,
        from_npc_id = excluded.from_npc_id, confidence = excluded.confidence
      WHERE excluded.t < knowledge.t`),
    knowledgeInsert: p(`INSERT INTO knowledge
      (save_id, campaign_id, npc_id, item_kind, item_id, t, via, from_npc_id, confidence)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    memory: p(`INSERT INTO memories
      (rowid, save_id, campaign_id, memory_id, owner_npc_id, text, category, importance, recorded_at, expires_at,
       gone_at, gone_reason, location_id, entities, about_kind, about_id)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?) ON CONFLICT (save_id, memory_id) DO NOTHING`),
    memoryExpired: p(
      "UPDATE memories SET gone_at = ?, gone_reason = ? WHERE save_id = ? AND memory_id = ? AND gone_at IS NULL",
    ),
    taskProposed: p(`INSERT INTO tasks
      (save_id, campaign_id, task_id, title, description, proposed_by, assignee, location_id, faction_id,
       deadline, status, reason, proposed_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'proposed', '', ?, ?) ON CONFLICT DO NOTHING`),
    taskStatus: p(
      "UPDATE tasks SET status = ?, reason = ?, updated_at = ? WHERE save_id = ? AND task_id = ?",
    ),
    taskDeadline: p(
      "UPDATE tasks SET deadline = ?, reason = ?, updated_at = ? WHERE save_id = ? AND task_id = ?",
    ),
    debate: p(`INSERT INTO background_debates
      (rowid, save_id, campaign_id, debate_id, t, topic, participants, location_id, faction_id, summary, outcome)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (save_id, debate_id) DO NOTHING`),
    turn: p(`INSERT INTO conversation_turns
      (rowid, save_id, campaign_id, conversation_id, turn_index, t, speaker_id, listener_ids, location_id, text)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (save_id, conversation_id, turn_index) DO NOTHING`),
    summaryFind: p(
      "SELECT rowid AS rid, summary FROM conversation_summaries WHERE save_id = ? AND conversation_id = ? AND npc_id = ?",
    ),
    summaryInsert: p(`INSERT INTO conversation_summaries
      (rowid, save_id, campaign_id, conversation_id, npc_id, partner_id, through_turn, summary, t)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    summaryUpdate: p(
      "UPDATE conversation_summaries SET partner_id = ?, through_turn = ?, summary = ?, t = ? WHERE rowid = ?",
    ),
    summaryFtsDelete: p(
      "INSERT INTO conversation_summaries_fts(conversation_summaries_fts, rowid, summary) VALUES ('delete', ?, ?)",
    ),
    relationship: p(`INSERT INTO relationships
      (save_id, campaign_id, from_id, to_id, trust, respect, suspicion, summary, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (save_id, from_id, to_id) DO UPDATE SET trust = excluded.trust, respect = excluded.respect,
        suspicion = excluded.suspicion, summary = excluded.summary, updated_at = excluded.updated_at`),
    llmCall: p(`INSERT INTO llm_calls
      (save_id, campaign_id, call_id, seq, t, npc_id, purpose, input_hash, brain, model,
       prompt_tokens, output_tokens, latency_ms, error)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
    loreSource: p(`INSERT INTO lore_sources
      (save_id, campaign_id, source_id, path, content_hash, imported_at, chunk_count)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (save_id, source_id) DO UPDATE SET path = excluded.path,
        content_hash = excluded.content_hash, imported_at = excluded.imported_at, chunk_count = excluded.chunk_count`),
    loreChunksDelete: p("DELETE FROM lore_chunks WHERE save_id = ? AND source_id = ?"),
    loreChunk: p(`INSERT INTO lore_chunks
      (rowid, save_id, campaign_id, chunk_id, source_id, ord, heading_path, text, tags, entities)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (save_id, chunk_id) DO NOTHING`),
    warning: p(`INSERT INTO warnings (save_id, campaign_id, seq, t, code, message, npc_id)
      VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
  };
};

/** The projector's statements by name. */
export type ProjectorStatements = ReturnType<typeof prepareProjectorStatements>;
