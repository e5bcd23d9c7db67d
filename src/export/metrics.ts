/**
 * The evaluation protocol's metrics over scored cases: accuracy overall and by label stratum,
 * repository-macro accuracy, the leave-one-repository-out range, 95% confidence intervals by a
 * repository-clustered bootstrap, and for Forward paired states Pair Exact and Invariance Error.
 * Pure and deterministic: the bootstrap draws from a seeded generator, so one seed gives one
 * answer on every machine.
 */
import { seededRandom } from '../util/random.js';

/** One scored case, with what the metrics group it by. */
export interface ScoredCase {
  readonly caseId: string;
  readonly repo: string;
  readonly correct: boolean;
  /** Stratum name, e.g. `direct/local`; `unlabelled` when the record carries no labels. */
  readonly stratum: string;
}

export interface Interval {
  readonly low: number;
  readonly high: number;
}

export interface BootstrapOptions {
  /** Number of resamples (default 10,000). */
  readonly resamples: number;
  /** Seed of the generator (default 1). */
  readonly seed: number;
  /** Two-sided level (default 0.95). */
  readonly level: number;
}

export const DEFAULT_BOOTSTRAP: BootstrapOptions = { resamples: 10_000, seed: 1, level: 0.95 };

export interface GroupAccuracy {
  readonly name: string;
  readonly correct: number;
  readonly total: number;
  readonly accuracy: number;
}

export interface Metrics {
  readonly total: number;
  readonly correct: number;
  readonly accuracy: number;
  /** Clustered bootstrap interval of the overall accuracy; null without cases. */
  readonly accuracy_ci: Interval | null;
  readonly strata: GroupAccuracy[];
  readonly repos: GroupAccuracy[];
  /** Mean over repositories of each repository's accuracy. */
  readonly repo_macro: number;
  readonly repo_macro_ci: Interval | null;
  /** Overall accuracy with one repository left out: the lowest and highest over all repositories (null with fewer than 2). */
  readonly leave_one_repo_out: { readonly min: number; readonly min_without: string; readonly max: number; readonly max_without: string } | null;
  readonly bootstrap: { readonly resamples: number; readonly seed: number; readonly level: number; readonly unit: 'repository' };
}

const ratio = (a: number, b: number): number => (b === 0 ? 0 : a / b);

function byKey(cases: readonly ScoredCase[], key: (c: ScoredCase) => string): GroupAccuracy[] {
  const m = new Map<string, { correct: number; total: number }>();
  for (const c of cases) {
    const g = m.get(key(c)) ?? { correct: 0, total: 0 };
    g.total += 1;
    if (c.correct) g.correct += 1;
    m.set(key(c), g);
  }
  return [...m.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, g]) => ({ name, correct: g.correct, total: g.total, accuracy: ratio(g.correct, g.total) }));
}

/**
 * The q-quantile of sorted values by linear interpolation between closest ranks (Hyndman & Fan
 * type 7, the default of R and numpy): position q·(n−1).
 */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * Repository-clustered bootstrap: each resample draws as many repositories as there are, with
 * replacement, and takes all their cases; `stat` is computed on the per-repository totals drawn.
 * Returns the percentile interval at `level`. Repositories are drawn in name order from the
 * seeded generator, so the result depends only on the data and the options.
 */
export function clusteredBootstrap(
  repos: readonly GroupAccuracy[],
  stat: (drawn: readonly GroupAccuracy[]) => number,
  opts: BootstrapOptions,
): Interval | null {
  if (repos.length === 0) return null;
  const next = seededRandom(opts.seed);
  const values = new Float64Array(opts.resamples);
  const drawn: GroupAccuracy[] = new Array<GroupAccuracy>(repos.length);
  for (let b = 0; b < opts.resamples; b++) {
    for (let i = 0; i < repos.length; i++) drawn[i] = repos[Math.floor(next() * repos.length)]!;
    values[b] = stat(drawn);
  }
  const sorted = [...values].sort((x, y) => x - y);
  const tail = (1 - opts.level) / 2;
  return { low: quantile(sorted, tail), high: quantile(sorted, 1 - tail) };
}

const micro = (groups: readonly GroupAccuracy[]): number => {
  let c = 0;
  let t = 0;
  for (const g of groups) {
    c += g.correct;
    t += g.total;
  }
  return ratio(c, t);
};

