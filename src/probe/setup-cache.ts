/**
 * Setup of a probe state, with a cache: when a spec names the paths its setup produces
 * (`setup_cache`, e.g. `node_modules`), the first state that runs the setup keeps a copy of them
 * under `<cacheDir>/<key>`, and every later state with the same key restores the copy instead of
 * running the setup. The key is the repository, the setup commands, the cached paths and the
 * blob ids of the dependency manifests and lockfiles at the state's commit, so N cases of one
 * repository install once per lockfile version.
 */
import { execa } from 'execa';
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runGit } from '../git/runner.js';
import { digestOf } from '../util/canonical.js';
import type { ExecResult } from './exec.js';
import { execRecord, type ProbeState, type SetupRecord } from './records.js';

/** Dependency manifests and lockfiles whose content decides what a setup installs. */
export const DEPENDENCY_FILES: readonly string[] = [
  'package.json', 'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb',
  'pyproject.toml', 'setup.cfg', 'setup.py', 'requirements.txt', 'requirements-dev.txt', 'poetry.lock', 'Pipfile.lock', 'uv.lock',
  'go.mod', 'go.sum', 'Cargo.toml', 'Cargo.lock', 'Gemfile.lock', 'composer.lock',
];

export interface SetupCache {
  /** Root directory of the cache (e.g. `<dataDir>/cache/setup`). */
  readonly dir: string;
  /** The repository the states belong to (part of the key). */
  readonly repo: string;
}

/** The cache key of a state: repository, setup, cached paths and the dependency files' blob ids at `sha`. */
export async function setupCacheKey(gitDir: string, sha: string, repo: string, setup: readonly string[], paths: readonly string[]): Promise<string> {
  const listing = (await runGit(gitDir, ['ls-tree', '--full-tree', sha, '--', ...DEPENDENCY_FILES])).stdout
    .split('\n')
    .filter((l) => l !== '')
    .sort();
  return digestOf({ repo, setup, paths: [...paths].sort(), dependencies: listing });
}

const exists = (p: string): Promise<boolean> => stat(p).then(() => true, () => false);

async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  await execa('cp', ['-a', '--reflink=auto', from, to], { stdin: 'ignore' });
}

/** Copies the cached paths into the worktree; false when the key is not cached. */
async function restore(entry: string, worktree: string, paths: readonly string[]): Promise<boolean> {
  if (!(await exists(join(entry, '.complete')))) return false;
  for (const p of paths) {
    const src = join(entry, 'paths', p);
    if (!(await exists(src))) continue;
    await rm(join(worktree, p), { recursive: true, force: true });
    await copyTree(src, join(worktree, p));
  }
  return true;
}

/** Keeps a copy of the paths the setup produced (written aside, then renamed into place). */
async function save(entry: string, worktree: string, paths: readonly string[]): Promise<void> {
  if (await exists(entry)) return;
  const tmp = `${entry}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    for (const p of paths) {
      const src = join(worktree, p);
      if (await exists(src)) await copyTree(src, join(tmp, 'paths', p));
    }
    await mkdir(tmp, { recursive: true });
    await execa('touch', [join(tmp, '.complete')]);
    await rename(tmp, entry).catch(async () => rm(tmp, { recursive: true, force: true }));
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
}

export interface SetupInput {
  readonly state: ProbeState;
  readonly gitDir: string;
  readonly sha: string;
  readonly worktree: string;
  readonly setup: readonly string[];
  readonly cachePaths: readonly string[];
  readonly cache?: SetupCache;
  readonly run: (command: string) => Promise<ExecResult>;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: { state: ProbeState; phase: 'setup'; index: number; summary: string }) => void;
}

export interface SetupOutcome {
  readonly setup: SetupRecord[];
  /** Why setup failed, or null. */
  readonly failed: string | null;
  /** The cache key when the setup came from the cache. */
  readonly cachedKey: string | null;
}

function setupFailure(r: ExecResult): string | null {
  if (r.timedOut) return 'timed out';
  if (r.signal) return `killed by ${r.signal}`;
  if (r.exitCode !== 0) return `exited ${r.exitCode}`;
  return null;
}

/** Runs (or restores) a state's setup in its worktree. */
export async function runSetup(input: SetupInput): Promise<SetupOutcome> {
  const cacheable = input.cache !== undefined && input.setup.length > 0 && input.cachePaths.length > 0;
  const key = cacheable ? await setupCacheKey(input.gitDir, input.sha, input.cache!.repo, input.setup, input.cachePaths) : null;
  const entry = key ? join(input.cache!.dir, key) : null;
  if (entry && key) {
    const started = performance.now();
    if (await restore(entry, input.worktree, input.cachePaths)) {
      const ms = Math.round(performance.now() - started);
      const setup = input.setup.map((command, step): SetupRecord => ({
        command, step, ok: true, cachedKey: key, exitCode: 0, signal: null, timedOut: false, durationMs: step === 0 ? ms : 0,
        stdoutTail: '', stderrTail: '', stdoutDigest: '', stderrDigest: '', networkIsolated: true,
      }));
      for (const s of setup) input.onEvent?.({ state: input.state, phase: 'setup', index: s.step, summary: 'restored from the setup cache' });
      return { setup, failed: null, cachedKey: key };
    }
  }
  const setup: SetupRecord[] = [];
  for (const [step, command] of input.setup.entries()) {
    input.signal?.throwIfAborted();
    const r = await input.run(command);
    input.signal?.throwIfAborted();
    const failure = setupFailure(r);
    setup.push({ ...execRecord(command, r), step, ok: failure === null });
    input.onEvent?.({ state: input.state, phase: 'setup', index: step, summary: failure ?? 'ok' });
    if (failure) return { setup, failed: `setup step ${step + 1} (${JSON.stringify(command)}) ${failure}`, cachedKey: null };
  }
  if (entry) await save(entry, input.worktree, input.cachePaths);
  return { setup, failed: null, cachedKey: null };
}
