/**
 * The simulation definition: everything a world starts with — its places and travel
 * graph, its factions, its people (with the gifted identity, background and acquaintances
 * that become their first memories), how they regard each other, and its calendar of
 * scheduled events, recurring debates, seeded tasks, planned happenings and the threads
 * (unresolved tensions) it starts with.
 *
 * This module owns the *shape* only. A world may be split over several JSON files, each
 * holding some of the sections below (`WorldFile`); `decodeWorld` merges and decodes them
 * and `validateWorld` checks the cross-references a Schema cannot see (ids that must
 * exist, a symmetric and connected travel graph). Core does no I/O: reading the files is
 * the engine's job.
 */
import { Effect, Schema } from "effect";
import { Text, Unit } from "./events/defineEvent.ts";
import { ThreadId, ThreadKind } from "./events/threads.ts";
import { FactionId, LocationId, NpcId, TaskId, WorldEventId } from "./ids.ts";
import { Visibility } from "./Visibility.ts";

const Name = Schema.NonEmptyString;
const Prose = Text.check(Schema.isMinLength(1));
const Hour = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 23 }));
const Day = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0));
const Level = Schema.Number.check(Schema.isBetween({ minimum: -1, maximum: 1 }));
const Strings = Schema.Array(Name);

/** Defaults an absent key (never an explicit `null` or wrong value) when decoding. */
const orElse = <S extends Schema.Constraint>(schema: S, value: S["Encoded"]) =>
  Schema.withDecodingDefaultKey<S>(Effect.succeed(value))(schema);

/** Id of a recurring debate topic (each held debate gets its own `DebateId`). */
export const DebateTopicId = Name.pipe(Schema.brand("DebateTopicId"));
export type DebateTopicId = typeof DebateTopicId.Type;
/** Id of a planned happening (issue 8's scoped events). */
export const HappeningId = Name.pipe(Schema.brand("HappeningId"));
export type HappeningId = typeof HappeningId.Type;

/** Name, title and clock settings of a simulation. */
export const WorldMeta = Schema.Struct({
  /** Folder-style slug: lowercase letters, digits and dashes. */
  name: Schema.String.check(Schema.isPattern(/^[a-z0-9][a-z0-9-]*$/)),
  title: Name,
  description: Prose,
  /** Game minutes per tick; divides a day evenly so ticks line up with midnight. */
  tickMinutes: orElse(
    Schema.Int.check(
      Schema.makeFilter<number>((n) => n >= 1 && 1440 % n === 0, {
        expected: "a whole number of minutes that divides a day (1440) evenly",
      }),
    ),
    60,
  ),
  /** When the clock starts. */
  start: Schema.Struct({ day: orElse(Day, 0), hour: Hour }),
});
export type WorldMeta = typeof WorldMeta.Type;

/** The opening situation, known at the start to everyone present in the world. */
export const WorldScenario = Schema.Struct({
  place: Prose,
  season: Name,
  situation: Prose,
});
export type WorldScenario = typeof WorldScenario.Type;

export const WorldFaction = Schema.Struct({
  id: FactionId,
  name: Name,
  description: Prose,
  values: Strings.check(Schema.isMinLength(1)),
});
export type WorldFaction = typeof WorldFaction.Type;

/**
 * A travel edge. Edges are symmetric (the target lists the way back with the same
 * time) unless `oneWay` says why there is no way back.
 */
export const WorldNeighbour = Schema.Struct({
  to: LocationId,
  travelMinutes: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  oneWay: Schema.optionalKey(Prose),
});
export type WorldNeighbour = typeof WorldNeighbour.Type;

export const WorldLocation = Schema.Struct({
  id: LocationId,
  name: Name,
  /** What sort of place: `harbour`, `inn`, `workshop`, … */
  kind: Name,
  description: Prose,
  factionId: orElse(Schema.NullOr(FactionId), null),
  neighbours: Schema.Array(WorldNeighbour),
});
export type WorldLocation = typeof WorldLocation.Type;

/** What an NPC knows or thinks of a named other, in its own words. */
export const NpcAcquaintance = Schema.Struct({
  npcId: NpcId,
  view: Prose,
});
export type NpcAcquaintance = typeof NpcAcquaintance.Type;

/**
 * A person of the world. `identity`, `background`, `speechStyle`, `values` and `knows`
 * are gifted to the NPC as its own memories when the simulation starts.
 */
