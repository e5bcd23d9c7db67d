import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/util/random.js';

describe('seededRandom', () => {
  it('repeats its sequence for a seed, differs between seeds, and stays in [0, 1)', () => {
    const take = (seed: number): number[] => {
      const next = seededRandom(seed);
      return Array.from({ length: 1_000 }, () => next());
    };
    const a = take(42);
    expect(take(42)).toEqual(a);
    expect(take(43)).not.toEqual(a);
    expect(a.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(a).size).toBeGreaterThan(990);
    const mean = a.reduce((s, x) => s + x, 0) / a.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
  });
});
