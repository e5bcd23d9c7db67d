/**
 * Baselines as per-case data. Each records its answer, whether it equals the gold, and the id of
 * the rule version that produced it; nothing is ever filtered on them.
 *
 * Backward (over the visible history: the cutoff and its ancestors, merge commits left out):
 * - `recent_1`: the latest commit (highest committer time; ties: git log order);
 * - `bm25_messages`: the commit whose message ranks first for the sanitized report (Okapi BM25);
 * - `bm25_diffs`: the same over each commit's changed paths + unified diff.
 * Forward:
 * - `repo_prior`: the repository prior (the most frequent activated set over one-path changes).
 */
import { sameSet } from '../forward/prior.js';
import { tokenize } from './bm25.js';
import type { RepoHistory } from './history.js';

export const BASELINE_VERSIONS = {
  recent_1: 'recent-1/1',
  bm25_messages: 'bm25-messages/1',
  bm25_diffs: 'bm25-diffs/1',
  repo_prior: 'repo-prior/1',
} as const;

export type BaselineName = keyof typeof BASELINE_VERSIONS;

export interface ShaBaseline {
  /** The baseline's answer (40 hex), null when it has none (no visible commit scores). */
  answer: string | null;
  correct: boolean;
  version: string;
  /** 1-based rank of the gold in the baseline's ordering, null when the gold is not ranked. */
  gold_rank: number | null;
}

export interface BackwardBaselines {
  recent_1: ShaBaseline;
  bm25_messages: ShaBaseline;
  bm25_diffs: ShaBaseline;
}

export interface SetBaseline {
  answer: string[];
  correct: boolean;
  version: string;
}

export interface ForwardBaselines {
  repo_prior: SetBaseline;
}

function shaBaseline(history: RepoHistory, top: number, goldRank: number | null, gold: string, version: string): ShaBaseline {
  const answer = top >= 0 ? history.commits[top]!.sha : null;
  return { answer, correct: answer !== null && answer === gold, version, gold_rank: goldRank };
}

/** Recent-1 over the visible commits: committer time descending, ties in index (git log) order. */
function recent(history: RepoHistory, visible: Uint8Array, goldIdx: number | undefined): { doc: number; targetRank: number | null } {
  const newer = (a: number, b: number): boolean => {
    const ta = history.commits[a]!.time;
    const tb = history.commits[b]!.time;
    return ta > tb || (ta === tb && a < b);
  };
  let best = -1;
  let ahead = 0;
  const goldSeen = goldIdx !== undefined && visible[goldIdx] === 1;
  for (let i = 0; i < visible.length; i += 1) {
    if (visible[i] !== 1) continue;
    if (best < 0 || newer(i, best)) best = i;
    if (goldSeen && i !== goldIdx && newer(i, goldIdx)) ahead += 1;
  }
  return { doc: best, targetRank: goldSeen ? ahead + 1 : null };
}

/**
 * The Backward baselines of one case, or null when its cutoff is not in the history (call
 * `history.ensure(cutoff)` first).
 */
export function backwardBaselines(history: RepoHistory, input: { cutoff: string; gold: string; report: string }): BackwardBaselines | null {
  const visible = history.visibleFrom(input.cutoff);
  if (!visible) return null;
  const query = tokenize(input.report);
  const goldIdx = history.indexOf(input.gold);
  const r = recent(history, visible, goldIdx);
  const m = history.messages.top(query, visible, goldIdx);
  const d = history.diffs.top(query, visible, goldIdx);
  return {
    recent_1: shaBaseline(history, r.doc, r.targetRank, input.gold, BASELINE_VERSIONS.recent_1),
    bm25_messages: shaBaseline(history, m.doc, m.targetRank, input.gold, BASELINE_VERSIONS.bm25_messages),
    bm25_diffs: shaBaseline(history, d.doc, d.targetRank, input.gold, BASELINE_VERSIONS.bm25_diffs),
  };
}

/** The Forward baseline of one case from its repository prior. */
export function forwardBaselines(prior: { workflows: readonly string[] } | null, gold: readonly string[] | null): ForwardBaselines | null {
  if (!prior || !gold) return null;
  const answer = [...prior.workflows].sort();
  return { repo_prior: { answer, correct: sameSet(answer, gold), version: BASELINE_VERSIONS.repo_prior } };
}

/** Accuracy of each baseline over records carrying a `baselines` object: name → [correct, total]. */
export function baselineAccuracy(records: Iterable<{ baselines?: unknown }>): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const r of records) {
    const b = r.baselines;
    if (!b || typeof b !== 'object') continue;
    for (const [name, v] of Object.entries(b as Record<string, { correct?: unknown }>)) {
      const acc = out.get(name) ?? [0, 0];
      acc[1] += 1;
      if (v?.correct === true) acc[0] += 1;
      out.set(name, acc);
    }
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