export const WorldNpc = Schema.Struct({
  id: NpcId,
  name: Name,
  role: Name,
  factionId: orElse(Schema.NullOr(FactionId), null),
  home: LocationId,
  workplace: orElse(Schema.NullOr(LocationId), null),
  traits: Strings.check(Schema.isMinLength(1)),
  wakeHour: Hour,
  /** May be earlier than `wakeHour` (asleep over midnight) or later (a night worker). */
  sleepHour: Hour,
  /** One or two sentences: who the NPC is, in its own voice. */
  identity: Prose,
  /** A paragraph or two of its past, in its own voice. */
  background: Prose,
  speechStyle: Prose,
  values: Strings,
  goals: orElse(Strings, []),
  fears: orElse(Strings, []),
  knows: orElse(Schema.Array(NpcAcquaintance), []),
});
export type WorldNpc = typeof WorldNpc.Type;

/** How `from` regards `to` at the start. The reverse edge is independent. */
export const WorldRelationship = Schema.Struct({
  from: NpcId,
  to: NpcId,
  trust: Level,
  respect: Level,
  suspicion: Level,
  summary: Prose,
});
export type WorldRelationship = typeof WorldRelationship.Type;

/** A world event that happens at a fixed time (it becomes a `WorldEventOccurred`). */
export const ScheduledEvent = Schema.Struct({
  id: WorldEventId,
  day: Day,
  hour: Hour,
  kind: Name,
  text: Prose,
  locationId: orElse(Schema.NullOr(LocationId), null),
  factionId: orElse(Schema.NullOr(FactionId), null),
  visibility: Visibility,
  importance: Unit,
  participants: orElse(Schema.Array(NpcId), []),
  entities: orElse(Strings, []),
});
export type ScheduledEvent = typeof ScheduledEvent.Type;

/** One side of a debate and the NPCs who start out holding it. */
export const DebatePosition = Schema.Struct({
  stance: Name,
  argument: Prose,
  heldBy: Schema.Array(NpcId),
});
export type DebatePosition = typeof DebatePosition.Type;

/** A question debated at a place every `everyDays` days from `firstDay`. */
export const DebateTopic = Schema.Struct({
  id: DebateTopicId,
  topic: Prose,
  factionId: orElse(Schema.NullOr(FactionId), null),
  locationId: LocationId,
  firstDay: Day,
  everyDays: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  hour: orElse(Hour, 19),
  positions: Schema.Array(DebatePosition).check(Schema.isMinLength(2)),
});
export type DebateTopic = typeof DebateTopic.Type;

/** A task proposed at a fixed time (it becomes a `TaskProposed`). */
export const TaskSeed = Schema.Struct({
  id: TaskId,
  title: Name,
  description: Prose,
  proposedBy: Schema.NullOr(NpcId),
  assignee: Schema.NullOr(NpcId),
  factionId: orElse(Schema.NullOr(FactionId), null),
  locationId: LocationId,
  day: Day,
  hour: orElse(Hour, 9),
  /** Whole days after it is proposed before it expires. */
  deadlineDays: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
});
export type TaskSeed = typeof TaskSeed.Type;

/** A thing that exists only while its happening does (a stall, a lantern, a toast). */
export const HappeningProp = Schema.Struct({
  id: Name,
  name: Name,
  description: Prose,
  /**
   * Whether an attendee may carry it off (absent: no); only such a prop can outlast its
   * happening. Optional, not defaulted, so worlds written before it hash as they did.
   */
  acquirable: Schema.optionalKey(Schema.Boolean),
});
export type HappeningProp = typeof HappeningProp.Type;

/** What must hold when a happening is due, or it is cancelled. */
export const HappeningPrecondition = Schema.Union([
  /** The named NPC is at the happening's location when it is due. */
  Schema.Struct({ type: Schema.tag("npcPresent"), npcId: NpcId }),
  /** At least `count` NPCs are at the location when it is due. */
  Schema.Struct({
    type: Schema.tag("minPresent"),
    count: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  }),
  /** A seeded task has been completed before it is due. */
  Schema.Struct({ type: Schema.tag("taskCompleted"), taskId: TaskId }),
  /** A scheduled event has happened before it is due. */
  Schema.Struct({ type: Schema.tag("eventOccurred"), worldEventId: WorldEventId }),
]).annotate({
  expected:
    'a precondition {"type": "npcPresent" | "minPresent" | "taskCompleted" | "eventOccurred", …}',
});
export type HappeningPrecondition = typeof HappeningPrecondition.Type;

/** A scoped event with its own props and lifecycle (issue 8). */
export const PlannedHappening = Schema.Struct({
  id: HappeningId,
  name: Name,
  kind: Name,
  description: Prose,
  day: Day,
  hour: Hour,
  durationHours: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 168 })),
  locationId: LocationId,
  factionId: orElse(Schema.NullOr(FactionId), null),
  hostId: orElse(Schema.NullOr(NpcId), null),
  visibility: orElse(Visibility, "local"),
  props: Schema.Array(HappeningProp),
  preconditions: orElse(Schema.Array(HappeningPrecondition), []),
});
export type PlannedHappening = typeof PlannedHappening.Type;

