import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import pRetry, { AbortError } from 'p-retry';
import { repoNameProblem } from '../config.js';
import { isTransient, MinerError } from '../errors.js';
import { redactUrls } from './errors.js';
import { forgetPartial, isPartialRepo, missingObjectIn, missingObjects } from './partial.js';
import { runGit } from './runner.js';

/** Refs a mirror keeps: branches, tags, and the head of every pull request the remote exposes. */
export const MIRROR_REFSPECS: readonly string[] = [
  '+refs/heads/*:refs/heads/*',
  '+refs/tags/*:refs/tags/*',
  '+refs/pull/*/head:refs/pull/*/head',
];

const FETCH_TIMEOUT_MS = 60 * 60 * 1000;

/**
 * Objects come from untrusted remotes: fsck them at the door, so a tree with `.`, `..`, `.git`,
 * a slash in a name, or duplicate entries is refused before anything reads it. Commit-header
 * oddities that old, harmless histories carry stay warnings.
 */
export const MIRROR_FSCK_CONFIG: readonly (readonly [string, string])[] = [
  ['fetch.fsckObjects', 'true'],
  ['transfer.fsckObjects', 'true'],
  ['fetch.fsck.hasDot', 'error'],
  ['fetch.fsck.hasDotdot', 'error'],
  ['fetch.fsck.hasDotgit', 'error'],
  ['fetch.fsck.fullPathname', 'error'],
  ['fetch.fsck.emptyName', 'error'],
  ['fetch.fsck.duplicateEntries', 'error'],
  ['fetch.fsck.zeroPaddedFilemode', 'ignore'],
  ['fetch.fsck.badTimezone', 'warn'],
  ['fetch.fsck.missingSpaceBeforeDate', 'warn'],
  ['fetch.fsck.zeroPaddedDate', 'warn'],
];

async function configureFsck(dir: string): Promise<void> {
  for (const [k, v] of MIRROR_FSCK_CONFIG) await runGit(dir, ['config', k, v]);
}

/** data/mirrors/owner__name.git */
export function mirrorDir(dataDir: string, repo: string): string {
  const problem = repoNameProblem(repo);
  if (problem) throw new MinerError('usage', `${repo}: ${problem}`);
  const [owner, name] = repo.split('/');
  return join(dataDir, 'mirrors', `${owner}__${name}.git`);
}

export function defaultGitUrl(repo: string): string {
  return `https://github.com/${repo}.git`;
}

/** The URL with any user:password part removed, for messages. */
export function redactUrl(url: string): string {
  return redactUrls(url);
}

/** A local path stays a path (absolute); URLs (scheme:// or scp-like) are passed as is. */
function remoteOf(url: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^[^/]+@[^/:]+:/.test(url)) return url;
  return isAbsolute(url) ? url : resolve(url);
}

async function isBareRepo(dir: string): Promise<boolean> {
  try {
    const r = await runGit(dir, ['rev-parse', '--is-bare-repository'], { timeoutMs: 30_000 });
    return r.stdout.trim() === 'true';
  } catch {
    return false;
  }
}

/**
 * Creates the bare mirror `dir` of `url`, or updates it incrementally: branches, tags and
 * refs/pull/N/head. A new mirror is built in a temporary sibling and renamed into place, so a
 * killed clone leaves nothing half-written. Network failures are retried; others are not.
 */
export interface MirrorRetry {
  retries: number;
  minTimeoutMs: number;
}

const DEFAULT_RETRY: MirrorRetry = { retries: 3, minTimeoutMs: 1000 };

/**
 * A new mirror is a blobless partial clone (`--filter=blob:none`) unless `partial` is false:
 * commits and trees are fetched, file contents on demand (src/git/partial.ts). A remote that
 * does not support filters sends everything, as for a full clone.
 */
