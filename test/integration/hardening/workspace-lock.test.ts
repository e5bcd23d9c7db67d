/**
 * One writer per database: two `r2v run` on one fresh workspace give one clear "busy" line and
 * no failed items; read-only commands stay concurrent; a lock left by a dead pid is taken over.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireWorkspaceLock, lockPathOf, WorkspaceBusyError } from '../../../src/util/workspace-lock.js';
import { runCliCaptured } from '../../support/cli.js';
import { startFakeGitHub, type FakeGitHub } from '../../support/github-server.js';
import { tempDir } from '../../support/make-repo.js';
import { TOKEN, smallRepo, world } from '../github/world.js';

const BIN = join(resolve(import.meta.dirname, '../../..'), 'bin/r2v.js');
const servers: FakeGitHub[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

async function deadPid(): Promise<number> {
  const child = execa('node', ['-e', '0']);
  await child;
  return child.pid!;
}

describe('workspace lock', () => {
  it('two r2v run on one fresh workspace: one busy line naming the holder, no failed items', async () => {
    // Slow answers keep the first run inside its lock while the second starts.
    const server = await startFakeGitHub(world(smallRepo('acme/small')), { faults: [{ match: 'GET /repos/acme/small', kind: 'delay', delayMs: 400, times: Infinity }] });
    servers.push(server);
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), `github:\n  api_url: ${server.url}\nrepos:\n  - name: acme/small\n`);
    const env = { CI: 'true', GITHUB_TOKEN: TOKEN };
    const run = () => execa('node', [BIN, 'run', '--stage', 'discover'], { cwd: dir, env, reject: false });
    const children = [run(), run()];
    const results = (await Promise.all(children)).map((r, i) => ({ ...r, pid: children[i]!.pid })).sort((x, y) => (x.exitCode ?? 0) - (y.exitCode ?? 0));
    expect(results.map((r) => r.exitCode)).toEqual([0, 3]);
    const busy = results[1]!.stderr.trim().split('\n');
    expect(busy).toHaveLength(1);
    expect(busy[0]).toMatch(new RegExp(`^r2v: .*data/r2v\\.db: busy: pid ${results[0]!.pid} is running "r2v run" since \\S+; wait for it to finish`));
    expect(results[0]!.stderr).not.toContain('busy');
    const status = JSON.parse((await execa('node', [BIN, 'status', '--json'], { cwd: dir, env })).stdout) as { failures: unknown[]; stages: { name: string; done: number; failed: number }[] };
    expect(status.failures).toEqual([]);
    expect(status.stages.find((s) => s.name === 'discover')).toMatchObject({ done: 1, failed: 0 });
    expect(existsSync(join(dir, 'data', 'r2v.db.lock'))).toBe(false);
  });

  it('read-only commands run while a writer holds the lock; writers get the busy line', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), 'repos: []\n');
    expect((await runCliCaptured(['status'], dir)).code).toBe(0);
    const lock = acquireWorkspaceLock(join(dir, 'data', 'r2v.db'), 'run --stage probe');
    try {
      const status = await runCliCaptured(['status'], dir);
      expect(status.code).toBe(0);
      expect(status.stdout).toContain('stage');
      const run = await runCliCaptured(['run'], dir);
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(new RegExp(`^r2v: \\S+r2v\\.db: busy: pid ${process.pid} is running "r2v run --stage probe"`));
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      writeFileSync(join(dir, 'in.jsonl'), '');
      expect((await runCliCaptured(['import', '--threads', 'in.jsonl'], dir)).stderr).toContain('busy: pid');
      expect(() => acquireWorkspaceLock(join(dir, 'data', 'r2v.db'), 'run')).toThrow(WorkspaceBusyError);
    } finally {
      lock.release();
    }
    expect(existsSync(lockPathOf(join(dir, 'data', 'r2v.db')))).toBe(false);
    expect((await runCliCaptured(['run'], dir)).code).toBe(0);
  });

  it('a lock left by a dead pid is taken over', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), 'repos: []\n');
    mkdirSync(join(dir, 'data'));
    const pid = await deadPid();
    const path = join(dir, 'data', 'r2v.db.lock');
    writeFileSync(path, JSON.stringify({ pid, command: 'run', since: '2024-01-01T00:00:00.000Z', host: (await import('node:os')).hostname() }));
    const run = await runCliCaptured(['run'], dir);
    expect(run.stderr).not.toContain('busy');
    expect(run.code).toBe(0);
    expect(existsSync(path)).toBe(false);
    // A lock that is not even JSON (a torn write) is taken over too.
    writeFileSync(path, '{"pid": 12');
    const lock = acquireWorkspaceLock(join(dir, 'data', 'r2v.db'), 'run');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid, command: 'run' });
    lock.release();
  });
});
