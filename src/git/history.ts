import { decideCutoff, isCutoff, NO_PULL_REFS, reportSeconds, type Cutoff, type LineFacts, type PullRefs } from '../backward/cutoff.js';
import { MinerError } from '../errors.js';
import { runGit } from './runner.js';

/** True when `a` is an ancestor of `b` (or the same commit). */
export async function isAncestor(gitDir: string, a: string, b: string): Promise<boolean> {
  const r = await runGit(gitDir, ['merge-base', '--is-ancestor', a, b], { allowExit: [0, 1] });
  return r.exitCode === 0;
}

/** Every commit reachable from `rev` (itself included), from one `rev-list`. */
export async function reachableFrom(gitDir: string, rev: string): Promise<Set<string>> {
  const r = await runGit(gitDir, ['rev-list', rev, '--']);
  return new Set(r.stdout.split('\n').filter((l) => l.length > 0));
}

/** The branch the mirror's HEAD points at (`main`), or null when HEAD is detached or dangling. */
export async function defaultBranchOf(gitDir: string): Promise<string | null> {
  const r = await runGit(gitDir, ['symbolic-ref', '-q', 'HEAD'], { allowExit: [0, 1] });
  const ref = r.stdout.trim();
  if (r.exitCode !== 0 || !ref.startsWith('refs/heads/')) return null;
  const exists = await runGit(gitDir, ['rev-parse', '-q', '--verify', `${ref}^{commit}`], { allowExit: [0, 1] });
  return exists.exitCode === 0 ? ref.slice('refs/heads/'.length) : null;
}

/**
 * Names the default branch had before, which merge subjects written then still name: `master` for
 * a `main` branch in a repository with no `master` branch (GitHub's default was renamed so in
 * 2020, and earlier "Merge branch 'master' into feature" foxtrot merges say `master`). One
 * `rev-parse`, and only for a `main` branch.
 */
export async function formerBranchNames(gitDir: string, branch: string): Promise<string[]> {
  if (branch !== 'main') return [];
  const master = await runGit(gitDir, ['rev-parse', '-q', '--verify', 'refs/heads/master^{commit}'], { allowExit: [0, 1] });
  return master.exitCode === 0 ? [] : ['master'];
}

/** The refs/pull/N/head refs of a repository (one `for-each-ref`); other refs under refs/pull/ count as heads only. */
export async function readPullRefs(gitDir: string): Promise<PullRefs> {
  const r = await runGit(gitDir, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/pull/']);
  const heads = new Set<string>();
  const tips = new Map<number, string>();
  for (const l of r.stdout.split('\n')) {
    if (!l) continue;
    const sp = l.indexOf(' ');
    const sha = l.slice(0, sp);
    heads.add(sha);
    const n = /^refs\/pull\/(\d+)\/head$/.exec(l.slice(sp + 1).trim())?.[1];
    if (n !== undefined) tips.set(Number(n), sha);
  }
  return { heads, tips };
}

/**
 * The cutoff of one report (decideCutoff), its facts read per case: for each first-parent line
 * the rule asks about, two `rev-list` processes (with a commit-graph neither parses the skipped
 * commits); the refs/pull/ heads and the branch's former names once, when a line has a merge above its cutoff. The reference
 * for BranchHistory's batched reading (tests check that both agree).
 */
export async function computeCutoff(gitDir: string, branch: string, reportTime: Date, repoNames: readonly string[] = []): Promise<Cutoff> {
  const limit = reportSeconds(reportTime);
  const lines = new Map<string, LineFacts>();
  let pulls: PullRefs | null = null;
  let formerBranches: string[] = [];
  const relations = new Map<string, boolean>();
  for (;;) {
    const answer = decideCutoff(branch, reportTime, pulls ?? NO_PULL_REFS, (start) => lines.get(start), repoNames, formerBranches, (m) => relations.get(m.sha));
    if (isCutoff(answer)) return answer;
    if ('relationOf' in answer) {
      const m = answer.relationOf;
      const base = await runGit(gitDir, ['merge-base', m.parents[0]!, m.parents[1]!], { allowExit: [0, 1] });
      relations.set(m.sha, base.exitCode === 0);
      continue;
    }
    const start = answer.missing;
    const line = await readLine(gitDir, start, limit).catch(async (error: unknown) => {
      const exists = await runGit(gitDir, ['rev-parse', '--verify', '-q', `${start}^{commit}`], { allowExit: [0, 1] });
      if (exists.exitCode !== 0) throw new MinerError('not-found', `${gitDir}: branch ${branch} not found`, { cause: error });
      throw error;
    });
    lines.set(start, line);
    // Pull-request heads matter only for merges; before the first one, no line needs them.
    if (pulls === null && line.merges.length > 0) [pulls, formerBranches] = await Promise.all([readPullRefs(gitDir), formerBranchNames(gitDir, branch)]);
  }
}

/** The first commit not after `limit` on the first-parent line from `start`, and the merges above it (newest first). */
async function readLine(gitDir: string, start: string, limit: number): Promise<LineFacts> {
  const cand = await runGit(gitDir, ['rev-list', '--first-parent', '-n1', `--before=@${limit}`, start, '--']);
  const cutoff = cand.stdout.trim() || null;
  const range = cutoff ? [start, `^${cutoff}`] : [start];
  const r = await runGit(gitDir, ['rev-list', '--first-parent', '--merges', '--no-commit-header', '--format=%H%x00%P%x00%s', ...range, '--']);
  const merges = r.stdout
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => {
      const [sha, parents, subject] = l.split('\0');
      return { sha: sha!, parents: parents!.split(' ').filter(Boolean), subject: subject ?? '' };
    });
  return { cutoff, merges };
}

