import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli.js';
import { makeRepo, tempDir } from '../../support/make-repo.js';
import { commitsSharingPrefix, gd } from './support.js';

async function r2v(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (d: Buffer) => (stdout += d.toString()));
  err.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await runCli(args, { io: { stdout: out, stderr: err, cwd, env: {}, isTTY: false }, signal: new AbortController().signal });
  return { code, stdout, stderr };
}

function lines(stdout: string): unknown[] {
  return stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
}

describe('r2v resolve', () => {
  it('prints one JSON object per name, with parents and candidates', async () => {
    const repo = await makeRepo();
    const c1 = await repo.commit('c1', { files: { 'a.txt': 'a\n' } });
    const [a, b] = await commitsSharingPrefix(repo, 4);
    const blob = await repo.git(['rev-parse', `${c1}:a.txt`]);
    const r = await r2v(['resolve', '--git-dir', repo.dir, c1.slice(0, 7), a.slice(0, 4), blob, 'deadbeefdeadbeef'], '/');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([
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
    expect(lines(r.stdout)).toEqual([
      { input: a.slice(0, 4), status: 'ok', sha: a, candidates: [], parents: [c1] },
      { input: c2, status: 'missing', sha: null, candidates: [], parents: [] },
      { input: c1.slice(0, 8), status: 'ok', sha: c1, candidates: [], parents: [] },
    ]);
    expect(b).not.toBe(a);
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
    expect(lines(r.stdout)).toEqual([{ base, head, changedPaths: ['new/name.txt', 'old/name.txt'] }]);
  });

  it('names the bad revision', async () => {
    const repo = await makeRepo();
    const c = await repo.commit('c1');
    const r = await r2v(['diff', '--git-dir', repo.dir, '--base', 'f'.repeat(40), '--head', c], '/');
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: `r2v: --base ${'f'.repeat(40)}: no such commit\n` });
  });
});
