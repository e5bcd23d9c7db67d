/**
 * `npm run demo` end to end (the offline sample world through every stage, export, package,
 * variant and audit), then the same world again from scratch as 3 shards in separate processes
 * (separate databases), one of them killed (SIGKILL) mid-run and run again, merged, and put through
 * the demo's export half: every manifest, package and variant byte for byte what the single run wrote.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { DEMO_ENV, demoConfigText, exportDemo, installDemoProbes, runDemo, type DemoResult } from '../../scripts/demo.js';
import { generateWorld } from '../../scripts/world/index.js';
import { toFakeWorld } from '../../scripts/world/fake-world.js';
import type { SampleWorld } from '../../scripts/world/types.js';
import { startFakeGitHub } from '../../src/github/fake-server.js';
import { planShards } from '../../src/run/shard.js';
import { PACKAGE_INDEX } from '../../src/export/package-index.js';
import { tempDir } from '../support/make-repo.js';
import { digestTree } from '../support/digest-tree.js';

const lines = (path: string): Record<string, unknown>[] =>
  readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);

const BIN = resolve(import.meta.dirname, '../../bin/r2v.js');
const SHARDS = 3;
const quiet = { quiet: true, log: () => undefined };

let root: string;
let first: DemoResult;

beforeAll(async () => {
  root = await tempDir('r2v-demo-');
  first = await runDemo({ root, workspace: join(root, 'ws1'), manifests: join(root, 'm1'), ...quiet });
}, 1_200_000); // the whole demo: a budget for a loaded 2-core machine, not a speed check

describe('npm run demo (the offline sample world, end to end)', () => {
  it('admits cases of every kind, audits its packages and passes preflight', async () => {
    expect(first.auditOk).toBe(true);
    expect(first.preflightOk).toBe(true);

    const m = first.manifests;
    const backward = lines(join(m, 'backward.jsonl'));
    const forward = lines(join(m, 'forward.jsonl'));
    expect(backward.length).toBeGreaterThan(0);
    expect(forward.length).toBeGreaterThan(0);
    for (const r of backward) expect(r.gold).toMatch(/^[0-9a-f]{40}$/);
    const instances = readdirSync(join(m, 'pairs', 'instances'));
    expect(instances.length).toBeGreaterThan(0);
    expect(instances.some((f) => lines(join(m, 'pairs', 'instances', f)).length > 0)).toBe(true);
    const packages = readdirSync(join(m, 'packages')).filter((d) => d !== 'grading' && d !== PACKAGE_INDEX);
    expect(packages.length).toBe(backward.length + forward.length);

    // Rubric scaffolds: one oracle row per admitted Forward case and per coupled pair, a rubric for
    // each the gold passes, all on the grading side (the audit above found none in a package).
    const rubrics = join(m, 'packages', 'grading', 'rubrics');
    const coupled = instances.flatMap((f) => lines(join(m, 'pairs', 'instances', f))).map((r) => r.id as string);
    expect(coupled.length).toBeGreaterThan(0);
    const admittedForward = forward.filter((r) => r.tier === undefined || r.tier === 'admitted').map((r) => r.case_id as string);
    expect(readdirSync(rubrics).sort()).toEqual([...admittedForward, ...coupled].sort());
    let written = 0;
    for (const id of [...admittedForward, ...coupled]) {
      const oracle = JSON.parse(readFileSync(join(rubrics, id, 'oracle.json'), 'utf8')) as { emitted: boolean; reason: string | null; report: { status: string } | null };
      expect(existsSync(join(rubrics, id, 'rubric.json')), id).toBe(oracle.emitted);
      if (oracle.emitted) {
        written += 1;
        expect(oracle.report!.status, id).not.toBe('fail');
        const rubric = JSON.parse(readFileSync(join(rubrics, id, 'rubric.json'), 'utf8')) as Record<string, unknown>;
        expect(rubric).toMatchObject({ schema: 'repo_rubric.v1', status: 'draft', task_id: id, blockers: [], non_blockers: [] });
      } else {
        expect(oracle.reason, id).toMatch(/\S/);
      }
    }
    expect(written).toBeGreaterThan(0);
    expect(first.summary).toMatch(new RegExp(`rubric scaffolds: ${written} written`));

    // Each generated repository has a realistic history: hundreds of commits by several authors,
    // tags, merge commits and refs/pull/* refs.
    const remotes = join(first.workspace, 'world', 'remotes');
    for (const name of readdirSync(remotes)) {
      const git = async (args: string[]) => (await execa('git', ['--git-dir', join(remotes, name), ...args], { env: { LC_ALL: 'C' } })).stdout;
      expect(Number(await git(['rev-list', '--count', 'main'])), name).toBeGreaterThanOrEqual(150);
      expect(new Set((await git(['log', '--format=%an', 'main'])).split('\n')).size, name).toBeGreaterThanOrEqual(3);
      expect(Number(await git(['rev-list', '--count', '--merges', 'main'])), name).toBeGreaterThanOrEqual(1);
      expect((await git(['tag'])).split('\n').filter(Boolean).length, name).toBeGreaterThanOrEqual(2);
      expect((await git(['for-each-ref', 'refs/pull'])).split('\n').filter(Boolean).length, name).toBeGreaterThanOrEqual(1);
    }

    // Admission requires behavioural validation: every admitted Backward case has a verified
    // boundary, and the regression left without a probe spec waits in candidates.jsonl.
    expect(backward.length).toBeGreaterThanOrEqual(3);
    for (const r of [...backward, ...forward]) expect(r.tier).toBe('admitted');
    for (const r of backward) expect((r.probe as { boundary?: string } | null)?.boundary, r.case_id as string).toBe('verified');
    const candidates = lines(join(m, 'candidates.jsonl'));
    const noSpec = candidates.find((r) => r.task === 'backward' && r.repo === 'quillhq/quill-api' && r.number === 205);
    expect(noSpec?.tier).toBe('candidate');
    expect((noSpec?.blockers as { code: string }[]).map((b) => b.code)).toContain('probe-missing');

    // Forward cases whose gold equals the repository prior are admitted, the prior recorded as their baseline.
    const priorRight = forward.filter((r) => (r.baselines as { repo_prior: { correct: boolean } }).repo_prior.correct);
    expect(priorRight.length).toBeGreaterThanOrEqual(1);
    for (const r of forward) {
      const p = (r.baselines as { repo_prior: { answer: string[]; correct: boolean } }).repo_prior;
      expect(p.correct).toBe([...p.answer].sort().join('\n') === [...(r.gold as string[])].sort().join('\n'));
    }
    // Every admitted Backward case carries its three baselines and its rule-proposed labels.
    for (const r of backward) {
      expect(Object.keys(r.baselines as object).sort()).toEqual(['bm25_diffs', 'bm25_messages', 'recent_1']);
      expect((r.labels as { locality: { proposed_by: string } }).locality.proposed_by).toBe('rule');
    }

    // Regressions whose fix PR adds a test are admitted through probes derived from the fix
    // (no hand-written spec); the fixes whose tests cannot show the boundary leave their case a
    // candidate, the reason in words.
    const transplanted = backward.filter((r) => (r.probe as { kind?: string } | null)?.kind === 'transplanted');
    expect(transplanted.map((r) => r.number).sort()).toEqual([220, 221]);
    for (const n of [220, 221]) expect(existsSync(join(first.workspace, 'probes', `${backward.find((r) => r.number === n)!.case_id as string}.yaml`))).toBe(false);
    const blockerOf = (n: number): { code: string; evidence: string } => {
      const c = candidates.find((r) => r.task === 'backward' && r.repo === 'quillhq/quill-api' && r.number === n);
      return (c?.blockers as { code: string; evidence: string }[])[0]!;
    };
    expect(blockerOf(222)).toMatchObject({ code: 'probe-not-applicable', evidence: expect.stringMatching(/modifies test\/config\.test\.js, but it does not exist at parent/) });
    expect(blockerOf(223)).toMatchObject({ code: 'probe-flaky', evidence: expect.stringMatching(/flaky-parent; parent flaky \(runs disagree/) });
    expect(blockerOf(224)).toMatchObject({ code: 'probe-not-a-boundary', evidence: expect.stringMatching(/transplanted tests .*bad-at-both/) });

    // The summary names at least one rejection of each kind the sample world plants.
    for (const code of ['hedged', 'retracted', 'competing', 'range-only', 'ambiguous-sha', 'insufficient-symptom', 'path-limit', 'scope-ambiguous', 'textual-conflict', 'probe-missing']) {
      expect(first.summary).toMatch(new RegExp(`:${code}\\s+\\d+`));
    }
    const rejections = lines(join(m, 'rejections.jsonl'));
    expect(rejections.every((r) => Array.isArray(r.reasons) && (r.reasons as unknown[]).length > 0)).toBe(true);

    expect(existsSync(join(root, 'ws1', 'r2v.db'))).toBe(true);
  });
});

/** A package's git index caches file-system stat data (mtimes, inodes): the one file that legitimately differs between two checkouts. */
const withoutIndex = (t: Record<string, string>) => Object.fromEntries(Object.entries(t).filter(([p]) => !p.endsWith('/.git/index')));

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

