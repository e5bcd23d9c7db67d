/** A revision named by a user or a record (`HEAD~2`, a tag, a short or full SHA) read as a commit id. */
import { runGit } from './runner.js';

/**
 * The full id of the commit `rev` names in the repository at `gitDir`, or null when it names none
 * (unknown, ambiguous, not a commit, or no repository there). `rev` is never taken as an option.
 */
export async function commitIdOf(gitDir: string, rev: string): Promise<string | null> {
  const r = await runGit(gitDir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], { allowExit: [1, 128] });
  const sha = r.stdout.trim();
  return r.exitCode === 0 && /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(sha) ? sha : null;
}
