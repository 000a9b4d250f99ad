// Builds the `hearsay` command into dist/: the CLI and the workspace packages it uses,
// bundled from their TypeScript sources by esbuild, one entry and one chunk per
// subcommand (each loaded only when it runs). A bundle rather than tsc's one file per
// module because Node's start-up cost grows with the number of modules it resolves and
// reads: effect alone is a few hundred, and `hearsay stats` should start in a blink.
// Native addons stay outside the bundle and load from node_modules.
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const outdir = join(here, "dist");
rmSync(outdir, { recursive: true, force: true });
await build({
  // The store's append worker is an entry of its own: a run starts it from the file beside
  // the chunk that holds the store (`new URL("./appendWorker.js", import.meta.url)`).
  entryPoints: {
    main: join(here, "src", "main.ts"),
    appendWorker: join(here, "..", "store", "src", "appendWorker.ts"),
  },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  conditions: ["@hearsay/source"],
  external: ["better-sqlite3", "usearch"],
  // Every chunk sits directly in dist/, one folder below the package, as each package's
  // own modules sit in src/ — paths a module finds relative to itself stay right.
  chunkNames: "chunks-[hash]",
  // Some bundled CommonJS modules call require() for Node's built-ins.
  banner: {
    js: 'import { createRequire as __hearsayRequire } from "node:module"; const require = __hearsayRequire(import.meta.url);',
  },
  // Less text for V8 to parse at start-up; names stay, so stack traces still read.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning",
});
