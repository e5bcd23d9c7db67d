import { describe, expect, it } from 'vitest';
import { formatScore, preflight, preflightSets, scorePredictions, shaProblem, type GoldEntry } from '../../../src/export/score.js';

const SHA_A = 'a'.repeat(39) + '1';
const SHA_B = '0123456789abcdef0123456789abcdef01234567';
const BACKWARD: GoldEntry[] = [
  { caseId: 'acme_w__1__00000001', task: 'backward', gold: SHA_A },
  { caseId: 'acme_w__2__00000002', task: 'backward', gold: SHA_B },
];
const FORWARD: GoldEntry[] = [
  { caseId: 'acme_w__3__00000003', task: 'forward', gold: ['.github/workflows/ci.yml', '.github/workflows/lint.yml'] },
  { caseId: 'acme_w__4__00000004', task: 'forward', gold: [] },
];
const at = (values: unknown[]) => values.map((value, i) => ({ lineNumber: i + 1, value }));

describe('Backward scorer', () => {
  it.each([
    ['exact lowercase SHA', SHA_B, 1, 'correct'],
    ['another valid SHA', SHA_A, 0, 'wrong'],
    ['uppercase', SHA_B.toUpperCase(), 0, 'unscorable'],
    ['short SHA', SHA_B.slice(0, 12), 0, 'unscorable'],
    ['not hex', `z${SHA_B.slice(1)}`, 0, 'unscorable'],
    ['a number', 42, 0, 'unscorable'],
    ['trailing space', `${SHA_B} `, 0, 'unscorable'],
  ])('%s scores %i', (_label, sha, score, status) => {
    const r = scorePredictions(BACKWARD, at([{ case_id: 'acme_w__2__00000002', sha }]));
    expect(r.cases.find((c) => c.caseId === 'acme_w__2__00000002')).toMatchObject({ score, status });
    expect(r.total).toBe(2);
  });

  it('explains each unscorable SHA', () => {
    expect(shaProblem(SHA_B.toUpperCase())).toBe('sha has uppercase hex (must be 40 lowercase hex)');
    expect(shaProblem('abc1234')).toBe('sha has 7 hex characters (must be exactly 40)');
    expect(shaProblem('not-a-sha')).toBe('sha is not hex (must be 40 lowercase hex)');
    expect(shaProblem(null)).toBe('sha must be a string, got null');
  });

  it('keeps malformed lines, unknown cases and duplicates out of the numerator, never out of the denominator', () => {
    const r = scorePredictions(BACKWARD, [
      { lineNumber: 1, error: 'malformed JSON (Unexpected end of JSON input)' },
      { lineNumber: 2, value: { case_id: 'acme_w__9__00000009', sha: SHA_A } },
      { lineNumber: 3, value: { case_id: 'acme_w__1__00000001', sha: SHA_A } },
      { lineNumber: 4, value: { case_id: 'acme_w__1__00000001', sha: SHA_A } },
      { lineNumber: 5, value: ['acme_w__2__00000002', SHA_B] },
    ]);
    expect(r.cases).toEqual([
      { caseId: 'acme_w__1__00000001', score: 0, status: 'unscorable', why: 'predicted more than once (lines 3, 4)' },
      { caseId: 'acme_w__2__00000002', score: 0, status: 'missing', why: 'no prediction' },
    ]);
    expect(r.notes).toEqual([
      'line 1: malformed JSON (Unexpected end of JSON input)',
      'line 2: case acme_w__9__00000009 is not in the manifest',
      'line 5: not a JSON object',
    ]);
    expect(formatScore(r).at(-1)).toBe('Overall: 0/2 = 0.0%');
  });
});

describe('Forward scorer', () => {
  it('uses exact set equality; a well-formed empty set is scorable', () => {
    const r = scorePredictions(FORWARD, at([
      { case_id: 'acme_w__3__00000003', activated_workflows: ['.github/workflows/lint.yml', '.github/workflows/ci.yml'] },
      { case_id: 'acme_w__4__00000004', activated_workflows: [] },
    ]));
    expect(r.cases.map((c) => [c.score, c.status])).toEqual([[1, 'correct'], [1, 'correct']]);
    expect(formatScore(r).at(-1)).toBe('Overall: 2/2 = 100.0%');
  });

  it.each([
    ['a subset', ['.github/workflows/ci.yml'], 'wrong'],
    ['a superset', ['.github/workflows/ci.yml', '.github/workflows/lint.yml', '.github/workflows/docs.yml'], 'wrong'],
    ['the empty set', [], 'wrong'],
    ['a string', '.github/workflows/ci.yml', 'unscorable'],
    ['a path twice', ['.github/workflows/ci.yml', '.github/workflows/lint.yml', '.github/workflows/ci.yml'], 'unscorable'],
    ['a non-string element', ['.github/workflows/ci.yml', 3], 'unscorable'],
  ])('%s scores 0', (_label, activated, status) => {
    const r = scorePredictions(FORWARD, at([{ case_id: 'acme_w__3__00000003', activated_workflows: activated }]));
    expect(r.cases[0]).toMatchObject({ caseId: 'acme_w__3__00000003', score: 0, status });
  });
});

describe('preflight', () => {
  it.each([['Backward', BACKWARD], ['Forward', FORWARD]])('passes every check on a %s manifest', (_label, golds) => {
    const checks = preflight(golds);
    expect(checks.map((c) => [c.name, c.ok])).toEqual(preflightSets(golds).map((s) => [s.name, true]));
    expect(checks.find((c) => c.name === 'oracle')).toMatchObject({ expected: 1, got: 1 });
    expect(checks.filter((c) => c.name !== 'oracle').every((c) => c.expected === 0 && c.got === 0)).toBe(true);
  });

  it('every non-oracle set really differs from the oracle answers', () => {
    for (const golds of [BACKWARD, FORWARD]) {
      const sets = preflightSets(golds);
      const oracle = JSON.stringify(sets.find((s) => s.name === 'oracle')!.lines);
      for (const s of sets.filter((x) => x.name !== 'oracle')) expect(JSON.stringify(s.lines)).not.toBe(oracle);
    }
  });
});
