/**
 * LLM-call bench: what a live model run costs — calls and tokens per NPC-day, prompt
 * reuse, throughput over 1, 2 and 4 model hosts (see lib/llmCost.ts) — or, with
 * `--overhead`, what the engine adds to each call (see lib/llmOverhead.ts).
 *
 *   pnpm bench:run llmcall                        # 30 game days (the default run); hosts of 30 ms, 2 slots
 *   pnpm bench:run llmcall 3 --latency-ms 50      # 3 days; hosts of 50 ms
 *   pnpm bench:run llmcall --throughput-days 2    # longer throughput runs
 *   pnpm bench:run llmcall --seed 2 --no-throughput  # another seed; the cost part alone
 *   pnpm bench:run llmcall 30 --no-rules          # every call to the model (see BrainPolicy's rules)
 *   pnpm bench:run llmcall --overhead [...]       # the overhead bench and its flags
 */
import { llmCost } from "./lib/llmCost.ts";
import { llmOverhead } from "./lib/llmOverhead.ts";

export default (): Promise<void> =>
  process.argv.includes("--overhead") ? llmOverhead() : llmCost();
