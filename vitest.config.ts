import { defineConfig } from "vitest/config";

/**
 * Tests run the packages' TypeScript sources, never their built dist/: the
 * `@hearsay/source` export condition points each package at its src/index.ts. Child
 * processes a test starts (`node --import tsx …`) get the same condition through
 * NODE_OPTIONS.
 */
// Vite's default server conditions, after ours.
const conditions = ["@hearsay/source", "module", "node", "development|production"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
    // Tests against a real model server run only when one is named.
    exclude: [
      "**/node_modules/**",
      ...(process.env.HEARSAY_OLLAMA_URL ? [] : ["**/*.integration.test.ts"]),
    ],
    env: {
      NODE_OPTIONS: [process.env.NODE_OPTIONS, "--conditions=@hearsay/source"]
        .filter(Boolean)
        .join(" "),
    },
    // One fixed property seed unless HEARSAY_DEEP or HEARSAY_FC_SEED says otherwise.
    setupFiles: ["test/support/propertySeed.ts"],
    // A deep run draws up to 20× the everyday runs of a property: its time limit grows alike.
    testTimeout: process.env.HEARSAY_DEEP ? 1_200_000 : 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
