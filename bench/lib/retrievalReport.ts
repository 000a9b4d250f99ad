/**
 * The retrieval bench's report: the summary table (wall time), the same in CPU time, and
 * one table per size by known-set tier — where the slow queries come from.
 */
import { loadavg } from "node:os";
import { printTable } from "./printTable.ts";
import type { SizeResult } from "./retrievalRun.ts";

const f = (x: number) => Math.round(x * 1000) / 1000;

/** Prints every table for the given results. */
export const printRetrievalReport = (
  results: ReadonlyArray<SizeResult>,
  NPCS: number,
  QUERIES: number,
): void => {
  printTable(
    `retrieval: ${NPCS} NPCs, ${QUERIES} queries each, hashing 384-d, latencies in ms (load avg ${loadavg()[0]!.toFixed(1)})`,
    [
      "memories",
      "facts",
      "vector p50",
      "vector p99",
      "search p50",
      "search p99",
      "dossier p50",
      "dossier p99",
      "brute p50",
      "speedup",
      "native scan p50",
      "speedup vs scan",
      "recall@10",
      "leaks",
      "B/mem files",
      "B/mem view",
      "index build s",
    ],
    results.map((r) => [
      r.memories,
      r.facts,
      f(r.vectorMs.p50),
      f(r.vectorMs.p99),
      f(r.searchMs.p50),
      f(r.searchMs.p99),
      f(r.dossierMs.p50),
      f(r.dossierMs.p99),
      f(r.bruteMs.p50),
      Math.round(r.speedupVsBrute * 10) / 10,
      f(r.scanMs.p50),
      Math.round(r.speedupVsNativeScan * 10) / 10,
      f(r.recallAt10),
      r.leaks,
      r.bytesPerMemory.vectorFiles,
      r.bytesPerMemory.viewHeap,
      Math.round(r.indexBuildMs / 100) / 10,
    ]),
  );
  printTable(
    "the same, CPU time of this process per call (ms; less disturbed by other load)",
    [
      "memories",
      "vector p50",
      "vector p99",
      "search p50",
      "search p99",
      "dossier p50",
      "dossier p99",
      "brute p50",
      "speedup (cpu)",
    ],
    results.map((r) => [
      r.memories,
      f(r.cpuMs.vector.p50),
      f(r.cpuMs.vector.p99),
      f(r.cpuMs.search.p50),
      f(r.cpuMs.search.p99),
      f(r.cpuMs.dossier.p50),
      f(r.cpuMs.dossier.p99),
      f(r.cpuMs.brute.p50),
      Math.round((r.cpuMs.brute.p50 / Math.max(1e-6, r.cpuMs.vector.p50)) * 10) / 10,
    ]),
  );
  printTable(
    "search memory per memory (bytes; vectors, HNSW graphs, per-NPC copies) and hnswlib-node's filtered HNSW on the same data and queries",
    [
      "memories",
      "B vectors",
      "B graph",
      "B copies",
      "B total",
      "segments",
      "ours vector p50",
      "ours vector p99",
      "ours recall",
      "peer p50",
      "peer p99",
      "peer recall",
      "peer ef",
      "peer rows / queries",
      "peer build s",
      "speedup p50",
      "build s",
      "build floor s",
    ],
    results.map((r) => [
      r.memories,
      r.searchBytesPerMemory.vectors,
      r.searchBytesPerMemory.graph,
      r.searchBytesPerMemory.perNpcCopies,
      r.searchBytesPerMemory.total,
      r.graphSegments,
      f(r.vectorMs.p50),
      f(r.vectorMs.p99),
      f(r.recallAt10),
      r.peer ? f(r.peer.vectorMs.p50) : "-",
      r.peer ? f(r.peer.vectorMs.p99) : "-",
      r.peer ? f(r.peer.recallAt10) : "-",
      r.peer ? r.peer.ef : "-",
      r.peer ? `${r.peer.indexed} / ${r.peer.asked}` : "-",
      r.peer
        ? `${Math.round(r.peer.buildMs / 100) / 10} (cpu ${Math.round(r.peer.buildCpuMs / 100) / 10})${r.peer.loaded ? ", saved index read" : ""}`
        : "-",
      r.peer ? Math.round((r.peer.vectorMs.p50 / Math.max(1e-6, r.vectorMs.p50)) * 10) / 10 : "-",
      Math.round(r.indexBuildMs / 100) / 10,
      Math.round(r.buildFloor.graphMsForAll / 100) / 10,
    ]),
  );
  for (const r of results) {
    printTable(
      `by known-set size, ${r.memories} memories`,
      [
        "tier",
        "npcs",
        "known median",
        "known max",
        "vector p50",
        "vector p99",
        "dossier p50",
        "dossier p99",
        "dossier cpu p50",
        "dossier cpu p99",
        "recall@10",
      ],
      r.tiers.map((t) => [
        t.tier,
        t.npcs,
        t.knownMedian,
        t.knownMax,
        f(t.vectorP50),
        f(t.vectorP99),
        f(t.dossierP50),
        f(t.dossierP99),
        f(t.dossierCpuP50),
        f(t.dossierCpuP99),
        f(t.recall),
      ]),
    );
  }
};
