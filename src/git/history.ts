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
 * How a cutoff was decided:
 * - `first-parent-by-date`: the newest commit on the branch's first-parent line whose committer
 *   time is not after the report, with no foxtrot merge above it;
 * - `foxtrot-corrected`: as above, but at least one foxtrot merge newer than the cutoff was
 *   followed through its second parent (the branch as it stood before that merge);
 * - `no-commit-before-report`: no commit on the (corrected) line is old enough; sha is null.
 */
export type CutoffRule = 'first-parent-by-date' | 'foxtrot-corrected' | 'no-commit-before-report';

export interface Cutoff {
  sha: string | null;
  rule: string;
  notes: string[];
}

/** Why a merge counts as a foxtrot merge (its first parent was not the branch's previous tip). */
export type FoxtrotEvidence = 'merge-message' | 'pull-request-head';

/** One commit of a first-parent listing. */
export interface FirstParentCommit {
  sha: string;
  parents: string[];
  time: number;
  subject: string;
}

/** `git rev-list --first-parent <args>`: sha, parents, committer time and subject of each commit, newest first. */
export async function listFirstParent(gitDir: string, args: readonly string[]): Promise<FirstParentCommit[]> {
  const r = await runGit(gitDir, ['rev-list', '--first-parent', '--no-commit-header', '--format=%H%x00%P%x00%ct%x00%s', ...args, '--']);
  return r.stdout
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => {
      const [sha, parents, time, subject] = l.split('\0');
      return { sha: sha!, parents: parents!.split(' ').filter(Boolean), time: Number(time), subject: subject ?? '' };
    });
}

const MERGE_SUBJECT = /^Merge (?:remote-tracking )?branch '([^']+)'(?: of (\S+))?(?: into (\S+))?/;

/**
 * True when a merge subject says the branch itself was merged in ("Merge branch 'main' into
 * feature", "Merge remote-tracking branch 'origin/main'", "Merge branch 'main' of <url>"): the
 * second parent is then the branch's previous tip and the first parent is a side line.
 */
export function mergesBranchIn(subject: string, branch: string): boolean {
  const m = MERGE_SUBJECT.exec(subject);
  if (!m) return false;
  const merged = m[1]!;
  return merged === branch || merged.endsWith(`/${branch}`);
}

/**
 * The default branch as it stood at `reportTime`. Walks today's first-parent line from the tip
 * down to the first commit whose committer time is not after the report. A merge above that
 * commit is a foxtrot merge when its subject merges the branch itself in, or when it is itself
 * the head of a pull request (it was made on the PR's branch; GitHub's own "Merge pull request
 * #N" commits, and merges whose second parent is the head of the PR their "(#N)" subject names,
 * are never taken as such): its first-parent line was a side branch, so the walk
 * restarts from its second parent. A mirror has no reflog, so these are the evidence used; every
 * foxtrot followed is recorded in `notes`. Limits: a plain fast-forward push of old commits and a
 * foxtrot merge with neither kind of evidence are not detectable without the push history.
 */
export async function computeCutoff(gitDir: string, branch: string, reportTime: Date): Promise<Cutoff> {
  const limit = Math.floor(reportTime.getTime() / 1000);
  if (Number.isNaN(limit)) throw new MinerError('validation', `report time ${String(reportTime)} is not a date`);
  const notes: string[] = [];
  let start = `refs/heads/${branch}`;
  for (;;) {
    const walk = await walkFirstParent(gitDir, start, limit).catch(async (error: unknown) => {
      const exists = await runGit(gitDir, ['rev-parse', '--verify', '-q', `${start}^{commit}`], { allowExit: [0, 1] });
      if (exists.exitCode !== 0) throw new MinerError('not-found', `${gitDir}: branch ${branch} not found`, { cause: error });
      throw error;
    });
    const foxtrot = await newestFoxtrot(gitDir, walk.merges, branch);
    if (!foxtrot) {
      if (walk.cutoff === null) {
        return { sha: null, rule: 'no-commit-before-report', notes: [...notes, `no commit on the line from ${start} at or before ${reportTime.toISOString()}`] };
      }
      return { sha: walk.cutoff, rule: notes.length > 0 ? 'foxtrot-corrected' : 'first-parent-by-date', notes };
    }
    const { merge, evidence } = foxtrot;
    notes.push(`foxtrot merge ${merge.sha} (${evidence}: ${JSON.stringify(merge.subject)}): followed second parent ${merge.parents[1]}`);
    start = merge.parents[1]!;
  }
}

