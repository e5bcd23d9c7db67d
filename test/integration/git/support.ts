import { onTestFinished } from 'vitest';
import { BatchObjects } from '../../../src/git/batch.js';
import { findCommitPrefixCollision, gitObjectId } from '../../../src/git/object-id.js';
import { BASE_EPOCH, type TestRepo } from '../../support/make-repo.js';

/** Opens a BatchObjects closed when the test finishes. */
export function openObjects(gitDir: string, protocol: 'command' | 'classic' = 'command'): BatchObjects {
  const objects = BatchObjects.open(gitDir, { protocol });
  onTestFinished(() => objects.close());
  return objects;
}

/** Time of tick n of the fixed clock, as a Date (half past, between two commits when `half`). */
export function tickDate(n: number, half = false): Date {
  return new Date((BASE_EPOCH + n * 3600 + (half ? 1800 : 0)) * 1000);
}

/**
 * Writes real commit objects on top of HEAD until two share their first `prefix` hex digits
 * (their SHAs are computed first, so only the colliding pair is written), and puts them on
 * branches. Returns the two SHAs.
 */
export async function commitsSharingPrefix(repo: TestRepo, prefix = 4): Promise<[string, string]> {
  const tree = await repo.git(['rev-parse', 'HEAD^{tree}']);
  const parent = await repo.git(['rev-parse', 'HEAD']);
  const { bodies } = findCommitPrefixCollision(
    (i) => `tree ${tree}\nparent ${parent}\nauthor A <a@example.com> ${BASE_EPOCH} +0000\ncommitter A <a@example.com> ${BASE_EPOCH} +0000\n\nattempt ${i}\n`,
    prefix,
  )!;
  const a = await writeCommitBody(repo, bodies[0]);
  const b = await writeCommitBody(repo, bodies[1]);
  await repo.updateRef('refs/heads/collide-a', a);
  await repo.updateRef('refs/heads/collide-b', b);
  return [a, b];
}

async function writeCommitBody(repo: TestRepo, body: string): Promise<string> {
  const { execa } = await import('execa');
  const r = await execa('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: repo.dir, input: body, env: { LC_ALL: 'C' } });
  return r.stdout.trim();
}

/** Writes a blob whose SHA shares its first `prefix` hex digits with `sha`; returns the blob SHA. */
export async function blobSharingPrefix(repo: TestRepo, sha: string, prefix = 4): Promise<string> {
  for (let i = 0; ; i++) {
    const text = `blob attempt ${i}\n`;
    if (gitObjectId('blob', text).startsWith(sha.slice(0, prefix))) {
      const { execa } = await import('execa');
      const r = await execa('git', ['hash-object', '-w', '--stdin'], { cwd: repo.dir, input: text, env: { LC_ALL: 'C' } });
      return r.stdout.trim();
    }
  }
}

/** The .git directory of a test repository. */
export function gd(repo: TestRepo): string {
  return `${repo.dir}/.git`;
}
