/**
 * Candidate pairs: two merged pull requests of one repository, into the same base branch, that
 * were open at the same time (their created→merged intervals overlap) or were merged within
 * `windowDays` of each other. Pure; output-sensitive (sorted sweeps, not all pairs).
 */
export interface PullTimes {
  readonly number: number;
  readonly baseRef: string;
  readonly createdAt: string;
  readonly mergedAt: string | null;
}

export type PairWhy = 'overlap' | 'window' | 'overlap+window';

export interface CandidatePair {
  /** Lower PR number first. */
  readonly a: number;
  readonly b: number;
  readonly why: PairWhy;
}

const DAY_MS = 86_400_000;

interface Span {
  readonly number: number;
  readonly created: number;
  readonly merged: number;
}

/** Every candidate pair, sorted by (a, b). Unmerged PRs and unparsable dates are ignored. */
export function candidatePairs(pulls: readonly PullTimes[], windowDays: number): CandidatePair[] {
  const byBranch = new Map<string, Span[]>();
  for (const p of pulls) {
    if (p.mergedAt === null) continue;
    const created = Date.parse(p.createdAt);
    const merged = Date.parse(p.mergedAt);
    if (!Number.isFinite(created) || !Number.isFinite(merged)) continue;
    const list = byBranch.get(p.baseRef) ?? [];
    list.push({ number: p.number, created, merged: Math.max(created, merged) });
    byBranch.set(p.baseRef, list);
  }
  const found = new Map<string, { a: number; b: number; overlap: boolean; window: boolean }>();
  const mark = (x: number, y: number, kind: 'overlap' | 'window'): void => {
    if (x === y) return;
    const a = Math.min(x, y);
    const b = Math.max(x, y);
    const k = `${a}+${b}`;
    const entry = found.get(k) ?? { a, b, overlap: false, window: false };
    entry[kind] = true;
    found.set(k, entry);
  };
  for (const spans of byBranch.values()) {
    // Overlapping intervals: sweep by creation time, keeping the still-open ones.
    const byCreated = [...spans].sort((x, y) => x.created - y.created || x.number - y.number);
    let open: Span[] = [];
    for (const s of byCreated) {
      open = open.filter((o) => o.merged > s.created);
      for (const o of open) if (o.created < s.merged) mark(o.number, s.number, 'overlap');
      open.push(s);
    }
    // Merged within the window: two pointers over merge times.
    const windowMs = windowDays * DAY_MS;
    const byMerged = [...spans].sort((x, y) => x.merged - y.merged || x.number - y.number);
    for (let i = 0; i < byMerged.length; i += 1) {
      for (let j = i + 1; j < byMerged.length && byMerged[j]!.merged - byMerged[i]!.merged <= windowMs; j += 1) {
        mark(byMerged[i]!.number, byMerged[j]!.number, 'window');
      }
    }
  }
  return [...found.values()]
    .sort((x, y) => x.a - y.a || x.b - y.b)
    .map((e) => ({ a: e.a, b: e.b, why: e.overlap && e.window ? 'overlap+window' : e.overlap ? 'overlap' : 'window' }));
}

/** The naive reference: every pair checked against both conditions (for tests and the benchmark). */
export function candidatePairsNaive(pulls: readonly PullTimes[], windowDays: number): CandidatePair[] {
  const merged = pulls.filter((p) => p.mergedAt !== null);
  const out: CandidatePair[] = [];
  for (let i = 0; i < merged.length; i += 1) {
    for (let j = i + 1; j < merged.length; j += 1) {
      const x = merged[i]!;
      const y = merged[j]!;
      if (x.baseRef !== y.baseRef) continue;
      const xc = Date.parse(x.createdAt);
      const yc = Date.parse(y.createdAt);
      const xm = Math.max(xc, Date.parse(x.mergedAt!));
      const ym = Math.max(yc, Date.parse(y.mergedAt!));
      if (![xc, yc, xm, ym].every(Number.isFinite)) continue;
      const overlap = xc < ym && yc < xm;
      const window = Math.abs(xm - ym) <= windowDays * DAY_MS;
      if (!overlap && !window) continue;
      out.push({
        a: Math.min(x.number, y.number),
        b: Math.max(x.number, y.number),
        why: overlap && window ? 'overlap+window' : overlap ? 'overlap' : 'window',
      });
    }
  }
  return out.sort((x, y) => x.a - y.a || x.b - y.b);
}
