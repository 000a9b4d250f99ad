/**
 * A save hashes only the f16 rows after those its store's file already held, while none
 * of those was written again (`VectorFiles`' `hashedRows`): whatever the store went
 * through between saves and loads, the manifest's data hash is the hash of the file's
 * f16 rows, and the files load.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { indexPaths, loadVectorFiles, saveVectorFiles, VectorStore } from "@hearsay/retrieval";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

const D = 8;
const dir = mkdtempSync(join(tmpdir(), "hearsay-savedhash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A unit vector of D floats from a seed. */
const vector = (seed: number): Float32Array => {
  const v = Float32Array.from({ length: D }, (_, i) => Math.sin(seed * 7.1 + i * 1.3));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

/** The SHA-1 of a vectors file's f16 rows: its last `used` × D × 2 bytes. */
const f16Hash = (path: string): string => {
  const bytes = readFileSync(path);
  const used = bytes.readUInt32LE(12);
  return createHash("sha1")
    .update(bytes.subarray(bytes.length - used * D * 2))
    .digest("hex");
};

type Op =
  | { readonly op: "put"; readonly rowid: number; readonly seed: number }
  | { readonly op: "remove"; readonly rowid: number }
  | { readonly op: "save" }
  | { readonly op: "load" };

const arbOp: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant("put" as const),
      rowid: fc.integer({ min: 1, max: 40 }),
      seed: fc.nat(5),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("remove" as const),
      rowid: fc.integer({ min: 1, max: 40 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ op: "save" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "load" as const }) },
);

describe("a save's data hash", () => {
  it("property: is the hash of the file's f16 rows through puts, replacements, removals, saves and loads", () => {
    let run = 0;
    fc.assert(
      fc.property(fc.array(arbOp, { minLength: 1, maxLength: 40 }), (ops) => {
        const paths = indexPaths(join(dir, `r${run++}.db`), "memories");
        const config = { dimensions: D, graph: false };
        const meta = { collection: "memories", model: "test" };
        let store = new VectorStore(config);
        for (const o of ops) {
          if (o.op === "put") store.put([o.rowid], [o.seed], vector(o.seed), false);
          else if (o.op === "remove") store.remove([o.rowid]);
          else if (o.op === "save") {
            const manifest = saveVectorFiles(store, paths, meta);
            expect(manifest.dataHash).toBe(f16Hash(paths.vectors));
          } else {
            const loaded = loadVectorFiles(paths, meta, config);
            if (!loaded.ok) continue; // nothing saved yet
            store.close();
            store = loaded.store;
          }
        }
        const manifest = saveVectorFiles(store, paths, meta);
        expect(manifest.dataHash).toBe(f16Hash(paths.vectors));
        const loaded = loadVectorFiles(paths, meta, config);
        expect(loaded.ok).toBe(true);
        store.close();
        if (loaded.ok) loaded.store.close();
      }),
      { numRuns: 60 },
    );
  });
});
