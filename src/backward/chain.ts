/**
 * The one chain of Backward decisions: attribute → resolve → validate → sanitize → decide. Each
 * step reads what it needs from the repository through git/ and decides with the pure modules
 * (attribute, attribution-screen, resolve, validate, report, decision). The stages run one step
 * each, storing the results in between; `r2v inspect backward` runs them all in memory (runChain).
 */
import { extractAttributions, extractWithCandidates } from './attribute.js';
import { linkNames } from './thread.js';
import { screenThread } from './attribution-screen.js';
import type { Cutoff } from './cutoff.js';
import { decideWithoutRepository, finalDecision } from './decision.js';
import { decideReport, hexRunsOf, isKnownPrefix, knownCommitShas, reportDrafts, type SanitizeTarget, type ThreadSanitization } from './report.js';
import { decideGold, goodReleaseSaid, rejectedRecord, resolvedRecord, threadVersionText, type ThreadResolution } from './resolve.js';
import { checkReasons, decideChecks, type CheckInput, type CheckResult } from './validate.js';
import { MinerError } from '../errors.js';
import type { BatchObjects } from '../git/batch.js';
import type { BranchHistory } from '../git/branch-history.js';
import { readCheckFacts } from '../git/checks.js';
import { computeCutoff, defaultBranchOf, historyWindow, isAncestor, matchingTag, mergingPull, tagWindow } from '../git/history.js';
import type { GitRepoHandle } from '../git/repos.js';
import { resolveRef } from '../git/resolve-ref.js';
import type { Attribution, Decision, Reason, TextScreen, Thread } from '../model/backward.js';
import { svnRevisionLinked, svnRevisionOf } from '../sanitize/svn-revision.js';
import type { BackwardCaseRecord, CheckRow, ResolutionRow } from '../store/tables/backward.js';
import type { PullRow } from '../store/tables/sources.js';

/** Step 1: the attributions of a thread and the text-level screen (pure: the thread is all it reads). */
export function attributeThread(thread: Thread): { attributions: Attribution[]; screen: TextScreen } {
  const attributions = extractAttributions(thread);
  return { attributions, screen: screenThread(thread, attributions) };
}

export interface ResolveOptions {
  /** The default branch to cut at; null: the mirror's HEAD branch. */
  readonly defaultBranch: string | null;
  /** Stored pull requests by number (for `#N` attributions). */
  readonly pull?: (n: number) => PullRow | undefined;
  /** Pull requests linked to the issue as its fix. */
  readonly fixPulls?: readonly number[];
  /** All stored pull requests of the repository (to find the culprit's PR); see also `carrying`. */
  readonly pulls?: readonly PullRow[];
  /** The branch as it stood at a time; default: computeCutoff, the per-case reader (git processes per call). */
  readonly cutoffOf?: (branch: string, reportTime: Date) => Promise<Cutoff>;
  /** `rev-list --count base..tip`; default: historyWindow (one git process per call). */
  readonly countBetween?: (branch: string, base: string, tip: string) => Promise<number>;
  /** Numbers of the pull requests whose merge or head commits include this SHA (indexed; wins over `pulls`). */
  readonly carrying?: (sha: string) => readonly number[];
}

/**
 * Step 2: resolves every attribution against the repository, picks the gold (decideGold), and for
 * a gold reads its commit, the cutoff (with the rule that decided it), the history window and the
 * tag window, from which resolvedRecord makes the case.
 */
