/**
 * The transplanted-test probe: the fixing change's test files, applied onto gold's parent and
 * onto gold, run with the repository's test command. The fix's tests should pass at the parent
 * (before the regression) and fail at gold (the regression is in). A test file the fix modified
 * that does not exist at a state, or whose change does not apply there, makes the probe
 * `not-applicable`: nothing is guessed. Verdicts follow the rules of every probe (classify.ts).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ValidationError } from '../errors.js';
import { GitError, runGit, runGitBuffer } from '../git/runner.js';
import { buildCommand, parseJunit, usesJunit } from '../pairs/tests.js';
import { decideBoundary, stateVerdict, type Classified } from './classify.js';
import type { ExecResult } from './exec.js';
import { execRecord, skippedRun, type ProbeState, type RunRecord } from './records.js';
import { inStateSandbox, type ReplayResult, type StateResult } from './replay.js';
import { runSetup, type SetupCache } from './setup-cache.js';
import type { TransplantedSpec } from './spec.js';
import { firstParent, pruneStaleWorktrees, resolveCommit } from './worktree.js';

export interface TestChange {
  readonly path: string;
  readonly status: 'added' | 'modified';
}

/** The fix's first parent and its added and modified test files (renames count as delete + add). */
export async function fixTestChanges(gitDir: string, fix: string, isTest: (path: string) => boolean): Promise<{ fixParent: string; changes: TestChange[] }> {
  const sha = await resolveCommit(gitDir, fix);
  const fixParent = await firstParent(gitDir, sha);
  if (fixParent === null) throw new ValidationError(`${fix}: the fix is a root commit; it has no change to take tests from`);
  const out = (await runGit(gitDir, ['diff', '--no-renames', '--no-ext-diff', '--name-status', '-z', fixParent, sha])).stdout.split('\0');
  const changes: TestChange[] = [];
  for (let i = 0; i + 1 < out.length; i += 2) {
    const status = out[i]!;
    const path = out[i + 1]!;
    if (!isTest(path)) continue;
    if (status === 'A') changes.push({ path, status: 'added' });
    else if (status === 'M' || status === 'T') changes.push({ path, status: 'modified' });
  }
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { fixParent, changes };
}

export interface NotApplicable {
  readonly state: ProbeState;
  readonly sha: string;
  /** test-file-missing | patch-does-not-apply */
  readonly cause: string;
  readonly detail: string;
}

async function existsAt(gitDir: string, sha: string, path: string): Promise<boolean> {
  const r = await runGit(gitDir, ['cat-file', '-e', `${sha}:${path}`], { allowExit: [1, 128] });
  return r.exitCode === 0;
}

/** The spec's tests with how each is brought to a state: written (added by the fix), patched (modified) or run as it is. */
async function planTests(gitDir: string, spec: TransplantedSpec): Promise<{ fixParent: string; tests: { path: string; how: 'write' | 'patch' | 'as-is' }[] }> {
  const { fixParent, changes } = await fixTestChanges(gitDir, spec.fix.sha, () => true);
  const byPath = new Map(changes.map((c) => [c.path, c.status]));
  return {
    fixParent,
    tests: spec.tests.map((path) => {
      const s = byPath.get(path);
      return { path, how: s === 'added' ? 'write' : s === 'modified' ? 'patch' : 'as-is' };
    }),
  };
}

/** Why the fix's tests cannot be brought to `sha` without guessing, or null. Reads git only. */
async function checkApplicable(gitDir: string, state: ProbeState, sha: string, tests: readonly { path: string; how: string }[], fix: string): Promise<NotApplicable | null> {
  for (const t of tests) {
    if (t.how === 'write') continue;
    if (!(await existsAt(gitDir, sha, t.path))) {
      const what = t.how === 'patch' ? `the fix ${fix.slice(0, 12)} modifies ${t.path}` : `${t.path} is to be run as it is`;
      return { state, sha, cause: 'test-file-missing', detail: `${what}, but it does not exist at ${state} ${sha.slice(0, 12)}` };
    }
  }
  return null;
}

