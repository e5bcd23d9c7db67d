import { describe, expect, it } from 'vitest';
import { canonicalJson, withCanonicalFields } from '../../../src/util/canonical.js';

/** The reference: parse, spread, serialize canonically. */
const reference = (text: string, fields: Record<string, unknown>): string => canonicalJson({ ...(JSON.parse(text) as object), ...fields });

describe('withCanonicalFields', () => {
  const records: unknown[] = [
    {},
    { a: 1 },
    { zz: [1, { b: 2, a: [] }], a: 'x' },
    { case_id: 'a_r__1__aaaaaaaa', report: 'quote " and backslash \\ and \\" and }{ ][ , : inside', labels: { '10': 1, '9': 2, tier: 'inner' } },
    { 'é': 'ü', 'a"b': null, 'c\\': true, '\u2028': '\u0000', emoji: '😀' },
    { tier: 'old', blockers: ['old'], u: { x: [[], [{}]] } },
    { b: '\\', c: '\\\\"', d: '' },
    { '10': 'ten', '9': 'nine', '1a': [], tierz: 1 },
    { '4294967295': 'not an index', '4294967294': 'index', '007': 'no', '0': 'zero' },
  ];
  const fieldSets: Record<string, unknown>[] = [
    { tier: 'admitted', blockers: [] },
    { tier: 'candidate', blockers: [{ stage: 'probe', gate: 'candidate', code: 'x', evidence: 'a "q"' }] },
    { a: 0, zzz: { y: 1, x: 2 }, '': 'empty key' },
    { '5': 'five', '4294967296': 'big', '12': 'twelve' },
    { tier: undefined, blockers: undefined },
  ];
  it('gives the canonical JSON of the spread object, member for member', () => {
    for (const r of records) {
      const text = canonicalJson(r);
      for (const f of fieldSets) expect(withCanonicalFields(text, f), `${text} + ${JSON.stringify(f)}`).toBe(reference(text, f));
    }
  });

  it('falls back to parsing text that is not a canonical object', () => {
    expect(withCanonicalFields('{ "b": 1, "a": 2 }', { c: 3 })).toBe('{"a":2,"b":1,"c":3}');
    expect(() => withCanonicalFields('[1]', { c: 3 })).not.toThrow();
    expect(() => withCanonicalFields('{"a":', { c: 3 })).toThrow(SyntaxError);
  });
});