export async function resolveThread(
  handle: GitRepoHandle,
  thread: Thread,
  attributions: readonly Attribution[],
  text: TextScreen,
  options: ResolveOptions,
): Promise<ThreadResolution> {
  const repo = thread.repo;
  const resolutions: ResolutionRow[] = [];
  for (const [idx, a] of attributions.entries()) {
    const r = await resolveRef(handle, a.ref, {
      repo,
      aliases: linkNames(thread),
      pullCommits: (n) => {
        const p = options.pull?.(n);
        return p ? { commitShas: p.commitShas, mergeCommitSha: p.mergeCommitSha } : undefined;
      },
    });
    resolutions.push({ idx, input: r.input, status: r.status, sha: r.sha, candidates: r.candidates, via: r.via });
  }
  const fixPulls = options.fixPulls ?? [];
  const { screen, gold } = decideGold(thread, attributions, text, resolutions);
  if (gold === null) return { record: rejectedRecord(thread, fixPulls), resolutions, screen };

  const commit = await handle.objects.commit(gold);
  // What git says against the thread's own words: a good commit named commits before gold, or gold already in a release said to work.
  const naming = attributions.filter((_a, i) => resolutions.some((r) => r.idx === i && r.sha === gold));
  const range = commit ? await namedGoodRange(handle, thread, naming, gold, commit.parents) : null;
  const released = range ? null : await releasedBeforeGood(handle, thread, gold);
  const refusal: Reason | null = range ?? (released ? { code: 'symptom-mismatch', evidence: released } : null);
  if (refusal) return { record: rejectedRecord(thread, fixPulls), resolutions, screen: { decision: 'reject', culprits: [], reasons: [...screen.reasons, refusal] } };
  const branch = options.defaultBranch ?? (await defaultBranchOf(handle.gitDir));
  if (branch === null) throw new MinerError('git', `${repo}: cannot tell the default branch (mirror HEAD is detached; set default_branch in the config)`);
  const reportTime = new Date(thread.createdAt);
  const cutoff = options.cutoffOf ? await options.cutoffOf(branch, reportTime) : await computeCutoff(handle.gitDir, branch, reportTime, [repo, ...(thread.aliases ?? [])]);
  const window = cutoff.sha
    ? options.countBetween
      ? await options.countBetween(branch, gold, cutoff.sha)
      : await historyWindow(handle.gitDir, gold, cutoff.sha)
    : null;
  const versionText = threadVersionText(thread);
  const tag = versionText ? await matchingTag(handle.gitDir, versionText) : null;
  const tagCount = tag && cutoff.sha ? await tagWindow(handle.gitDir, tag, cutoff.sha) : null;
  const indexed = options.carrying
    ? [...options.carrying(gold)]
    : (options.pulls ?? []).filter((p) => p.mergeCommitSha === gold || p.commitShas.includes(gold)).map((p) => p.number);
  // The merge commit that brought gold in names its pull request even when no index holds it.
  const merged = cutoff.sha ? await mergingPull(handle.gitDir, gold, cutoff.sha) : null;
  const carryingPulls = merged === null || indexed.includes(merged) ? indexed : [...indexed, merged];
  // "Broken by #104 and X": a pull request blamed in the same sentence as gold, which neither brought gold in nor names it
  // in gold's subject ("… (#104)"), is a second change held to blame.
  const together = attributions.find(
    (a) =>
      a.ref.type === 'pr' &&
      naming.some((n) => n.post === a.post && a.start >= n.sentence.start && a.end <= n.sentence.end) &&
      !carryingPulls.includes(Number(a.ref.value)) &&
      !new RegExp(`\\(#${a.ref.value}\\)\\s*$`).test(commit?.subject ?? ''),
  );
  if (together) {
    const evidence = `two changes blamed together: ${together.ref.text} and ${gold.slice(0, 12)}, which that pull request did not bring in`;
    return { record: rejectedRecord(thread, fixPulls), resolutions, screen: { decision: 'reject', culprits: [], reasons: [...screen.reasons, { code: 'competing', evidence }] } };
  }
  const record = resolvedRecord(thread, attributions, screen, fixPulls, {
    gold,
    commit: commit ? { subject: commit.subject, parents: commit.parents } : null,
    defaultBranch: branch,
    cutoff,
    historyWindow: window,
    tag,
    tagWindow: tagCount,
    carryingPulls,
  });
  return { record, resolutions, screen };
}

/**
 * "As of X it no longer loads. The last build I have that loads it is Y": a post naming the culprit
 * (`attributions`: those resolving to gold) names a good commit that resolves to an ancestor of
 * gold other than its parent, commits apart, so the thread localised a range, not a first bad
 * commit: `range-only`. A commit named good that already contains gold ("building is fine for me on
 * commit Y", Y after X) contradicts the blame: `symptom-mismatch`. Null when neither. Not asked when
 * a bisect names the culprit (its last good step need not be the parent on merged histories). The
 * candidates are scored again here: the stages store attributions, not the good side of a range.
 */
