/**
 * The Ollama brain. Each call renders the prompt, chats through the `ollama` client
 * with `format` set to the purpose's JSON Schema, decodes and id-checks the answer, and
 * on a bad answer retries once showing the model its error. If the model still fails —
 * or times out, is missing, or the server is down — the configured fallback chain
 * answers: other models in order, then the scripted brain; `meta` says which answered
 * and `fallbackReason` why the others did not. Calls go through a HostPool spreading them
 * over the configured model hosts, each bounded by its concurrency, a failing host
 * drained and its calls sent to another; each call is aborted at its timeout. A call is readied — its
 * prompt rendered (which builds a lazy dossier) and its input hash taken — before it
 * queues, so that work overlaps other calls' model time instead of holding a slot.
 */
import { dayOf, Prng, type RejectedSpend } from "@hearsay/core";
import { Effect, Result, Semaphore } from "effect";
import type { ChatResponse, Message } from "ollama";
import type {
  BrainAnswer,
  BrainMeta,
  BrainRequest,
  BrainShape,
  PlannedCall,
  TickDemand,
  TickPlan,
} from "./Brain.ts";
import {
  type BrainError,
  BrainUnavailable,
  type BudgetExhausted,
  type InvalidAnswer,
  type UnknownId,
} from "./BrainError.ts";
import { inputHash } from "./inputHash.ts";
import {
  addRejected,
  noRejected,
  rejectedMeta,
  withPolicy,
  withRejected,
} from "./llmCallPayload.ts";
import type { MindConfig } from "./MindConfig.ts";
import { type BudgetUsage, CallBudget } from "./ollama/CallBudget.ts";
import { callOllama } from "./ollama/callOllama.ts";
import { decodeAnswer } from "./ollama/decodeAnswer.ts";
import { HostPool } from "./ollama/HostPool.ts";
import { type ModelHost, modelHosts } from "./ollama/modelHosts.ts";
import { outputFormat } from "./ollama/outputFormat.ts";
import { ReadyAhead } from "./ollama/ReadyAhead.ts";
import { type RenderedPrompt, renderPrompt, repairPrompt } from "./Prompt.ts";
import { compileDecoders, type PurposeName, purposeNames } from "./Purpose.ts";
import {
  ceilingOf,
  type Nearness,
  nobodyNear,
  type PriorityClass,
  routeOf,
} from "./policy/BrainPolicy.ts";
import { type PlannedRoute, planCalls, spendingOrder } from "./policy/planCalls.ts";
import { ScriptedBrain, type SyncBrain } from "./ScriptedBrain.ts";

/** Reports how long an effect took, however it ended. */
const timed =
  (report: (ms: number) => void) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.suspend(() => {
      const started = performance.now();
      return effect.pipe(Effect.ensuring(Effect.sync(() => report(performance.now() - started))));
    });

/** The scheduling priority of readying while a slot is busy: after the default (0). */
const BEHIND = 1;

/** The fallback entry that means "the scripted brain". */
export const SCRIPTED_FALLBACK = "scripted";

export interface OllamaBrainOptions {
  readonly config: MindConfig;
  /** Injected fetch (tests, proxies); default the global one. */
  readonly fetch?: typeof fetch;
  /** Hosts shared with other users of the same servers; default those the config names. */
  readonly pool?: HostPool;
  /** What the `scripted` fallback entry calls; default `ScriptedBrain.make()`. */
  readonly scripted?: SyncBrain;
  /** The fair-queue lane of a request; default its NPC (or its purpose for world calls). */
  readonly lane?: (request: BrainRequest) => string;
}

export interface OllamaBrainShape extends BrainShape {
  readonly pool: HostPool;
  plan<P extends PurposeName>(
    requests: ReadonlyArray<BrainRequest<P>>,
  ): ReadonlyArray<PlannedCall<P>>;
  /** Model calls and tokens spent so far (every HTTP chat, repairs included). */
  usage(): BudgetUsage;
  beginTick(plan: TickPlan): void;
  reviseTick(demand: ReadonlyArray<TickDemand>): void;
  endTick(): void;
  /** Calls asked in ticks beyond their forecast (the class order is not assured for those). */
  unforeseen(): number;
}

/** A failure that blames the host, not the model: the call goes to another host. */
const hostFailed = (error: BrainError): boolean =>
  error._tag === "BrainTimeout" ||
  (error._tag === "BrainUnavailable" &&
    (error.kind === "unreachable" || error.kind === "lost" || error.kind === "server_error"));

const seedOf = (request: BrainRequest): number =>
  Prng.derive(request.seed, "ollama", request.purpose, request.npcId ?? "-", request.t).int(
    0,
    0x7fffffff,
  );

