/**
 * The one shape of HNSW graph retrieval keeps: cosine over i8-quantised vectors, one
 * vector per key, tuned by connectivity and the two expansion factors.
 */
import usearch, { type Index } from "usearch";

/** How a graph is built and searched. */
export interface GraphTuning {
  readonly connectivity: number;
  readonly expansionAdd: number;
  readonly expansionSearch: number;
}

/**
 * The options a graph is made with, as plain data: the graph-building worker makes its
 * indexes from exactly these, so a graph built there is the graph built here.
 */
export const graphOptions = (dimensions: number, tuning: GraphTuning) => ({
  dimensions,
  metric: usearch.MetricKind.Cos,
  quantization: usearch.ScalarKind.I8,
  connectivity: tuning.connectivity,
  expansion_add: tuning.expansionAdd,
  expansion_search: tuning.expansionSearch,
  multi: false,
});

/** An empty graph of `dimensions`-d vectors. */
export const newGraph = (dimensions: number, tuning: GraphTuning): Index =>
  new usearch.Index(graphOptions(dimensions, tuning));

/** Rows added to a graph per `add` call while building one. */
export const GRAPH_ADD_BATCH = 4096;

/**
 * A fresh graph over `rowids` (ascending), built single-threaded in that order: two
 * builds of the same rows give the same graph.
 */
export const buildGraph = (
  dimensions: number,
  tuning: GraphTuning,
  rowids: Float64Array,
  vectorsOf: (rowids: Float64Array) => Float32Array,
): Index => {
  const graph = newGraph(dimensions, tuning);
  for (let i = 0; i < rowids.length; i += GRAPH_ADD_BATCH) {
    const keys = rowids.subarray(i, Math.min(rowids.length, i + GRAPH_ADD_BATCH));
    graph.add(BigUint64Array.from(keys, BigInt), vectorsOf(keys), 1);
  }
  return graph;
};
