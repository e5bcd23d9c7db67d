import { describe, expect, it } from 'vitest';
import { digestInput, planItem } from '../../../src/stages/plan.js';
import { digestOf } from '../../../src/util/canonical.js';

describe('digestInput', () => {
  it('changes when any part of the input changes, not with key order', () => {
    const a = { pair: { issue: 1, pull: 2 }, pull: { baseRef: 'main', mergedAt: '2024-01-01T00:00:00Z' }, globs: ['a', 'b'] };
    expect(digestInput({ globs: ['a', 'b'], pull: { mergedAt: '2024-01-01T00:00:00Z', baseRef: 'main' }, pair: { pull: 2, issue: 1 } })).toBe(digestInput(a));
    expect(digestInput({ ...a, pull: { ...a.pull, baseRef: 'dev' } })).not.toBe(digestInput(a));
    expect(digestInput({ ...a, globs: ['b', 'a'] })).not.toBe(digestInput(a));
    expect(digestInput({ ...a, pull: null })).not.toBe(digestInput(a));
    // The same digest as digestOf: a ledger row written from digestOf(input) stays current.
    expect(digestInput(a)).toBe(digestOf(a));
  });

  it('refuses what canonical JSON would digest as empty', () => {
    expect(() => digestInput({ index: new Map([[1, 'x']]) })).toThrow('stage input input.index is a Map, not plain data');
    expect(() => digestInput({ at: [new Date(0)] })).toThrow('stage input input.at[0] is a Date, not plain data');
    expect(() => digestInput({ f: () => 1 })).toThrow('stage input input.f is a function, not plain data');
    expect(() => digestInput({ n: Number.NaN })).toThrow('stage input input.n is NaN');
  });

  it('planItem digests the whole input it carries', () => {
    const item = planItem('o/r#1', 'o/r', { repo: 'o/r', number: 1, text: 'x' });
    expect(item).toEqual({ key: 'o/r#1', repo: 'o/r', input: { repo: 'o/r', number: 1, text: 'x' }, inputDigest: digestInput({ repo: 'o/r', number: 1, text: 'x' }) });
  });
});