const macro = (groups: readonly GroupAccuracy[]): number => ratio(groups.reduce((s, g) => s + g.accuracy, 0), groups.length);

export function computeMetrics(cases: readonly ScoredCase[], opts: BootstrapOptions = DEFAULT_BOOTSTRAP): Metrics {
  if (!Number.isInteger(opts.resamples) || opts.resamples < 1) throw new RangeError(`bootstrap resamples must be a positive integer, got ${opts.resamples}`);
  if (!(opts.level > 0 && opts.level < 1)) throw new RangeError(`bootstrap level must be between 0 and 1, got ${opts.level}`);
  const correct = cases.filter((c) => c.correct).length;
  const repos = byKey(cases, (c) => c.repo);
  let loo: Metrics['leave_one_repo_out'] = null;
  if (repos.length >= 2) {
    const scored = repos.map((r) => ({ without: r.name, accuracy: ratio(correct - r.correct, cases.length - r.total) }));
    // Ties keep the first repository in name order.
    const min = scored.reduce((a, b) => (b.accuracy < a.accuracy ? b : a));
    const max = scored.reduce((a, b) => (b.accuracy > a.accuracy ? b : a));
    loo = { min: min.accuracy, min_without: min.without, max: max.accuracy, max_without: max.without };
  }
  return {
    total: cases.length,
    correct,
    accuracy: ratio(correct, cases.length),
    accuracy_ci: clusteredBootstrap(repos, micro, opts),
    strata: byKey(cases, (c) => c.stratum),
    repos,
    repo_macro: macro(repos),
    repo_macro_ci: clusteredBootstrap(repos, macro, opts),
    leave_one_repo_out: loo,
    bootstrap: { resamples: opts.resamples, seed: opts.seed, level: opts.level, unit: 'repository' },
  };
}

// --- Forward paired states ----------------------------------------------------------------

/** A Forward case and its paired state, each scored; `sameAnswer` when both predictions are the same valid set. */
export interface ScoredPair {
  readonly caseId: string;
  readonly repo: string;
  readonly correct: boolean;
  readonly pairedCorrect: boolean;
  readonly sameAnswer: boolean;
}

export interface PairMetrics {
  readonly pairs: number;
  /** Pairs where both states are answered exactly. */
  readonly pair_exact: number;
  readonly pair_exact_rate: number;
  /** Pairs (whose golds always differ) answered with the same prediction for both states. */
  readonly invariance_errors: number;
  readonly invariance_error_rate: number;
}

export function computePairMetrics(pairs: readonly ScoredPair[]): PairMetrics {
  const exact = pairs.filter((p) => p.correct && p.pairedCorrect).length;
  const invariant = pairs.filter((p) => p.sameAnswer).length;
  return {
    pairs: pairs.length,
    pair_exact: exact,
    pair_exact_rate: ratio(exact, pairs.length),
    invariance_errors: invariant,
    invariance_error_rate: ratio(invariant, pairs.length),
  };
}

/** Human-readable table lines of the metrics (for stderr). */
export function formatMetrics(m: Metrics, pairs?: PairMetrics): string[] {
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  const ci = (i: Interval | null): string => (i ? ` [${pct(i.low)}, ${pct(i.high)}]` : '');
  const lines = [
    `accuracy          ${m.correct}/${m.total} = ${pct(m.accuracy)}${ci(m.accuracy_ci)}`,
    `repository-macro  ${pct(m.repo_macro)}${ci(m.repo_macro_ci)} over ${m.repos.length} repositories`,
  ];
  if (m.leave_one_repo_out) {
    const l = m.leave_one_repo_out;
    lines.push(`leave-one-out     ${pct(l.min)} (without ${l.min_without}) – ${pct(l.max)} (without ${l.max_without})`);
  }
  for (const s of m.strata) lines.push(`stratum ${s.name.padEnd(20)} ${s.correct}/${s.total} = ${pct(s.accuracy)}`);
  if (pairs) {
    lines.push(`pair exact        ${pairs.pair_exact}/${pairs.pairs} = ${pct(pairs.pair_exact_rate)}`);
    lines.push(`invariance error  ${pairs.invariance_errors}/${pairs.pairs} = ${pct(pairs.invariance_error_rate)}`);
  }
  lines.push(`(${m.bootstrap.level * 100}% intervals: repository-clustered bootstrap, ${m.bootstrap.resamples} resamples, seed ${m.bootstrap.seed})`);
  return lines;
}