export async function ensureMirror(opts: { repo: string; url: string; dir: string; signal?: AbortSignal; retry?: MirrorRetry; partial?: boolean }): Promise<void> {
  const retry = opts.retry ?? DEFAULT_RETRY;
  const remote = remoteOf(opts.url);
  const shown = redactUrl(opts.url);
  if (existsSync(opts.dir)) {
    if (!(await isBareRepo(opts.dir))) {
      throw new MinerError('git', `${opts.dir}: exists but is not a bare git repository (mirror of ${opts.repo})`);
    }
    await runGit(opts.dir, ['config', 'remote.origin.url', remote]);
    await configureFsck(opts.dir);
    forgetPartial(opts.dir);
    await fetchWithRetry(opts.dir, opts.repo, shown, retry, opts.signal, await isPartialRepo(opts.dir));
    await updateHead(opts.dir, opts.signal);
    return;
  }
  const tmp = `${opts.dir}.partial`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(dirname(opts.dir), { recursive: true });
  try {
    await runGit('', ['init', '-q', '--bare', tmp]);
    await runGit(tmp, ['config', 'remote.origin.url', remote]);
    await runGit(tmp, ['config', 'gc.auto', '0']);
    await runGit(tmp, ['config', 'core.logAllRefUpdates', 'false']);
    await runGit(tmp, ['config', 'fetch.writeCommitGraph', 'true']);
    await configureFsck(tmp);
    for (const spec of MIRROR_REFSPECS) await runGit(tmp, ['config', '--add', 'remote.origin.fetch', spec]);
    const partial = opts.partial ?? true;
    if (partial) for (const [k, v] of PARTIAL_CONFIG) await runGit(tmp, ['config', k, v]);
    await fetchWithRetry(tmp, opts.repo, shown, retry, opts.signal, partial);
    await updateHead(tmp, opts.signal);
    if (partial && !(await filterHonoured(tmp))) {
      // The remote ignored the filter (no uploadpack.allowFilter, a plain local path): the mirror
      // is complete, so it must not be a promisor clone, whose readers would fetch from the
      // remote whenever an object is missing.
      for (const [k] of PARTIAL_CONFIG) if (k !== 'core.repositoryformatversion') await runGit(tmp, ['config', '--unset', k]);
    }
    await rename(tmp, opts.dir);
    forgetPartial(opts.dir);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
}

/** What `git clone --filter=blob:none` configures: origin is a promisor remote of a blobless clone. */
export const PARTIAL_CONFIG: readonly (readonly [string, string])[] = [
  ['core.repositoryformatversion', '1'],
  ['extensions.partialClone', 'origin'],
  ['remote.origin.promisor', 'true'],
  ['remote.origin.partialclonefilter', 'blob:none'],
];

/**
 * True when the remote applied the blob filter: the tip tree's blobs are absent (decided on the
 * tip when it has files, else on the whole history, which is then small or has no files at all).
 */
async function filterHonoured(dir: string): Promise<boolean> {
  const tip = await runGit(dir, ['rev-parse', '--verify', '--quiet', 'HEAD^{tree}'], { allowExit: [0, 1, 128] });
  if (tip.exitCode === 0) {
    const ls = await runGit(dir, ['ls-tree', '-r', '--format=%(objecttype)', tip.stdout.trim()]);
    if (ls.stdout.split('\n').some((t) => t === 'blob')) return (await missingObjects(dir, tip.stdout.trim())).length > 0;
  }
  const all = await runGit(dir, ['rev-list', '--objects', '--missing=print', '--all']);
  return all.stdout.split('\n').some((l) => l.startsWith('?'));
}

async function fetchWithRetry(dir: string, repo: string, shownUrl: string, retry: MirrorRetry, signal?: AbortSignal, partial = false): Promise<void> {
  await pRetry(
    async () => {
      try {
        await runGit(dir, ['fetch', '--prune', '--no-write-fetch-head', '--quiet', ...(partial ? ['--filter=blob:none'] : []), 'origin'], { timeoutMs: FETCH_TIMEOUT_MS, signal });
      } catch (error) {
        const oid = missingObjectIn((error as Error).message);
        if (oid) throw new AbortError(new MinerError('git', `${repo}: the remote ${shownUrl} lacks object ${oid}`, { cause: error }));
        const message = `${repo}: fetch from ${shownUrl} failed: ${(error as Error).message}`;
        const wrapped = new MinerError(isTransient(error) ? 'transient' : 'git', message, { cause: error });
        if (!isTransient(error)) throw new AbortError(wrapped);
        throw wrapped;
      }
    },
    { retries: retry.retries, minTimeout: retry.minTimeoutMs, factor: 3, signal, shouldRetry: ({ error }) => isTransient(error) },
  );
}

/** Points HEAD at the remote's default branch (what `git ls-remote --symref origin HEAD` says). */
async function updateHead(dir: string, signal?: AbortSignal): Promise<void> {
  const r = await runGit(dir, ['ls-remote', '--symref', 'origin', 'HEAD'], { timeoutMs: 120_000, signal, allowExit: [0, 2] });
  const m = /^ref: (refs\/heads\/\S+)\tHEAD$/m.exec(r.stdout);
  if (m) await runGit(dir, ['symbolic-ref', 'HEAD', m[1]!]);
}
