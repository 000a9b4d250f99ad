/**
 * Turns the JSON files of a simulation folder into one checked `World`, or into the
 * first thing wrong with them as a `WorldError` naming the file and the field.
 *
 * Files are merged in path order, whatever order they are given in: `meta` and
 * `scenario` may appear in one file only; list sections (npcs, locations, …) concatenate,
 * so a large cast can be split over several files. Each file is decoded on its own, so a
 * Schema problem is reported at its path inside that file; cross-reference problems are
 * found on the merged world and mapped back to the file and index they came from.
 * Core does no I/O: the caller reads the files (`parseWorldSource` parses their text).
 */
import { Result, Schema, SchemaAST, SchemaIssue } from "effect";
import { didYouMean } from "./nearestName.ts";
import { validateWorld } from "./validateWorld.ts";
import {
  laterSections,
  requiredSections,
  singletonSections,
  type World,
  WorldFile,
  type WorldSection,
  worldSections,
} from "./World.ts";
import {
  formatWorldPath,
  showValue,
  type WorldError,
  type WorldPath,
  worldError,
} from "./WorldError.ts";

/** One file of a simulation: its path (as it should appear in errors) and parsed JSON. */
export interface WorldSource {
  readonly path: string;
  readonly json: unknown;
}

/** Parses a file's text as JSON, or says where the syntax breaks. */
export const parseWorldSource = (
  path: string,
  text: string,
): Result.Result<WorldSource, WorldError> => {
  try {
    return Result.succeed({ path, json: JSON.parse(text) as unknown });
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return Result.fail(
      worldError({
        file: path,
        path: "",
        problem: `expected valid JSON, got a syntax error: ${reason}`,
        fix: "fix the JSON syntax",
      }),
    );
  }
};

const decodeFile = Schema.decodeUnknownResult(WorldFile, {
  onExcessProperty: "error",
  reportInput: true,
});
const formatIssue = SchemaIssue.makeFormatterStandardSchemaV1();

/** Decodes, merges and cross-validates a simulation's files into one `World`. */
export const decodeWorld = (
  sources: ReadonlyArray<WorldSource>,
): Result.Result<World, WorldError> => {
  if (sources.length === 0)
    return Result.fail(
      worldError({
        file: "(no files)",
        path: "",
        problem: "expected at least one world file, got none",
        fix: "add a world.json to the simulation folder",
      }),
    );
  const sorted = [...sources].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const owners = new Map<WorldSection, string>();
  const merged = new Map<WorldSection, unknown>();
  /** For each list section, the file and in-file index of each merged item. */
  const origins = new Map<WorldSection, Array<{ readonly file: string; readonly index: number }>>();

  for (const source of sorted) {
    const decoded = decodeFile(source.json);
    if (Result.isFailure(decoded))
      return Result.fail(schemaError(source.path, decoded.failure.issue));
    const file = decoded.success as Partial<Record<WorldSection, unknown>>;
    for (const section of worldSections) {
      const value = file[section];
      if (value === undefined) continue;
      const owner = owners.get(section);
      if (singletonSections.includes(section)) {
        if (owner !== undefined)
          return Result.fail(
            worldError({
              file: source.path,
              path: section,
              problem: `expected one "${section}" section in the world, got a second (the first is in ${owner})`,
              fix: "keep only one of them",
            }),
          );
        merged.set(section, value);
      } else {
        const items = value as ReadonlyArray<unknown>;
        merged.set(section, [...((merged.get(section) as ReadonlyArray<unknown>) ?? []), ...items]);
        const from = origins.get(section) ?? [];
        for (let index = 0; index < items.length; index++) from.push({ file: source.path, index });
        origins.set(section, from);
      }
      if (owner === undefined) owners.set(section, source.path);
    }
  }

  for (const section of requiredSections) {
    const value = merged.get(section);
    if (
      value === undefined ||
      (section === "locations" && (value as ReadonlyArray<unknown>).length === 0)
    )
      return Result.fail(
        worldError({
          file: folderOf(sorted.map((s) => s.path)),
          path: section,
          problem: `expected ${value === undefined ? `the section "${section}"` : "at least one location"} in one of the world's files (${sorted.map((s) => s.path).join(", ")}), found none`,
          fix: `add it to ${sorted[0]!.path}`,
        }),
      );
  }

  const world = Object.fromEntries(
    worldSections
      .filter((s) => merged.has(s) || !laterSections.includes(s))
      .map((s) => [s, merged.get(s) ?? []] as const),
  ) as unknown as World;
  const problems = validateWorld(world);
  const first = problems[0];
  if (first === undefined) return Result.succeed(world);

  const [section, index, ...rest] = first.path;
  const origin =
    typeof index === "number" ? origins.get(section as WorldSection)?.[index] : undefined;
  const file = origin?.file ?? owners.get(section as WorldSection) ?? sorted[0]!.path;
  const localPath = origin === undefined ? first.path : [section!, origin.index, ...rest];
  return Result.fail(
    worldError({
      file,
      path: formatWorldPath(localPath),
      problem: first.problem,
      fix: first.fix,
      more: problems.length - 1,
    }),
  );
};

