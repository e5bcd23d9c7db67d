/**
 * Coupled-pairs benchmark: candidate enumeration (sorted sweeps vs all pairs), test-glob
 * classification (compiled once vs compiled per path), and pair validation on a generated
 * repository with and without reusing per-PR splits and condition runs across pairs.
 * Run: node --import tsx scripts/bench/pairs.ts
 */
import { execa } from 'execa';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { candidatePairs, candidatePairsNaive, type PullTimes } from '../../src/pairs/candidates.js';
import { PairGit } from '../../src/pairs/git.js';
import { compileGlobs, DEFAULT_TEST_GLOBS, globToRegExp } from '../../src/pairs/globs.js';
import type { ConditionResult } from '../../src/pairs/tests.js';
import { validatePair, type PrSplit } from '../../src/pairs/validate.js';

function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

function time<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const r = fn();
  return [r, performance.now() - t];
}

function benchCandidates(): void {
  const rand = lcg(7);
  const pulls: PullTimes[] = [];
  const day = 86_400_000;
  for (let n = 1; n <= 2500; n += 1) {
    const created = Date.UTC(2021, 0, 1) + Math.floor(rand() * 3 * 365 * day);
    const merged = created + Math.floor(rand() * 10 * day);
    pulls.push({ number: n, baseRef: 'main', createdAt: new Date(created).toISOString(), mergedAt: new Date(merged).toISOString() });
  }
  const [fast, tFast] = time(() => candidatePairs(pulls, 3));
  const [naive, tNaive] = time(() => candidatePairsNaive(pulls, 3));
  const same = JSON.stringify(fast) === JSON.stringify(naive);
  console.log(`candidates: ${pulls.length} PRs -> ${fast.length} pairs (same as all-pairs: ${same})`);
  console.log(`candidates: sweep ${tFast.toFixed(1)} ms (${Math.round(pulls.length / (tFast / 1000))} PRs/s), all-pairs ${tNaive.toFixed(1)} ms, ratio ${(tNaive / tFast).toFixed(1)}x`);
}

function benchGlobs(): void {
  const rand = lcg(11);
  const dirs = ['src', 'src/lib', 'tests', 'test/unit', 'pkg/core', 'internal/store', 'src/__tests__', 'spec', 'docs', 'cmd/tool'];
  const names = ['a.ts', 'b.test.ts', 'c.py', 'test_d.py', 'e_test.go', 'f.go', 'g.spec.js', 'latest.js', 'README.md', 'contest.py'];
  const paths = Array.from({ length: 100_000 }, () => `${dirs[Math.floor(rand() * dirs.length)]}/${names[Math.floor(rand() * names.length)]}`);
  const [nFast, tFast] = time(() => {
    const isTest = compileGlobs(DEFAULT_TEST_GLOBS);
    return paths.filter(isTest).length;
  });
  const sample = paths.slice(0, 10_000);
  const [nNaive, tNaive] = time(() => sample.filter((p) => DEFAULT_TEST_GLOBS.some((g) => globToRegExp(g).test(p))).length);
  const perPathFast = tFast / paths.length;
  const perPathNaive = tNaive / sample.length;
  console.log(`globs: ${paths.length} paths, ${nFast} tests; compiled once ${Math.round(paths.length / (tFast / 1000))} paths/s`);
  console.log(`globs: compiled per path ${Math.round(sample.length / (tNaive / 1000))} paths/s (${nNaive} tests of ${sample.length}), ratio ${(perPathNaive / perPathFast).toFixed(1)}x`);
}

async function git(dir: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const r = await execa('git', args, { cwd: dir, env: { LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_AUTHOR_DATE: '1700000000 +0000', GIT_COMMITTER_DATE: '1700000000 +0000', ...env } });
  return r.stdout.trim();
}

async function commitFiles(dir: string, files: Record<string, string>, message: string): Promise<string> {
  for (const [p, c] of Object.entries(files)) {
    await mkdir(dirname(join(dir, p)), { recursive: true });
    await writeFile(join(dir, p), c);
  }
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', message]);
  return git(dir, ['rev-parse', 'HEAD']);
}

async function benchValidation(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'r2v-bench-pairs-'));
  try {
    await git(dir, ['init', '-q', '--initial-branch=main']);
    await git(dir, ['config', 'user.name', 'bench']);
    await git(dir, ['config', 'user.email', 'bench@example.com']);
    const k = 4;
    const baseFiles: Record<string, string> = {};
    for (let i = 0; i < k; i += 1) baseFiles[`mod${i}/f.sh`] = `f${i}() { echo 0; }\n`;
    const base = await commitFiles(dir, baseFiles, 'base');
    const prs: { number: number; baseSha: string; headSha: string }[] = [];
    for (let i = 0; i < k; i += 1) {
      await git(dir, ['checkout', '-q', '-b', `pr${i}`, base]);
      const head = await commitFiles(dir, { [`mod${i}/f.sh`]: `f${i}() { echo 1; }\n`, [`test/t${i}.sh`]: `. ./mod${i}/f.sh\n[ "$(f${i})" = 1 ]\n` }, `pr ${i}`);
      prs.push({ number: i + 1, baseSha: base, headSha: head });
      await git(dir, ['checkout', '-q', 'main']);
    }
    const pairs: [number, number][] = [];
    for (let a = 0; a < k; a += 1) for (let b = a + 1; b < k; b += 1) pairs.push([a, b]);
    const runAll = async (reuse: boolean): Promise<[number, number]> => {
      const cache = reuse ? new Map<string, Promise<ConditionResult>>() : undefined;
      const splits = reuse ? new Map<string, Promise<PrSplit>>() : undefined;
      const t = performance.now();
      let valid = 0;
      for (const [a, b] of pairs) {
        const g = await PairGit.open(join(dir, '.git'));
        try {
          const v = await validatePair(g, prs[a]!, prs[b]!, { isTest: compileGlobs(DEFAULT_TEST_GLOBS), base: 'newer', template: 'sh {tests}', repeats: 2, timeoutMs: 30_000, cache, splits });
          if (v.status === 'valid') valid += 1;
        } finally {
          await g.close();
        }
      }
      return [valid, performance.now() - t];
    };
    const [validNaive, tNaive] = await runAll(false);
    const [validCached, tCached] = await runAll(true);
    console.log(`validation: ${pairs.length} pairs of ${k} PRs, valid ${validNaive}/${validCached}`);
    console.log(`validation: reuse ${(pairs.length / (tCached / 1000)).toFixed(2)} pairs/s, no reuse ${(pairs.length / (tNaive / 1000)).toFixed(2)} pairs/s, ratio ${(tNaive / tCached).toFixed(2)}x`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

benchCandidates();
benchGlobs();
await benchValidation();
