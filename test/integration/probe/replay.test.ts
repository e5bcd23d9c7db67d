import { execa } from 'execa';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MinerError, ValidationError } from '../../../src/errors.js';
import { pruneStaleWorktrees, replay } from '../../../src/probe/replay.js';
import { toProbeSpec } from '../../../src/probe/spec.js';
import { tempDir } from '../../support/make-repo.js';
import { processesMatching, uniqueSleepSeconds, waitNoneMatching } from '../../support/process.js';
import { pidIsolationAvailable } from '../../../src/probe/exec.js';
import { BUILD_OK, CHECK, LIB_BAD, LIB_GOOD, listedWorktrees, probeRepo } from './support/repos.js';

const baseSpec = {
  setup: ['sh build.sh'],
  trigger: 'sh check.sh',
  symptom: { stderr_contains: 'wrong sum' },
  exercised: { marker: 'checking sum' },
  timeout_s: 5,
  repeats: 2,
};

describe('replay', () => {
  it('verifies a planted regression: parent stably good, gold stably bad; no worktree left', async () => {
    const r = await probeRepo([
      { 'lib.sh': LIB_GOOD, 'build.sh': BUILD_OK, 'check.sh': CHECK },
      { 'README': 'docs\n' },
      { 'lib.sh': LIB_BAD },
      { 'README': 'more docs\n' },
    ]);
    const result = await replay({ gitDir: r.gitDir, gold: r.shas[2]!.slice(0, 10), spec: toProbeSpec(baseSpec, 'spec'), workRoot: r.workRoot });
    expect(result.parent.sha).toBe(r.shas[1]);
    expect(result.gold.sha).toBe(r.shas[2]);
    expect(result.parent.verdict).toBe('good');
    expect(result.gold.verdict).toBe('bad');
    expect(result.boundary).toBe('verified');
    expect(result.reason).toBe('parent-good-gold-bad');
    expect(result.parent.runs.map((x) => x.classification)).toEqual(['good', 'good']);
    expect(result.gold.runs.map((x) => x.classification)).toEqual(['bad', 'bad']);
    expect(result.gold.runs[0]!.exitCode).toBe(1);
    expect(result.gold.runs[0]!.stderrTail).toBe('wrong sum: 5\n');
    expect(result.gold.runs[0]!.why).toBe('symptom: stderr contains "wrong sum"');
    expect(result.parent.setup).toHaveLength(1);
    expect(result.parent.setup[0]!.ok).toBe(true);
    expect(readdirSync(r.workRoot)).toEqual([]);
    expect(await listedWorktrees(r.gitDir)).toEqual([]);
  });

  it('calls a trigger whose outcome alternates across repeats flaky', async () => {
    const counter = join(await tempDir(), 'counter');
    const flaky = 'n=$(cat "$COUNTER" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$COUNTER"\necho "checking sum"\nif [ $((n % 2)) -eq 0 ]; then echo "wrong sum" >&2; exit 1; fi\n';
    const r = await probeRepo([{ 'flaky.sh': flaky }, { 'other.txt': 'x\n' }]);
    const spec = toProbeSpec({ ...baseSpec, setup: [], trigger: 'sh flaky.sh', repeats: 3, env: { COUNTER: counter } }, 'spec');
    const result = await replay({ gitDir: r.gitDir, gold: r.shas[1]!, spec, workRoot: r.workRoot });
    expect(result.parent.runs.map((x) => x.classification)).toEqual(['good', 'bad', 'good']);
    expect(result.gold.runs.map((x) => x.classification)).toEqual(['bad', 'good', 'bad']);
    expect(result.parent.verdict).toBe('flaky');
    expect(result.gold.verdict).toBe('flaky');
    expect(result.boundary).toBe('flaky');
    expect(result.reason).toBe('flaky-both');
  });

  it('calls a build that fails at the parent nonreproducible, never bad', async () => {
    const r = await probeRepo([
      { 'lib.sh': LIB_GOOD, 'build.sh': 'echo "compiler error" >&2; exit 2\n', 'check.sh': CHECK },
      { 'lib.sh': LIB_BAD, 'build.sh': BUILD_OK },
    ]);
    const result = await replay({ gitDir: r.gitDir, gold: r.shas[1]!, spec: toProbeSpec(baseSpec, 'spec'), workRoot: r.workRoot });
    expect(result.parent.verdict).toBe('nonreproducible');
    expect(result.parent.runs.map((x) => x.classification)).toEqual(['setup-failed', 'setup-failed']);
    expect(result.parent.runs.every((x) => !x.executed)).toBe(true);
    expect(result.parent.setup[0]).toMatchObject({ ok: false, exitCode: 2, stderrTail: 'compiler error\n' });
    expect(result.parent.why).toBe('setup step 1 ("sh build.sh") exited 2');
    expect(result.gold.verdict).toBe('bad');
    expect(result.boundary).toBe('nonreproducible');
    expect(result.reason).toBe('parent-setup-failed');
  });

  it('times out a hanging trigger, kills its grandchildren, and calls it nonreproducible', async () => {
    const n = uniqueSleepSeconds();
    const hang = `echo "checking sum"\nsh -c 'sleep ${n} & wait'\n`;
    const r = await probeRepo([
      { 'lib.sh': LIB_GOOD, 'build.sh': BUILD_OK, 'check.sh': CHECK },
      { 'check.sh': hang },
    ]);
    // Long enough for the parent's quick check on a loaded machine; the hanging gold never finishes.
    const spec = toProbeSpec({ ...baseSpec, timeout_s: 4 }, 'spec');
    const result = await replay({ gitDir: r.gitDir, gold: r.shas[1]!, spec, workRoot: r.workRoot });
    expect(result.parent.verdict).toBe('good');
    expect(result.gold.runs.map((x) => x.classification)).toEqual(['timeout', 'timeout']);
    expect(result.gold.runs[0]!.timedOut).toBe(true);
    expect(result.gold.verdict).toBe('nonreproducible');
    expect(result.boundary).toBe('nonreproducible');
    expect(result.reason).toBe('gold-timeout');
    // Both runs started a grandchild; the process list holds none of them now.
    expect(await waitNoneMatching(`sleep ${n}`)).toEqual([]);
  });

  it('calls a symptom at both parent and gold not-a-boundary', async () => {
    const r = await probeRepo([
      { 'lib.sh': LIB_BAD, 'build.sh': BUILD_OK, 'check.sh': CHECK },
      { 'README': 'x\n' },
    ]);
    const result = await replay({ gitDir: r.gitDir, gold: r.shas[1]!, spec: toProbeSpec(baseSpec, 'spec'), workRoot: r.workRoot });
    expect(result.parent.verdict).toBe('bad');
    expect(result.gold.verdict).toBe('bad');
    expect(result.boundary).toBe('not-a-boundary');
    expect(result.reason).toBe('bad-at-both');
  });

  it('never verifies with a draft spec, but records what the runs showed', async () => {
    const r = await probeRepo([
      { 'lib.sh': LIB_GOOD, 'build.sh': BUILD_OK, 'check.sh': CHECK },
      { 'lib.sh': LIB_BAD },
    ]);
    const spec = toProbeSpec({ ...baseSpec, repeats: 1, draft: true }, 'spec');
    const result = await replay({ gitDir: r.gitDir, gold: r.shas[1]!, spec, workRoot: r.workRoot });
    expect(result.observed).toBe('verified');
    expect(result.boundary).not.toBe('verified');
    expect(result.reason).toBe('draft');
  });

  it('overrides repeats and rejects bad inputs clearly', async () => {
    const r = await probeRepo([{ 'lib.sh': LIB_GOOD, 'build.sh': BUILD_OK, 'check.sh': CHECK }, { 'lib.sh': LIB_BAD }]);
    const spec = toProbeSpec(baseSpec, 'spec');
    const once = await replay({ gitDir: r.gitDir, gold: r.shas[1]!, spec, workRoot: r.workRoot, repeats: 1 });
    expect(once.parent.runs).toHaveLength(1);
    expect(once.gold.runs).toHaveLength(1);
    await expect(replay({ gitDir: r.gitDir, gold: r.shas[0]!, spec, workRoot: r.workRoot })).rejects.toThrow(
      new ValidationError(`${r.shas[0]}: gold is a root commit; it has no parent to compare with`),
    );
    await expect(replay({ gitDir: r.gitDir, gold: 'f'.repeat(40), spec, workRoot: r.workRoot })).rejects.toThrow(MinerError);
    await expect(replay({ gitDir: r.gitDir, gold: 'f'.repeat(40), spec, workRoot: r.workRoot })).rejects.toThrow(/not a commit in this repository/);
    await expect(replay({ gitDir: r.gitDir, gold: r.shas[1]!, spec, workRoot: r.workRoot, repeats: 0 })).rejects.toThrow(/repeats: must be a positive integer/);
  });

  it('leaves no worktree behind a killed run after the next start', async () => {
    const marks = await tempDir();
    const r = await probeRepo([
      { 'lib.sh': LIB_GOOD, 'build.sh': BUILD_OK, 'check.sh': CHECK },
      { 'README': 'x\n' },
    ]);
    const n = uniqueSleepSeconds();
    const spec = { ...baseSpec, trigger: `echo started > "$MARKS/trigger.pid"; sleep ${n}`, timeout_s: 60, env: { MARKS: marks } };
    const child = execa('node', ['--import', 'tsx', join(import.meta.dirname, 'support/replay-child.ts'), JSON.stringify({ gitDir: r.gitDir, gold: r.shas[1], workRoot: r.workRoot, spec })], {
      reject: false,
      cwd: join(import.meta.dirname, '../../..'),
    });
    const pidFile = join(marks, 'trigger.pid');
    const until = Date.now() + 20_000;
    while (!existsSync(pidFile) && Date.now() < until) await new Promise((res) => setTimeout(res, 50));
    expect(existsSync(pidFile)).toBe(true);
    expect(readdirSync(r.workRoot).some((n) => n.startsWith('r2v-probe-wt-'))).toBe(true);
    expect(await listedWorktrees(r.gitDir)).toHaveLength(1);
    child.kill('SIGKILL');
    await child;
    // The trigger dies with the killed process where a PID namespace holds it; else end it here.
    if (!(await pidIsolationAvailable())) for (const pid of processesMatching(`sleep ${n}`)) process.kill(pid, 'SIGKILL');
    expect(await waitNoneMatching(`sleep ${n}`)).toEqual([]);
    expect(readdirSync(r.workRoot).length).toBeGreaterThan(0);
    const removed = await pruneStaleWorktrees(r.gitDir, r.workRoot);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(readdirSync(r.workRoot)).toEqual([]);
    expect(await listedWorktrees(r.gitDir)).toEqual([]);
  });
});
