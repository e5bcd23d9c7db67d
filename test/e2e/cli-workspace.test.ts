/**
 * Errors of the environment and of the newcomer: a config that is a directory, a database that is
 * not one, a data directory that cannot exist, a full disk, a read-only workspace, a missing
 * config, a mistyped --db, an empty export over a good one, and --db alone.
 */
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCliCaptured } from '../support/cli.js';
import { tempDir } from '../support/make-repo.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/r2v.js');
const IS_ROOT = process.getuid?.() === 0;

/** In-process `r2v ARGS` in `cwd`. */
async function r2v(cwd: string, args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const r = await runCliCaptured(args, cwd);
  return { exitCode: r.code, stdout: r.stdout, stderr: r.stderr };
}

/** `node bin/r2v.js ARGS` as an unprivileged user (chmod does not stop root). */
async function r2vAsUser(cwd: string, args: string[]) {
  const [file, argv] = IS_ROOT
    ? ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'node', BIN, ...args]]
    : ['node', [BIN, ...args]];
  return execa(file, argv, { cwd, reject: false, env: { CI: 'true', HOME: cwd, PATH: process.env.PATH } });
}

function expectOneLine(r: { stderr: string }, pattern: RegExp): void {
  expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
}

const thread = (n: number, repo = 'acme/widgets') => ({
  repo,
  issue: { number: n, title: `Crash ${n}`, body: 'It crashes.', user: { login: 'ann' }, created_at: '2024-01-01T00:00:00Z', html_url: `https://github.com/${repo}/issues/${n}`, state: 'closed' },
  comments: [{ id: 1000 + n, user: { login: 'bob' }, created_at: '2024-01-02T00:00:00Z', body: 'confirmed' }],
});

/** A workspace with a config naming acme/widgets, data in ./store, and two imported threads. */
async function workspace(): Promise<string> {
  const dir = await tempDir();
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'r2v.config.yaml'), 'data_dir: store\nrepos:\n  - name: acme/widgets\n');
  expect((await r2v(dir, ['init'])).exitCode).toBe(0);
  writeFileSync(join(dir, 'threads.jsonl'), `${JSON.stringify(thread(1))}\n${JSON.stringify(thread(2))}\n`);
  const imported = await r2v(dir, ['import', '--threads', 'threads.jsonl']);
  expect(imported.exitCode).toBe(0);
  return dir;
}

