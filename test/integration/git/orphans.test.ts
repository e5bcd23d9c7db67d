import { execa } from 'execa';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { cleanupTempDirs, makeRepo } from '../../support/make-repo.js';
import { gd } from './support.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/hold-batch.ts', import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `git cat-file` processes whose parent is `ppid`, or which are one of `pids`, per `ps`. */
async function catFilesOf(ppid: number, pids: number[]): Promise<string[]> {
  const ps = await execa('ps', ['-eo', 'pid=,ppid=,args=']);
  return ps.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.includes('cat-file'))
    .filter((l) => {
      const [pid, parent] = l.split(/\s+/).map(Number);
      return parent === ppid || pids.includes(pid!);
    });
}

async function gone(pids: number[], ppid: number): Promise<string[]> {
  for (let i = 0; i < 50; i++) {
    const left = await catFilesOf(ppid, pids);
    if (left.length === 0 && pids.every((p) => !alive(p))) return [];
    await new Promise((r) => setTimeout(r, 100));
  }
  return catFilesOf(ppid, pids);
}

describe('cat-file children', () => {
  let gitDir = '';
  beforeAll(async () => {
    const repo = await makeRepo();
    await repo.commit('c1');
    gitDir = gd(repo);
  });
  afterAll(() => cleanupTempDirs());

  it.concurrent.for(['SIGTERM', 'SIGINT', 'SIGKILL', 'exit'] as const)('leave no orphan when the process ends by %s', async (how, { expect }) => {
    const child = execa('node', ['--import', 'tsx', SCRIPT, gitDir, how === 'exit' ? 'exit' : 'wait'], { buffer: false, reject: false, cwd: process.cwd() });
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      child.once('exit', () => reject(new Error(`script ended before reporting: ${out}`)));
    });
    const info = JSON.parse(line) as { pid: number; children: number[]; exitListeners: number; status: string };
    expect(info.status).toBe('ok');
    expect(info.children).toHaveLength(2);
    expect(info.exitListeners).toBeGreaterThanOrEqual(1);
    if (how !== 'exit') {
      expect(await catFilesOf(info.pid, info.children)).toHaveLength(2);
      child.kill(how);
    }
    await child;
    expect(await gone(info.children, info.pid)).toEqual([]);
  });
});
