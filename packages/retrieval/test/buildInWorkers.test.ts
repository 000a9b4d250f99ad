import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeHashingEmbedder } from "@hearsay/retrieval";
import { afterAll, describe, expect, it } from "vitest";
import { buildInWorkers } from "../src/buildInWorkers.ts";
import { toHalf } from "../src/halfFloat.ts";
import { buildGraph } from "../src/newGraph.ts";
import { Prng, sentence } from "./fixtures.ts";

const embedder = makeHashingEmbedder({ dimensions: 48 });
const d = embedder.dimensions;
const p = Prng.derive(9, "workers");
const N = 3000;
const half = new Uint16Array(N * d);
for (let r = 0; r < N; r++) {
  const v = embedder.embedSync!(sentence(p, r % 7));
  for (let x = 0; x < d; x++) half[r * d + x] = toHalf(v[x]!);
}
const rows = {
  halvesOf: (rowids: Float64Array) => {
    const out = new Uint16Array(rowids.length * d);
    rowids.forEach((r, j) => {
      out.set(half.subarray(r * d, (r + 1) * d), j * d);
    });
    return out;
  },
  vectorsOf: (rowids: Float64Array) => {
    const out = new Float32Array(rowids.length * d);
    rowids.forEach((r, j) => {
      for (let x = 0; x < d; x++) {
        const h = half[r * d + x]!;
        // The same decoding as the store's table, written out.
        const e = (h >>> 10) & 0x1f;
        const m = h & 0x3ff;
        const s = h & 0x8000 ? -1 : 1;
        out[j * d + x] = e === 0 ? s * m * 2 ** -24 : s * (1 + m / 1024) * 2 ** (e - 15);
      }
    });
    return out;
  },
};
const tuning = { connectivity: 8, expansionAdd: 24, expansionSearch: 16 };
const dir = mkdtempSync(join(tmpdir(), "hearsay-workers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bytes = (g: ReturnType<typeof buildGraph>, name: string) => {
  const path = join(dir, name);
  g.save(path);
  return readFileSync(path);
};

describe("buildInWorkers", () => {
  it("builds, over several threads, the very graphs one thread builds", () => {
    // Segments of uneven sizes, so each thread gets a different share.
    const cuts = [0, 1700, 2400, 2700, 2900, N];
    const jobs = cuts
      .slice(1)
      .map((hi, i) => Float64Array.from({ length: hi - cuts[i]! }, (_, j) => cuts[i]! + j));
    const alone = jobs.map((j) => buildGraph(d, tuning, j, rows.vectorsOf));
    for (const threads of [2, 3]) {
      const { graphs: shared, byWorkers } = buildInWorkers(d, tuning, jobs, rows, threads);
      // The largest job stays on this thread; every other bin went to a worker.
      expect(byWorkers).toBe(4);
      expect(shared.map((g) => g.size())).toEqual(jobs.map((j) => j.length));
      shared.forEach((g, i) => {
        expect(bytes(g, `t${threads}-${i}`).equals(bytes(alone[i]!, `a-${i}`))).toBe(true);
      });
    }
  }, 60_000);
});