/**
 * Where a path of the merged world came from: the file that holds it and the path
 * inside that file (`lore[3]` of the world may be `lore[0]` of the second file naming
 * lore). A problem the caller finds after decoding (a lore file that does not exist) is
 * reported there, by the same merge order `decodeWorld` uses.
 */
export const worldOrigin = (
  sources: ReadonlyArray<WorldSource>,
  path: WorldPath,
): { readonly file: string; readonly path: string } => {
  const sorted = [...sources].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const [section, index, ...rest] = path;
  let before = 0;
  let owner: string | undefined;
  for (const source of sorted) {
    const json = source.json;
    const value =
      typeof json === "object" && json !== null && typeof section === "string"
        ? (json as Record<string, unknown>)[section]
        : undefined;
    if (value === undefined) continue;
    owner ??= source.path;
    if (typeof index === "number" && Array.isArray(value)) {
      if (index < before + value.length)
        return { file: source.path, path: formatWorldPath([section!, index - before, ...rest]) };
      before += value.length;
    }
  }
  return { file: owner ?? sorted[0]?.path ?? "(no files)", path: formatWorldPath(path) };
};

/** The folder the files share (`simulations/x`), or the single file's path. */
const folderOf = (paths: ReadonlyArray<string>): string => {
  const dirs = paths.map((p) => p.slice(0, Math.max(p.lastIndexOf("/"), 0)));
  const shared = dirs.every((d) => d === dirs[0]) ? dirs[0] : undefined;
  return shared === undefined || shared === "" ? paths[0]! : shared;
};

/** The first Schema issue of a file as a one-line `WorldError`. */
const schemaError = (file: string, issue: SchemaIssue.Issue): WorldError => {
  const first = formatIssue(issue).issues[0];
  const path = (first?.path ?? []).map((k) => (typeof k === "number" ? k : String(k)));
  const message = first?.message ?? "Expected a valid world file";
  const key = path.at(-1);
  if (message === "Missing key" || message.startsWith("Missing key")) {
    const expected = missingKeyExpected(issue, undefined, undefined);
    return worldError({
      file,
      path: formatWorldPath(path),
      problem: `expected ${expected ?? "a value"}, got nothing (the field is required)`,
      fix: "add the field",
    });
  }
  if (message.startsWith("Expected no excess property") || message.startsWith("Unexpected key")) {
    const problem =
      path.length === 1
        ? `expected a world section (${worldSections.join(", ")}), got ${showValue(key)}`
        : `expected no field named ${showValue(key)} here`;
    const known = path.length === 1 ? [...worldSections] : (knownKeys(issue) ?? []);
    const hint = typeof key === "string" ? didYouMean(key, known) : "";
    return worldError({
      file,
      path: formatWorldPath(path),
      problem,
      fix: hint === "" ? "remove it or correct its name" : `${hint} (else remove it)`,
    });
  }
  const problem =
    path.length === 0 && message.startsWith("Expected object")
      ? message.replace("object", "an object of world sections")
      : message;
  return worldError({
    file,
    path: formatWorldPath(path),
    problem: lowerFirst(problem),
    fix: "correct the value",
  });
};

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * What a missing key should have held: walks the issue tree to the `MissingKey`,
 * remembering the struct it was missing from, and describes that field's schema.
 */
const missingKeyExpected = (
  issue: SchemaIssue.Issue,
  parent: SchemaAST.AST | undefined,
  key: PropertyKey | undefined,
): string | undefined => {
  switch (issue._tag) {
    case "MissingKey": {
      if (parent === undefined || !SchemaAST.isObjects(parent)) return undefined;
      const field = parent.propertySignatures.find((p) => p.name === key);
      return field === undefined ? undefined : describe(field.type);
    }
    case "Pointer":
      return missingKeyExpected(issue.issue, parent, issue.path.at(-1));
    case "Filter":
    case "Encoding":
      return missingKeyExpected(issue.issue, parent, key);
    case "Composite":
    case "AnyOf":
      for (const inner of issue.issues) {
        const found = missingKeyExpected(inner, issue.ast, key);
        if (found !== undefined) return found;
      }
      return undefined;
    default:
      return undefined;
  }
};

/** The field names of the struct an unexpected key was found in. */
const knownKeys = (issue: SchemaIssue.Issue): ReadonlyArray<string> | undefined => {
  switch (issue._tag) {
    case "UnexpectedKey":
      return SchemaAST.isObjects(issue.ast)
        ? issue.ast.propertySignatures.map((p) => String(p.name))
        : undefined;
    case "Pointer":
    case "Filter":
    case "Encoding":
      return knownKeys(issue.issue);
    case "Composite":
    case "AnyOf":
      for (const inner of issue.issues) {
        const found = knownKeys(inner);
        if (found !== undefined) return found;
      }
      return undefined;
    default:
      return undefined;
  }
};

/** What a schema expects, in the words its own decoding failure would use. */
const describe = (ast: SchemaAST.AST): string | undefined => {
  const probe = Schema.decodeUnknownResult(Schema.make<Schema.Codec<unknown>>(ast))(
    Symbol.for("missing"),
  );
  if (Result.isSuccess(probe)) return undefined;
  const message = formatIssue(probe.failure.issue).issues[0]?.message;
  return message?.startsWith("Expected ") ? message.slice("Expected ".length) : undefined;
};
