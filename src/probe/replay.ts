/**
 * Behavioural replay: run a probe at the parent of gold and at gold, each in a fresh detached
 * worktree of the mirror, setup once and the trigger `repeats` times, and decide the boundary.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ValidationError } from '../errors.js';
import { classifyRun, decideBoundary, stateVerdict, type RunClass, type StateVerdict } from './classify.js';
import type { Boundary, Verdict } from '../model/probe.js';
import { runIsolated, type ExecResult } from './exec.js';
import { execRecord, skippedRun, type ProbeState, type RunRecord, type SetupRecord } from './records.js';
import { runSetup, type SetupCache } from './setup-cache.js';
import type { ProbeSpec } from './spec.js';
import { WORKTREE_PREFIX, addWorktree, firstParent, pruneStaleWorktrees, removeWorktree, resolveCommit } from './worktree.js';

export type { RunClass } from './classify.js';
export { pruneStaleWorktrees } from './worktree.js';

export type { ExecRecord, ProbeState, RunRecord, SetupRecord } from './records.js';
export interface StateResult {
  readonly sha: string;
  readonly verdict: Verdict;
  readonly cause: string;
  readonly why: string;
  readonly setup: SetupRecord[];
  readonly runs: RunRecord[];
}

export interface ReplayResult {
  readonly parent: StateResult;
  readonly gold: StateResult;
  readonly boundary: Boundary;
  /** Machine-readable reason code (e.g. parent-good-gold-bad, bad-at-both, gold-timeout, flaky-parent, draft). */
  readonly reason: string;
  /** The boundary the runs show, before a draft spec's veto. */
  readonly observed: Boundary;
  readonly draft: boolean;
  readonly repeats: number;
}

export interface ReplayOptions {
  readonly gitDir: string;
  readonly gold: string;
  readonly spec: ProbeSpec;
  /** Overrides spec.repeats. */
  readonly repeats?: number;
  /** Where worktrees are made (and stale ones pruned). */
  readonly workRoot: string;
  readonly signal?: AbortSignal;
  /** Full logs go to `<logDir>/<sha256>.log` when given. */
  readonly logDir?: string;
  /** Keep and reuse the spec's `setup_cache` paths per (repository, lockfile digest); off when absent. */
  readonly setupCache?: SetupCache;
  /** Reports progress (one line per finished command). */
  readonly onEvent?: (event: { state: ProbeState; phase: 'setup' | 'trigger'; index: number; summary: string }) => void;
}

async function readReport(worktree: string, spec: ProbeSpec): Promise<string | null> {
  if (!spec.symptom.junit) return null;
  return readFile(join(worktree, spec.symptom.junit.report), 'utf8').catch(() => null);
}

/** Where one state of a probe runs: a clean worktree at `sha`, its own HOME, and the isolated runner. */
export interface StateSandbox {
  readonly worktree: string;
  readonly home: string;
  run(command: string): Promise<ExecResult>;
}

/**
 * Runs `body` in a fresh sandbox at `sha` and removes the worktree and HOME afterwards, whatever
 * happens. One HOME per state, shared by its setup and trigger runs; named like a worktree so a
 * killed run's leftovers are pruned the same way.
 */
export async function inStateSandbox<T>(
  sha: string,
  spec: Pick<ProbeSpec, 'env' | 'timeout_s' | 'network'>,
  opts: Pick<ReplayOptions, 'gitDir' | 'workRoot' | 'logDir' | 'signal'>,
  body: (box: StateSandbox) => Promise<T>,
): Promise<T> {
  const worktree = await addWorktree(opts.gitDir, opts.workRoot, sha);
  let home: string | null = null;
  try {
    home = await mkdtemp(join(opts.workRoot, `${WORKTREE_PREFIX}${process.pid}-home-`));
    const homeDir = home;
    const timeoutMs = spec.timeout_s * 1000;
    const run = (command: string): Promise<ExecResult> =>
      runIsolated({ command, cwd: worktree, env: spec.env, timeoutMs, network: spec.network, homeDir, logDir: opts.logDir, signal: opts.signal });
    return await body({ worktree, home: homeDir, run });
  } finally {
    if (home) await rm(home, { recursive: true, force: true });
    await removeWorktree(opts.gitDir, worktree);
  }
}

async function replayState(state: ProbeState, sha: string, spec: ProbeSpec, repeats: number, opts: ReplayOptions): Promise<StateResult> {
  return inStateSandbox(sha, spec, opts, async ({ worktree, run }) => {
    const prepared = await runSetup({
      state, gitDir: opts.gitDir, sha, worktree, setup: spec.setup, cachePaths: spec.setup_cache, cache: opts.setupCache,
      run, signal: opts.signal, onEvent: opts.onEvent,
    });
    const setup: SetupRecord[] = prepared.setup;
    const failed = prepared.failed;
    const runs: RunRecord[] = [];
    for (let repeat = 0; repeat < repeats; repeat += 1) {
      if (failed) {
        runs.push(skippedRun(state, repeat, spec.trigger, failed));
        continue;
      }
      opts.signal?.throwIfAborted();
      if (spec.symptom.junit) await rm(join(worktree, spec.symptom.junit.report), { force: true });
      const r = await run(spec.trigger);
      opts.signal?.throwIfAborted();
      const c = classifyRun(spec, { ...r, junitReport: await readReport(worktree, spec) });
      runs.push({ ...execRecord(spec.trigger, r), state, repeat, executed: true, classification: c.classification, why: c.why });
      opts.onEvent?.({ state, phase: 'trigger', index: repeat, summary: `${c.classification}: ${c.why}` });
    }
    const v: StateVerdict = stateVerdict(runs.map((x) => x.classification));
    return { sha, verdict: v.verdict, cause: v.cause, why: failed && v.cause === 'setup-failed' ? failed : v.why, setup, runs };
  });
}

/** Replays the probe at parent(gold) and gold. Stale worktrees of killed runs are pruned first. */
export async function replay(opts: ReplayOptions): Promise<ReplayResult> {
  const repeats = opts.repeats ?? opts.spec.repeats;
  if (!Number.isInteger(repeats) || repeats < 1) throw new ValidationError(`repeats: must be a positive integer, got ${repeats}`);
  await pruneStaleWorktrees(opts.gitDir, opts.workRoot);
  const gold = await resolveCommit(opts.gitDir, opts.gold);
  const parent = await firstParent(opts.gitDir, gold);
  if (parent === null) throw new ValidationError(`${opts.gold}: gold is a root commit; it has no parent to compare with`);
  const parentResult = await replayState('parent', parent, opts.spec, repeats, opts);
  const goldResult = await replayState('gold', gold, opts.spec, repeats, opts);
  const d = decideBoundary(parentResult, goldResult, opts.spec.draft);
  return { parent: parentResult, gold: goldResult, boundary: d.boundary, reason: d.reason, observed: d.observed, draft: opts.spec.draft, repeats };
}