async function namedGoodRange(handle: GitRepoHandle, thread: Thread, attributions: readonly Attribution[], gold: string, parents: readonly string[]): Promise<Reason | null> {
  const posts = new Set(attributions.map((a) => a.post));
  const text = (post: number): string => (post === -1 ? thread.title : (thread.posts.find((p) => p.index === post)?.body ?? ''));
  if (attributions.some((a) => a.kind === 'bisect-output') || [...posts].some((p) => /\bbisect/i.test(text(p)))) return null;
  const { candidates } = extractWithCandidates(thread);
  for (const c of candidates) {
    if (!posts.has(c.post) || c.ref.ref.type === 'pr' || !c.evidence.some((e) => e.code === 'goodSide')) continue;
    const r = await resolveRef(handle, c.ref.ref, { repo: thread.repo, aliases: linkNames(thread), pullCommits: () => undefined });
    if (!r.sha || r.sha === gold || parents.includes(r.sha)) continue;
    if (await isAncestor(handle.gitDir, gold, r.sha)) return { code: 'symptom-mismatch', evidence: `the commit named good (${c.ref.ref.text}) already contains ${gold.slice(0, 12)}` };
    if (!(await isAncestor(handle.gitDir, r.sha, gold))) continue;
    const between = await historyWindow(handle.gitDir, r.sha, gold);
    if (between >= 2) return { code: 'range-only', evidence: `the last good commit named (${c.ref.ref.text}) is ${between} commits before ${gold.slice(0, 12)}, not its parent` };
  }
  return null;
}

/**
 * The culprit is already in the release the report says worked: it cannot be what broke it (the
 * release's tag contains gold). Evidence for `symptom-mismatch`, or null; asked only when that
 * release's tag exists.
 */
async function releasedBeforeGood(handle: GitRepoHandle, thread: Thread, gold: string): Promise<string | null> {
  const said = goodReleaseSaid(`${thread.title}\n${thread.posts[0]?.body ?? ''}`);
  const tag = said ? await matchingTag(handle.gitDir, said.version) : null;
  if (!said || !tag || !(await isAncestor(handle.gitDir, gold, `refs/tags/${tag}`))) return null;
  return `${gold.slice(0, 12)} is already in ${tag}, the release the report says worked ("${said.phrase}")`;
}

/**
 * The structural checks of a gold (decideChecks) on facts read from the repository (readCheckFacts).
 * `ancestor`: the ancestry oracle; default one `merge-base --is-ancestor` per question (the reference).
 */
export async function structuralChecks(
  h: { gitDir: string; objects: BatchObjects },
  input: CheckInput,
  ancestor?: (a: string, b: string) => Promise<boolean>,
): Promise<CheckResult[]> {
  return decideChecks(input, await readCheckFacts(h, input, ancestor));
}

/**
 * structuralChecks with ancestry answered from a BranchHistory of the case's default branch read
 * once for all cases of a repository (no git process per case; pairs off the branch fall back to git).
 */
export function structuralChecksWith(history: BranchHistory, h: { gitDir: string; objects: BatchObjects }, input: CheckInput): Promise<CheckResult[]> {
  return structuralChecks(h, input, (a, b) => history.ancestor(a, b));
}

/**
 * Step 3: the structural checks of a resolved case, one row per check with its evidence. With the
 * default branch's history read once for all cases of the repository, no git process per question.
 */
export async function validateCase(handle: { gitDir: string; objects: BatchObjects }, record: BackwardCaseRecord, history?: BranchHistory): Promise<CheckRow[]> {
  if (!record.gold || !record.defaultBranch) throw new MinerError('internal', `${record.repo}#${record.number}: validate needs a resolved gold and branch`);
  const input = { gold: record.gold, cutoff: record.cutoff, defaultBranch: record.defaultBranch, reportTime: new Date(record.reportTime) };
  const results = history && history.branch === record.defaultBranch ? await structuralChecksWith(history, handle, input) : await structuralChecks(handle, input);
  return results.map((r) => ({ name: r.name, pass: r.pass, evidence: r.evidence }));
}

/** Which of `runs` (lowercase hex, 7–40) name commits of the repository, asked in one batch; an ambiguous run with commit candidates counts. */
export async function commitRunsOf(objects: BatchObjects, runs: readonly string[]): Promise<Set<string>> {
  const yes = new Set<string>();
  if (runs.length === 0) return yes;
  for (const a of await objects.resolve(runs)) {
    if ((a.status === 'ok' && a.type === 'commit') || (a.status === 'ambiguous' && a.candidates.length > 0)) yes.add(a.input.toLowerCase());
  }
  return yes;
}

/**
 * Step 4: the report an agent reads. Builds the drafts, asks the repository (when there is one)
 * which of their hex runs name commits, then decides (decideReport).
 */