const shardDb = (dir: string, k: number): string => join(dir, `r2v.shard-${k}-of-${SHARDS}.db`);

/** One shard's run: the stages up to screen, the world's probes, the rest. */
async function shardRun(world: SampleWorld, dir: string, k: number): Promise<void> {
  const { args, env } = shardArgs(k);
  await ok(dir, ['run', '--until', 'screen', ...args], env);
  installDemoProbes(world, shardDb(dir, k), dir);
  await ok(dir, ['run', '--from', 'forward-screen', ...args], env);
}

/** Like shardRun, but the second half is killed (SIGKILL) once it has saved its first items, then run again. */
async function killedShardRun(world: SampleWorld, dir: string, k: number): Promise<{ signal: string | undefined; admittedWhenKilled: number }> {
  const { args, env } = shardArgs(k);
  const db = shardDb(dir, k);
  await ok(dir, ['run', '--until', 'screen', ...args], env);
  installDemoProbes(world, db, dir);
  const child = r2v(dir, ['run', '--from', 'forward-screen', ...args], env);
  let exited = false;
  void child.then(() => (exited = true));
  const count = (stage: string): number => {
    const d = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return (d.prepare('SELECT COUNT(*) AS n FROM work_items WHERE stage = ?').get(stage) as { n: number }).n;
    } finally {
      d.close();
    }
  };
  while (!exited && count('forward-screen') === 0) await sleep(50);
  child.kill('SIGKILL');
  const killed = await child;
  const admittedWhenKilled = count('admit');
  await ok(dir, ['run', '--from', 'forward-screen', ...args], env);
  return { signal: killed.signal, admittedWhenKilled };
}

