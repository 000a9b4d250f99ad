import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
    // Tests against a real model server run only when one is named.
    exclude: [
      "**/node_modules/**",
      ...(process.env.HEARSAY_OLLAMA_URL ? [] : ["**/*.integration.test.ts"]),
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
