import { describe, expect, it } from 'vitest';
import { jsonLines, runCliCaptured as r2v } from '../../support/cli.js';
import { makeRepo, tempDir } from '../../support/make-repo.js';
import { commitsSharingPrefix, gd } from './support.js';

describe('r2v resolve', () => {
  it('prints one JSON object per name, with parents and candidates', async () => {
    const repo = await makeRepo();
    const c1 = await repo.commit('c1', { files: { 'a.txt': 'a\n' } });
    const [a, b] = await commitsSharingPrefix(repo, 4);
    const blob = await repo.git(['rev-parse', `${c1}:a.txt`]);
    const r = await r2v(['resolve', '--git-dir', repo.dir, c1.slice(0, 7), a.slice(0, 4), blob, 'deadbeefdeadbeef'], '/');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout)).toEqual([
      { input: c1.slice(0, 7), status: 'ok', sha: c1, candidates: [], parents: [] },
      { input: a.slice(0, 4), status: 'ambiguous', sha: null, candidates: [a, b].sort(), parents: [] },
      { input: blob, status: 'not-commit', sha: null, candidates: [], parents: [] },
      { input: 'deadbeefdeadbeef', status: 'missing', sha: null, candidates: [], parents: [] },
    ]);
  });

  it('with --cutoff counts only history up to the cutoff', async () => {
    const repo = await makeRepo();
    const c1 = await repo.commit('c1');
    const [a, b] = await commitsSharingPrefix(repo, 4); // both children of c1, on side branches
    const c2 = await repo.commit('c2');
    await repo.updateRef('refs/heads/main', a);
    const r = await r2v(['resolve', '--git-dir', gd(repo), '--cutoff', a, a.slice(0, 4), c2, c1.slice(0, 8)], '/');
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout)).toEqual([
      { input: a.slice(0, 4), status: 'ok', sha: a, candidates: [], parents: [c1] },
      { input: c2, status: 'missing', sha: null, candidates: [], parents: [] },
      { input: c1.slice(0, 8), status: 'ok', sha: c1, candidates: [], parents: [] },
    ]);
    expect(b).not.toBe(a);
  });

  it('peels an annotated tag name to its commit, in names and --cutoff, but not the tag object hex', async () => {
    const repo = await makeRepo();
    const c1 = await repo.commit('c1');
    await repo.git(['tag', '-a', 'v1.0.0', '-m', 'release 1.0.0', c1]);
    const c2 = await repo.commit('c2');
    const tagObject = await repo.git(['rev-parse', 'v1.0.0']);
    expect(tagObject).not.toBe(c1);
    const r = await r2v(['resolve', '--git-dir', gd(repo), '--cutoff', 'v1.0.0', 'v1.0.0', tagObject, c2], '/');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(jsonLines(r.stdout)).toEqual([
      { input: 'v1.0.0', status: 'ok', sha: c1, candidates: [], parents: [] },
      { input: tagObject, status: 'not-commit', sha: null, candidates: [], parents: [] },
      { input: c2, status: 'missing', sha: null, candidates: [], parents: [] },
    ]);
  });

  it('rejects a missing or invalid --git-dir and a bad --cutoff with one line and exit 2', async () => {
    const dir = await tempDir();
    const none = await r2v(['resolve', '--git-dir', 'nowhere', 'abc1234'], dir);
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr).toBe('r2v: --git-dir nowhere: no such directory\n');
    const notRepo = await r2v(['resolve', '--git-dir', '.', 'abc1234'], dir);
    expect(notRepo.stderr).toBe('r2v: --git-dir .: not a git repository\n');
    expect(notRepo.code).toBe(2);
    const missing = await r2v(['resolve', 'abc1234'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/required option '--git-dir <dir>' not specified/);
    const repo = await makeRepo();
    await repo.commit('c1');
    const badCutoff = await r2v(['resolve', '--git-dir', repo.dir, '--cutoff', 'nope', 'HEAD'], dir);
    expect(badCutoff).toMatchObject({ code: 2, stdout: '', stderr: 'r2v: --cutoff nope: no such commit\n' });
  });
});

describe('r2v diff', () => {
  it('prints Δ* with both paths of a rename', async () => {
    const repo = await makeRepo();
    const base = await repo.commit('base', { files: { 'old/name.txt': 'same content\n'.repeat(10), 'keep.txt': 'k\n' } });
    const head = await repo.commit('rename', { files: { 'old/name.txt': null, 'new/name.txt': 'same content\n'.repeat(10) } });
    const r = await r2v(['diff', '--git-dir', repo.dir, '--base', base.slice(0, 10), '--head', head], '/');
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout)).toEqual([{ base, head, changed_paths: ['new/name.txt', 'old/name.txt'] }]);
  });

  it('accepts annotated tag names as --base and --head', async () => {
    const repo = await makeRepo();
    const base = await repo.commit('base', { files: { 'a.txt': 'a\n' } });
    await repo.git(['tag', '-a', '1.0.0', '-m', 'release', base]);
    const head = await repo.commit('head', { files: { 'b.txt': 'b\n' } });
    await repo.git(['tag', '-a', '1.0.1', '-m', 'release', head]);
    const r = await r2v(['diff', '--git-dir', repo.dir, '--base', '1.0.0', '--head', '1.0.1'], '/');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(jsonLines(r.stdout)).toEqual([{ base, head, changed_paths: ['b.txt'] }]);
  });

  it('names the bad revision', async () => {
    const repo = await makeRepo();
    const c = await repo.commit('c1');
    const r = await r2v(['diff', '--git-dir', repo.dir, '--base', 'f'.repeat(40), '--head', c], '/');
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: `r2v: --base ${'f'.repeat(40)}: no such commit\n` });
  });
});
