import { describe, expect, it } from 'vitest';
import { clusteredBootstrap, computeMetrics, computePairMetrics, quantile, type ScoredCase } from '../../../src/export/metrics.js';
import { seededRandom } from '../../../src/util/random.js';

const cases = (repo: string, correct: number, wrong: number, stratum = 'unlabelled'): ScoredCase[] => [
  ...Array.from({ length: correct }, (_, i) => ({ caseId: `${repo}-c${i}`, repo, correct: true, stratum })),
  ...Array.from({ length: wrong }, (_, i) => ({ caseId: `${repo}-w${i}`, repo, correct: false, stratum })),
];

describe('metrics over three repositories', () => {
  // alpha 2/2, beta 0/2, gamma 1/2: overall 3/6.
  const all = [...cases('o/alpha', 2, 0, 'direct/local'), ...cases('o/beta', 0, 2, 'staged/cross'), ...cases('o/gamma', 1, 1, 'direct/local')];
  const m = computeMetrics(all, { resamples: 200, seed: 7, level: 0.95 });

  it('computes micro and repository-macro accuracy', () => {
    expect(m.correct).toBe(3);
    expect(m.total).toBe(6);
    expect(m.accuracy).toBe(0.5);
    // (1 + 0 + 0.5) / 3
    expect(m.repo_macro).toBeCloseTo(0.5, 12);
    expect(m.repos.map((r) => [r.name, r.accuracy])).toEqual([['o/alpha', 1], ['o/beta', 0], ['o/gamma', 0.5]]);
  });

  it('gives the leave-one-repository-out range', () => {
    // without alpha: 1/4; without beta: 3/4; without gamma: 2/4.
    expect(m.leave_one_repo_out).toEqual({ min: 0.25, min_without: 'o/alpha', max: 0.75, max_without: 'o/beta' });
  });

  it('splits accuracy by stratum', () => {
    expect(m.strata).toEqual([
      { name: 'direct/local', correct: 3, total: 4, accuracy: 0.75 },
      { name: 'staged/cross', correct: 0, total: 2, accuracy: 0 },
    ]);
  });

  it('has no leave-one-out range with one repository', () => {
    expect(computeMetrics(cases('o/one', 1, 1), { resamples: 10, seed: 1, level: 0.95 }).leave_one_repo_out).toBeNull();
  });
});

describe('repository-clustered bootstrap', () => {
  it('interpolates quantiles between closest ranks', () => {
    expect(quantile([0, 0.5, 1, 1], 0.5)).toBe(0.75);
    expect(quantile([0, 0.5, 1, 1], 0.025)).toBeCloseTo(0.0375, 12);
    expect(quantile([3], 0.9)).toBe(3);
  });

  it('matches a hand-computed resampling for a fixed seed', () => {
    const repos = [
      { name: 'a', correct: 2, total: 2, accuracy: 1 },
      { name: 'b', correct: 0, total: 2, accuracy: 0 },
      { name: 'c', correct: 1, total: 2, accuracy: 0.5 },
    ];
    // Redo the draws by hand: 5 resamples of 3 repositories each from seed 42.
    const next = seededRandom(42);
    const values: number[] = [];
    for (let b = 0; b < 5; b++) {
      let c = 0;
      let t = 0;
      for (let i = 0; i < 3; i++) {
        const r = repos[Math.floor(next() * 3)]!;
        c += r.correct;
        t += r.total;
      }
      values.push(c / t);
    }
    values.sort((x, y) => x - y);
    const stat = (d: readonly { correct: number; total: number }[]): number => d.reduce((s, r) => s + r.correct, 0) / d.reduce((s, r) => s + r.total, 0);
    const got = clusteredBootstrap(repos, stat, { resamples: 5, seed: 42, level: 0.5 });
    // level 0.5: quantiles 0.25 and 0.75 of 5 values sit exactly on ranks 1 and 3.
    expect(got).toEqual({ low: values[1], high: values[3] });
  });

  it('is deterministic for a seed and collapses on a single repository', () => {
    const all = [...cases('o/a', 3, 1), ...cases('o/b', 1, 3), ...cases('o/c', 2, 2), ...cases('o/d', 4, 0)];
    const one = computeMetrics(all, { resamples: 1000, seed: 3, level: 0.95 });
    const two = computeMetrics(all, { resamples: 1000, seed: 3, level: 0.95 });
    expect(JSON.stringify(one)).toBe(JSON.stringify(two));
    expect(one.accuracy_ci!.low).toBeLessThanOrEqual(one.accuracy);
    expect(one.accuracy_ci!.high).toBeGreaterThanOrEqual(one.accuracy);
    expect(one.accuracy_ci!.low).toBeLessThan(one.accuracy_ci!.high);
    const single = computeMetrics(cases('o/solo', 3, 1), { resamples: 50, seed: 9, level: 0.95 });
    expect(single.accuracy_ci).toEqual({ low: 0.75, high: 0.75 });
  });

  it('refuses a resample count that is not a positive integer', () => {
    expect(() => computeMetrics(cases('o/a', 1, 0), { resamples: 0, seed: 1, level: 0.95 })).toThrow(/resamples/);
  });
});

describe('pair metrics', () => {
  it('counts pair exact and invariance errors', () => {
    const p = computePairMetrics([
      { caseId: '1', repo: 'r', correct: true, pairedCorrect: true, sameAnswer: false },
      { caseId: '2', repo: 'r', correct: true, pairedCorrect: false, sameAnswer: true },
      { caseId: '3', repo: 'r', correct: false, pairedCorrect: false, sameAnswer: true },
      { caseId: '4', repo: 'r', correct: false, pairedCorrect: true, sameAnswer: false },
    ]);
    expect(p).toEqual({ pairs: 4, pair_exact: 1, pair_exact_rate: 0.25, invariance_errors: 2, invariance_error_rate: 0.5 });
  });
});
