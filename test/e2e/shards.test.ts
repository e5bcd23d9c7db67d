/**
 * Scale-out, end to end: the sample world run as 3 shards (separate processes, separate
 * databases), merged, exported — byte-identical to one single-machine run; and again with one
 * shard killed (SIGKILL) mid-run and re-run. One single-run baseline serves both tests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { DEMO_ENV, demoConfigText, installDemoProbes } from '../../scripts/demo.js';
import { generateWorld } from '../../scripts/world/index.js';
import { toFakeWorld } from '../../scripts/world/fake-world.js';
import type { SampleWorld } from '../../scripts/world/types.js';
import { startFakeGitHub, type FakeGitHub } from '../../src/github/fake-server.js';
import { planShards } from '../../src/run/shard.js';
import { tempDir } from '../support/make-repo.js';
import { digestTree } from '../support/digest-tree.js';

const BIN = resolve(import.meta.dirname, '../../bin/r2v.js');
const SHARDS = 3;

let world: SampleWorld;
let server: FakeGitHub;
let root: string;
let baseline: Record<string, string>;

/** A workspace whose config points at the shared world and fake GitHub. */
function workspace(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'r2v.config.yaml'), demoConfigText(world, server.url));
  return dir;
}

function r2v(dir: string, args: string[], env: Record<string, string> = {}) {
  return execa('node', [BIN, '--config', join(dir, 'r2v.config.yaml'), '--quiet', ...args], {
    cwd: dir,
    env: { ...DEMO_ENV, CI: 'true', PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, ...env },
    extendEnv: false,
    reject: false,
  });
}

async function ok(dir: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  const r = await r2v(dir, args, env);
  if (r.exitCode === 0) return;
  // A failed item is recorded with its reason: say it, so that a failure here can be read.
  const status = r.exitCode === 3 ? (await r2v(dir, ['status', '--failed'], env)).stdout : '';
  throw new Error(`r2v ${args.join(' ')} exited ${r.exitCode}: ${r.stderr}\n${status}`);
}

/** How one shard learns its index: each through a different scheduler's way. */
function shardArgs(k: number): { args: string[]; env: Record<string, string> } {
  if (k === 0) return { args: ['--shard', `0/${SHARDS}`], env: {} };
  if (k === 1) return { args: [], env: { R2V_SHARD: `1/${SHARDS}` } };
  return { args: ['--shards', String(SHARDS)], env: { JOB_COMPLETION_INDEX: String(k) } };
}

/** The demo's two halves for one database: stages up to screen, the world's probes, the rest. */
async function pipeline(dir: string, db: string, shard: number | null): Promise<void> {
  const { args, env } = shard === null ? { args: [], env: {} } : shardArgs(shard);
  await ok(dir, ['run', '--until', 'screen', ...args], env);
  installDemoProbes(world, db, dir);
  await ok(dir, ['run', '--from', 'forward-screen', ...args], env);
}

async function exportTree(dir: string, db: string, out: string): Promise<Record<string, string>> {
  await ok(dir, ['--db', db, 'export', '--out', out]);
  await ok(dir, ['--db', db, 'pairs', 'export', '--out', join(out, 'pairs')]);
  return digestTree(out);
}

const shardDb = (dir: string, k: number): string => join(dir, `r2v.shard-${k}-of-${SHARDS}.db`);

beforeAll(async () => {
  root = await tempDir('r2v-shards-');
  world = await generateWorld(join(root, 'world'));
  server = await startFakeGitHub(toFakeWorld(world));
  const single = workspace('single');
  await pipeline(single, join(single, 'r2v.db'), null);
  baseline = await exportTree(single, join(single, 'r2v.db'), join(single, 'manifests'));
}, 600_000);

afterAll(async () => {
  await server?.close();
});

let shardsDir: string;

describe('r2v run --shard K/3 in separate processes, then r2v merge', () => {
  it('exports byte for byte what a single run exports', async () => {
    expect(Object.keys(baseline).filter((p) => p.endsWith('.jsonl')).length).toBeGreaterThanOrEqual(4);
    const names = world.repos.map((r) => r.name);
    const plan = planShards(names, SHARDS).plan;
    expect(plan.filter((p) => p.repos.length > 0).length).toBeGreaterThanOrEqual(2);

    shardsDir = workspace('shards');
    await Promise.all(plan.map((p) => pipeline(shardsDir, shardDb(shardsDir, p.shard), p.shard)));
    expect(existsSync(join(shardsDir, 'r2v.db'))).toBe(false);
    // Each shard database holds exactly its own repositories.
    for (const p of plan) {
      const db = new Database(shardDb(shardsDir, p.shard), { readonly: true });
      const repos = (db.prepare('SELECT DISTINCT repo FROM work_items ORDER BY repo').all() as { repo: string }[]).map((r) => r.repo);
      db.close();
      expect(repos).toEqual(p.repos);
    }
    const merged = join(shardsDir, 'merged.db');
    await ok(shardsDir, ['merge', merged, ...plan.map((p) => shardDb(shardsDir, p.shard))]);
    const tree = await exportTree(shardsDir, merged, join(shardsDir, 'manifests'));
    expect(Object.keys(tree).sort()).toEqual(Object.keys(baseline).sort());
    expect(tree).toEqual(baseline);
  }, 900_000);

  it('a shard killed (SIGKILL) mid-run and run again still merges to the same export', async () => {
    expect(shardsDir).toBeDefined(); // reuses the other shards' databases of the first test
    const plan = planShards(world.repos.map((r) => r.name), SHARDS).plan;
    const victim = [...plan].sort((a, b) => b.repos.length - a.repos.length)[0]!.shard;
    const dir = workspace('killed');
    const db = shardDb(dir, victim);
    const { args, env } = shardArgs(victim);
    await ok(dir, ['run', '--until', 'screen', ...args], env);
    installDemoProbes(world, db, dir);

    const child = r2v(dir, ['run', '--from', 'forward-screen', ...args], env);
    let exited = false;
    void child.then(() => (exited = true));
    const saved = (): number => {
      const d = new Database(db, { readonly: true, fileMustExist: true });
      try {
        return (d.prepare("SELECT COUNT(*) AS n FROM work_items WHERE stage = 'forward-screen'").get() as { n: number }).n;
      } finally {
        d.close();
      }
    };
    // Wait until the second half has saved its first items, then kill the process outright.
    while (!exited && saved() === 0) await sleep(50);
    child.kill('SIGKILL');
    const killed = await child;
    expect(killed.signal).toBe('SIGKILL');
    const mid = new Database(db, { readonly: true });
    const admitted = (mid.prepare("SELECT COUNT(*) AS n FROM work_items WHERE stage = 'admit'").get() as { n: number }).n;
    mid.close();
    expect(admitted).toBe(0); // killed before the last stage: the run was really cut short

    await ok(dir, ['run', '--from', 'forward-screen', ...args], env);
    const merged = join(dir, 'merged.db');
    const inputs = plan.map((p) => (p.shard === victim ? db : shardDb(shardsDir, p.shard)));
    await ok(dir, ['merge', merged, ...inputs]);
    const tree = await exportTree(dir, merged, join(dir, 'manifests'));
    expect(tree).toEqual(baseline);
  }, 900_000);
});