/** `git apply` of a patch in a worktree: null when it applied, else the first line of git's complaint ('' when it said nothing). */
async function applyInWorktree(worktree: string, patch: Buffer): Promise<string | null> {
  try {
    await runGit('', ['apply', '--whitespace=nowarn', '-'], { cwd: worktree, input: patch });
    return null;
  } catch (error) {
    if (!(error instanceof GitError) || error.exitCode === null) throw error;
    return error.stderrTail.split(' | ')[0] ?? '';
  }
}

/** Writes the fix's added test files and applies its changes to modified ones in the worktree. */
async function applyTests(gitDir: string, worktree: string, state: ProbeState, sha: string, fixParent: string, fix: string, tests: readonly { path: string; how: string }[]): Promise<NotApplicable | null> {
  for (const t of tests) {
    if (t.how === 'write') {
      const blob = (await runGitBuffer(gitDir, ['cat-file', 'blob', `${fix}:${t.path}`])).stdout;
      await mkdir(dirname(join(worktree, t.path)), { recursive: true });
      await writeFile(join(worktree, t.path), blob);
    } else if (t.how === 'patch') {
      const patch = (await runGitBuffer(gitDir, ['diff', '--no-renames', '--no-ext-diff', '--binary', fixParent, fix, '--', t.path])).stdout;
      const why = await applyInWorktree(worktree, patch);
      if (why !== null) {
        return { state, sha, cause: 'patch-does-not-apply', detail: `the fix's change to ${t.path} does not apply at ${state} ${sha.slice(0, 12)}${why ? `: ${why}` : ''}` };
      }
    }
  }
  return null;
}

/** One test run's class: pass → good, fail → bad; a command that could not run or wrote no report is not evidence. */
export function classifyTestRun(r: Pick<ExecResult, 'exitCode' | 'signal' | 'timedOut'>, junitXml: string | null | undefined): Classified {
  if (r.timedOut) return { classification: 'timeout', why: 'the test command did not finish within the timeout' };
  if (r.exitCode === 126 || r.exitCode === 127) return { classification: 'not-exercised', why: `the shell could not run the test command (exit ${r.exitCode})` };
  const status = r.signal ? `killed by ${r.signal}` : `exit ${r.exitCode}`;
  if (junitXml !== undefined) {
    if (junitXml === null) return { classification: 'not-exercised', why: `no JUnit report was written (${status})` };
    const cases = parseJunit(junitXml);
    if (cases.length === 0) return { classification: 'not-exercised', why: `the JUnit report holds no test case (${status})` };
    const failed = cases.filter((c) => c.outcome === 'fail' || c.outcome === 'error').map((c) => c.id);
    if (failed.length > 0) return { classification: 'bad', why: `tests failed: ${failed.slice(0, 5).join(', ')}${failed.length > 5 ? ` and ${failed.length - 5} more` : ''} (${status})` };
    if (r.exitCode !== 0) return { classification: 'bad', why: `the test command failed (${status}) though no reported test failed` };
    return { classification: 'good', why: `${cases.length} test case${cases.length === 1 ? '' : 's'} passed (${status})` };
  }
  if (r.exitCode === 0) return { classification: 'good', why: 'the tests passed (exit 0)' };
  return { classification: 'bad', why: `the tests failed (${status})` };
}

export interface TransplantOptions {
  readonly gitDir: string;
  readonly gold: string;
  readonly spec: TransplantedSpec;
  readonly repeats?: number;
  readonly workRoot: string;
  readonly signal?: AbortSignal;
  readonly logDir?: string;
  readonly setupCache?: SetupCache;
  readonly onEvent?: (event: { state: ProbeState; phase: 'setup' | 'trigger'; index: number; summary: string }) => void;
}

