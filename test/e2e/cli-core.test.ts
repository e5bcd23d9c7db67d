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
    expect(r.stderr).toMatch(/option '--stage <name>' argument 'nope' is invalid\. Allowed choices are discover, /);
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

describe('r2v run on Ctrl-C and progress', () => {
  const config = 'repos:\n  - name: test/world\n';
  const run = (cwd: string, count: number, delay: number, extra: string[] = []) =>
    execa('node', [WITH_TEST_STAGES, String(count), String(delay), ...extra, 'run', '--stage', 'squares', '--concurrency', '2'], {
      cwd, reject: false, env: { CI: 'true' },
    });
  const ledger = (dir: string) => {
    const db = new Database(join(dir, 'data/r2v.db'), { readonly: true });
    try {
      return {
        items: (db.prepare("SELECT COUNT(*) AS n FROM work_items WHERE stage = 'squares'").get() as { n: number }).n,
        rows: (db.prepare('SELECT COUNT(*) AS n FROM test_squares').get() as { n: number }).n,
        keys: (db.prepare('SELECT COUNT(DISTINCT key) AS n FROM test_squares').get() as { n: number }).n,
      };
    } finally {
      db.close();
    }
  };

  it('SIGINT finishes the items in flight, exits 130 with a resume hint, and the next run completes', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), config);
    const child = run(dir, 300, 20);
    const dbPath = join(dir, 'data/r2v.db');
    let seen = 0;
    for (let i = 0; i < 400 && seen < 10; i += 1) {
      await new Promise((r) => setTimeout(r, 50));
      if (!existsSync(dbPath)) continue;
      try {
        seen = ledger(dir).items;
      } catch {
        seen = 0;
      }
    }
    expect(seen).toBeGreaterThanOrEqual(10);
    child.kill('SIGINT');
    const interrupted = await child;
    expect(interrupted.exitCode).toBe(130);
    expect(interrupted.stderr).toContain('interrupted; finishing the current items');
    expect(interrupted.stderr).toContain('run the same command again to resume');
    const partial = ledger(dir);
    expect(partial.items).toBeLessThan(300);
    // Every ledger row has its result row, and the reverse (multiples of ten are rejections that also save).
    expect(partial.rows).toBe(partial.items);
    const resumed = await run(dir, 300, 0);
    expect(resumed.exitCode).toBe(0);
    expect(ledger(dir)).toEqual({ items: 300, rows: 300, keys: 300 });
  });

  it('off a terminal prints plain progress lines on stderr, nothing on stdout; --quiet prints none', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), config);
    const loud = await run(dir, 5, 0);
    expect(loud.exitCode).toBe(0);
    expect(loud.stdout).toBe('');
    expect(loud.stderr).toMatch(/^r2v: squares: 5 pending$/m);
    expect(loud.stderr).toMatch(/^r2v: squares +5\/5 \(done 5, rejected 0, failed 0\) .* finished$/m);
    const quiet = await execa('node', [WITH_TEST_STAGES, '5', '0', '--quiet', 'run', '--stage', 'squares', '--force'], {
      cwd: dir, reject: false, env: { CI: 'true' },
    });
    expect(quiet.exitCode).toBe(0);
    expect(quiet.stderr).not.toMatch(/squares/);
  });
});

describe('r2v run, status and retry with failing items', () => {
  const config = 'repos:\n  - name: test/world\n';
  const cli = (cwd: string, args: string[], fail = '') =>
    execa('node', [WITH_TEST_STAGES, '12', '0', ...args], { cwd, reject: false, env: { CI: 'true', R2V_TEST_FAIL: fail } });
  const squares = async (cwd: string) => {
    const r = await cli(cwd, ['status', '--json']);
    const report = JSON.parse(r.stdout) as { stages: { name: string; done: number; rejected: number; failed: number; pending: number }[]; failures: { key: string; kind: string; message: string }[] };
    return { stage: report.stages.find((s) => s.name === 'squares'), failures: report.failures.map((f) => [f.key, f.kind, f.message]) };
  };

  it('records failures by kind, exits 3, lists them in status, and retry --kind re-runs only that kind', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), config);
    const run = await cli(dir, ['run', '--stage', 'squares'], '3:transient,7:timeout');
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain('r2v: squares: 9 done, 1 rejected, 2 failed, 0 up to date');
    expect(await squares(dir)).toEqual({
      stage: { name: 'squares', version: 1, total: 12, done: 9, rejected: 1, failed: 2, pending: 0 },
      failures: [['test/world#3', 'transient', 'square 3 failed'], ['test/world#7', 'timeout', 'square 7 failed']],
    });
    const human = await cli(dir, ['status', '--failed']);
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toContain('failures: squares/transient 1, squares/timeout 1');
    expect(human.stdout).toContain('  squares test/world#7 [timeout] square 7 failed');

    const retried = await cli(dir, ['retry', '--stage', 'squares', '--kind', 'transient']);
    expect(retried.exitCode).toBe(0);
    expect(retried.stderr).toContain('r2v: squares: retried 1: 1 done, 0 rejected, 0 failed');
    expect(await squares(dir)).toMatchObject({ stage: { done: 10, failed: 1 }, failures: [['test/world#7', 'timeout', 'square 7 failed']] });

    const bug = await execa('node', [WITH_TEST_STAGES, '12', '0', 'run', '--stage', 'squares'], { cwd: dir, reject: false, env: { CI: 'true', R2V_TEST_PLAN_BUG: '1' } });
    expect(bug.exitCode).toBe(1);
    expect(bug.stderr).toMatch(/^r2v: internal error \(this is a bug\): TypeError: squares plan broke\n\s+at /m);

    const rest = await cli(dir, ['retry', '--stage', 'squares']);
    expect(rest.exitCode).toBe(0);
    expect(await squares(dir)).toMatchObject({ stage: { done: 11, rejected: 1, failed: 0, pending: 0 }, failures: [] });
  });

  it('under --quiet still says in one line why it exits 3', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), config);
    const quiet = await cli(dir, ['--quiet', 'run', '--stage', 'squares'], '5:git');
    expect(quiet.exitCode).toBe(3);
    expect(quiet.stderr).toBe('r2v: 1 item failed (squares 1); `r2v status --failed` says why');
    const clean = await cli(dir, ['--quiet', 'retry', '--stage', 'squares']);
    expect(clean.exitCode).toBe(0);
    expect(clean.stderr).toBe('');
  });
});

describe('r2v run and status with --repo', () => {
  it('run --repo processes only that repository; status --repo counts only it', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), 'repos:\n  - name: test/one\n  - name: test/two\n');
    const cli = (args: string[]) => execa('node', [WITH_TEST_STAGES, '5', '0', ...args], { cwd: dir, reject: false, env: { CI: 'true' } });
    const squares = (stdout: string) => (JSON.parse(stdout) as { stages: { name: string; total: number; done: number; pending: number }[] }).stages.find((s) => s.name === 'squares');
    expect((await cli(['run', '--stage', 'squares', '--repo', 'test/one'])).exitCode).toBe(0);
    expect(squares((await cli(['status', '--json', '--repo', 'test/one'])).stdout)).toMatchObject({ total: 5, done: 5, pending: 0 });
    expect(squares((await cli(['status', '--json'])).stdout)).toMatchObject({ total: 10, done: 5, pending: 5 });
    const unknown = await cli(['run', '--stage', 'squares', '--repo', 'test/three']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/test\/three/);
  });
});
