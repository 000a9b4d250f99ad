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

/** An empty graph of `dimensions`-d vectors. */
export const newGraph = (dimensions: number, tuning: GraphTuning): Index =>
  new usearch.Index({
    dimensions,
    metric: usearch.MetricKind.Cos,
    quantization: usearch.ScalarKind.I8,
    connectivity: tuning.connectivity,
    expansion_add: tuning.expansionAdd,
    expansion_search: tuning.expansionSearch,
    multi: false,
  });
