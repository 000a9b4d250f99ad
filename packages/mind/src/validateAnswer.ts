/**
 * Id validation of decoded answers. A Schema can say an answer is shaped right; only the
 * input can say whether the NPC, place or task it names exists for this NPC now. An
 * answer that names anything the input did not offer is rejected with `UnknownId`
 * (which the Ollama brain shows the model in its repair retry).
 */
import { Result } from "effect";
import { UnknownId } from "./BrainError.ts";
import type { PurposeInput, PurposeName, PurposeOutput } from "./Purpose.ts";
import type { ActInput, ActOutput } from "./purposes/ActPurpose.ts";
import type { DebateTurnInput, DebateTurnOutput } from "./purposes/DebatePurposes.ts";
import type {
  SummarizeSceneInput,
  SummarizeSceneOutput,
} from "./purposes/SummarizeScenePurpose.ts";
import type {
  SummarizeSharedSceneInput,
  SummarizeSharedSceneOutput,
} from "./purposes/SummarizeSharedScenePurpose.ts";

const check = (
  purpose: PurposeName,
  field: string,
  kind: UnknownId["kind"],
  id: string,
  allowed: ReadonlyArray<string>,
): UnknownId | null =>
  allowed.includes(id) ? null : new UnknownId({ purpose, field, kind, id, allowed: [...allowed] });

const checkAct = (input: ActInput, output: ActOutput): UnknownId | null => {
  switch (output.action) {
    case "speak":
      return check(
        "act",
        "to",
        "npc",
        output.to,
        input.present.map((p) => p.id),
      );
    case "move":
      return check(
        "act",
        "to",
        "location",
        output.to,
        input.reachable.map((p) => p.id),
      );
    case "work":
    case "give_up":
      return check(
        "act",
        "taskId",
        "task",
        output.taskId,
        input.tasks.filter((x) => x.assignee === input.self.id).map((x) => x.id),
      );
    case "withdraw":
      return check(
        "act",
        "taskId",
        "task",
        output.taskId,
        input.tasks.filter((x) => x.proposedBy === input.self.id).map((x) => x.id),
      );
    case "move_deadline": {
      const present = new Set(input.present.map((p) => p.id));
      // The other party must be here to agree (or be the NPC itself, or nobody in particular).
      const self = input.self.id;
      // A party asks; the other party must be here to agree (or be itself, or nobody in
      // particular when it proposed the task).
      const askable = input.tasks.filter((x) => {
        if (x.deadline === null) return false;
        if (x.assignee === self)
          return x.proposedBy !== null && (x.proposedBy === self || present.has(x.proposedBy));
        if (x.proposedBy !== self) return false;
        return x.assignee === null || present.has(x.assignee);
      });
      return check(
        "act",
        "taskId",
        "task",
        output.taskId,
        askable.map((x) => x.id),
      );
    }
    case "propose_task":
      return output.assignee === null
        ? null
        : check("act", "assignee", "npc", output.assignee, [
            input.self.id,
            ...input.present.map((p) => p.id),
          ]);
    case "rest":
      return null;
  }
};

/**
 * A planned step names ids of the input too; a place may be any the input names (it may
 * be reachable from where an earlier step leads), and whether the step can be taken is
 * checked again when its time comes.
 */
const checkAgenda = (input: ActInput, output: ActOutput): UnknownId | null => {
  // Most answers plan nothing: the lists of what a step may name are built only for a plan.
  const agenda = output.agenda ?? [];
  if (agenda.length === 0) return null;
  const places = [
    input.location.id,
    ...input.reachable.map((p) => p.id),
    ...(input.home === null ? [] : [input.home]),
    ...(input.workplace === null ? [] : [input.workplace]),
    ...input.tasks.flatMap((x) => (x.locationId === null ? [] : [x.locationId])),
  ];
  const present = input.present.map((p) => p.id);
  const held = input.tasks.filter((x) => x.assignee === input.self.id).map((x) => x.id);
  for (let i = 0; i < agenda.length; i++) {
    const step = agenda[i]!;
    const field = `agenda.${i}`;
    const problem =
      step.action === "speak"
        ? check("act", `${field}.to`, "npc", step.to, present)
        : step.action === "move"
          ? check("act", `${field}.to`, "location", step.to, places)
          : step.action === "work"
            ? check("act", `${field}.taskId`, "task", step.taskId, held)
            : step.action === "propose_task" && step.assignee !== null
              ? check("act", `${field}.assignee`, "npc", step.assignee, [input.self.id, ...present])
              : null;
    if (problem !== null) return problem;
  }
  return null;
};

const checkDebateTurn = (input: DebateTurnInput, output: DebateTurnOutput): UnknownId | null =>
  output.replyTo === null
    ? null
    : check(
        "debate_turn",
        "replyTo",
        "npc",
        output.replyTo,
        input.participants.map((p) => p.id),
      );

/** A scene summary may be about those the witness shared the scene with, and no one else. */
const checkSceneSummary = (
  input: SummarizeSceneInput,
  output: SummarizeSceneOutput,
): UnknownId | null => {
  const allowed = input.company.map((c) => c.id);
  for (const id of output.about) {
    const problem = check("summarize_scene", "about", "npc", id, allowed);
    if (problem !== null) return problem;
  }
  return null;
};

/**
 * A shared scene summary may be for the witnesses asked, each once, and about those
 * present other than its witness.
 */
const checkSharedSceneSummary = (
  input: SummarizeSharedSceneInput,
  output: SummarizeSharedSceneOutput,
): UnknownId | null => {
  const witnesses = input.witnesses.map((w) => w.id as string);
  const seen = new Set<string>();
  for (const s of output.summaries) {
    const unasked = witnesses.filter((w) => !seen.has(w));
    const problem = check("summarize_shared_scene", "witnessId", "npc", s.witnessId, unasked);
    if (problem !== null) return problem;
    seen.add(s.witnessId);
    const others = input.present.map((p) => p.id as string).filter((id) => id !== s.witnessId);
    for (const id of s.about) {
      const about = check("summarize_shared_scene", "about", "npc", id, others);
      if (about !== null) return about;
    }
  }
  return null;
};

/**
 * Checks that every id a decoded answer names was offered by its input. Succeeds with
 * the output unchanged, or fails with the first unknown id.
 */
export const validateAnswer = <P extends PurposeName>(
  purpose: P,
  input: PurposeInput<P>,
  output: PurposeOutput<P>,
): Result.Result<PurposeOutput<P>, UnknownId> => {
  let problem: UnknownId | null = null;
  if (purpose === "act")
    problem =
      checkAct(input as ActInput, output as ActOutput) ??
      checkAgenda(input as ActInput, output as ActOutput);
  else if (purpose === "debate_turn")
    problem = checkDebateTurn(input as DebateTurnInput, output as DebateTurnOutput);
  else if (purpose === "summarize_scene")
    problem = checkSceneSummary(input as SummarizeSceneInput, output as SummarizeSceneOutput);
  else if (purpose === "summarize_shared_scene")
    problem = checkSharedSceneSummary(
      input as SummarizeSharedSceneInput,
      output as SummarizeSharedSceneOutput,
    );
  return problem === null ? Result.succeed(output) : Result.fail(problem);
};
