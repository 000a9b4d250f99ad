// The testkit: arbitraries, fake brains and an Ollama-speaking loopback server for tests and benches.
