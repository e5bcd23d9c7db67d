/**
 * Okapi BM25 over an append-only inverted index. Pure and deterministic.
 *
 * score(d, q) = Σ over distinct query terms t of
 *   idf(t) · tf(t, d) · (k1 + 1) / (tf(t, d) + k1 · (1 − b + b · |d| / avgdl))
 * with k1 = 1.2, b = 0.75 and idf(t) = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5)) (the
 * non-negative form used by Lucene). N, avgdl and df(t) are computed over the documents a query
 * may see (its `visible` set), so one index built for a whole repository answers every case as
 * if it had been built on that case's visible history alone. Ties in score go to the document
 * added first; documents scoring 0 are not ranked.
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** Tokens longer than this are dropped (hashes, base64 blobs, minified lines). */
const MAX_TOKEN = 40;
const SPLIT = /[^\p{L}\p{N}]+/u;
const HAS_LETTER = /\p{L}/u;

/**
 * Lower-cases and splits on anything that is not a letter or a digit; keeps tokens of 2 to 40
 * characters holding at least one letter (bare numbers such as line numbers are noise).
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(SPLIT)) {
    if (raw.length < 2 || raw.length > MAX_TOKEN || !HAS_LETTER.test(raw)) continue;
    out.push(raw);
  }
  return out;
}

interface Posting {
  docs: number[];
  tfs: number[];
}

export interface Ranked {
  readonly doc: number;
  readonly score: number;
}

export class Bm25Index {
  private readonly postings = new Map<string, Posting>();
  private readonly lengths: number[] = [];

  get size(): number {
    return this.lengths.length;
  }

  /** Adds a document; returns its id (0, 1, 2, … in the order of addition). */
  add(tokens: readonly string[]): number {
    const doc = this.lengths.length;
    this.lengths.push(tokens.length);
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      let p = this.postings.get(t);
      if (!p) {
        p = { docs: [], tfs: [] };
        this.postings.set(t, p);
      }
      p.docs.push(doc);
      p.tfs.push(n);
    }
    return doc;
  }

  /** Scores of every document for `query` (0 for the invisible and the unmatched), and the matched ones. */
  private score(query: readonly string[], visible: Uint8Array | null): { scores: Float64Array; touched: number[] } {
    const scores = new Float64Array(this.lengths.length);
    const touched: number[] = [];
    const seen = (doc: number): boolean => visible === null || visible[doc] === 1;
    let n = 0;
    let total = 0;
    for (let d = 0; d < this.lengths.length; d += 1) {
      if (!seen(d)) continue;
      n += 1;
      total += this.lengths[d]!;
    }
    if (n === 0) return { scores, touched };
    const avgdl = total / n || 1;
    for (const term of new Set(query)) {
      const p = this.postings.get(term);
      if (!p) continue;
      let df = 0;
      for (const d of p.docs) if (seen(d)) df += 1;
      if (df === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < p.docs.length; i += 1) {
        const d = p.docs[i]!;
        if (!seen(d)) continue;
        const tf = p.tfs[i]!;
        if (scores[d] === 0) touched.push(d);
        scores[d] = scores[d]! + (idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * this.lengths[d]!) / avgdl));
      }
    }
    return { scores, touched };
  }

  /**
   * The visible documents with a positive score for `query`, best first (ties: lower id first).
   * `visible[doc] === 1` marks a document the query may see; null means every document.
   */
  rank(query: readonly string[], visible: Uint8Array | null = null): Ranked[] {
    const { scores, touched } = this.score(query, visible);
    return touched
      .filter((d) => scores[d]! > 0)
      .map((doc) => ({ doc, score: scores[doc]! }))
      .sort((a, b) => b.score - a.score || a.doc - b.doc);
  }

  /**
   * What a baseline needs without sorting: the first document of `rank` (-1 when none scores) and
   * the 1-based rank of `target` in it (null when it does not score). Same order as `rank`.
   */
  top(query: readonly string[], visible: Uint8Array | null, target: number | undefined): { doc: number; targetRank: number | null } {
    const { scores, touched } = this.score(query, visible);
    let best = -1;
    for (const d of touched) {
      const s = scores[d]!;
      if (s > 0 && (best < 0 || s > scores[best]! || (s === scores[best]! && d < best))) best = d;
    }
    if (target === undefined || !(scores[target]! > 0)) return { doc: best, targetRank: null };
    const t = scores[target]!;
    let ahead = 0;
    for (const d of touched) {
      const s = scores[d]!;
      if (s > t || (s === t && d < target)) ahead += 1;
    }
    return { doc: best, targetRank: ahead + 1 };
  }
}
