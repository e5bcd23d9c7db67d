import { describe, expect, it } from 'vitest';
import { CHECK_NAMES, checkReasons, decideChecks, type CheckFacts, type CheckInput } from '../../../src/backward/validate.js';

const sha = (c: string): string => c.repeat(40);
const REPORT = new Date('2024-03-01T12:00:00Z');
const AT = REPORT.getTime() / 1000;
const input: CheckInput = { gold: sha('a'), cutoff: sha('c'), defaultBranch: 'main', reportTime: REPORT };
const good: CheckFacts = {
  objectType: 'commit',
  commit: { parents: [sha('p')], committerTime: AT - 3600 },
  parent: { committerTime: AT - 7200, ancestorOfGold: true },
  belowCutoff: true,
  branchTip: { sha: sha('t'), reachable: true },
};
const failed = (facts: CheckFacts, i = input): string[] => decideChecks(i, facts).filter((c) => !c.pass).map((c) => c.name);

describe('decideChecks on hand-built facts', () => {
  it('passes all eight, in order, for a plain commit below the cutoff on the branch before the report', () => {
    const checks = decideChecks(input, good);
    expect(checks.map((c) => c.name)).toEqual([...CHECK_NAMES]);
    expect(checks.every((c) => c.pass)).toBe(true);
    expect(checks.find((c) => c.name === 'on-default-branch')!.evidence).toBe(`reachable from refs/heads/main (${sha('t')})`);
  });

  it('fails every check from the first that cannot hold, saying why', () => {
    expect(failed(good, { ...input, gold: 'abc1234' })).toEqual([...CHECK_NAMES]);
    expect(failed({ ...good, objectType: null })).toEqual(CHECK_NAMES.slice(1));
    expect(failed({ ...good, objectType: 'tree' })).toEqual(CHECK_NAMES.slice(2));
    const blob = decideChecks(input, { ...good, objectType: 'blob' });
    expect(blob[2]).toEqual({ name: 'is-commit', pass: false, evidence: 'object type is blob' });
    expect(blob[7]!.evidence).toBe('not checked: gold is not a commit');
  });

  it('fails one check per wrong fact', () => {
    expect(failed({ ...good, commit: { parents: [sha('p'), sha('q')], committerTime: AT - 3600 } })).toEqual(['non-merge']);
    expect(failed({ ...good, commit: { parents: [], committerTime: AT - 3600 } })).toEqual(['non-merge', 'parent-consistent']);
    expect(failed({ ...good, parent: null })).toEqual(['parent-consistent']);
    expect(failed({ ...good, parent: { committerTime: AT - 7200, ancestorOfGold: false } })).toEqual(['parent-consistent']);
    expect(failed({ ...good, belowCutoff: false })).toEqual(['ancestor-of-cutoff']);
    expect(failed({ ...good, belowCutoff: null }, { ...input, cutoff: null })).toEqual(['ancestor-of-cutoff']);
    expect(failed({ ...good, branchTip: null })).toEqual(['on-default-branch']);
    expect(failed({ ...good, branchTip: { sha: sha('t'), reachable: false } })).toEqual(['on-default-branch']);
    expect(failed({ ...good, commit: { parents: [sha('p')], committerTime: AT + 1 } })).toEqual(['temporal']);
  });

  it('passes a gold committed exactly at the report time and notes a parent with a later clock', () => {
    const checks = decideChecks(input, { ...good, commit: { parents: [sha('p')], committerTime: AT }, parent: { committerTime: AT + 60, ancestorOfGold: true } });
    expect(checks.every((c) => c.pass)).toBe(true);
    expect(checks[4]!.evidence).toContain('clock skew');
  });

  it('turns each failing check into a structural-check-failed reason', () => {
    expect(checkReasons(decideChecks(input, { ...good, belowCutoff: false }))).toEqual([
      { code: 'structural-check-failed', evidence: `ancestor-of-cutoff: ${sha('a')} is not an ancestor of cutoff ${sha('c')}` },
    ]);
  });
});