export type TransplantOutcome =
  | { readonly applicable: true; readonly result: ReplayResult }
  | { readonly applicable: false; readonly parentSha: string; readonly goldSha: string; readonly notApplicable: NotApplicable };

async function runState(state: ProbeState, sha: string, fixParent: string, tests: readonly { path: string; how: string }[], repeats: number, opts: TransplantOptions): Promise<StateResult | NotApplicable> {
  const { spec } = opts;
  return inStateSandbox(sha, spec, opts, async ({ worktree, home, run }) => {
    const na = await applyTests(opts.gitDir, worktree, state, sha, fixParent, spec.fix.sha, tests);
    if (na) return na;
    const prepared = await runSetup({
      state, gitDir: opts.gitDir, sha, worktree, setup: spec.setup, cachePaths: spec.setup_cache, cache: opts.setupCache, run, signal: opts.signal, onEvent: opts.onEvent,
    });
    const junit = usesJunit(spec.test_command);
    const report = join(home, 'r2v-junit.xml');
    const command = buildCommand(spec.test_command, spec.tests, junit ? report : undefined);
    const runs: RunRecord[] = [];
    for (let repeat = 0; repeat < repeats; repeat += 1) {
      if (prepared.failed) {
        runs.push(skippedRun(state, repeat, command, prepared.failed));
        continue;
      }
      opts.signal?.throwIfAborted();
      if (junit) await rm(report, { force: true });
      const r = await run(command);
      opts.signal?.throwIfAborted();
      const xml = junit ? await readFile(report, 'utf8').catch(() => null) : undefined;
      const c = classifyTestRun(r, xml);
      runs.push({ ...execRecord(command, r), state, repeat, executed: true, classification: c.classification, why: c.why });
      opts.onEvent?.({ state, phase: 'trigger', index: repeat, summary: `${c.classification}: ${c.why}` });
    }
    const v = stateVerdict(runs.map((x) => x.classification));
    return { sha, verdict: v.verdict, cause: v.cause, why: prepared.failed && v.cause === 'setup-failed' ? prepared.failed : v.why, setup: prepared.setup, runs };
  });
}

const isNotApplicable = (x: StateResult | NotApplicable): x is NotApplicable => 'cause' in x && 'detail' in x;

/** Replays a transplanted-test probe at parent(gold) and gold. Stale worktrees of killed runs are pruned first. */
export async function replayTransplanted(opts: TransplantOptions): Promise<TransplantOutcome> {
  const repeats = opts.repeats ?? opts.spec.repeats;
  if (!Number.isInteger(repeats) || repeats < 1) throw new ValidationError(`repeats: must be a positive integer, got ${repeats}`);
  await pruneStaleWorktrees(opts.gitDir, opts.workRoot);
  const gold = await resolveCommit(opts.gitDir, opts.gold);
  const parent = await firstParent(opts.gitDir, gold);
  if (parent === null) throw new ValidationError(`${opts.gold}: gold is a root commit; it has no parent to compare with`);
  const { fixParent, tests } = await planTests(opts.gitDir, opts.spec);
  for (const [state, sha] of [['parent', parent], ['gold', gold]] as const) {
    const na = await checkApplicable(opts.gitDir, state, sha, tests, opts.spec.fix.sha);
    if (na) return { applicable: false, parentSha: parent, goldSha: gold, notApplicable: na };
  }
  const p = await runState('parent', parent, fixParent, tests, repeats, opts);
  if (isNotApplicable(p)) return { applicable: false, parentSha: parent, goldSha: gold, notApplicable: p };
  const g = await runState('gold', gold, fixParent, tests, repeats, opts);
  if (isNotApplicable(g)) return { applicable: false, parentSha: parent, goldSha: gold, notApplicable: g };
  const d = decideBoundary(p, g, opts.spec.draft);
  return { applicable: true, result: { parent: p, gold: g, boundary: d.boundary, reason: d.reason, observed: d.observed, draft: opts.spec.draft, repeats } };
}