describe('the sample world as 3 shards in separate processes, one killed mid-run, then r2v merge', () => {
  it('exports, packages and varies byte for byte what the single run of the demo did', async () => {
    const world = await generateWorld(join(root, 'world'));
    const server = await startFakeGitHub(toFakeWorld(world));
    const dir = join(root, 'shards');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'r2v.config.yaml'), demoConfigText(world, server.url));
    const plan = planShards(world.repos.map((r) => r.name), SHARDS).plan;
    expect(plan.filter((p) => p.repos.length > 0).length).toBeGreaterThanOrEqual(2);
    const victim = [...plan].sort((a, b) => b.repos.length - a.repos.length)[0]!.shard;
    let killed: { signal: string | undefined; admittedWhenKilled: number };
    try {
      await Promise.all(plan.map(async (p) => {
        if (p.shard === victim) killed = await killedShardRun(world, dir, p.shard);
        else await shardRun(world, dir, p.shard);
      }));
    } finally {
      await server.close();
    }
    expect(killed!.signal).toBe('SIGKILL');
    expect(killed!.admittedWhenKilled).toBe(0); // killed before the last stage: the run was really cut short
    expect(existsSync(join(dir, 'r2v.db'))).toBe(false);
    // Each shard database holds exactly its own repositories.
    for (const p of plan) {
      const db = new Database(shardDb(dir, p.shard), { readonly: true });
      const repos = (db.prepare('SELECT DISTINCT repo FROM work_items ORDER BY repo').all() as { repo: string }[]).map((r) => r.repo);
      db.close();
      expect(repos).toEqual(p.repos);
    }

    await ok(dir, ['merge', join(dir, 'r2v.db'), ...plan.map((p) => shardDb(dir, p.shard))]);
    const merged = await exportDemo({ root, workspace: dir, manifests: join(root, 'm2'), ...quiet });
    expect(merged.auditOk).toBe(true);
    const a = withoutIndex(digestTree(first.manifests));
    const b = withoutIndex(digestTree(merged.manifests));
    expect(Object.keys(a).filter((p) => p.endsWith('.jsonl')).length).toBeGreaterThanOrEqual(5);
    expect(Object.keys(a).filter((p) => p.split('/').includes('variants')).length).toBeGreaterThan(0);
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    expect(b).toEqual(a);
  }, 1_800_000); // a budget for a loaded 2-core machine, not a speed check
});