/** GitHub's subject for a pull request merged with a merge commit. */
const PULL_MERGE_SUBJECT = /^Merge pull request #(\d+) from \S/;

/**
 * The pull request whose merge commit brought `gold` into `tip`'s history, read from git alone:
 * the oldest merge descending from gold whose first parent does not contain it, when its subject
 * is GitHub's "Merge pull request #N from …". Null when gold came in otherwise (pushed, squashed,
 * rebased: a squashed subject's "(#N)" is read from gold's own subject), or when no such merge is
 * among the first `limit` merges above gold. Offline this is the only way to know the pull
 * request number that names the culprit in a thread.
 */
export async function mergingPull(gitDir: string, gold: string, tip: string, limit = 64): Promise<number | null> {
  const r = await runGit(gitDir, ['rev-list', '--ancestry-path', '--merges', '--topo-order', '--reverse', '--no-commit-header', '--format=%H%x00%P%x00%s', `${gold}..${tip}`, '--'], { allowExit: [0, 128] });
  if (r.exitCode !== 0) return null;
  const merges = r.stdout.split('\n').filter((l) => l.length > 0).slice(0, limit);
  for (const l of merges) {
    const [, parents, subject] = l.split('\0');
    const first = parents?.split(' ')[0];
    if (!first || (await isAncestor(gitDir, gold, first))) continue;
    const n = PULL_MERGE_SUBJECT.exec(subject ?? '')?.[1];
    return n === undefined ? null : Number(n);
  }
  return null;
}

/** Number of commits in `gold..cutoff`: how far below the report-time tip the culprit lies. */
export async function historyWindow(gitDir: string, gold: string, cutoff: string): Promise<number> {
  const r = await runGit(gitDir, ['rev-list', '--count', `${gold}..${cutoff}`, '--']);
  return Number(r.stdout.trim());
}

/** Number of commits in `tag..cutoff`, or null when the tag does not exist. */
export async function tagWindow(gitDir: string, tag: string, cutoff: string): Promise<number | null> {
  const t = await runGit(gitDir, ['rev-parse', '-q', '--verify', `refs/tags/${tag}^{commit}`], { allowExit: [0, 1] });
  if (t.exitCode !== 0) return null;
  const r = await runGit(gitDir, ['rev-list', '--count', `${t.stdout.trim()}..${cutoff}`, '--']);
  return Number(r.stdout.trim());
}

const VERSION = /(?<![\w.])v?(\d+(?:\.\d+){1,3}(?:-[0-9A-Za-z][0-9A-Za-z.-]*)?)(?![\w])/;

/**
 * The tag a version mention refers to ("works in 1.4.2" → `v1.4.2` or `1.4.2`, whichever
 * exists, `v` form first), or null when the text names no version or no such tag exists.
 */
export async function matchingTag(gitDir: string, versionText: string): Promise<string | null> {
  const m = VERSION.exec(versionText);
  if (!m) return null;
  const version = m[1]!.replace(/[.-]+$/, '');
  for (const tag of [`v${version}`, version]) {
    const r = await runGit(gitDir, ['rev-parse', '-q', '--verify', `refs/tags/${tag}^{commit}`], { allowExit: [0, 1] });
    if (r.exitCode === 0) return tag;
  }
  return null;
}