/**
 * First-parent walk from `start`: the first commit not after `limit`, and the merges above it
 * (newest first). Two rev-list processes; with a commit-graph neither parses the skipped commits.
 */
async function walkFirstParent(gitDir: string, start: string, limit: number): Promise<{ cutoff: string | null; merges: FirstParentCommit[] }> {
  const cand = await runGit(gitDir, ['rev-list', '--first-parent', '-n1', `--before=@${limit}`, start, '--']);
  const cutoff = cand.stdout.trim() || null;
  const range = cutoff ? [start, `^${cutoff}`] : [start];
  const merges = await listFirstParent(gitDir, ['--merges', ...range]);
  return { cutoff, merges };
}

const GITHUB_MERGE_BUTTON = /^Merge pull request #\d+ from /;

/** The newest foxtrot merge among `merges` (newest first). */
async function newestFoxtrot(gitDir: string, merges: readonly FirstParentCommit[], branch: string): Promise<{ merge: FirstParentCommit; evidence: FoxtrotEvidence } | null> {
  const byMessage = merges.findIndex((m) => mergesBranchIn(m.subject, branch));
  const above = byMessage < 0 ? merges : merges.slice(0, byMessage);
  const askable = above.filter((m) => !GITHUB_MERGE_BUTTON.test(m.subject));
  if (askable.length > 0) {
    const heads = await pullRequestHeadsAmong(gitDir, askable.map((m) => m.sha));
    const atHeads = askable.filter((m) => heads.has(m.sha));
    const merged = atHeads.length > 0 ? await mergesOfNamedPullRequest(gitDir, atHeads) : new Set<string>();
    const hit = atHeads.find((m) => !merged.has(m.sha));
    if (hit) return { merge: hit, evidence: 'pull-request-head' };
  }
  return byMessage < 0 ? null : { merge: merges[byMessage]!, evidence: 'merge-message' };
}

const NAMED_PULL = /\(#(\d+)\)\s*$/;

/**
 * Which of `merges` merged the pull request their subject names ("Title (#N)", GitHub's
 * merge-button title when set to the PR title): the second parent is refs/pull/N/head. Such a
 * merge was made on the base branch; it is also a pull-request head when a later PR proposed the
 * branch itself (a "merge main into stable" PR has main's tip as its head), which is no evidence
 * of a foxtrot merge.
 */
async function mergesOfNamedPullRequest(gitDir: string, merges: readonly FirstParentCommit[]): Promise<Set<string>> {
  const named = merges.flatMap((m) => {
    const n = NAMED_PULL.exec(m.subject)?.[1];
    return n !== undefined && m.parents.length > 1 ? [{ merge: m, ref: `refs/pull/${Number(n)}/head` }] : [];
  });
  if (named.length === 0) return new Set();
  const r = await runGit(gitDir, ['for-each-ref', '--format=%(refname) %(objectname)', ...new Set(named.map((x) => x.ref))]);
  const tips = new Map(r.stdout.split('\n').filter(Boolean).map((l) => l.trim().split(' ') as [string, string]));
  return new Set(named.filter((x) => tips.get(x.ref) === x.merge.parents[1]).map((x) => x.merge.sha));
}

/** Which of `shas` are the head of some refs/pull/N/head. */
async function pullRequestHeadsAmong(gitDir: string, shas: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < shas.length; i += 200) {
    const chunk = shas.slice(i, i + 200);
    const args = ['for-each-ref', '--format=%(objectname)', ...chunk.map((s) => `--points-at=${s}`), 'refs/pull/'];
    const r = await runGit(gitDir, args);
    for (const l of r.stdout.split('\n')) if (l) found.add(l.trim());
  }
  return found;
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
