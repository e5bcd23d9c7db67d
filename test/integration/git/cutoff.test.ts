import { describe, expect, it } from 'vitest';
import { makeRepo } from '../../support/make-repo.js';
import { computeCutoff, defaultBranchOf, historyWindow, isAncestor, matchingTag, mergingPull, tagWindow } from '../../../src/git/history.js';
import { BranchHistory } from '../../../src/git/branch-history.js';
import { gd, tickDate } from './support.js';
import { foxtrotRepo } from './scenarios.js';

describe('computeCutoff', () => {
  it('takes the newest first-parent commit not after the report on a linear branch', async () => {
    const repo = await makeRepo();
    const shas: string[] = [];
    for (let i = 1; i <= 5; i++) shas.push(await repo.commit(`c${i}`));
    expect(await computeCutoff(gd(repo), 'main', tickDate(3, true))).toEqual({ sha: shas[2], rule: 'first-parent-by-date', notes: [] });
    // Exactly at a commit's time: that commit is visible.
    expect((await computeCutoff(gd(repo), 'main', tickDate(4))).sha).toBe(shas[3]);
  });

  it('follows the second parent of a foxtrot merge named by its message', async () => {
    const f = await foxtrotRepo();
    const cutoff = await computeCutoff(f.gitDir, 'main', f.report);
    expect(cutoff.sha).toBe(f.m2);
    expect(cutoff.rule).toBe('foxtrot-corrected');
    expect(cutoff.notes).toHaveLength(1);
    expect(cutoff.notes[0]).toContain(`foxtrot merge ${f.merge} (merge-message`);
    // The feature commit, which the plain first-parent rule would pick, is not below the cutoff.
    expect(await isAncestor(f.gitDir, f.onFeature, f.m2)).toBe(false);
  });

  it('detects a foxtrot merge that is a pull-request head even with a neutral message', async () => {
    const f = await foxtrotRepo({ mergeMessage: 'sync', prHead: true });
    const cutoff = await computeCutoff(f.gitDir, 'main', f.report);
    expect(cutoff).toMatchObject({ sha: f.m2, rule: 'foxtrot-corrected' });
    expect(cutoff.notes[0]).toContain('pull-request-head');
  });

  it('never takes a GitHub merge-button commit for a foxtrot, even when it is a pull-request head', async () => {
    const f = await foxtrotRepo({ mergeMessage: 'Merge pull request #9 from dev/feature', prHead: true });
    expect(await computeCutoff(f.gitDir, 'main', f.report)).toEqual({ sha: f.onFeature, rule: 'first-parent-by-date', notes: [] });
  });

  it('does not take a merge of the PR its "(#N)" subject names for a foxtrot when a later PR proposed the branch itself', async () => {
    // main: c0[1] ─ c1[2] ───────── M[4] "Add feature (#7)" (parents c1, f1) ─ after[5]
    // PR #7: f1[3] on feature; PR #8 ("merge main into stable") has main's tip M as its head.
    const repo = await makeRepo();
    await repo.commit('c0');
    const c1 = await repo.commit('c1');
    await repo.checkout('feature', { create: true });
    const f1 = await repo.commit('feature work', { files: { 'f.txt': 'f\n' } });
    await repo.checkout('main');
    const merge = await repo.merge('feature', { ff: 'never', message: 'Add feature (#7)' });
    await repo.commit('after');
    await repo.updateRef('refs/pull/7/head', f1);
    await repo.updateRef('refs/pull/8/head', merge);
    const report = tickDate(3, true);
    expect(await computeCutoff(gd(repo), 'main', report)).toEqual({ sha: c1, rule: 'first-parent-by-date', notes: [] });
    expect((await BranchHistory.load(gd(repo), 'main')).cutoff(report)).toEqual({ sha: c1, rule: 'first-parent-by-date', notes: [] });
  });

  it('keeps the plain rule when the merge gives no foxtrot evidence', async () => {
    const f = await foxtrotRepo({ mergeMessage: 'sync' });
    expect(await computeCutoff(f.gitDir, 'main', f.report)).toEqual({ sha: f.onFeature, rule: 'first-parent-by-date', notes: [] });
  });

  it('does not correct when the report is after the foxtrot merge', async () => {
    const f = await foxtrotRepo();
    expect(await computeCutoff(f.gitDir, 'main', tickDate(7, true))).toEqual({ sha: f.merge, rule: 'first-parent-by-date', notes: [] });
  });

  it('does not follow into another history merged in after the report, with either reader', async () => {
    const repo = await makeRepo();
    await repo.commit('c1', { files: { 'a.txt': '1\n' } });
    const c2 = await repo.commit('c2', { files: { 'a.txt': '2\n' } });
    await repo.git(['checkout', '-q', '--orphan', 'plugin']);
    await repo.git(['rm', '-q', '-rf', '.']);
    await repo.commit('plugin start', { files: { 'plugin/p.txt': 'p\n' } });
    await repo.checkout('main');
    const d = `${repo.nextTime()} +0000`;
    await repo.git(['merge', '-q', '--no-ff', '--allow-unrelated-histories', '-m', "Merge remote-tracking branch 'plugin/main' into main", 'plugin'], { GIT_AUTHOR_DATE: d, GIT_COMMITTER_DATE: d });
    await repo.commit('after', { files: { 'b.txt': 'b\n' } });
    const report = tickDate(2, true); // before the plugin's first commit
    const single = await computeCutoff(gd(repo), 'main', report);
    expect(single).toMatchObject({ sha: c2, rule: 'first-parent-by-date' });
    expect(single.notes.join('\n')).toMatch(/not followed, no commit on its second parent's line/);
    const history = await BranchHistory.load(gd(repo), 'main');
    expect(history.cutoff(report)).toEqual(single);
  });

  it('does not follow into another repository imported whole, even when it has commits older than the report, with either reader', async () => {
    // main: c1 ─ c2 ─ M "import the gadget repository" (second parent: g1 ─ g2, a history of its own) ─ after; M is a pull-request head.
    const repo = await makeRepo();
    await repo.commit('c1', { files: { 'a.txt': '1\n' } });
    const c2 = await repo.commit('c2', { files: { 'a.txt': '2\n' } });
    await repo.git(['checkout', '-q', '--orphan', 'gadget']);
    await repo.git(['rm', '-q', '-rf', '.']);
    await repo.commit('gadget start', { files: { 'gadget/g.txt': '1\n' } });
    await repo.commit('gadget work', { files: { 'gadget/g.txt': '2\n' } });
    await repo.checkout('main');
    const d = `${repo.nextTime()} +0000`;
    await repo.git(['merge', '-q', '--no-ff', '--allow-unrelated-histories', '-m', 'chore: import the gadget repository', 'gadget'], { GIT_AUTHOR_DATE: d, GIT_COMMITTER_DATE: d });
    const merge = (await repo.git(['rev-parse', 'HEAD'])).trim();
    await repo.updateRef('refs/pull/12/head', merge);
    await repo.commit('after', { files: { 'b.txt': 'b\n' } });
    const report = tickDate(4, true); // after both gadget commits, before the import
    const single = await computeCutoff(gd(repo), 'main', report);
    expect(single).toMatchObject({ sha: c2, rule: 'first-parent-by-date' });
    expect(single.notes.join('\n')).toContain(`foxtrot merge ${merge} (pull-request-head`);
    expect(single.notes.join('\n')).toMatch(/not followed, its parents share no history/);
    expect((await BranchHistory.load(gd(repo), 'main')).cutoff(report)).toEqual(single);
  });

  it('does not follow a branch merged "of" another repository when the repository is known, with either reader', async () => {
    const f = await foxtrotRepo({ mergeMessage: "Merge branch 'main' of https://github.com/someone/widget-fork into feature" });
    expect(await computeCutoff(f.gitDir, 'main', f.report)).toMatchObject({ sha: f.m2, rule: 'foxtrot-corrected' });
    const names = ['acme/widget'];
    const single = await computeCutoff(f.gitDir, 'main', f.report, names);
    expect(single).toEqual({ sha: f.onFeature, rule: 'first-parent-by-date', notes: [] });
    expect((await BranchHistory.load(f.gitDir, 'main', names)).cutoff(f.report)).toEqual(single);
    expect(await computeCutoff(f.gitDir, 'main', f.report, ['someone/widget-fork'])).toMatchObject({ sha: f.m2, rule: 'foxtrot-corrected' });
  });

  it('takes merges naming the branch by its former name master for foxtrot merges while no master branch remains, with either reader', async () => {
    // A default branch renamed from master to main: merges made before the rename still say 'master'.
    const f = await foxtrotRepo({ mergeMessage: "Merge branch 'master' into feature" });
    const renamed = await computeCutoff(f.gitDir, 'main', f.report);
    expect(renamed).toMatchObject({ sha: f.m2, rule: 'foxtrot-corrected' });
    expect(renamed.notes[0]).toContain(`foxtrot merge ${f.merge} (merge-message`);
    expect((await BranchHistory.load(f.gitDir, 'main')).cutoff(f.report)).toEqual(renamed);
    // While a master branch exists beside main, 'master' names that other branch: no evidence.
    await f.repo.updateRef('refs/heads/master', f.c1);
    const beside = await computeCutoff(f.gitDir, 'main', f.report);
    expect(beside).toEqual({ sha: f.onFeature, rule: 'first-parent-by-date', notes: [] });
    expect((await BranchHistory.load(f.gitDir, 'main')).cutoff(f.report)).toEqual(beside);
  });

  it('returns no cutoff when every commit is after the report', async () => {
    const repo = await makeRepo();
    await repo.commit('c1');
    const cutoff = await computeCutoff(gd(repo), 'main', tickDate(0));
    expect(cutoff.sha).toBeNull();
    expect(cutoff.rule).toBe('no-commit-before-report');
  });

  it('fails clearly on an unknown branch', async () => {
    const repo = await makeRepo();
    await repo.commit('c1');
    await expect(computeCutoff(gd(repo), 'trunk', tickDate(3))).rejects.toThrow(/branch trunk not found/);
  });
});

describe('BranchHistory: cutoffs and ancestry of many cases', () => {
  it('answer many report times and pairs at once, with the single-case rules', async () => {
    const f = await foxtrotRepo();
    const times = [tickDate(0), tickDate(2, true), f.report, tickDate(7, true), tickDate(9)];
    const history = await BranchHistory.load(f.gitDir, 'main');
    const cutoffs = times.map((t) => history.cutoff(t));
    expect(cutoffs.map((c) => [c.sha, c.rule])).toEqual([
      [null, 'no-commit-before-report'],
      [f.c1, 'foxtrot-corrected'], // same commit on both lines; the foxtrot above it was still followed
      [f.m2, 'foxtrot-corrected'],
      [f.merge, 'first-parent-by-date'],
      [f.after, 'first-parent-by-date'],
    ]);
    const pairs = [
      { a: f.c1, b: f.after }, // both on today's first-parent line
      { a: f.after, b: f.c1 },
      { a: f.onMain, b: f.m2 }, // off the line: asked of git
      { a: f.onFeature, b: f.m2 },
      { a: f.c1, b: f.c1 },
    ];
    const answers = [];
    for (const p of pairs) answers.push(await history.ancestor(p.a, p.b));
    expect(answers).toEqual([true, false, true, false, true]);
  });

  it('follows a pull-request-head foxtrot merge like the single-case reader', async () => {
    const f = await foxtrotRepo({ mergeMessage: 'sync', prHead: true });
    const c = (await BranchHistory.load(f.gitDir, 'main')).cutoff(f.report);
    expect(c).toMatchObject({ sha: f.m2, rule: 'foxtrot-corrected' });
  });
});

describe('history helpers', () => {
  it('counts the history window and the tag window, and finds tags from version text', async () => {
    const repo = await makeRepo();
    await repo.commit('c1');
    const gold = await repo.commit('c2');
    await repo.tag('v1.4.2');
    await repo.commit('c3');
    await repo.tag('2.0');
    const tip = await repo.commit('c4');
    expect(await historyWindow(gd(repo), gold, tip)).toBe(2);
    expect(await historyWindow(gd(repo), tip, tip)).toBe(0);
    expect(await tagWindow(gd(repo), 'v1.4.2', tip)).toBe(2);
    expect(await tagWindow(gd(repo), 'v9', tip)).toBeNull();
    expect(await matchingTag(gd(repo), 'works in 1.4.2, broken in master')).toBe('v1.4.2');
    expect(await matchingTag(gd(repo), 'fine on v2.0 last week')).toBe('2.0');
    expect(await matchingTag(gd(repo), 'worked in 1.4.3')).toBeNull();
    expect(await matchingTag(gd(repo), 'worked yesterday')).toBeNull();
  });

  it('reads the default branch from HEAD', async () => {
    const repo = await makeRepo({ branch: 'trunk' });
    await repo.commit('c1');
    expect(await defaultBranchOf(gd(repo))).toBe('trunk');
    const empty = await makeRepo();
    expect(await defaultBranchOf(gd(empty))).toBeNull();
  });
});

describe('mergingPull', () => {
  it('names the pull request whose merge commit brought the commit in, and nothing for one pushed or merged otherwise', async () => {
    // main: c0 ─ pushed ─ M1 "Merge pull request #41 from dev/speaker" (second parent: f1 ─ f2) ─ M2 "Merge branch 'release'" (second parent: r1) ─ tip
    const repo = await makeRepo();
    await repo.commit('c0');
    const pushed = await repo.commit('pushed straight to main');
    await repo.checkout('speaker', { create: true });
    const f1 = await repo.commit('speaker: first part', { files: { 'a.txt': 'a\n' } });
    await repo.commit('speaker: second part', { files: { 'b.txt': 'b\n' } });
    await repo.checkout('main');
    await repo.merge('speaker', { ff: 'never', message: 'Merge pull request #41 from dev/speaker' });
    await repo.checkout('release', { create: true });
    const r1 = await repo.commit('release fix', { files: { 'r.txt': 'r\n' } });
    await repo.checkout('main');
    await repo.commit('after the pull request', { files: { 'c.txt': 'c\n' } });
    await repo.merge('release', { ff: 'never', message: "Merge branch 'release'" });
    const tip = await repo.commit('tip', { files: { 'd.txt': 'd\n' } });
    expect(await mergingPull(gd(repo), f1, tip)).toBe(41);
    expect(await mergingPull(gd(repo), pushed, tip)).toBeNull();
    expect(await mergingPull(gd(repo), r1, tip)).toBeNull();
    // A commit the tip does not contain is carried by no merge below it.
    expect(await mergingPull(gd(repo), tip, pushed)).toBeNull();
  });
});
