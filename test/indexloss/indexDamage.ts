/**
 * Ways a vector index beside a database gets lost or broken: files deleted (all, one
 * collection's, only the manifests), truncated, emptied, bit-flipped (vectors, rowids,
 * graph), a manifest that is not JSON or names another model, two collections' files
 * swapped, and files left over from an older state of the database. Each is a function
 * of the database path that damages the files in place.
 */
import { existsSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { type CollectionName, collectionNames, indexPaths } from "@hearsay/retrieval";

export interface IndexDamage {
  readonly name: string;
  /** The collections it damages (those the reopen must not just load). */
  readonly hits: ReadonlyArray<CollectionName>;
  readonly apply: (dbPath: string) => void;
  /** Read by native code (USearch): probe it in a child process. */
  readonly native?: boolean;
}

const flip = (path: string, at: (size: number) => number): void => {
  const bytes = readFileSync(path);
  const i = at(bytes.length);
  bytes[i] = bytes[i]! ^ 0x5a;
  writeFileSync(path, bytes);
};

const each = (dbPath: string, f: (p: ReturnType<typeof indexPaths>) => void) => {
  for (const c of collectionNames) f(indexPaths(dbPath, c));
};

/** Damages that need no graph. */
export const indexDamages: ReadonlyArray<IndexDamage> = [
  {
    name: "every file deleted",
    hits: collectionNames,
    apply: (db) =>
      each(db, (p) => {
        for (const f of [p.vectors, p.graph, p.manifest, ...p.segmentFiles()]) {
          rmSync(f, { force: true });
        }
      }),
  },
  {
    name: "the memories vectors deleted",
    hits: ["memories"],
    apply: (db) => rmSync(indexPaths(db, "memories").vectors),
  },
  {
    name: "every manifest deleted",
    hits: collectionNames,
    apply: (db) => each(db, (p) => rmSync(p.manifest)),
  },
  {
    name: "the lore vectors truncated",
    hits: ["lore"],
    apply: (db) => {
      const p = indexPaths(db, "lore").vectors;
      truncateSync(p, Math.floor(readFileSync(p).length / 2));
    },
  },
  {
    name: "the memories vectors emptied",
    hits: ["memories"],
    apply: (db) => writeFileSync(indexPaths(db, "memories").vectors, ""),
  },
  {
    name: "a byte of a memory vector flipped",
    hits: ["memories"],
    apply: (db) => flip(indexPaths(db, "memories").vectors, (n) => n - 7),
  },
  {
    name: "a memory vector overwritten",
    hits: ["memories"],
    apply: (db) => {
      const p = indexPaths(db, "memories").vectors;
      const bytes = readFileSync(p);
      const dims = bytes.readUInt32LE(8);
      const used = bytes.readUInt32LE(12);
      // The file is a 32-byte header, rowids and fingerprints (4 bytes each), then vectors.
      const first = 32 + used * 8;
      for (let i = 0; i < dims; i++) bytes.writeFloatLE(i % 2 === 0 ? 0.5 : -0.5, first + i * 4);
      writeFileSync(p, bytes);
    },
  },
  {
    name: "a byte of the lore rowids flipped",
    hits: ["lore"],
    apply: (db) => flip(indexPaths(db, "lore").vectors, () => 33),
  },
  {
    name: "the world events manifest is not JSON",
    hits: ["world_events"],
    apply: (db) => writeFileSync(indexPaths(db, "world_events").manifest, "{ not json"),
  },
  {
    name: "the memories manifest names another model",
    hits: ["memories"],
    apply: (db) => {
      const p = indexPaths(db, "memories").manifest;
      const m = JSON.parse(readFileSync(p, "utf8")) as Record<string, unknown>;
      writeFileSync(p, JSON.stringify({ ...m, model: "nomic-embed-text" }));
    },
  },
  {
    name: "memories and lore files swapped",
    hits: ["memories", "lore"],
    apply: (db) => {
      const a = indexPaths(db, "memories");
      const b = indexPaths(db, "lore");
      for (const k of ["vectors", "manifest"] as const) {
        renameSync(a[k], `${a[k]}.swap`);
        renameSync(b[k], a[k]);
        renameSync(`${a[k]}.swap`, b[k]);
      }
    },
  },
];

/** The first saved HNSW graph segment file of the memories. */
const firstGraph = (db: string): string => {
  const files = indexPaths(db, "memories").segmentFiles().sort();
  if (files.length === 0) throw new Error(`no memories graph saved beside ${db}`);
  return files[0]!;
};

/** Damages to an HNSW graph segment file (only when one is saved). */
export const graphDamages: ReadonlyArray<IndexDamage> = [
  {
    name: "the memories graph deleted",
    hits: [],
    apply: (db) => rmSync(firstGraph(db)),
  },
  {
    name: "the memories graph truncated",
    hits: [],
    native: true,
    apply: (db) => {
      const p = firstGraph(db);
      truncateSync(p, Math.floor(readFileSync(p).length / 3));
    },
  },
  {
    name: "the memories graph overwritten with garbage",
    hits: [],
    native: true,
    apply: (db) => {
      const p = firstGraph(db);
      writeFileSync(p, Buffer.alloc(readFileSync(p).length, 0xab));
    },
  },
];

/** True when every collection has its files (a saved index). */
export const indexSaved = (dbPath: string): boolean =>
  collectionNames.every((c) => {
    const p = indexPaths(dbPath, c);
    return existsSync(p.vectors) && existsSync(p.manifest);
  });
