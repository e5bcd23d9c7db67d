/**
 * Throw-away detached worktrees of a (bare) mirror. Each directory is named
 * `r2v-probe-wt-<pid>-<random>` under the work root, so a later start can recognise the ones a
 * killed process left behind (their pid is gone) and remove them.
 */
import { isProcessAlive } from '../util/pid.js';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MinerError } from '../errors.js';
import { commitIdOf } from '../git/revision.js';
import { runGit } from '../git/runner.js';

export const WORKTREE_PREFIX = 'r2v-probe-wt-';

async function git(gitDir: string, args: string[]): Promise<string> {
  return (await runGit(gitDir, args)).stdout.trim();
}

/** Full SHA of a commit, or a `git` error naming the revision. */
export async function resolveCommit(gitDir: string, rev: string): Promise<string> {
  const sha = await commitIdOf(gitDir, rev);
  if (sha === null) throw new MinerError('git', `${gitDir}: ${rev}: not a commit in this repository`);
  return sha;
}

/** First parent of a commit, or null for a root commit. */
export async function firstParent(gitDir: string, sha: string): Promise<string | null> {
  const line = await git(gitDir, ['rev-list', '--parents', '-n', '1', sha]);
  return line.split(' ')[1] ?? null;
}

const isAlive = isProcessAlive;

/** Adds a detached worktree at `sha` under `workRoot`; returns its directory. */
export async function addWorktree(gitDir: string, workRoot: string, sha: string): Promise<string> {
  await mkdir(workRoot, { recursive: true });
  const dir = join(workRoot, `${WORKTREE_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  await git(gitDir, ['worktree', 'add', '--detach', '--quiet', dir, sha]);
  return dir;
}

/** Removes a worktree (tracked or not, clean or not) and prunes git's record of it. */
export async function removeWorktree(gitDir: string, dir: string): Promise<void> {
  // Best effort: the directory goes either way, and prune forgets a worktree git could not remove.
  await runGit(gitDir, ['worktree', 'remove', '--force', '--force', dir]).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
  await runGit(gitDir, ['worktree', 'prune']).catch(() => undefined);
}

/**
 * Removes worktree directories under `workRoot` left by processes that no longer run, and prunes
 * the mirror's worktree records. Returns how many directories were removed.
 */
export async function pruneStaleWorktrees(gitDir: string, workRoot: string): Promise<number> {
  const entries = await readdir(workRoot, { withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const e of entries) {
    if (!e.isDirectory() || !e.name.startsWith(WORKTREE_PREFIX)) continue;
    const pid = Number(e.name.slice(WORKTREE_PREFIX.length).split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) continue;
    await rm(join(workRoot, e.name), { recursive: true, force: true });
    removed += 1;
  }
  await git(gitDir, ['worktree', 'prune']);
  return removed;
}
