import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { registerGitHub } from '../../../src/commands/github.js';
import type { CliContext, Io } from '../../../src/commands/types.js';
import { openStore } from '../../../src/store/db.js';
import { tempDir } from '../../support/make-repo.js';

interface Run {
  stdout: string;
  stderr: string;
  exitCode: number;
}

async function r2v(cwd: string, args: string[]): Promise<Run> {
  const out = { stdout: '', stderr: '', exitCode: 0 };
  const sink = (k: 'stdout' | 'stderr') => new Writable({ write: (c, _e, done) => ((out[k] += String(c)), done()) });
  const io: Io = { stdout: sink('stdout'), stderr: sink('stderr'), env: {}, cwd, isTTY: false };
  const ctx: CliContext = { io, signal: new AbortController().signal, setExitCode: (c) => void (out.exitCode = c) };
  const program = new Command().exitOverride().option('--config <file>').option('--db <file>').option('--quiet');
  registerGitHub(program, ctx);
  openStore(join(cwd, 'r2v.db')).close(); // as r2v init would: --db never creates a database
  await program.parseAsync(['node', 'r2v', '--db', 'r2v.db', ...args]);
  return out;
}

interface Tables {
  repos: unknown[];
  threads: unknown[];
  comments: unknown[];
  pulls: unknown[];
  links: unknown[];
}

function rows(dbFile: string): Tables {
  const store = openStore(dbFile);
  try {
    return {
      repos: store.db.prepare('SELECT name, source FROM repos ORDER BY name').all(),
      threads: store.db.prepare('SELECT * FROM threads ORDER BY repo, number').all(),
      comments: store.db.prepare('SELECT * FROM comments ORDER BY repo, comment_id').all(),
      pulls: store.db.prepare('SELECT * FROM pulls ORDER BY repo, number').all(),
      links: store.db.prepare('SELECT * FROM links ORDER BY repo, issue, pull, how').all(),
    };
  } finally {
    store.close();
  }
}

const SHA = (c: string): string => c.repeat(40);
const issueLine = {
  repo: 'someone/else',
  issue: { number: 1, title: 'Crash', body: 'It crashes. git bisect: abc is the first bad commit', user: { login: 'ann' }, created_at: '2024-01-01T00:00:00Z', html_url: 'https://github.com/someone/else/issues/1', state: 'closed' },
  comments: [
    { id: 11, user: { login: 'bob' }, created_at: '2024-01-02T00:00:00Z', body: 'confirmed' },
    { id: 12, user: { login: 'ann' }, created_at: '2024-01-03T00:00:00Z', body: null, html_url: 'https://github.com/someone/else/issues/1#issuecomment-12' },
  ],
};
const pullThreadLine = {
  repo: 'someone/else',
  issue: { number: 2, title: 'Fix crash', body: 'Fixes #1, closes #3. Not `fixes #4`.', user: { login: 'cid' }, created_at: '2024-01-04T00:00:00Z', html_url: 'https://github.com/someone/else/pull/2', pull_request: { url: 'x' } },
  comments: [],
  pull_request: {
    number: 2, title: 'Fix crash', body: 'Fixes #1, closes #3. Not `fixes #4`.', user: { login: 'cid' }, state: 'closed', draft: false,
    base: { ref: 'main', sha: SHA('a') }, head: { ref: 'fix', sha: SHA('b') }, merge_commit_sha: SHA('c'),
    created_at: '2024-01-04T00:00:00Z', merged_at: '2024-01-05T00:00:00Z', html_url: 'https://github.com/someone/else/pull/2',
  },
  commits: [{ sha: SHA('d'), commit: { message: 'guard null\n\nresolves #5' } }],
  closing_issues: [1],
};