/**
 * An unresolved tension the world starts with (a debt, a feud, a promise, an open
 * question). It opens when the run starts; `npcIds` are the NPCs it is between and
 * know of it, `knownBy` others who know of it too.
 */
export const WorldThread = Schema.Struct({
  id: ThreadId,
  kind: ThreadKind,
  text: Prose,
  npcIds: Schema.Array(NpcId).check(Schema.isMinLength(1)),
  knownBy: orElse(Schema.Array(NpcId), []),
});
export type WorldThread = typeof WorldThread.Type;

/** A lore file, relative to the simulation folder (e.g. `../../lore/x/history.md`). */
export const LorePath = Schema.String.check(Schema.isPattern(/^[^/\\][^\\]*\.md$/)).annotate({
  expected: "a relative path to a .md file",
});

/** The sections a world is made of, in the order files are merged and checked. */
export const worldSections = [
  "meta",
  "scenario",
  "factions",
  "locations",
  "npcs",
  "relationships",
  "scheduledEvents",
  "debateTopics",
  "taskSeeds",
  "plannedHappenings",
  "threads",
  "lore",
] as const;
export type WorldSection = (typeof worldSections)[number];

/** Sections that hold one object; every other section is a list. */
export const singletonSections: ReadonlyArray<WorldSection> = ["meta", "scenario"];
/**
 * Sections added after worlds were first recorded: left out of the decoded world when no
 * file has them (never defaulted to an empty list), so a world that does not use them
 * keeps the world hash its recordings were made with.
 */
export const laterSections: ReadonlyArray<WorldSection> = ["threads"];
/** Sections a world cannot do without (the others default to empty lists). */
export const requiredSections: ReadonlyArray<WorldSection> = [
  "meta",
  "scenario",
  "locations",
  "npcs",
];

const sectionSchemas = {
  meta: WorldMeta,
  scenario: WorldScenario,
  factions: Schema.Array(WorldFaction),
  locations: Schema.Array(WorldLocation).check(Schema.isMinLength(1)),
  npcs: Schema.Array(WorldNpc),
  relationships: Schema.Array(WorldRelationship),
  scheduledEvents: Schema.Array(ScheduledEvent),
  debateTopics: Schema.Array(DebateTopic),
  taskSeeds: Schema.Array(TaskSeed),
  plannedHappenings: Schema.Array(PlannedHappening),
  threads: Schema.Array(WorldThread),
  lore: Schema.Array(LorePath),
} as const;

/** One file of a world: any of the sections, each optional. Lists concatenate across files. */
export const WorldFile = Schema.Struct({
  meta: Schema.optionalKey(sectionSchemas.meta),
  scenario: Schema.optionalKey(sectionSchemas.scenario),
  factions: Schema.optionalKey(sectionSchemas.factions),
  locations: Schema.optionalKey(Schema.Array(WorldLocation)),
  npcs: Schema.optionalKey(sectionSchemas.npcs),
  relationships: Schema.optionalKey(sectionSchemas.relationships),
  scheduledEvents: Schema.optionalKey(sectionSchemas.scheduledEvents),
  debateTopics: Schema.optionalKey(sectionSchemas.debateTopics),
  taskSeeds: Schema.optionalKey(sectionSchemas.taskSeeds),
  plannedHappenings: Schema.optionalKey(sectionSchemas.plannedHappenings),
  threads: Schema.optionalKey(sectionSchemas.threads),
  lore: Schema.optionalKey(sectionSchemas.lore),
});
export type WorldFile = typeof WorldFile.Type;

/** A whole simulation definition (decoded, defaults applied; cross-references unchecked). */
export const World = Schema.Struct({
  meta: sectionSchemas.meta,
  scenario: sectionSchemas.scenario,
  factions: orElse(sectionSchemas.factions, []),
  locations: sectionSchemas.locations,
  npcs: sectionSchemas.npcs,
  relationships: orElse(sectionSchemas.relationships, []),
  scheduledEvents: orElse(sectionSchemas.scheduledEvents, []),
  debateTopics: orElse(sectionSchemas.debateTopics, []),
  taskSeeds: orElse(sectionSchemas.taskSeeds, []),
  plannedHappenings: orElse(sectionSchemas.plannedHappenings, []),
  /** Absent (not an empty list) when no file has it, so older worlds hash as they did. */
  threads: Schema.optionalKey(sectionSchemas.threads),
  lore: orElse(sectionSchemas.lore, []),
});
export type World = typeof World.Type;