export async function sanitizeThread(
  thread: Thread,
  attributions: readonly Attribution[],
  target: SanitizeTarget,
  objects: BatchObjects | null,
): Promise<ThreadSanitization> {
  // What the repository tells about the gold: its parent is as telling as the gold ("works in
  // 08a9a8" localises it), and a history converted from Subversion names it by its revision too.
  const goldCommit = objects && target.gold ? await objects.commit(target.gold) : null;
  const parent = goldCommit?.parents[0];
  // Without the copy, the thread may still give the revision as the text of its link to the gold.
  const named = target.gold ? [target.gold] : attributions.filter((a) => a.ref.type !== 'pr').map((a) => a.ref.value);
  const texts = [thread.title, ...thread.posts.map((p) => p.body)];
  const svnRevision = (goldCommit ? svnRevisionOf(goldCommit.message) : null) ?? named.map((sha) => svnRevisionLinked(texts, sha)).find((n) => n !== null) ?? null;
  const told: SanitizeTarget = { ...target, knownShas: parent ? [...target.knownShas, parent] : target.knownShas, ...(svnRevision === null ? {} : { svnRevision }) };
  const drafts = reportDrafts(thread, attributions);
  const known = knownCommitShas(attributions, told);
  const commitRuns = objects ? await commitRunsOf(objects, hexRunsOf(drafts).filter((r) => !isKnownPrefix(r, known))) : new Set<string>();
  return decideReport(thread, attributions, told, drafts, commitRuns);
}

/** A repository to run the chain against: its git directory, object reader and default branch. */
export interface ChainRepo {
  readonly gitDir: string;
  readonly objects: BatchObjects;
  readonly branch: string | null;
}

/** Every step's result for one thread, and the final decision with its reasons. */
export interface ChainResult {
  readonly attributions: Attribution[];
  readonly text: TextScreen;
  /** Null without a repository, or when the text rules rejected the thread. */
  readonly resolution: ThreadResolution | null;
  /** Null unless a gold resolved. */
  readonly checks: CheckRow[] | null;
  /** Run on every thread (also a rejected one: what the report would be). */
  readonly sanitization: ThreadSanitization;
  readonly decision: Decision;
  /** The final decision's reasons, then any sanitization finding on a thread rejected earlier. */
  readonly reasons: Reason[];
}

/**
 * The whole chain for one thread, in memory (no database): the same steps the stages run and the
 * same final decision the screen stage makes. Without a repository nothing resolves, and the text
 * rules decide (decideWithoutRepository).
 */
export async function runChain(thread: Thread, git: ChainRepo | null): Promise<ChainResult> {
  const { attributions, screen: text } = attributeThread(thread);
  let resolution: ThreadResolution | null = null;
  let checks: CheckRow[] | null = null;
  if (git && text.decision !== 'reject') {
    resolution = await resolveThread({ repo: thread.repo, gitDir: git.gitDir, objects: git.objects }, thread, attributions, text, { defaultBranch: git.branch });
    if (resolution.record.status === 'resolved') checks = await validateCase(git, resolution.record);
  }
  const record = resolution?.record ?? null;
  const sanitization = await sanitizeThread(
    thread,
    attributions,
    {
      gold: record?.gold ?? null,
      goldSubject: record?.goldSubject ?? null,
      prNumbers: record?.prNumbers ?? [],
      knownShas: resolution ? resolution.resolutions.flatMap((r) => (r.sha ? [r.sha] : [])) : [],
    },
    git?.objects ?? null,
  );
  if (!git) return { attributions, text, resolution, checks, sanitization, ...decideWithoutRepository(attributions, text, sanitization.reasons) };
  const final = finalDecision<Reason>({
    textDecision: text.decision,
    caseStatus: record?.status ?? null,
    caseDecision: record?.decision ?? null,
    caseId: record?.caseId ?? null,
    reasons: { attribute: text.reasons, resolve: resolution?.screen.reasons ?? [], validate: checkReasons(checks ?? []), sanitize: sanitization.reasons },
    validated: true,
    sanitized: true,
  });
  if (final === null) throw new MinerError('internal', `${thread.repo}#${thread.number}: the chain ran every step but reached no decision`);
  // A thread rejected before sanitization still shows what sanitization found (the decision is a rejection already).
  const reasons = [...final.reasons];
  for (const r of sanitization.reasons) if (!reasons.includes(r)) reasons.push(r);
  return { attributions, text, resolution, checks, sanitization, decision: final.decision, reasons };
}
