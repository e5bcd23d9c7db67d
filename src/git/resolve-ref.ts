import { isSameRepository } from '../backward/refs.js';
import type { NameStatus } from './batch.js';
import type { GitRepoHandle } from './repos.js';

export type RefStatus = NameStatus | 'cross-repository' | 'pr-not-single-commit' | 'pr-unknown';

export interface RefResolution {
  input: string;
  status: RefStatus;
  sha: string | null;
  candidates: string[];
  via: 'hex' | 'commit-url' | 'pr';
}

export interface AttributedRef {
  type: 'sha' | 'commit-url' | 'pr';
  value: string;
  /** owner/name the URL points at, when the ref is a URL. */
  urlRepo: string | null;
}

export interface ResolveRefContext {
  repo: string;
  /** Former owner/name spellings of the repository: commit URLs under them are the repository's. */
  aliases?: readonly string[];
  /** The PR's commits and merge commit, from the stored pull request; undefined when unknown. */
  pullCommits?: (n: number) => { commitShas: string[]; mergeCommitSha: string | null } | undefined;
}

const COMMIT_IN_URL = /\/commits?\/([0-9a-fA-F]{4,40})(?![0-9a-fA-F])/;
const HEX_ONLY = /^([0-9a-fA-F]{4,40})$/;
const PR_NUMBER = /^#?(\d{1,9})$/;

/**
 * Turns one attribution (hex, a commit URL, or a PR number) into one full commit SHA of `repo`.
 * A PR resolves to its squash (or single rebased) commit, or to its only commit when merged with
 * a merge commit; a PR that brought several commits is `pr-not-single-commit`.
 */
export async function resolveRef(h: GitRepoHandle, ref: AttributedRef, ctx: ResolveRefContext): Promise<RefResolution> {
  if (ref.type === 'sha') return resolveHex(h, ref.value, ref.value, 'hex');
  if (ref.type === 'commit-url') {
    if (ref.urlRepo !== null && !isSameRepository(ref.urlRepo, ctx.repo, ctx.aliases ?? [])) {
      return { input: ref.value, status: 'cross-repository', sha: null, candidates: [], via: 'commit-url' };
    }
    // Attribution extraction stores the hex of the URL as the value; a whole URL is accepted too.
    const m = HEX_ONLY.exec(ref.value) ?? COMMIT_IN_URL.exec(ref.value);
    if (!m) return { input: ref.value, status: 'missing', sha: null, candidates: [], via: 'commit-url' };
    return resolveHex(h, ref.value, m[1]!, 'commit-url');
  }
  return resolvePr(h, ref.value, ctx);
}

async function resolveHex(h: GitRepoHandle, input: string, hex: string, via: 'hex' | 'commit-url'): Promise<RefResolution> {
  const [r] = await h.objects.resolve([hex]);
  return { input, status: r!.status, sha: r!.status === 'ok' ? r!.sha : null, candidates: r!.candidates, via };
}

async function resolvePr(h: GitRepoHandle, value: string, ctx: ResolveRefContext): Promise<RefResolution> {
  const base = { input: value, via: 'pr' as const, candidates: [] as string[] };
  const m = PR_NUMBER.exec(value.trim());
  const pr = m ? ctx.pullCommits?.(Number(m[1])) : undefined;
  if (!pr) return { ...base, status: 'pr-unknown', sha: null };
  const merge = pr.mergeCommitSha ? await h.objects.commit(pr.mergeCommitSha) : null;
  if (merge && merge.parents.length === 1) {
    // Squash or rebase. A rebase of several commits leaves the PR's commits on the branch below it.
    if (pr.commitShas.length <= 1) return { ...base, status: 'ok', sha: merge.sha };
    if (await looksRebased(h, merge.sha, pr.commitShas)) return { ...base, status: 'pr-not-single-commit', sha: null, candidates: [...pr.commitShas] };
    return { ...base, status: 'ok', sha: merge.sha };
  }
  if (pr.commitShas.length !== 1) return { ...base, status: 'pr-not-single-commit', sha: null, candidates: [...pr.commitShas] };
  const [r] = await h.objects.resolve([pr.commitShas[0]!]);
  return { ...base, status: r!.status, sha: r!.status === 'ok' ? r!.sha : null, candidates: r!.candidates };
}

/**
 * A rebase-merge copies the PR's commits one by one (same subjects, same authors); a squash makes
 * one new commit. True when the merge commit and its first parent carry the last two PR commits'
 * subjects and authors.
 */
async function looksRebased(h: GitRepoHandle, mergeSha: string, prCommits: readonly string[]): Promise<boolean> {
  const last = await h.objects.commit(prCommits[prCommits.length - 1]!);
  const prev = await h.objects.commit(prCommits[prCommits.length - 2]!);
  const merge = await h.objects.commit(mergeSha);
  const below = merge?.parents[0] ? await h.objects.commit(merge.parents[0]) : null;
  if (!last || !prev || !merge || !below) return false;
  const same = (a: typeof last, b: typeof last): boolean => a.subject === b.subject && a.authorEmail === b.authorEmail && a.authorTime === b.authorTime;
  return same(merge, last) && same(below, prev);
}
