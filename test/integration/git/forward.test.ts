import { describe, expect, it } from 'vitest';
import { makeRepo } from '../../support/make-repo.js';
import { changedPaths, listTree, recoverForward } from '../../../src/git/forward.js';
import { readWorkflowFiles } from '../../../src/git/workflows.js';
import { gd, openObjects } from './support.js';
import type { GitRepoHandle } from '../../../src/git/repos.js';

function handle(gitDir: string): GitRepoHandle {
  return { repo: 'acme/widgets', gitDir, objects: openObjects(gitDir) };
}

describe('recoverForward', () => {
  it('uses the PR base SHA and lists both paths of a rename', async () => {
    const repo = await makeRepo();
    const base = await repo.commit('base', { files: { 'src/old.ts': 'export const a = 1;\n'.repeat(20), 'README.md': 'r\n', 'z.txt': 'z\n' } });
    await repo.checkout('feature', { create: true });
    await repo.commit('rename', { files: { 'src/old.ts': null, 'lib/new.ts': 'export const a = 1;\n'.repeat(20), 'docs/ä.md': 'umlaut\n' } });
    const renamed = await repo.git(['diff', '--name-status', '-M', 'HEAD^', 'HEAD']);
    expect(renamed).toContain('R100\tsrc/old.ts\tlib/new.ts');
    const head = await repo.commit('edit', { files: { 'README.md': 'changed\n' } });
    await repo.checkout('main');
    await repo.commit('unrelated main change', { files: { 'z.txt': 'main\n' } });
    const change = await recoverForward(handle(gd(repo)), { baseSha: base, headSha: head, baseRef: 'main', mergedAt: null, mergeCommitSha: null, number: 3 });
    expect(change).toEqual({
      base,
      baseRule: 'pr-base-sha',
      head,
      changedPaths: ['README.md', 'docs/ä.md', 'lib/new.ts', 'src/old.ts'],
    });
  });

  it('falls back to the merge base with the base branch at merge time when the base SHA is missing', async () => {
    const repo = await makeRepo();
    await repo.commit('c1', { files: { 'a.txt': '1\n' } });
    const fork = await repo.commit('c2', { files: { 'a.txt': '2\n' } });
    await repo.checkout('feature', { create: true });
    const head = await repo.commit('feature', { files: { 'f.txt': 'f\n' } });
    await repo.checkout('main');
    await repo.commit('main moves on', { files: { 'm.txt': 'm\n' } });
    const merge = await repo.merge('feature');
    const pr = { baseSha: 'e'.repeat(40), headSha: head, baseRef: 'main', mergedAt: '2024-01-01T05:30:00Z', mergeCommitSha: merge, number: 4 };
    const change = await recoverForward(handle(gd(repo)), pr);
    expect(change).toEqual({ base: fork, baseRule: 'merge-base-fallback', head, changedPaths: ['f.txt'] });
    // Without a merge commit in the mirror, the branch as it stood at mergedAt is used.
    const byDate = await recoverForward(handle(gd(repo)), { ...pr, mergeCommitSha: null });
    expect(byDate).toMatchObject({ base: fork, baseRule: 'merge-base-fallback' });
  });

  it('fails with the PR named when the head is not in the mirror', async () => {
    const repo = await makeRepo();
    const c = await repo.commit('c1');
    await expect(
      recoverForward(handle(gd(repo)), { baseSha: c, headSha: 'd'.repeat(40), baseRef: 'main', mergedAt: null, mergeCommitSha: null, number: 9 }),
    ).rejects.toThrow(/acme\/widgets#9: head d{40} is not a commit/);
  });
});

describe('trees', () => {
  it('lists every tracked path and reads workflow files, subdirectories included', async () => {
    const repo = await makeRepo();
    const c = await repo.commit('c1', {
      files: {
        '.github/workflows/ci.yml': 'on: push\n',
        '.github/workflows/nested/deep.yaml': 'on: pull_request\n',
        '.github/workflows/README.md': 'docs ✓\n',
        '.github/dependabot.yml': 'version: 2\n',
        'src/a.ts': 'a\n',
      },
    });
    expect(await listTree(gd(repo), c)).toEqual([
      '.github/dependabot.yml',
      '.github/workflows/README.md',
      '.github/workflows/ci.yml',
      '.github/workflows/nested/deep.yaml',
      'src/a.ts',
    ]);
    expect(await readWorkflowFiles(gd(repo), c)).toEqual([
      { path: '.github/workflows/README.md', text: 'docs ✓\n' },
      { path: '.github/workflows/ci.yml', text: 'on: push\n' },
      { path: '.github/workflows/nested/deep.yaml', text: 'on: pull_request\n' },
    ]);
    const bare = await repo.commit('no workflows', { files: { '.github/workflows/ci.yml': null, '.github/workflows/nested/deep.yaml': null, '.github/workflows/README.md': null } });
    expect(await readWorkflowFiles(gd(repo), bare)).toEqual([]);
    expect(await changedPaths(gd(repo), c, bare)).toEqual(['.github/workflows/README.md', '.github/workflows/ci.yml', '.github/workflows/nested/deep.yaml']);
  });

  it('fails with a git error on an unknown revision', async () => {
    const repo = await makeRepo();
    await repo.commit('c1');
    await expect(readWorkflowFiles(gd(repo), 'nope')).rejects.toThrow(/git ls-tree.*exited with code 128/);
  });
});
