/**
 * The flags that choose a brain, shared by every command that asks one (`run`, `chat`,
 * `serve`): which brain, which chat model, which config file. `chooseBrain` reads them.
 */
import { Flag } from "effect/cli";

export const brainFlags = {
  brain: Flag.Literals("brain", ["scripted", "ollama"]).pipe(
    Flag.withDescription("Who answers: scripted (default, no model needed) or ollama"),
    Flag.withDefault("scripted"),
  ),
  model: Flag.String("model").pipe(
    Flag.withDescription("Chat model for --brain ollama"),
    Flag.optional,
  ),
  config: Flag.String("config").pipe(
    Flag.withDescription(
      "Config file: the model, hosts and policy for --brain ollama, the embedder and index mode for any run (default ./hearsay.config if present)",
    ),
    Flag.optional,
  ),
} as const;
