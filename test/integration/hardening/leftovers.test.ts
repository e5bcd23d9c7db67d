/**
 * Leftovers of killed runs are cleaned when the next run starts: unfinished `runs` rows (shown
 * as interrupted by status), partial probe logs, the pairs runner's temp directories and
 * registered probe worktrees of pids that are gone; those of live pids stay.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/db.js';
import { acquireWorkspaceLock } from '../../../src/util/workspace-lock.js';
import { runCliCaptured } from '../../support/cli.js';
import { cleanupTempDirs, makeRepo, tempDir } from '../../support/make-repo.js';

afterAll(async () => {
  await cleanupTempDirs();
});

async function deadPid(): Promise<number> {
  const child = execa('node', ['-e', '0']);
  await child;
  return child.pid!;
}

const git = (args: string[]) => execa('git', args, { env: { LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' } });

describe('leftovers of killed runs', () => {
  it('are cleaned at the next run; status shows unfinished runs as interrupted', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), 'repos: []\n');
    expect((await runCliCaptured(['run'], dir)).code).toBe(0);
    const data = join(dir, 'data');
    const dead = await deadPid();

    // A run killed mid-way: its row, a partial log, a pairs scratch dir and a probe worktree.
    const store = openStore(join(data, 'r2v.db'));
    const killedRun = store.runs.start(['run'], new Date('2024-05-01T00:00:00Z'));
    store.close();
    mkdirSync(join(data, 'logs'), { recursive: true });
    const deadLog = join(data, 'logs', `.partial-${dead}-0123456789abcdef.log`);
    const liveLog = join(data, 'logs', `.partial-${process.pid}-fedcba9876543210.log`);
    writeFileSync(deadLog, 'half a log');
    writeFileSync(liveLog, 'being written');
    const deadScratch = join(tmpdir(), `r2v-pairs-${dead}-AbCdEf`);
    const liveScratch = join(tmpdir(), `r2v-pairs-${process.pid}-GhIjKl`);
    mkdirSync(join(deadScratch, 'objects'), { recursive: true });
    mkdirSync(liveScratch, { recursive: true });
    const repo = await makeRepo();
    await repo.commit('Initial import', { files: { 'a.txt': 'a\n' } });
    const mirror = join(data, 'mirrors', 'acme__widget.git');
    await git(['clone', '-q', '--mirror', repo.dir, mirror]);
    const worktree = join(data, 'work', 'probe', `r2v-probe-wt-${dead}-xyz`);
    mkdirSync(join(data, 'work', 'probe'), { recursive: true });
    await git([`--git-dir=${mirror}`, 'worktree', 'add', '-q', '--detach', worktree, 'HEAD']);
    expect((await git([`--git-dir=${mirror}`, 'worktree', 'list'])).stdout.split('\n')).toHaveLength(2);

    try {
      const before = await runCliCaptured(['status'], dir);
      expect(before.stdout).toMatch(new RegExp(`^interrupted runs: 1 \\(#${killedRun} started 2024-05-01T00:00:00.000Z\\)`, 'm'));
      const json = JSON.parse((await runCliCaptured(['status', '--json'], dir)).stdout) as { unfinished_runs: { id: number; state: string }[] };
      expect(json.unfinished_runs).toEqual([expect.objectContaining({ id: killedRun, state: 'interrupted' })]);

      const next = await runCliCaptured(['run'], dir);
      expect(next.code).toBe(0);
      expect(next.stderr).toContain('cleaned after an interrupted run: 1 runs marked interrupted, 1 partial logs');
      expect(existsSync(deadLog)).toBe(false);
      expect(existsSync(liveLog)).toBe(true);
      expect(existsSync(deadScratch)).toBe(false);
      expect(existsSync(liveScratch)).toBe(true);
      expect(existsSync(worktree)).toBe(false);
      expect((await git([`--git-dir=${mirror}`, 'worktree', 'list'])).stdout.split('\n')).toHaveLength(1);

      // The killed run stays visible as interrupted; the finished runs are not listed.
      const after = JSON.parse((await runCliCaptured(['status', '--json'], dir)).stdout) as { unfinished_runs: { id: number; state: string }[] };
      expect(after.unfinished_runs).toEqual([expect.objectContaining({ id: killedRun, state: 'interrupted' })]);
      const check = openStore(join(data, 'r2v.db'));
      expect(check.db.prepare('SELECT outcome FROM runs WHERE id = ?').get(killedRun)).toEqual({ outcome: 'interrupted' });
      check.close();
    } finally {
      await rm(deadScratch, { recursive: true, force: true });
      await rm(liveScratch, { recursive: true, force: true });
    }
  });

  it('status calls the newest unfinished run running while a live process holds the lock', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), 'repos: []\n');
    expect((await runCliCaptured(['run'], dir)).code).toBe(0);
    const dbPath = join(dir, 'data', 'r2v.db');
    const store = openStore(dbPath);
    const id = store.runs.start(['run'], new Date('2024-05-02T00:00:00Z'));
    store.close();
    const lock = acquireWorkspaceLock(dbPath, 'run');
    try {
      const status = await runCliCaptured(['status'], dir);
      expect(status.stdout).toContain(`running: #${id} started 2024-05-02T00:00:00.000Z`);
      expect(status.stdout).not.toContain('interrupted runs');
    } finally {
      lock.release();
    }
    expect((await runCliCaptured(['status'], dir)).stdout).toContain(`interrupted runs: 1 (#${id} started`);
  });
});
