/**
 * Benchmark of starting git: runGit (node's spawn, src/git/runner.ts) against the naive way it
 * replaced, execa with the same options, on the same commands in the same run.
 *
 * 1. Short commands, the kind r2v runs by the thousand: `cat-file -t` of 200 commits picked at
 *    random across the history, in shuffled order. Unit: milliseconds per git process.
 * 2. One long listing: `log --format=%H %P` of the whole history. Unit: milliseconds, and MiB/s.
 *
 *   node --import tsx scripts/bench/git-spawn.ts [--git-dir DIR]   (default: a generated repository)
 */
import { execa } from 'execa';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GIT_ENV, runGit } from '../../src/git/runner.js';

const CALLS = 200;

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

/** The naive runner: execa with the options runGit used to pass it. */
async function viaExeca(gitDir: string, args: string[]): Promise<Buffer> {
  const r = await execa('git', [`--git-dir=${gitDir}`, ...args], {
    env: GIT_ENV,
    extendEnv: true,
    stdin: 'ignore',
    timeout: 120_000,
    reject: false,
    stripFinalNewline: false,
    maxBuffer: 1024 * 1024 * 1024,
    encoding: 'buffer',
  });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')} exited ${r.exitCode}`);
  return Buffer.from(r.stdout);
}

/** A small repository of 400 commits, when no real one is given. */
async function generated(dir: string): Promise<string> {
  const gitDir = join(dir, 'repo.git');
  await runGit('', ['init', '-q', '--bare', gitDir]);
  const lines: string[] = [];
  for (let i = 0; i < 400; i += 1) {
    lines.push('commit refs/heads/main', `committer A <a@example.com> ${1_600_000_000 + i * 60} +0000`, 'data 2', 'c', '');
    lines.push(`M 644 inline f${i % 17}.txt`, `data ${String(i).length}`, String(i), '');
  }
  await runGit(gitDir, ['fast-import', '--quiet'], { input: lines.join('\n') });
  return gitDir;
}

function shuffled<T>(items: T[], seed = 7): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i -= 1) {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const tmp = await mkdtemp(join(tmpdir(), 'r2v-bench-git-spawn-'));
try {
  const gitDir = option('--git-dir') ?? (await generated(tmp));
  const all = (await runGit(gitDir, ['rev-list', '--all'])).stdout.split('\n').filter(Boolean);
  const picked = shuffled(all).slice(0, CALLS);
  console.log(`repository: ${option('--git-dir') ?? 'generated'} (${all.length} commits); ${picked.length} commits, shuffled`);

  // Warm both paths (page cache, module loading), then time them alternately.
  await runGit(gitDir, ['cat-file', '-t', picked[0]!]);
  await viaExeca(gitDir, ['cat-file', '-t', picked[0]!]);
  let fast = 0;
  let naive = 0;
  for (const sha of picked) {
    let t = performance.now();
    const a = (await runGit(gitDir, ['cat-file', '-t', sha])).stdout;
    fast += performance.now() - t;
    t = performance.now();
    const b = (await viaExeca(gitDir, ['cat-file', '-t', sha])).toString('utf8');
    naive += performance.now() - t;
    if (a !== b) throw new Error(`outputs differ for ${sha}: the benchmark is broken`);
  }
  console.log(`short commands: runGit ${(fast / picked.length).toFixed(1)} ms/process, execa ${(naive / picked.length).toFixed(1)} ms/process, ratio ${(fast / naive).toFixed(2)}x`);

  let t = performance.now();
  const long = (await runGit(gitDir, ['log', '--all', '--format=%H %P'])).stdout;
  const longFast = performance.now() - t;
  t = performance.now();
  const longNaive = (await viaExeca(gitDir, ['log', '--all', '--format=%H %P'])).toString('utf8');
  const longSlow = performance.now() - t;
  if (long !== longNaive) throw new Error('log outputs differ: the benchmark is broken');
  const mib = Buffer.byteLength(long) / 1024 / 1024;
  console.log(`whole-history listing (${mib.toFixed(1)} MiB): runGit ${longFast.toFixed(0)} ms (${(mib / (longFast / 1000)).toFixed(0)} MiB/s), execa ${longSlow.toFixed(0)} ms, ratio ${(longFast / longSlow).toFixed(2)}x`);
} finally {
  await rm(tmp, { recursive: true, force: true });
}
