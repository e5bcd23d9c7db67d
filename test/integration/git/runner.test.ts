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
});