const make = (options: OllamaBrainOptions): OllamaBrainShape => {
  const { config } = options;
  const transportOf = (host: ModelHost) =>
    options.fetch === undefined ? { url: host.url } : { url: host.url, fetch: options.fetch };
  const pool = options.pool ?? HostPool.make(modelHosts(config));
  const scripted = options.scripted ?? ScriptedBrain.make();
  const lane = options.lane ?? ((r: BrainRequest) => r.npcId ?? r.purpose);
  const budget = new CallBudget(config.budgets);
  // What every call needs, derived now rather than in the first call of each purpose.
  compileDecoders();
  for (const purpose of purposeNames) outputFormat(purpose);

  // A call is readied — its prompt rendered, which builds a lazy dossier, and the
  // recorder's input hash taken — once per call, for every model of its fallback chain.
  // While a slot is with a model that answers slower than a call is readied, the call
  // is readied ahead, before it queues, so that work overlaps the model's time instead
  // of holding a slot idle (see ReadyAhead). Readying ahead is one call at a time, put
  // behind the runtime's other work (answers coming back), and ends by yielding to the
  // event loop, so calls readied back to back never keep an answer waiting to be read.
  const ahead = new ReadyAhead();
  const readying = Semaphore.makeUnsafe(1);
  const prepare = (request: BrainRequest): RenderedPrompt => {
    const started = performance.now();
    const prompt = renderPrompt(request);
    inputHash(request);
    ahead.noteReadying(performance.now() - started);
    return prompt;
  };
  const readyAhead = (request: BrainRequest): Effect.Effect<RenderedPrompt> =>
    readying.withPermits(1)(
      Effect.yieldNowWith(BEHIND).pipe(
        Effect.map(() => prepare(request)),
        Effect.tap(() => Effect.yieldNow),
      ),
    );

  const chat = (host: ModelHost, model: string, request: BrainRequest, messages: Array<Message>) =>
    callOllama(transportOf(host), model, config.timeoutMs, (client) =>
      client.chat({
        model,
        messages,
        format: outputFormat(request.purpose, request.input),
        stream: false,
        keep_alive: config.keepAlive,
        options: { temperature: config.temperature, seed: seedOf(request), num_ctx: config.numCtx },
      }),
    ).pipe(
      Effect.tap((response: ChatResponse) =>
        Effect.sync(() =>
          budget.spend(dayOf(request.t), response.prompt_eval_count ?? 0, response.eval_count ?? 0),
        ),
      ),
      timed((ms) => ahead.noteRoundTrip(ms)),
    );

  /**
   * One model: an answer, a repair retry if it is bad, then give up. Each refused
   * answer, with its request's tokens, is added to `rejected`; the answer used carries
   * the tokens of its own request.
   */
  const tryModel = <P extends PurposeName>(
    host: ModelHost,
    model: string,
    request: BrainRequest<P>,
    prompt: RenderedPrompt,
    rejected: { spend: RejectedSpend },
  ) =>
    Effect.gen(function* () {
      const started = performance.now();
      const messages: Array<Message> = [
        { role: "system", content: prompt.system },
        { role: "user", content: prompt.user },
      ];
      const decoded = (
        response: ChatResponse,
      ): Result.Result<BrainAnswer<P>, InvalidAnswer | UnknownId> => {
        const answer = decodeAnswer(
          request.purpose,
          request.input,
          response.message.content,
          model,
        );
        if (Result.isSuccess(answer))
          return Result.succeed({
            output: answer.success,
            meta: {
              brain: "ollama",
              model,
              promptTokens: response.prompt_eval_count ?? 0,
              outputTokens: response.eval_count ?? 0,
              latencyMs: Math.round((performance.now() - started) * 10) / 10,
              fallbackReason: null,
            } satisfies BrainMeta,
          } as BrainAnswer<P>);
        rejected.spend = addRejected(rejected.spend, {
          answers: 1,
          promptTokens: response.prompt_eval_count ?? 0,
          outputTokens: response.eval_count ?? 0,
        });
        return Result.fail(answer.failure);
      };
      const first = yield* chat(host, model, request, messages);
      const answer = decoded(first);
      if (Result.isSuccess(answer)) return answer.success;
      messages.push(
        { role: "assistant", content: first.message.content },
        { role: "user", content: repairPrompt(answer.failure.message) },
      );
      const repaired = decoded(yield* chat(host, model, request, messages));
      if (Result.isSuccess(repaired)) return repaired.success;
      return yield* Effect.fail(repaired.failure);
    });

  /**
   * One call as planned: `scripted` by policy, the scripted brain at once; refused the
   * budget, the chain's non-model entries; else the chain from the chat model, its
   * first model call held in the budget by the plan.
   */
  const decideRouted = <P extends PurposeName>(
    request: BrainRequest<P>,
    route: PlannedRoute,
    refusal: BudgetExhausted | null,
  ): Effect.Effect<BrainAnswer<P>, BrainError> => {
    // The plan held this call's first model call; it is given back once that call has run.
    const hold = { on: route.model };
    const giveBack = () => {
      if (!hold.on) return;
      hold.on = false;
      budget.settle(dayOf(request.t));
    };
    return Effect.gen(function* () {
      const policy = { priority: route.priority, reason: route.reason };
      const day = dayOf(request.t);
      if (route.priority === "scripted") {
        const answer = scripted.decideSync(request);
        return { output: answer.output, meta: { ...answer.meta, policy } };
      }
      const reasons: Array<string> = [];
      let prompt: RenderedPrompt | null = null;
      let lastError: BrainError | null = null;
      let serverDown = false;
      let budgetNoted = false;
      const rejected = { spend: noRejected };
      const withReasons = (answer: BrainAnswer<P>): BrainAnswer<P> => ({
        output: answer.output,
        meta: {
          ...answer.meta,
          fallbackReason: reasons.length > 0 ? reasons.join("; ") : null,
          ...rejectedMeta(rejected.spend),
          policy,
        },
      });
      for (const entry of [config.chatModel, ...config.fallback]) {
        if (entry === SCRIPTED_FALLBACK) return withReasons(scripted.decideSync(request));
        if (serverDown) continue;
        // A held call's first model call is paid for; later ones ask the budget again.
        const spent = hold.on ? null : (refusal ?? budget.check(day));
        if (spent !== null) {
          if (!budgetNoted) reasons.push(spent.message);
          budgetNoted = true;
          lastError = spent;
          continue;
        }
        if (prompt === null && ahead.worthIt(pool.stats().running))
          prompt = yield* readyAhead(request);
        const result = yield* Effect.result(
          pool.run(
            lane(request),
            entry,
            (host) =>
              Effect.suspend(() => {
                if (prompt === null) prompt = prepare(request);
                return tryModel(host, entry, request, prompt, rejected);
              }),
            hostFailed,
          ),
        );
        giveBack();
        if (Result.isSuccess(result)) return withReasons(result.success);
        const error = result.failure;
        reasons.push(`${entry}: ${error.message}`);
        lastError = error;
        // Nothing left to reach: the chain's other models would wait on the same dead hosts.
        if (
          error._tag === "BrainUnavailable" &&
          (error.kind === "unreachable" || error.kind === "lost") &&
          pool.allDrained()
        )
          serverDown = true;
      }
      return yield* Effect.fail(
        withPolicy(
          withRejected(
            lastError ??
              new BrainUnavailable({
                brain: "ollama",
                model: config.chatModel,
                kind: "unreachable",
                reason: "no model or fallback is configured",
              }),
            rejected.spend,
          ),
          policy,
        ),
      );
    }).pipe(Effect.ensuring(Effect.sync(giveBack)));
  };

  // Who is near the player or the camera in the open tick (nobody outside a tick).
  let near: Nearness = nobodyNear;

  /** Calls by the highest class each could get, with who is near now. */
  const forecastOf = (demand: ReadonlyArray<TickDemand>) => {
    const forecast: Partial<Record<PriorityClass, number>> = {};
    for (const d of demand) {
      const c = ceilingOf(config.policy, d.purpose, d.npcId, near);
      forecast[c] = (forecast[c] ?? 0) + d.count;
    }
    return forecast;
  };

  /** Opens a tick: who is near, and the budget held for its calls by their highest class. */
  const beginTick = (tick: TickPlan): void => {
    near = config.policy.nearHops === null ? nobodyNear : tick.near(config.policy.nearHops);
    budget.beginTick(dayOf(tick.t), forecastOf(tick.demand));
  };

  const reviseTick = (demand: ReadonlyArray<TickDemand>): void =>
    budget.narrowTick(forecastOf(demand));

  const endTick = (): void => {
    near = nobodyNear;
    budget.endTick();
  };

  /** Plans a batch: each call's class, and the model budget spent highest class first. */
  const plan = <P extends PurposeName>(
    requests: ReadonlyArray<BrainRequest<P>>,
  ): ReadonlyArray<PlannedCall<P>> => {
    const routes = requests.map((r) => routeOf(config.policy, r, near));
    // The batch's model calls reserve together, in the order planCalls grants them.
    const asked = spendingOrder(routes).filter((i) => routes[i]!.priority !== "scripted");
    const refusals: Array<BudgetExhausted | null> = requests.map(() => null);
    const reserved = budget.reserveBatch(
      asked.map((i) => ({ day: dayOf(requests[i]!.t), priority: routes[i]!.priority })),
    );
    for (const [k, i] of asked.entries()) refusals[i] = reserved[k]!;
    const planned = planCalls(routes, (i) => refusals[i]?.message ?? null);
    return requests.map((request, i) => ({
      route: planned[i]!,
      decide: decideRouted(request, planned[i]!, refusals[i]!),
    }));
  };

  const decide = <P extends PurposeName>(
    request: BrainRequest<P>,
  ): Effect.Effect<BrainAnswer<P>, BrainError> => Effect.suspend(() => plan([request])[0]!.decide);

  return {
    name: "ollama",
    pool,
    capacity: pool.capacity,
    decide,
    plan,
    usage: () => budget.usage(),
    beginTick,
    reviseTick,
    endTick,
    unforeseen: () => budget.unforeseen,
  };
};

/** The Ollama brain: `make(options)` (its config from `loadMindConfig`, as the CLI loads it). */
export const OllamaBrain = { make } as const;
