/**
 * The cutoff rule: the default branch as it stood when a report was written, decided from facts
 * of the repository that git/ reads (no git here). Two readers supply the facts: computeCutoff in
 * git/history.ts (per case, a few git processes each) and BranchHistory in git/branch-history.ts
 * (the branch read once, answered in memory); both call decideCutoff, so they share every answer.
 */
import { MinerError } from '../errors.js';

/**
 * How a cutoff was decided:
 * - `first-parent-by-date`: the newest commit on the branch's first-parent line whose committer
 *   time is not after the report, with no foxtrot merge above it that was followed;
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

/** A commit as the rule sees it: its parents (first parent first) and subject line. */
export interface CommitFacts {
  readonly sha: string;
  readonly parents: readonly string[];
  readonly subject: string;
}

/** The repository's refs/pull/N/head refs. */
export interface PullRefs {
  /** Commits some refs/pull/N/head points at. */
  readonly heads: ReadonlySet<string>;
  /** The commit refs/pull/N/head points at, by N. */
  readonly tips: ReadonlyMap<number, string>;
}

export const NO_PULL_REFS: PullRefs = { heads: new Set(), tips: new Map() };

/** What the rule needs about one first-parent line, for one report time. */
export interface LineFacts {
  /** The first commit on the line (newest first) whose committer time is not after the report; null when none is. */
  readonly cutoff: string | null;
  /**
   * The merges above `cutoff` (of the whole line when it is null), newest first. A reader may
   * leave out merges foxtrotEvidence does not name: the rule looks only for the newest it names.
   */
  readonly merges: readonly CommitFacts[];
}

