#!/usr/bin/env node
// The README's two commands start here. On a machine with only Node 20+ and npm this
// fetches a pinned pnpm through npx (no global install, no root), installs the
// workspace from the lock file — compiling better-sqlite3 from source where no prebuilt
// binary can be downloaded — and then runs the requested workspace script.
//
//   node .config/bootstrap.mjs start [args]   default simulation, headless
//   node .config/bootstrap.mjs check [args]   typecheck, lint and the test suite
//   node .config/bootstrap.mjs bench [name]   one benchmark (all when no name)
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PNPM = "pnpm@12.21.0";
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const [task = "check", ...rest] = process.argv.slice(2);

const env = { ...process.env };
// node-gyp downloads Node's headers unless told where they are. When this Node has its
// headers installed beside it (Debian's nodejs-dev does, so do official tarballs), point
// node-gyp at them; elsewhere leave the setting alone and let the prebuilt binary load.
const prefix = join(dirname(process.execPath), "..");
if (!env.npm_config_nodedir && existsSync(join(prefix, "include", "node", "node.h"))) {
  env.npm_config_nodedir = prefix;
}

function pnpm(args, { quiet = false } = {}) {
  const direct = spawnSync("pnpm", ["--version"], { encoding: "utf8", env });
  const usable = direct.status === 0 && Number(direct.stdout.split(".")[0]) >= 12;
  const [cmd, pre] = usable ? ["pnpm", []] : ["npx", ["--yes", PNPM]];
  const r = spawnSync(cmd, [...pre, ...args], {
    cwd: root,
    env,
    stdio: quiet ? ["ignore", "ignore", "inherit"] : "inherit",
  });
  if (r.error) {
    console.error(`hearsay setup: could not start ${cmd}: ${r.error.message}`);
    process.exit(1);
  }
  return r.status ?? 1;
}

const installed = pnpm(["install", "--frozen-lockfile", "--reporter=silent"]);
if (installed !== 0) {
  console.error(
    "hearsay setup: `pnpm install --frozen-lockfile` failed (see above). better-sqlite3 " +
      "compiles from source here: python3, make and a C++ compiler must be installed.",
  );
  process.exit(installed);
}

// Build every package into its dist/ (the `hearsay` command runs the built files) and
// the inspector's web page.
const built = pnpm(["run", "--if-present", "build"], { quiet: true });
if (built !== 0) {
  console.error("hearsay setup: `pnpm run build` failed (see above).");
  process.exit(built);
}

const scripts = {
  start: ["run", "sim"],
  check: ["run", "check"],
  bench: ["run", "bench:run"],
};
const base = scripts[task];
if (!base) {
  console.error(`hearsay setup: unknown task '${task}' (expected start, check or bench)`);
  process.exit(2);
}
process.exit(pnpm([...base, ...rest]));
