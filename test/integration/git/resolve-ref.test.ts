import { describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../../support/make-repo.js';
import { resolveRef } from '../../../src/git/resolve-ref.js';
import type { GitRepoHandle } from '../../../src/git/repos.js';
import { commitsSharingPrefix, gd, openObjects } from './support.js';

function handle(repo: TestRepo): GitRepoHandle {
  return { repo: 'acme/widgets', gitDir: gd(repo), objects: openObjects(gd(repo)) };
}

const ctx = { repo: 'acme/widgets' };

describe('resolveRef', () => {
  it('resolves hex and commit URLs of this repository; rejects another repository', async () => {
    const repo = await makeRepo();
    const c = await repo.commit('c1');
    const h = handle(repo);
    expect(await resolveRef(h, { type: 'sha', value: c.slice(0, 9), urlRepo: null }, ctx)).toEqual({ input: c.slice(0, 9), status: 'ok', sha: c, candidates: [], via: 'hex' });
    const url = `https://github.com/Acme/Widgets/commit/${c.slice(0, 12)}`;
    expect(await resolveRef(h, { type: 'commit-url', value: url, urlRepo: 'Acme/Widgets' }, ctx)).toMatchObject({ status: 'ok', sha: c, via: 'commit-url' });
    const prCommitUrl = `https://github.com/acme/widgets/pull/4/commits/${c}`;
    expect(await resolveRef(h, { type: 'commit-url', value: prCommitUrl, urlRepo: 'acme/widgets' }, ctx)).toMatchObject({ status: 'ok', sha: c });
    const other = `https://github.com/other/fork/commit/${c}`;
    expect(await resolveRef(h, { type: 'commit-url', value: other, urlRepo: 'other/fork' }, ctx)).toEqual({ input: other, status: 'cross-repository', sha: null, candidates: [], via: 'commit-url' });
    expect(await resolveRef(h, { type: 'commit-url', value: 'https://github.com/acme/widgets/issues/3', urlRepo: 'acme/widgets' }, ctx)).toMatchObject({ status: 'missing', sha: null });
  });

  it('reports an ambiguous abbreviation with its candidates', async () => {
    const repo = await makeRepo();
    await repo.commit('root');
    const [a, b] = await commitsSharingPrefix(repo, 4);
    const r = await resolveRef(handle(repo), { type: 'sha', value: a.slice(0, 4), urlRepo: null }, ctx);
    expect(r).toEqual({ input: a.slice(0, 4), status: 'ambiguous', sha: null, candidates: [a, b].sort(), via: 'hex' });
  });

  it('resolves a PR to its squash commit, its only commit, or rejects several commits', async () => {
    const repo = await makeRepo();
    await repo.commit('c1', { files: { 'a.txt': '1\n' } });
    await repo.checkout('one', { create: true });
    const only = await repo.commit('the only commit', { files: { 'o.txt': 'o\n' } });
    await repo.checkout('main');
    const merged = await repo.merge('one');
    await repo.checkout('two', { create: true });
    const t1 = await repo.commit('first of two', { files: { 't.txt': '1\n' } });
    const t2 = await repo.commit('second of two', { files: { 't.txt': '2\n' } });
    await repo.checkout('main');
    const multiMerge = await repo.merge('two');
    const squash = await repo.commit('Squashed change (#12)', { files: { 's.txt': 's\n' } });
    const pulls: Record<number, { commitShas: string[]; mergeCommitSha: string | null }> = {
      10: { commitShas: [only], mergeCommitSha: merged },
      11: { commitShas: [t1, t2], mergeCommitSha: multiMerge },
      12: { commitShas: [t1, t2], mergeCommitSha: squash },
    };
    const c = { repo: 'acme/widgets', pullCommits: (n: number) => pulls[n] };
    const h = handle(repo);
    expect(await resolveRef(h, { type: 'pr', value: '#10', urlRepo: null }, c)).toEqual({ input: '#10', status: 'ok', sha: only, candidates: [], via: 'pr' });
    expect(await resolveRef(h, { type: 'pr', value: '11', urlRepo: null }, c)).toEqual({ input: '11', status: 'pr-not-single-commit', sha: null, candidates: [t1, t2], via: 'pr' });
    expect(await resolveRef(h, { type: 'pr', value: '#12', urlRepo: null }, c)).toMatchObject({ status: 'ok', sha: squash });
    expect(await resolveRef(h, { type: 'pr', value: '#99', urlRepo: null }, c)).toMatchObject({ status: 'pr-unknown', sha: null });
    expect(await resolveRef(h, { type: 'pr', value: 'not a number', urlRepo: null }, c)).toMatchObject({ status: 'pr-unknown' });
  });

  it('rejects a PR merged by rebasing several commits', async () => {
    const repo = await makeRepo();
    await repo.commit('c1', { files: { 'a.txt': '1\n' } });
    await repo.checkout('topic', { create: true });
    const p1 = await repo.commit('topic one', { files: { 't.txt': '1\n' } });
    const p2 = await repo.commit('topic two', { files: { 't.txt': '2\n' } });
    await repo.checkout('main');
    await repo.commit('main moves', { files: { 'm.txt': 'm\n' } });
    await repo.git(['cherry-pick', p1, p2]);
    const rebasedTip = await repo.rev('HEAD');
    const c = { repo: 'acme/widgets', pullCommits: () => ({ commitShas: [p1, p2], mergeCommitSha: rebasedTip }) };
    expect(await resolveRef(handle(repo), { type: 'pr', value: '#5', urlRepo: null }, c)).toMatchObject({ status: 'pr-not-single-commit', candidates: [p1, p2] });
  });
});