describe('r2v import --threads and threads export', () => {
  it('round-trips: import → export → import gives equal rows and an identical export', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'in.jsonl'), `${JSON.stringify(issueLine)}\n\n${JSON.stringify(pullThreadLine)}\n`);
    const first = await r2v(dir, ['import', '--threads', 'in.jsonl']);
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout)).toMatchObject({ lines: 2, imported: 2, bad: 0, threads: 2, comments: 2, pulls: 1, links: 4 });
    const a = rows(join(dir, 'r2v.db'));
    expect(a.repos).toEqual([{ name: 'someone/else', source: 'import' }]);
    expect(a.links.map((l) => { const r = l as { issue: number; how: string; evidence: string }; return [r.issue, r.how, r.evidence]; })).toEqual([
      [1, 'import', 'closing_issues'],
      [1, 'keyword-body', 'Fixes #1'],
      [3, 'keyword-body', 'closes #3'],
      [5, 'keyword-commit', 'dddddddddddd: resolves #5'],
    ]);
    expect(a.threads.map((t) => (t as { kind: string }).kind)).toEqual(['issue', 'pull']);

    const exported = await r2v(dir, ['threads', 'export', '--out', 'out.jsonl']);
    expect(exported.stdout).toBe('');
    const text = readFileSync(join(dir, 'out.jsonl'), 'utf8');
    expect(text.trim().split('\n')).toHaveLength(2);

    const dir2 = await tempDir();
    await writeFile(join(dir2, 'in.jsonl'), text);
    expect((await r2v(dir2, ['import', '--threads', 'in.jsonl'])).exitCode).toBe(0);
    expect(rows(join(dir2, 'r2v.db'))).toEqual(a);
    expect((await r2v(dir2, ['threads', 'export', '--repo', 'SOMEONE/else'])).stdout).toBe(text);
  });

  it('reports each bad line as FILE:LINE: reason, keeps every valid line and exits 3', async () => {
    const dir = await tempDir();
    const noLogin = { ...issueLine, issue: { ...issueLine.issue, number: 7, user: {} } };
    const second = { ...issueLine, issue: { ...issueLine.issue, number: 8 }, comments: [] };
    await writeFile(join(dir, 'in.jsonl'), [JSON.stringify(issueLine), '{"repo": "someone/else", "issue": {', JSON.stringify(noLogin), JSON.stringify({ ...second, repo: 'not a repo' }), JSON.stringify(second)].join('\n'));
    const run = await r2v(dir, ['import', '--threads', 'in.jsonl']);
    expect(run.exitCode).toBe(3);
    const errors = run.stderr.trim().split('\n');
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(/^in\.jsonl:2: malformed JSON \(.+\)$/);
    expect(errors[1]).toBe('in.jsonl:3: issue.user.login: Invalid input: expected string, received undefined');
    expect(errors[2]).toBe('in.jsonl:4: repo: must be owner/name');
    expect(rows(join(dir, 'r2v.db')).threads.map((t) => (t as { number: number }).number)).toEqual([1, 8]);
  });

  it('fails with one line and writes nothing when the file is missing or no input is named', async () => {
    const dir = await tempDir();
    await expect(r2v(dir, ['import', '--threads', 'nope.jsonl'])).rejects.toThrow(/nope\.jsonl: cannot read: ENOENT$/);
    expect(rows(join(dir, 'r2v.db')).threads).toEqual([]);
    await expect(r2v(dir, ['import'])).rejects.toThrow('import needs --threads FILE or --pulls FILE');
    await expect(r2v(dir, ['threads', 'export', '--repo', 'x/y'])).rejects.toThrow('--repo x/y: no stored threads for this repository');
  });
});

describe('r2v import --pulls', () => {
  it('imports merged pull requests in both line shapes, with closing_issues and keyword links', async () => {
    const dir = await tempDir();
    const wrapped = { repo: 'someone/else', pull: pullThreadLine.pull_request, commits: pullThreadLine.commits, closing_issues: [9] };
    const bare = {
      ...pullThreadLine.pull_request,
      number: 6,
      title: 'Fix #2 again',
      body: '',
      base: { ref: 'main', sha: SHA('e'), repo: { full_name: 'someone/else' } },
    };
    const unmerged = { ...bare, number: 7, merged_at: null };
    await writeFile(join(dir, 'pulls.jsonl'), [wrapped, bare, unmerged].map((l) => JSON.stringify(l)).join('\n'));
    const run = await r2v(dir, ['import', '--pulls', 'pulls.jsonl']);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe('pulls.jsonl:3: skipped: pull request is not merged\n');
    const r = rows(join(dir, 'r2v.db'));
    expect(r.pulls.map((p) => { const x = p as { number: number; base_sha: string; source: string; commit_shas: string }; return [x.number, x.base_sha, x.source, x.commit_shas]; })).toEqual([
      [2, SHA('a'), 'import', JSON.stringify([SHA('d')])],
      [6, SHA('e'), 'import', '[]'],
    ]);
    expect(r.links.map((l) => { const x = l as { issue: number; pull: number; how: string }; return [x.pull, x.issue, x.how]; })).toEqual([
      [2, 1, 'keyword-body'],
      [6, 2, 'keyword-title'],
      [2, 3, 'keyword-body'],
      [2, 5, 'keyword-commit'],
      [2, 9, 'import'],
    ]);
  });
});