const MERGE_SUBJECT = /^Merge (?:remote-tracking )?branch '([^']+)'(?: of (\S+))?(?: into (\S+))?/;
const GITHUB_MERGE_BUTTON = /^Merge pull request #\d+ from /;
const NAMED_PULL = /\(#(\d+)\)\s*$/;
/** `git subtree`'s merge of a squashed subproject ("Merge commit '<sha>' into <branch>", "… as '<dir>'"): its second parent is the subproject's line. */
const SUBTREE_MERGE = /^Merge commit '[0-9a-f]{40}'(?: into \S+| as '[^']+')?\s*$/;

/**
 * True when a merge subject says the branch itself was merged in ("Merge branch 'main' into
 * feature", "Merge remote-tracking branch 'origin/main'", "Merge branch 'main' of <url>"): the
 * second parent is then the branch's previous tip and the first parent is a side line.
 */
export function mergesBranchIn(subject: string, branch: string, formerBranches: readonly string[] = []): boolean {
  const m = MERGE_SUBJECT.exec(subject);
  if (!m) return false;
  const merged = m[1]!;
  return [branch, ...formerBranches].some((b) => merged === b || merged.endsWith(`/${b}`));
}

/** A repository named by a merge subject's "of <url>" (`github.com/owner/name`, `git@github.com:owner/name.git`). */
const MERGED_FROM = /^(?:[a-z][\w+.-]*:\/\/)?(?:[^@/\s]+@)?github\.com[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/i;

/**
 * True when the subject merges a branch "of <url>" of another repository than this one (known by
 * `repoNames`, owner/name and former names): "Merge branch 'master' of https://github.com/other/fork"
 * brought another repository's branch of the same name, not this branch's earlier tip.
 */
function mergedFromElsewhere(subject: string, repoNames: readonly string[]): boolean {
  if (repoNames.length === 0) return false;
  const url = MERGE_SUBJECT.exec(subject)?.[2];
  const m = url ? MERGED_FROM.exec(url) : null;
  if (!m) return false;
  const named = `${m[1]}/${m[2]}`.toLowerCase();
  return !repoNames.some((r) => r.toLowerCase() === named);
}

/** Remote names that stand for the repository itself in a clone (and its owner or name, when known). */
const OWN_REMOTES = new Set(['origin', 'upstream']);

/**
 * True when the subject merges a remote-tracking branch of a remote named after something else
 * than this repository (a merge of 'refs/remotes/parentproject/master'), when
 * the repository's names are known: another repository's branch of the same name was merged in.
 */
function mergedFromOtherRemote(subject: string, repoNames: readonly string[]): boolean {
  if (repoNames.length === 0) return false;
  const merged = MERGE_SUBJECT.exec(subject)?.[1] ?? '';
  const parts = merged.replace(/^refs\/remotes\//, '').split('/');
  if (!/^Merge remote-tracking branch /.test(subject) || parts.length < 2) return false;
  const remote = parts[0]!.toLowerCase();
  const own = new Set([...OWN_REMOTES, ...repoNames.flatMap((r) => r.toLowerCase().split('/'))]);
  return !own.has(remote);
}

/**
 * "Merge branch 'release-1.3' into master", "Merge branch 'release-1.3'" on master (git leaves
 * "into master" out there) or "Merge back Release 1.3.1": a merge of another branch made on the
 * branch itself, whose first parent is the branch.
 */
function mergedInto(subject: string, branch: string, formerBranches: readonly string[]): boolean {
  const names = [branch, ...formerBranches];
  // ("Merge 'tokio-1.52.4' into 'master' (#8290)": a pull request's number may follow.)
  const into = /^Merge\b.*\binto\s+['"]?(\S+?)['"]?(?:\s+\(#\d+\))?\s*$/.exec(subject);
  if (into) return names.some((b) => into[1] === b || into[1] === `origin/${b}`);
  // "Merge back Release 1.3.1": a release line merged back into the branch.
  if (/^Merge\s+back\b/i.test(subject)) return true;
  return names.includes('master') && /^Merge (?:remote-tracking )?branch '[^']+'\s*$/.test(subject) && !mergesBranchIn(subject, branch, formerBranches);
}

/**
 * Why `merge` is a foxtrot merge on `branch`, or null when it is not one. Its subject merges the
 * branch itself in; or it is itself the head of a pull request (it was made on the PR's branch),
 * except GitHub's own "Merge pull request #N" commits, `git subtree`'s merges of a squashed
 * subproject ("Merge commit '<sha>' into …", whose second parent is the subproject), a merge whose
 * subject says it was made into the branch itself ("Merge branch 'release-1.3' into master") and a merge
 * whose second parent is the head of the pull request its "(#N)" subject names: that merge was made on the base branch, and is a
 * pull-request head only because a later PR proposed the branch itself ("merge main into stable").
 * With `repoNames` (the repository and its former names), a subject merging the branch "of" another
 * repository's URL is no evidence. `formerBranches`: names the branch had before (formerBranchNames
 * in git/history.ts: a `master` renamed `main`), which merge subjects written then name.
 */
export function foxtrotEvidence(
  merge: CommitFacts,
  branch: string,
  pulls: PullRefs,
  repoNames: readonly string[] = [],
  formerBranches: readonly string[] = [],
): FoxtrotEvidence | null {
  if (merge.parents.length < 2) return null;
  if (mergesBranchIn(merge.subject, branch, formerBranches)) return mergedFromElsewhere(merge.subject, repoNames) || mergedFromOtherRemote(merge.subject, repoNames) ? null : 'merge-message';
  if (GITHUB_MERGE_BUTTON.test(merge.subject) || SUBTREE_MERGE.test(merge.subject) || mergedInto(merge.subject, branch, formerBranches) || !pulls.heads.has(merge.sha)) return null;
  const named = NAMED_PULL.exec(merge.subject)?.[1];
  if (named !== undefined && pulls.tips.get(Number(named)) === merge.parents[1]) return null;
  return 'pull-request-head';
}

/**
 * The default branch as it stood at `reportTime`. Walks today's first-parent line from the tip
 * (`refs/heads/<branch>`) down to the first commit whose committer time is not after the report.
 * The newest foxtrot merge above that commit (foxtrotEvidence) had a side branch as its first
 * parent, so the walk restarts from its second parent; every foxtrot followed is recorded in
 * `notes`. A mirror has no reflog, so these are the evidence used. Limits: a plain fast-forward
 * push of old commits and a foxtrot merge with neither kind of evidence are not detectable
 * without the push history.
 *
 * A second parent whose whole line is newer than the report cannot be the branch as it stood
 * then: such a merge brought in another history ("Merge remote-tracking branch 'extension/main'",
 * a repository merged into this one), so it is not followed (said in `notes`) and the next older
 * foxtrot merge on the line, if any, is tried instead.
 *
 * `lineOf(start)` gives the facts of the first-parent line from `start` at this report time, or
 * undefined when they have not been read: the answer is then `{ missing: start }`, and a reader
 * that reads lazily reads that line and asks again. Likewise `related(merge)`: whether the merge's
 * two parents share a commit (a foxtrot merge's do; an import of another repository's history
 * does not), undefined when not known yet (the answer is then `{ relationOf: merge }`). A reader must give every merge above the
 * cutoff that foxtrotEvidence names (it may leave out the others).
 */
export function decideCutoff(
  branch: string,
  reportTime: Date,
  pulls: PullRefs,
  lineOf: (start: string) => LineFacts | undefined,
  repoNames: readonly string[] = [],
  formerBranches: readonly string[] = [],
  related: (merge: CommitFacts) => boolean | undefined = () => true,
): Cutoff | Pending {
  const decided = new Map<string, Cutoff | Pending>();
  const from = (start: string): Cutoff | Pending => {
    const known = decided.get(start);
    if (known !== undefined) return known;
    const line = lineOf(start);
    if (line === undefined) return { missing: start };
    const skipped: string[] = [];
    let answer: Cutoff | Pending | null = null;
    for (const merge of line.merges) {
      const evidence = foxtrotEvidence(merge, branch, pulls, repoNames, formerBranches);
      if (evidence === null) continue;
      const note = `foxtrot merge ${merge.sha} (${evidence}: ${JSON.stringify(merge.subject)})`;
      const followed = from(merge.parents[1]!);
      if (!isCutoff(followed)) return followed;
      if (followed.sha === null) {
        skipped.push(`${note}: not followed, no commit on its second parent's line at or before ${reportTime.toISOString()} (another history merged in)`);
        continue;
      }
      // A merge whose two parents share no commit imported another repository ("import X repository into monorepo"),
      // older commits and all: its second parent was never this branch.
      const sharing = related(merge);
      if (sharing === undefined) return { relationOf: merge };
      if (!sharing) {
        skipped.push(`${note}: not followed, its parents share no history (another repository imported)`);
        continue;
      }
      answer = { sha: followed.sha, rule: 'foxtrot-corrected', notes: [...skipped, `${note}: followed second parent ${merge.parents[1]}`, ...followed.notes] };
      break;
    }
    if (answer === null) {
      answer =
        line.cutoff === null
          ? { sha: null, rule: 'no-commit-before-report', notes: [...skipped, `no commit on the line from ${start} at or before ${reportTime.toISOString()}`] }
          : { sha: line.cutoff, rule: 'first-parent-by-date', notes: skipped };
    }
    decided.set(start, answer);
    return answer;
  };
  return from(`refs/heads/${branch}`);
}

/**
 * What decideCutoff still needs from its reader: the facts of the first-parent line from `missing`, or whether the two
 * parents of `relationOf` share any commit.
 */
export type Pending = { readonly missing: string } | { readonly relationOf: CommitFacts };

export function isCutoff(answer: Cutoff | Pending): answer is Cutoff {
  return 'rule' in answer;
}

/** The report time in whole seconds, as git committer times count; a report time that is no date is a validation error. */
export function reportSeconds(reportTime: Date): number {
  const limit = Math.floor(reportTime.getTime() / 1000);
  if (Number.isNaN(limit)) throw new MinerError('validation', `report time ${String(reportTime)} is not a date`);
  return limit;
}
