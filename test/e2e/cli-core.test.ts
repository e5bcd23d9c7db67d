import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../support/make-repo.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/r2v.js');
const WITH_TEST_STAGES = join(ROOT, 'test/support/cli-with-test-stages.mjs');

async function r2v(cwd: string, args: string[]) {
  return execa('node', [BIN, ...args], { cwd, reject: false, env: { CI: 'true' } });
}

describe('r2v CLI basics', () => {
  it('--help lists the commands', async () => {
    const dir = await tempDir();
    const r = await r2v(dir, ['--help']);
    expect(r.exitCode).toBe(0);
    for (const c of ['init', 'repo', 'run', 'status', 'retry']) expect(r.stdout).toMatch(new RegExp(`^  ${c}\\b`, 'm'));
  });

  it('init then status --json works in an empty directory', async () => {
    const dir = await tempDir();
    const init = await r2v(dir, ['init']);
    expect(init.exitCode).toBe(0);
    expect(existsSync(join(dir, 'r2v.config.yaml'))).toBe(true);
    expect(existsSync(join(dir, 'data/r2v.db'))).toBe(true);
    const status = await r2v(dir, ['status', '--json']);
    expect(status.exitCode).toBe(0);
    const report = JSON.parse(status.stdout) as { stages: { name: string }[]; db: string };
    expect(report.db).toBe(join(dir, 'data/r2v.db'));
    expect(Array.isArray(report.stages)).toBe(true);
  });

  it('repo add / list / remove edit the config and keep its comments', async () => {
    const dir = await tempDir();
    await r2v(dir, ['init']);
    expect((await r2v(dir, ['repo', 'add', 'acme/widgets', '--git-url', '/srv/widgets.git'])).exitCode).toBe(0);
    const dup = await r2v(dir, ['repo', 'add', 'acme/widgets']);
    expect(dup.exitCode).toBe(2);
    expect(dup.stderr).toContain('acme/widgets: already in');
    const bad = await r2v(dir, ['repo', 'add', 'not a repo']);
    expect(bad.exitCode).toBe(2);
    const list = await r2v(dir, ['repo', 'list']);
    expect(list.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual([{ name: 'acme/widgets', git_url: '/srv/widgets.git' }]);
    expect(readFileSync(join(dir, 'r2v.config.yaml'), 'utf8')).toContain('# r2v configuration');
    expect((await r2v(dir, ['repo', 'remove', 'acme/widgets'])).exitCode).toBe(0);
    expect((await r2v(dir, ['repo', 'list'])).stdout.trim()).toBe('');
  });

  it.each([
    ['a YAML syntax error', 'data_dir: [unclosed\n', /r2v\.config\.yaml:\d+:\d+: invalid YAML/],
    ['an unknown field', 'colour: blue\n', /r2v\.config\.yaml: \(root\): Unrecognized key: "colour"/],
    ['a bad value', 'concurrency: many\n', /r2v\.config\.yaml: concurrency: .*expected number/],
    ['a bad repository name', 'repos:\n  - name: nope\n', /r2v\.config\.yaml: repos\.0\.name: must be owner\/name/],
  ])('a broken config (%s) gives one line and exit 2', async (_label, text, pattern) => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), text);
    const r = await r2v(dir, ['status']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
  });

  it('unknown options and stages are usage errors (exit 2)', async () => {
    const dir = await tempDir();
    expect((await r2v(dir, ['run', '--bogus'])).exitCode).toBe(2);
    const r = await r2v(dir, ['run', '--stage', 'nope']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--stage nope: unknown stage');
    expect((await r2v(dir, ['run', '--concurrency', 'x'])).exitCode).toBe(2);
  });
});

describe('r2v run survives SIGKILL', () => {
  const config = 'repos:\n  - name: test/world\n';
  const run = (cwd: string, count: number, delay: number) =>
    execa('node', [WITH_TEST_STAGES, String(count), String(delay), 'run', '--stage', 'squares', '--concurrency', '3'], {
      cwd, reject: false, env: { CI: 'true' },
    });
  const table = (dir: string) => {
    const db = new Database(join(dir, 'data/r2v.db'), { readonly: true });
    try {
      return {
        rows: db.prepare('SELECT key, n, square FROM test_squares ORDER BY key').all(),
        ledger: db.prepare("SELECT key, status, reason FROM work_items WHERE stage = 'squares' ORDER BY key").all(),
      };
    } finally {
      db.close();
    }
  };

  it('a run killed mid-stage resumes to the same rows as an uninterrupted run', async () => {
    const count = 400;
    const clean = await tempDir();
    writeFileSync(join(clean, 'r2v.config.yaml'), config);
    const full = await run(clean, count, 0);
    expect(full.exitCode).toBe(0);
    const expected = table(clean);
    expect(expected.rows).toHaveLength(count);

    const killed = await tempDir();
    writeFileSync(join(killed, 'r2v.config.yaml'), config);
    const child = run(killed, count, 8);
    // Wait until some items are committed, then kill without warning.
    const dbPath = join(killed, 'data/r2v.db');
    for (let i = 0; i < 400; i += 1) {
      await new Promise((r) => setTimeout(r, 50));
      if (!existsSync(dbPath)) continue;
      const db = new Database(dbPath, { readonly: true });
      let n = 0;
      try {
        n = (db.prepare("SELECT COUNT(*) AS n FROM work_items WHERE stage = 'squares'").get() as { n: number }).n;
      } catch {
        n = 0;
      } finally {
        db.close();
      }
      if (n >= 20) break;
    }
    child.kill('SIGKILL');
    const result = await child;
    expect(result.signal).toBe('SIGKILL');
    const partial = table(killed);
    expect(partial.rows.length).toBeGreaterThan(0);
    expect(partial.rows.length).toBeLessThan(count);

    const resumed = await run(killed, count, 0);
    expect(resumed.exitCode).toBe(0);
    expect(table(killed)).toEqual(expected);
  });
});
