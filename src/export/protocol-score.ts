/**
 * Scoring under the evaluation protocol: exact match per case (score.ts), then the metrics of
 * metrics.ts over the manifest's cases (strata from the records' labels, clusters by repository),
 * Forward paired states (Pair Exact, Invariance Error), and the recorded baselines scored like a
 * model's predictions.
 */
import { UsageError } from '../errors.js';
import type { ForwardPairRecord } from './forward-pairs.js';
import { computeMetrics, computePairMetrics, type BootstrapOptions, type Metrics, type PairMetrics, type ScoredCase, type ScoredPair } from './metrics.js';
import { pairedCaseId } from '../forward/paired-states.js';
import type { ManifestRecord } from './read-manifest.js';
import { scorePredictions, workflowsProblem, type GoldEntry, type PredictionLine, type ScoreReport } from './score.js';

/** Baselines a manifest record can carry, by the name `r2v score --baseline` takes. */
export const BASELINES = ['recent-1', 'bm25-msg', 'bm25-diff', 'repo-prior'] as const;
export type BaselineName = (typeof BASELINES)[number];

/** The key of each baseline in a record's `baselines` object. */
export const BASELINE_KEYS: Record<BaselineName, string> = {
  'recent-1': 'recent_1',
  'bm25-msg': 'bm25_messages',
  'bm25-diff': 'bm25_diffs',
  'repo-prior': 'repo_prior',
};

/** The recorded answer of a baseline in a record (`found` false when the record has none). */
export function baselineAnswer(record: ManifestRecord, name: BaselineName): { found: boolean; answer: unknown } {
  const all = (record as { baselines?: unknown }).baselines;
  if (!all || typeof all !== 'object') return { found: false, answer: undefined };
  const entry = (all as Record<string, unknown>)[BASELINE_KEYS[name]];
  if (entry && typeof entry === 'object' && 'answer' in entry) return { found: true, answer: (entry as { answer: unknown }).answer };
  return { found: false, answer: undefined };
}

/** Prediction lines made of a baseline's recorded answers; a record without the baseline is a usage error. */
export function baselinePredictions(records: readonly ManifestRecord[], name: BaselineName, manifest: string): PredictionLine[] {
  return records.map((r, i) => {
    const { found, answer } = baselineAnswer(r, name);
    if (!found) throw new UsageError(`${manifest}: case ${r.case_id} records no ${name} baseline`);
    return { lineNumber: i + 1, value: r.task === 'backward' ? { case_id: r.case_id, sha: answer } : { case_id: r.case_id, activated_workflows: answer } };
  });
}

function labelValue(labels: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const k of keys) {
    const v = labels[k];
    if (typeof v === 'string') return v;
    if (v && typeof v === 'object' && typeof (v as { value?: unknown }).value === 'string') return (v as { value: string }).value;
  }
  return null;
}

/** `direct/local`-style stratum of a record from its difficulty labels; `unlabelled` without them. */
export function stratumOf(record: ManifestRecord): string {
  const labels = (record as { labels?: unknown }).labels;
  if (!labels || typeof labels !== 'object') return 'unlabelled';
  const l = labels as Record<string, unknown>;
  // Backward: staging + locality; Forward: staging + scope (Local/Cross of Δ*).
  const ds = labelValue(l, ['staging']);
  const lc = labelValue(l, ['locality', 'scope']);
  if (ds === null && lc === null) return 'unlabelled';
  return `${ds ?? 'unlabelled'}/${lc ?? 'unlabelled'}`;
}

export interface ProtocolScore {
  readonly report: ScoreReport;
  readonly metrics: Metrics;
  readonly pairs: PairMetrics | null;
}

/**
 * Scores `lines` against `records` and, with `pairs`, against the paired states (predictions for
 * a paired state use the case id `<case_id>__paired`). Paired states are scored apart: they are
 * not in the accuracy of the manifest's cases.
 */
export function protocolScore(
  records: readonly ManifestRecord[],
  lines: readonly PredictionLine[],
  pairs: readonly ForwardPairRecord[] | null,
  bootstrap: BootstrapOptions,
): ProtocolScore {
  const byId = new Map(records.map((r) => [r.case_id, r]));
  const golds: GoldEntry[] = records.map((r) => ({ caseId: r.case_id, task: r.task, gold: r.gold }));
  const paired = (pairs ?? []).filter((p) => p.status === 'paired' && byId.has(p.case_id));
  const pairedGolds: GoldEntry[] = paired.map((p) => ({ caseId: pairedCaseId(p.case_id), task: 'forward', gold: p.paired_gold ?? [] }));
  const combined = scorePredictions([...golds, ...pairedGolds], lines);
  const pairedIds = new Set(pairedGolds.map((g) => g.caseId));
  const mainCases = combined.cases.filter((c) => !pairedIds.has(c.caseId));
  const report: ScoreReport = {
    cases: mainCases,
    correct: mainCases.filter((c) => c.score === 1).length,
    total: mainCases.length,
    notes: combined.notes,
  };
  const scored: ScoredCase[] = mainCases.map((c) => {
    const r = byId.get(c.caseId)!;
    return { caseId: c.caseId, repo: r.repo, correct: c.score === 1, stratum: stratumOf(r) };
  });
  let pairMetrics: PairMetrics | null = null;
  if (pairs) {
    const result = new Map(combined.cases.map((c) => [c.caseId, c.score === 1]));
    const first = new Map<string, unknown>();
    for (const l of lines) {
      const v = l.value as { case_id?: unknown; activated_workflows?: unknown } | undefined;
      if (l.error === undefined && v && typeof v === 'object' && typeof v.case_id === 'string' && !first.has(v.case_id)) first.set(v.case_id, v.activated_workflows);
    }
    const same = (a: unknown, b: unknown): boolean => {
      if (workflowsProblem(a) !== null || workflowsProblem(b) !== null) return false;
      const x = [...(a as string[])].sort();
      const y = [...(b as string[])].sort();
      return x.length === y.length && x.every((v, i) => v === y[i]);
    };
    const scoredPairs: ScoredPair[] = paired.map((p) => ({
      caseId: p.case_id,
      repo: p.repo,
      correct: result.get(p.case_id) ?? false,
      pairedCorrect: result.get(pairedCaseId(p.case_id)) ?? false,
      sameAnswer: same(first.get(p.case_id), first.get(pairedCaseId(p.case_id))),
    }));
    pairMetrics = computePairMetrics(scoredPairs);
  }
  return { report, metrics: computeMetrics(scored, bootstrap), pairs: pairMetrics };
}
