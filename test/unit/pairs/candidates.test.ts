import { describe, expect, it } from 'vitest';
import { candidatePairs, candidatePairsNaive, type PullTimes } from '../../../src/pairs/candidates.js';

const day = (d: number, h = 0): string => new Date(Date.UTC(2024, 0, 1) + d * 86_400_000 + h * 3_600_000).toISOString();
const pr = (number: number, created: string, merged: string | null, baseRef = 'main'): PullTimes => ({ number, baseRef, createdAt: created, mergedAt: merged });

describe('candidatePairs', () => {
  it('pairs overlapping intervals and merges within the window, on the same base branch only', () => {
    const pulls = [
      pr(1, day(0), day(5)),
      pr(2, day(3), day(4)), // inside 1
      pr(3, day(10), day(11)), // 6 days after 1's merge: window 7 → with 1 and 2
      pr(4, day(30), day(31)),
      pr(5, day(30, 1), day(30, 2), 'release'), // overlaps 4 but other branch
      pr(6, day(30), null), // not merged
    ];
    expect(candidatePairs(pulls, 7)).toEqual([
      { a: 1, b: 2, why: 'overlap+window' },
      { a: 1, b: 3, why: 'window' },
      { a: 2, b: 3, why: 'window' },
    ]);
    expect(candidatePairs(pulls, 0)).toEqual([{ a: 1, b: 2, why: 'overlap' }]);
  });

  it('treats touching intervals as not overlapping', () => {
    expect(candidatePairs([pr(1, day(0), day(1)), pr(2, day(1), day(2))], 0)).toEqual([]);
  });

  it('agrees with the all-pairs reference on random input', () => {
    let seed = 42;
    const rand = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 20; round += 1) {
      const pulls: PullTimes[] = [];
      for (let n = 1; n <= 60; n += 1) {
        const c = Math.floor(rand() * 200);
        const m = rand() < 0.1 ? null : day(c, Math.floor(rand() * 24 * 10));
        pulls.push(pr(n, day(c), m, rand() < 0.2 ? 'dev' : 'main'));
      }
      const w = Math.floor(rand() * 5);
      expect(candidatePairs(pulls, w)).toEqual(candidatePairsNaive(pulls, w));
    }
  });
});
