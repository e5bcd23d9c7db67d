import { describe, expect, it } from 'vitest';
import { makeRepo } from '../../support/make-repo.js';
import { CHECK_NAMES, type CheckResult } from '../../../src/backward/validate.js';
import { structuralChecks } from '../../../src/backward/chain.js';
import { computeCutoff } from '../../../src/git/history.js';
import { gd, openObjects, tickDate } from './support.js';
import { foxtrotRepo } from './scenarios.js';

function failed(results: CheckResult[]): string[] {
  return results.filter((r) => !r.pass).map((r) => r.name);
}

describe('structuralChecks', () => {
  it('passes all eight for a plain commit below the cutoff, in order', async () => {
    const repo = await makeRepo();
    await repo.commit('c1');
    const gold = await repo.commit('c2');
    const tip = await repo.commit('c3');
    const results = await structuralChecks({ gitDir: gd(repo), objects: openObjects(gd(repo)) }, { gold, cutoff: tip, defaultBranch: 'main', reportTime: tickDate(3, true) });
    expect(results.map((r) => r.name)).toEqual([...CHECK_NAMES]);
    expect(failed(results)).toEqual([]);
    expect(results.every((r) => r.evidence.length > 0)).toBe(true);
  });

  it('rejects an abbreviated, unknown or non-commit gold and still reports all eight', async () => {
    const repo = await makeRepo();
    const c = await repo.commit('c1', { files: { 'a.txt': 'a\n' } });
    const blob = await repo.git(['rev-parse', `${c}:a.txt`]);
    const h = { gitDir: gd(repo), objects: openObjects(gd(repo)) };
    const input = { cutoff: c, defaultBranch: 'main', reportTime: tickDate(5) };
    const short = await structuralChecks(h, { ...input, gold: c.slice(0, 12) });
    expect(short).toHaveLength(8);
    expect(failed(short)).toEqual([...CHECK_NAMES]);
    const upper = await structuralChecks(h, { ...input, gold: c.toUpperCase() });
    expect(failed(upper)[0]).toBe('full-sha');
    const unknown = await structuralChecks(h, { ...input, gold: 'f'.repeat(40) });
    expect(failed(unknown)).toEqual(CHECK_NAMES.slice(1));
    const notCommit = await structuralChecks(h, { ...input, gold: blob });
    expect(failed(notCommit)).toEqual(CHECK_NAMES.slice(2));
    expect(notCommit[2]!.evidence).toBe('object type is blob');
  });

  it('rejects a merge commit as gold (non-merge)', async () => {
    const repo = await makeRepo();
    await repo.commit('c1');
    await repo.checkout('side', { create: true });
    await repo.commit('side work');
    await repo.checkout('main');
    await repo.commit('main work');
    const merge = await repo.merge('side');
    const results = await structuralChecks({ gitDir: gd(repo), objects: openObjects(gd(repo)) }, { gold: merge, cutoff: merge, defaultBranch: 'main', reportTime: tickDate(9) });
    expect(failed(results)).toEqual(['non-merge']);
    expect(results[3]!.evidence).toMatch(/merge commit with 2 parents/);
  });

  it('rejects a commit only on a side branch (on-default-branch)', async () => {
    const repo = await makeRepo();
    const base = await repo.commit('c1');
    await repo.checkout('side', { create: true });
    const side = await repo.commit('side only');
    await repo.checkout('main');
    const tip = await repo.commit('main');
    const results = await structuralChecks({ gitDir: gd(repo), objects: openObjects(gd(repo)) }, { gold: side, cutoff: tip, defaultBranch: 'main', reportTime: tickDate(9) });
    expect(failed(results)).toEqual(['ancestor-of-cutoff', 'on-default-branch']);
    expect(base).not.toBe(side);
  });

  it('rejects a commit only under refs/pull/* (on-default-branch)', async () => {
    const repo = await makeRepo();
    await repo.commit('c1');
    await repo.checkout('pr-branch', { create: true });
    const pr = await repo.commit('pull request work');
    await repo.checkout('main');
    await repo.git(['branch', '-D', 'pr-branch']);
    await repo.updateRef('refs/pull/7/head', pr);
    const tip = await repo.commit('main');
    const mirror = await repo.bareMirror();
    const results = await structuralChecks({ gitDir: mirror, objects: openObjects(mirror) }, { gold: pr, cutoff: tip, defaultBranch: 'main', reportTime: tickDate(9) });
    expect(results.slice(0, 5).every((r) => r.pass)).toBe(true);
    expect(failed(results)).toEqual(['ancestor-of-cutoff', 'on-default-branch']);
    expect(results[6]!.evidence).toContain('not reachable from refs/heads/main');
  });

  it('rejects a commit made after the cutoff (ancestor-of-cutoff, temporal)', async () => {
    const repo = await makeRepo();
    await repo.commit('c1');
    await repo.commit('c2');
    const late = await repo.commit('c3');
    await repo.commit('c4');
    const report = tickDate(2, true);
    const cutoff = await computeCutoff(gd(repo), 'main', report);
    const results = await structuralChecks({ gitDir: gd(repo), objects: openObjects(gd(repo)) }, { gold: late, cutoff: cutoff.sha, defaultBranch: 'main', reportTime: report });
    expect(failed(results)).toEqual(['ancestor-of-cutoff', 'temporal']);
  });

  it('rejects when there is no cutoff and when gold is a root commit', async () => {
    const repo = await makeRepo();
    const root = await repo.commit('c1');
    const results = await structuralChecks({ gitDir: gd(repo), objects: openObjects(gd(repo)) }, { gold: root, cutoff: null, defaultBranch: 'main', reportTime: tickDate(9) });
    expect(failed(results)).toEqual(['non-merge', 'parent-consistent', 'ancestor-of-cutoff']);
  });

  it('accepts a culprit that was on main at report time across a foxtrot merge', async () => {
    const f = await foxtrotRepo();
    const cutoff = await computeCutoff(f.gitDir, 'main', f.report);
    const results = await structuralChecks({ gitDir: f.gitDir, objects: openObjects(f.gitDir) }, { gold: f.onMain, cutoff: cutoff.sha, defaultBranch: 'main', reportTime: f.report });
    expect(failed(results)).toEqual([]);
  });

  it('rejects a culprit that was still on the feature branch at report time across a foxtrot merge', async () => {
    const f = await foxtrotRepo();
    const cutoff = await computeCutoff(f.gitDir, 'main', f.report);
    const results = await structuralChecks({ gitDir: f.gitDir, objects: openObjects(f.gitDir) }, { gold: f.onFeature, cutoff: cutoff.sha, defaultBranch: 'main', reportTime: f.report });
    // It is on today's main and older than the report, but main did not contain it then.
    expect(failed(results)).toEqual(['ancestor-of-cutoff']);
  });
});
