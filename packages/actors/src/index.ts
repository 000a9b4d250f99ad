export {
  AGENDA_MAX_STEPS,
  type AgendaTurn,
  type AskWhy,
  agendaChanges,
  agendaTurn,
  liveSteps,
  plannedSteps,
  type StepScene,
  stepHolds,
  type TurnAsk,
  tasksStand,
} from "./agenda.ts";
export {
  type ClockSchedule,
  emptySchedule,
  foldSchedule,
  takeWakes,
} from "./ClockSchedule.ts";
export {
  type Consolidated,
  type Consolidation,
  type ConsolidationGroup,
  consolidatedOf,
  consolidates,
  consolidationGroups,
  defaultConsolidation,
  subjectOf,
} from "./consolidation.ts";
export { DueIndex } from "./DueIndex.ts";
export { type DueDebate, debateIdOf, dueDebates } from "./debateCalendar.ts";
export {
  type DebateEmitted,
  type DebateEvent,
  type DebateInput,
  type DebateLine,
  type DebateMachine,
  type DebateOutput,
  debateMachine,
} from "./debateMachine.ts";
export { type DueJob, dueJobs, type JobSpec, jobAt } from "./jobCalendar.ts";
export {
  defaultMemoryDecay,
  type Fading,
  forgetAt,
  importanceAt,
  type MemoryDecay,
  reinforced,
  reinforcesAt,
} from "./MemoryDecay.ts";
export {
  cappedOut,
  droppedOnArrival,
  endedAt,
  endedBy,
  endOf,
  expiredBy,
  type ForgetAsk,
  type ForgetReason,
  type Forgetting,
  forgetting,
  nextEndAfter,
  nextExpiryAfter,
  type RankedAt,
} from "./MemoryPolicy.ts";
export type { NpcAction } from "./NpcAction.ts";
export {
  type Agenda,
  concernedNpc,
  emptyNpcFacts,
  emptySinceProfile,
  eventTriggers,
  foldNpcFacts,
  foldTasks,
  type HeldTask,
  isOpen,
  isPinned,
  isTaskEvent,
  type LiveMemory,
  type NpcFacts,
  openTasksOf,
  partyTasksOf,
  type Regard,
  type SinceProfile,
  type TaskEvent,
  taskHolder,
} from "./NpcFacts.ts";
export {
  type Happening,
  IMPORTANT,
  NEWS_QUIET,
  type NewsItem,
  type NewsReader,
  newsMatters,
  newsMayInterrupt,
  STRONG_REGARD,
} from "./newsMatters.ts";
export {
  type NpcActivityState,
  type NpcEmitted,
  type NpcEvent,
  type NpcInput,
  type NpcMachine,
  type NpcSchedule,
  type NpcState,
  type NpcStateName,
  npcMachine,
  npcStateOf,
  npcTransition,
  type Routes,
} from "./npcMachine.ts";
export { isNight, minutesUntilSleep, nextHourAt } from "./routine.ts";
export {
  elisionEnd,
  nextStep,
  type SkipMode,
  type SkipRequest,
  skipEnd,
} from "./skipSpan.ts";
export {
  childrenHear,
  type PlannedSkip,
  type WorldClockEmitted,
  type WorldClockEvent,
  type WorldClockInput,
  type WorldClockMachine,
  worldClockMachine,
} from "./worldClockMachine.ts";
