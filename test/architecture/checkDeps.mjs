#!/usr/bin/env node
// Enforces docs/ARCHITECTURE.md (its dependency direction) by machine, as part of `pnpm lint`:
// - each package imports only the packages its arrow allows, and declares them;
// - nothing reaches into another package's src/; nothing imports the cli; testkit is
//   imported only by tests and benches;
// - the package graph has no cycle;
// - core, actors and engine read no wall clock and draw no unseeded randomness;
// - the cli and the inspector open database files only through the store's
//   openForReading / openForWriting (never openDatabase or a raw better-sqlite3 handle).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const allowed = {
  core: [],
  store: ["core"],
  retrieval: ["store", "core"],
  mind: ["core"],
  actors: ["core"],
  engine: ["actors", "mind", "retrieval", "store", "core"],
  inspector: ["engine", "actors", "mind", "retrieval", "store", "core"],
  cli: ["inspector", "engine", "actors", "mind", "retrieval", "store", "core"],
  testkit: ["engine", "actors", "mind", "retrieval", "store", "core"],
};
const deterministic = new Set(["core", "actors", "engine"]);
const openersOnly = new Set(["cli", "inspector"]);
const rawOpens = [
  [/\bopenDatabase\s*\(/, "openDatabase()"],
  [/\bnew Database\s*\(/, "new Database()"],
];
const forbiddenCalls = [
  [/\bDate\.now\s*\(/, "Date.now()"],
  [/\bnew Date\s*\(/, "new Date()"],
  [/\bMath\.random\s*\(/, "Math.random()"],
  [/\bsetTimeout\s*\(/, "setTimeout()"],
  [/\bsetInterval\s*\(/, "setInterval()"],
  [/\bperformance\.now\s*\(/, "performance.now()"],
];

const problems = [];
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === "node_modules") return [];
    return statSync(p).isDirectory() ? walk(p) : p.endsWith(".ts") ? [p] : [];
  });
const importsOf = (text) =>
  [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g)].map((m) => m[1]);

const pkgDir = join(root, "packages");
const pkgs = readdirSync(pkgDir).filter((p) => statSync(join(pkgDir, p)).isDirectory());
const graph = new Map();
for (const pkg of pkgs) {
  if (!(pkg in allowed)) {
    problems.push(
      `packages/${pkg}: not in the architecture's package list (test/architecture/checkDeps.mjs)`,
    );
    continue;
  }
  const manifest = JSON.parse(readFileSync(join(pkgDir, pkg, "package.json"), "utf8"));
  // testkit may be any package's devDependency (for its tests); it is not an arrow.
  const dev = Object.keys(manifest.devDependencies ?? {}).filter((d) => d !== "@hearsay/testkit");
  const declared = [...Object.keys(manifest.dependencies ?? {}), ...dev]
    .filter((d) => d.startsWith("@hearsay/"))
    .map((d) => d.slice("@hearsay/".length));
  graph.set(pkg, declared);
  for (const d of declared) {
    if (!allowed[pkg].includes(d)) {
      problems.push(
        `packages/${pkg}/package.json: depends on @hearsay/${d}, which ${pkg} may not import`,
      );
    }
  }
  const src = join(pkgDir, pkg, "src");
  let files = [];
  try {
    files = walk(src);
  } catch {}
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const rel = relative(root, file);
    for (const spec of importsOf(text)) {
      const m = spec.match(/^@hearsay\/([a-z]+)(\/.*)?$/);
      if (m) {
        const [, target, deep] = m;
        if (deep)
          problems.push(`${rel}: imports ${spec}; import the package's public index instead`);
        if (target !== pkg && !allowed[pkg].includes(target)) {
          problems.push(`${rel}: imports @hearsay/${target}, which ${pkg} may not import`);
        } else if (target !== pkg && !declared.includes(target)) {
          problems.push(`${rel}: imports @hearsay/${target} without declaring it in package.json`);
        }
      }
      if (/^(\.\.\/)+(\.\.)?\/?[a-z]+\/src/.test(spec) && !spec.startsWith("./")) {
        const up = spec.split("/").filter((s) => s === "..").length;
        if (up >= 2) problems.push(`${rel}: imports ${spec}, reaching into another package's src/`);
      }
    }
    if (openersOnly.has(pkg)) {
      const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
      for (const [re, name] of rawOpens) {
        if (re.test(code))
          problems.push(
            `${rel}: calls ${name}; open a database file with openForReading or openForWriting`,
          );
      }
    }
    if (deterministic.has(pkg)) {
      const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
      for (const [re, name] of forbiddenCalls) {
        if (re.test(code))
          problems.push(`${rel}: calls ${name}; game time and chance must be injected`);
      }
    }
  }
}

// testkit is a devDependency only: no package's src may import it.
for (const pkg of pkgs) {
  if (pkg === "testkit") continue;
  const manifest = JSON.parse(readFileSync(join(pkgDir, pkg, "package.json"), "utf8"));
  if (manifest.dependencies?.["@hearsay/testkit"]) {
    problems.push(`packages/${pkg}/package.json: @hearsay/testkit may only be a devDependency`);
  }
}

// Cycle check over the declared package graph.
const state = new Map();
const visit = (node, path) => {
  if (state.get(node) === "done") return;
  if (state.get(node) === "open") {
    problems.push(`package cycle: ${[...path, node].join(" → ")}`);
    return;
  }
  state.set(node, "open");
  for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
  state.set(node, "done");
};
for (const pkg of graph.keys()) visit(pkg, []);

if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error(`architecture check: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log(`architecture check: ${pkgs.length} packages, dependency arrows and determinism OK`);