describe('errors of the environment are one line, never a stack (exit 2 or 3)', () => {
  it('a config path that is a directory: exit 2', async () => {
    const dir = await tempDir();
    mkdirSync(join(dir, 'conf'));
    const r = await r2v(dir, ['--config', 'conf', 'status']);
    expect(r.exitCode).toBe(2);
    expectOneLine(r, /conf: is a directory, not a config file/);
  });

  it('a --db that is not SQLite, or a directory: exit 2, file untouched', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'notes.db'), 'shopping list\n');
    mkdirSync(join(dir, 'dir.db'));
    const notSqlite = await r2v(dir, ['--db', 'notes.db', 'status']);
    expect(notSqlite.exitCode).toBe(2);
    expectOneLine(notSqlite, /notes\.db: not an SQLite database/);
    expect(readFileSync(join(dir, 'notes.db'), 'utf8')).toBe('shopping list\n');
    const directory = await r2v(dir, ['--db', 'dir.db', 'status']);
    expect(directory.exitCode).toBe(2);
    expectOneLine(directory, /dir\.db: is a directory, not a database file/);
  });

  it('a data directory that cannot be created: one line (a file in the way: 2; /proc: 3, at once)', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'afile'), 'x');
    writeFileSync(join(dir, 'r2v.config.yaml'), 'data_dir: afile/data\n');
    const blocked = await r2v(dir, ['run']);
    expect(blocked.exitCode).toBe(2);
    expectOneLine(blocked, /afile\/data: cannot create data directory: a parent is not a directory/);
    // mkdir -p under /proc spins forever in Node; the data directory is created step by step.
    writeFileSync(join(dir, 'r2v.config.yaml'), 'data_dir: /proc/1/x\n');
    for (const args of [['status'], ['run'], ['init']]) {
      const r = await r2v(dir, args);
      expect(r.exitCode).toBe(3);
      expect(r.stderr).toMatch(/\/proc\/1\/x: cannot create data directory: ENOENT/);
      expect(r.stderr).not.toMatch(/internal error/);
    }
  });

  it('a full disk (SQLITE_FULL) while importing: exit 3, one line, nothing half-written', async () => {
    const dir = await workspace();
    const big = Array.from({ length: 400 }, (_, i) => JSON.stringify({ ...thread(100 + i), comments: [{ id: 5000 + i, user: { login: 'bob' }, created_at: '2024-01-02T00:00:00Z', body: 'x'.repeat(8000) }] }));
    writeFileSync(join(dir, 'big.jsonl'), `${big.join('\n')}\n`);
    // A small tmpfs over the data directory, in a private mount namespace.
    const script = [
      'mkdir seed && cp -a store/. seed/',
      'mount -t tmpfs -o size=600k r2vfull store && cp -a seed/. store/',
      `node ${BIN} import --threads big.jsonl; rc=$?`,
      `node ${BIN} threads export > after.jsonl`,
      'exit $rc',
    ].join('\n');
    const r = await execa('unshare', ['-rm', 'sh', '-c', script], { cwd: dir, reject: false, env: { CI: 'true', PATH: process.env.PATH } });
    expect(r.exitCode).toBe(3);
    expectOneLine(r, /SQLITE_FULL|disk full/);
    // The import is one transaction: the two threads from before, none of the new ones.
    expect(readFileSync(join(dir, 'after.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
  }, 300_000);
});

describe('read-only workspaces', () => {
  it('status, export and threads export work on a read-only database in a read-only directory', async () => {
    const dir = await workspace();
    const before = await r2v(dir, ['status', '--json']);
    expect(before.exitCode).toBe(0);
    const threadsBefore = await r2v(dir, ['threads', 'export']);
    for (const f of readdirSync(join(dir, 'store'))) chmodSync(join(dir, 'store', f), 0o444);
    chmodSync(join(dir, 'store'), 0o555);
    chmodSync(dir, 0o555);
    const out = await tempDir();
    chmodSync(out, 0o777);
    try {
      const status = await r2vAsUser(dir, ['status', '--json']);
      expect(status.stderr).toBe('');
      expect(status.exitCode).toBe(0);
      expect(JSON.parse(status.stdout)).toEqual(JSON.parse(before.stdout));
      const exported = await r2vAsUser(dir, ['export', '--out', out]);
      expect(exported.stderr).toBe('');
      expect(exported.exitCode).toBe(0);
      expect(existsSync(join(out, 'backward.jsonl'))).toBe(true);
      const threads = await r2vAsUser(dir, ['threads', 'export']);
      expect(threads.exitCode).toBe(0);
      expect(threads.stdout).toBe(threadsBefore.stdout.trimEnd()); // execa strips the final newline
      // A command that writes says so in one line (exit 3).
      const run = await r2vAsUser(dir, ['import', '--threads', 'threads.jsonl']);
      expect(run.exitCode).toBe(3);
      expectOneLine(run, /read-only|readonly|permission denied/);
    } finally {
      chmodSync(dir, 0o755);
      chmodSync(join(dir, 'store'), 0o755);
    }
  }, 300_000);
});

describe('the newcomer: no config, a mistyped --db, an empty export, --db alone', () => {
  it('without ./r2v.config.yaml, commands that need one say so in one line (exit 2)', async () => {
    const dir = await tempDir();
    for (const args of [['status'], ['run'], ['export'], ['repo', 'list'], ['import', '--threads', 'x.jsonl'], ['pairs', 'list']]) {
      const r = await r2v(dir, args);
      expect(r.exitCode).toBe(2);
      expectOneLine(r, /no r2v\.config\.yaml in .*r2v init/);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a mistyped --db is refused and never created (only init creates one)', async () => {
    const dir = await workspace();
    for (const args of [['status'], ['run'], ['export', '--out', 'm'], ['import', '--threads', 'threads.jsonl']]) {
      const r = await r2v(dir, ['--db', 'store/r2v.bd', ...args]);
      expect(r.exitCode).toBe(2);
      expectOneLine(r, /store\/r2v\.bd: no such database \(create one with: r2v init\)/);
    }
    expect(existsSync(join(dir, 'store/r2v.bd'))).toBe(false);
    expect((await r2v(dir, ['--db', 'store/other.db', 'init'])).exitCode).toBe(0);
    expect(existsSync(join(dir, 'store/other.db'))).toBe(true);
  });

  it('export refuses to replace a manifest holding records with an empty one unless --force', async () => {
    const dir = await workspace();
    mkdirSync(join(dir, 'manifests'));
    const good = '{"case_id":"acme_widgets__1__aaaaaaaa","task":"backward"}\n';
    writeFileSync(join(dir, 'manifests/backward.jsonl'), good);
    const refused = await r2v(dir, ['export', '--out', 'manifests']);
    expect(refused.exitCode).toBe(2);
    expectOneLine(refused, /manifests\/backward\.jsonl: holds records and this export has none; kept it .*--force/);
    expect(readFileSync(join(dir, 'manifests/backward.jsonl'), 'utf8')).toBe(good);
    expect(readdirSync(join(dir, 'manifests'))).toEqual(['backward.jsonl']);
    const forced = await r2v(dir, ['export', '--out', 'manifests', '--force']);
    expect(forced.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'manifests/backward.jsonl'), 'utf8')).toBe('');
  });

  it('--db alone uses the workspace recorded in the database: the same status as with the config', async () => {
    const dir = await workspace();
    const withConfig = await r2v(dir, ['status', '--json']);
    expect(withConfig.exitCode).toBe(0);
    const elsewhere = await tempDir();
    const withDb = await r2v(elsewhere, ['--db', join(dir, 'store/r2v.db'), 'status', '--json']);
    expect(withDb.stderr).toBe('');
    expect(withDb.exitCode).toBe(0);
    const a = JSON.parse(withConfig.stdout) as { repos: string[]; stages: unknown[] };
    const b = JSON.parse(withDb.stdout) as { repos: string[]; stages: unknown[] };
    expect(b.repos).toEqual(['acme/widgets']);
    expect(b.stages).toEqual(a.stages);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
