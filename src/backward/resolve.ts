/**
 * The resolve decisions of a thread, from facts already read (no git here): which commit is the
 * gold once every attribution has been resolved against the repository (decideGold), and the
 * case record from what the repository says about that gold (resolvedRecord).
 */
import { screenResolved, type ResolvedRef } from './attribution-screen.js';
import type { Cutoff } from './cutoff.js';
import type { Attribution, TextScreen, Thread } from '../model/backward.js';
import type { BackwardCaseRecord, ResolutionRow } from '../store/tables/backward.js';
import { caseId } from '../util/case-id.js';

export interface ThreadResolution {
  readonly record: BackwardCaseRecord;
  readonly resolutions: ResolutionRow[];
  /** The screen after resolution (competing, ambiguous-sha, cross-repository, …). */
  readonly screen: TextScreen;
}

const GOOD_VERSION = /\b(?:works?|worked|working|fine|good|ok|okay|last good|passes|passed)\b[^.\n]{0,60}?\bv?\d+(?:\.\d+){1,3}(?:-[0-9A-Za-z.]+)?/i;

/** The phrase naming the last good version ("works in 1.4.2"), or null. */
export function goodVersionText(text: string): string | null {
  return GOOD_VERSION.exec(text)?.[0] ?? null;
}

/** The release a report says still worked ("This worked fine in `0.15.0`, but 0.16.0 …"), said plainly: the version in group 1. */
const GOOD_RELEASE = /\b(?:works?|worked|working|fine|ok|okay)\b[^.\n]{0,25}?\b(?:in|on|at|with|until|up\s+to)\s+(?:version\s+|release\s+)?[`'"]?v?(\d+(?:\.\d+){1,3})\b/gi;

/**
 * The release `text` says worked, tighter than goodVersionText (a preposition right before the
 * version), and never a negated one ("Exports don't work in 3.2.0" names the broken release).
 */
export function goodReleaseSaid(text: string): { phrase: string; version: string } | null {
  for (const m of text.matchAll(GOOD_RELEASE)) {
    if (!/(?:\bnot|n't|\bnever|\bno\s+longer|\bstopped)\s+(?:\w+\s+)?$/i.test(text.slice(Math.max(0, m.index - 30), m.index))) return { phrase: m[0], version: m[1]! };
  }
  return null;
}

/** The version phrase of a thread's title and body, whose tag gives the tag window. */
export function threadVersionText(thread: Thread): string | null {
  return goodVersionText(`${thread.title}\n${thread.posts[0]?.body ?? ''}`);
}

/** The record of a thread that did not resolve to one gold: rejected, with the fix's pull requests. */
export function rejectedRecord(thread: Thread, fixPulls: readonly number[]): BackwardCaseRecord {
  return {
    repo: thread.repo,
    number: thread.number,
    status: 'rejected',
    decision: 'reject',
    caseId: null,
    gold: null,
    goldSubject: null,
    parent: null,
    defaultBranch: null,
    cutoff: null,
    cutoffRule: 'none',
    cutoffNotes: [],
    historyWindow: null,
    tag: null,
    tagWindow: null,
    prNumbers: [...new Set(fixPulls)].sort((x, y) => x - y),
    reportTime: thread.createdAt,
    reportUrl: thread.url,
  };
}

/**
 * Applies the rules that need the resolved references (screenResolved) and picks the gold: the one
 * SHA every culprit attribution resolves to. Unknown pull requests beside a resolved commit
 * culprit are left out; culprits resolving to several SHAs (or none) are `unresolved`.
 */
export function decideGold(
  thread: Thread,
  attributions: readonly Attribution[],
  text: TextScreen,
  resolutions: readonly ResolutionRow[],
): { readonly screen: TextScreen; readonly gold: string | null } {
  const resolved: ResolvedRef[] = resolutions.map((r) => ({
    index: r.idx,
    status: r.status as ResolvedRef['status'],
    sha: r.sha,
    candidates: r.candidates,
  }));
  const screen = screenResolved(thread, attributions, text, resolved);
  if (screen.decision === 'reject') return { screen, gold: null };
  const known = screen.culprits.filter((i) => resolutions[i]?.status !== 'pr-unknown');
  const golds = [...new Set((known.length > 0 ? known : screen.culprits).map((i) => resolutions[i]?.sha ?? null))];
  const gold = golds.length === 1 ? golds[0]! : null;
  if (gold !== null) return { screen, gold };
  const evidence = screen.culprits.length === 0 ? 'no culprit attribution' : `culprits resolve to ${golds.map(String).join(', ')}`;
  return { screen: { decision: 'reject', culprits: [], reasons: [...screen.reasons, { code: 'unresolved', evidence }] }, gold: null };
}

/** What the repository says about a gold, read by the chain. */
export interface GoldFacts {
  readonly gold: string;
  /** The gold commit's subject and first parent; null when the commit could not be read. */
  readonly commit: { readonly subject: string; readonly parents: readonly string[] } | null;
  readonly defaultBranch: string;
  readonly cutoff: Cutoff;
  /** Commits in gold..cutoff; null without a cutoff. */
  readonly historyWindow: number | null;
  /** The tag the thread's version phrase names, and the commits in tag..cutoff. */
  readonly tag: string | null;
  readonly tagWindow: number | null;
  /** Pull requests whose merge or head commits include the gold. */
  readonly carryingPulls: readonly number[];
}

/** The resolved case: gold, parent, cutoff with its rule, windows, case id and every pull request that names the culprit. */
export function resolvedRecord(
  thread: Thread,
  attributions: readonly Attribution[],
  screen: TextScreen,
  fixPulls: readonly number[],
  facts: GoldFacts,
): BackwardCaseRecord {
  const base = rejectedRecord(thread, fixPulls);
  const culpritPulls = screen.culprits.map((i) => attributions[i]!).filter((a) => a.ref.type === 'pr').map((a) => Number(a.ref.value));
  const prNumbers = [...new Set([...base.prNumbers, ...culpritPulls, ...facts.carryingPulls])].filter(Number.isInteger).sort((x, y) => x - y);
  const { repo, number } = thread;
  return {
    ...base,
    status: 'resolved',
    decision: screen.decision,
    caseId: caseId(repo, number, { repo, number, gold: facts.gold }),
    gold: facts.gold,
    goldSubject: facts.commit?.subject ?? null,
    parent: facts.commit?.parents[0] ?? null,
    defaultBranch: facts.defaultBranch,
    cutoff: facts.cutoff.sha,
    cutoffRule: facts.cutoff.rule,
    cutoffNotes: facts.cutoff.notes,
    historyWindow: facts.historyWindow,
    tag: facts.tag,
    tagWindow: facts.tagWindow,
    prNumbers,
  };
}
