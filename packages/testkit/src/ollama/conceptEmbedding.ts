/**
 * A deterministic embedding model for the fixture server, fitted on a corpus the test or
 * bench hands it (the world's lore, say): latent semantic analysis — TF-IDF over light
 * stems, a truncated SVD of the term-document matrix (ml-matrix), texts folded into its
 * concept space — next to a TF-IDF bag of stems hashed into the remaining dimensions. It
 * stands in for a real embedding model where none can be downloaded: words that occur
 * in the same passages land near each other, and rare words weigh more than common
 * ones, which the hashing embedder cannot do. Same corpus, same vectors, everywhere.
 */
import { stemWord } from "@hearsay/core";
import { EigenvalueDecomposition, Matrix } from "ml-matrix";

const STOP = new Set(
  "the a an and or but of to in on at by for with from as is are was were be been being it its this that these those he she they them his her their we you i me my our your not no so if then than there here who whom which what when where why how all any some each do does did done has have had will would can could shall should may might must into onto over under about after before again also just only very more most much many such own same too up down out off once while".split(
    " ",
  ),
);

const stem = stemWord;

/** Content stems of a text, in order. */
export const conceptTerms = (text: string): Array<string> =>
  (text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [])
    .filter((w) => w.length > 2 && !STOP.has(w))
    .map(stem);

const fnv = (s: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
};

const counts = (terms: ReadonlyArray<string>): Map<string, number> => {
  const m = new Map<string, number>();
  for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
};

const unit = (v: Array<number>): Array<number> => {
  const n = Math.hypot(...v);
  return n === 0 ? v : v.map((x) => x / n);
};

export interface ConceptModel {
  readonly dimensions: number;
  embed(text: string): Array<number>;
}

/**
 * Fits the model on `corpus`: `concepts` of the `dimensions` are the SVD's leading
 * concepts, the rest a hashed TF-IDF bag of stems.
 */
export const fitConceptModel = (
  corpus: ReadonlyArray<string>,
  dimensions: number,
  concepts = 64,
): ConceptModel => {
  const docs = corpus.map((d) => counts(conceptTerms(d)));
  const n = docs.length;
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => Math.log((n + 1) / ((df.get(t) ?? 0) + 1)) + 1;
  const weigh = (c: Map<string, number>): Map<string, number> => {
    const out = new Map<string, number>();
    let norm = 0;
    for (const [t, k] of c) {
      const w = (1 + Math.log(k)) * idf(t);
      out.set(t, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [t, w] of out) out.set(t, w / norm);
    return out;
  };
  const weighted = docs.map(weigh);
  const dot = (a: Map<string, number>, b: Map<string, number>) => {
    let s = 0;
    const [small, big] = a.size < b.size ? [a, b] : [b, a];
    for (const [t, w] of small) s += w * (big.get(t) ?? 0);
    return s;
  };
  // The Gram matrix of the documents gives the right singular vectors (its eigenvectors)
  // and the singular values (square roots of its eigenvalues) of the term-document matrix.
  const k = Math.max(0, Math.min(concepts, n - 1, dimensions - 8));
  let basis: Array<{ readonly sigma: number; readonly v: Array<number> }> = [];
  if (k > 0) {
    const gram = new Matrix(n, n);
    for (let i = 0; i < n; i++) {
      for (let j = i; j < n; j++) {
        const g = dot(weighted[i]!, weighted[j]!);
        gram.set(i, j, g);
        gram.set(j, i, g);
      }
    }
    const evd = new EigenvalueDecomposition(gram, { assumeSymmetric: true });
    const values = evd.realEigenvalues;
    const vectors = evd.eigenvectorMatrix;
    basis = values
      .map((value, i) => ({ value, i }))
      .sort((a, b) => b.value - a.value || a.i - b.i)
      .slice(0, k)
      .filter((e) => e.value > 1e-9)
      .map((e) => {
        const v = vectors.getColumn(e.i);
        // Fix each eigenvector's sign so the model does not depend on the solver's choice.
        const lead = v.reduce((m, x) => (Math.abs(x) > Math.abs(m) ? x : m), 0);
        return { sigma: Math.sqrt(e.value), v: lead < 0 ? v.map((x) => -x) : v };
      });
  }
  const lexical = dimensions - basis.length;
  return {
    dimensions,
    embed: (text) => {
      const q = weigh(counts(conceptTerms(text)));
      const toDocs = weighted.map((d) => dot(d, q));
      // Fold-in: the text's coordinates on each concept, weighted by its singular value.
      const latent = basis.map(({ sigma, v }) => {
        let s = 0;
        for (let d = 0; d < n; d++) s += v[d]! * toDocs[d]!;
        return s / Math.sqrt(sigma);
      });
      const bag = new Array<number>(lexical).fill(0);
      for (const [t, w] of q) {
        const h = fnv(t);
        bag[h % lexical]! += (h & 0x80000000) === 0 ? w : -w;
      }
      const a = unit(latent).map((x) => x * 0.6);
      const b = unit(bag).map((x) => x * 0.8);
      return unit([...a, ...b]);
    },
  };
};
