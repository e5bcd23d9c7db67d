import { describe, expect, it } from 'vitest';
import { GitError, runGit } from '../../../src/git/runner.js';

describe('runGit', () => {
  it('runs git with LC_ALL=C and GIT_TERMINAL_PROMPT=0 in its environment', async () => {
    const r = await runGit('', ['-c', 'alias.showenv=!env', 'showenv']);
    const env = r.stdout.split('\n');
    expect(env).toContain('LC_ALL=C');
    expect(env).toContain('GIT_TERMINAL_PROMPT=0');
  });

  it('stops a git command that runs past its timeout with a timeout error naming the command', async () => {
    const err = await runGit('', ['-c', 'alias.stall=!sleep 3 >/dev/null 2>&1', 'stall'], { timeoutMs: 150 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitError);
    expect(err).toMatchObject({ kind: 'timeout', exitCode: null });
    expect((err as Error).message).toMatch(/stall.*timed out|timed out.*stall/);
  });

  it('a failing command is a git error carrying the stderr tail', async () => {
    const err = await runGit('/nonexistent/r2v-repo.git', ['rev-parse', 'HEAD']).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'git', exitCode: 128 });
    expect((err as GitError).stderrTail).toMatch(/not a git repository/);
  });

  it('passes input on stdin and returns the output byte for byte', async () => {
    const r = await runGit('', ['hash-object', '--stdin'], { input: 'one line\n' });
    expect(r).toEqual({ stdout: 'e3c0674801dab4e79d2b763c3909bb53b082ef48\n', stderr: '', exitCode: 0 });
  });

  it('an allowed non-zero exit is data, any other is a git error', async () => {
    const r = await runGit('', ['-c', 'alias.one=!exit 1', 'one'], { allowExit: [1] });
    expect(r.exitCode).toBe(1);
    await expect(runGit('', ['-c', 'alias.two=!exit 2', 'two'], { allowExit: [1] })).rejects.toMatchObject({ kind: 'git', exitCode: 2 });
  });

  it('a command stopped through its abort signal is a "canceled" git error', async () => {
    const controller = new AbortController();
    const pending = runGit('', ['-c', 'alias.stall=!sleep 3 >/dev/null 2>&1', 'stall'], { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const err = await pending.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitError);
    expect((err as Error).message).toMatch(/stall: canceled/);
  });

  it('git killed by a signal is a failure naming the signal, never a success', async () => {
    const err = await runGit('', ['-c', 'alias.die=!kill -9 $PPID', 'die']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitError);
    expect((err as Error).message).toMatch(/killed by SIGKILL/);
  });

  it('git that cannot be started is one "could not run git" error', async () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent-r2v-path';
    try {
      const err = await runGit('', ['--version']).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GitError);
      expect((err as Error).message).toMatch(/could not run git: .*ENOENT/);
    } finally {
      process.env.PATH = path;
    }
  });
});
