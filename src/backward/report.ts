/**
 * The report an agent reads, decided from facts already read: the thread, its attributions, what
 * resolve found, and which hex runs of the report the repository knows as commits (asked by the
 * chain through git/; no git here). Builds the report, deletes the answer, audits the result and
 * checks that a symptom remains.
 */
import { hasObservableSymptom } from './attribution-screen.js';
import type { Attribution, Reason, Thread } from '../model/backward.js';
import { auditLeaks, buildReport, sanitizeBuiltReport, type LeakAudit, type Report, type SanitizedReport } from '../sanitize/index.js';
import { HEX_RUN, matchesOf } from '../sanitize/text.js';

export interface ThreadSanitization {
  readonly report: SanitizedReport;
  readonly audit: LeakAudit;
  readonly symptom: { readonly ok: boolean; readonly why: string };
  /** `leak` and `insufficient-symptom`, with evidence; empty when the report is usable. */
  readonly reasons: Reason[];
}

export interface SanitizeTarget {
  readonly gold: string | null;
  readonly goldSubject: string | null;
  readonly prNumbers: readonly number[];
  /** Full SHAs already known to be commits of the repository (resolved attributions). */
  readonly knownShas: readonly string[];
  /** The gold's Subversion revision when the repository was converted by `git svn` (read from its message). */
  readonly svnRevision?: number | null;
}

/**
 * The reports the decision may use, built from the thread: the posts before the first
 * attribution, and, should those say too little, the same with the attribution's own post (its
 * answer deleted) — a stack trace pasted above a bisect log.
 */
export interface ReportDrafts {
  readonly first: Report;
  readonly wider: Report;
}

export function reportDrafts(thread: Thread, attributions: readonly Attribution[]): ReportDrafts {
  return { first: buildReport(thread, attributions), wider: buildReport(thread, attributions, { withFirstAttributionPost: true }) };
}

/** The distinct lowercase hex runs of the drafts (7–40 characters): what the repository is asked about. */
export function hexRunsOf(drafts: ReportDrafts): string[] {
  return [...new Set([drafts.first.text, drafts.wider.text].flatMap((t) => matchesOf(t, HEX_RUN).map((m) => m.text.toLowerCase())))];
}

/** SHAs (or prefixes) known to name commits without asking: resolved attributions, attributed hex, gold. */
export function knownCommitShas(attributions: readonly Attribution[], target: SanitizeTarget): string[] {
  const attributedHex = attributions.filter((a) => a.ref.type !== 'pr' && /^[0-9a-f]{7,40}$/i.test(a.ref.value)).map((a) => a.ref.value);
  return [...target.knownShas, ...attributedHex, ...(target.gold ? [target.gold] : [])];
}

/**
 * True when `run` is a prefix of one of `known`, or one of `known` (7+ hex, an abbreviation the
 * thread gave) is a prefix of `run`: "68a4cd49" names the same commit as an attributed "68a4cd4".
 */
export function isKnownPrefix(run: string, known: readonly string[]): boolean {
  const r = run.toLowerCase();
  return known.some((k) => {
    const kk = k.toLowerCase();
    return kk.startsWith(r) || (kk.length >= 7 && /^[0-9a-f]+$/.test(kk) && r.startsWith(kk));
  });
}

/**
 * Which hex runs of `text` name commits: the prefixes of SHAs already known (resolved
 * attributions, attributed hex, gold), and the runs the repository answered as commits
 * (`commitRuns`, lowercase; an ambiguous run with commit candidates counts).
 */
export function commitPrefixTest(text: string, known: readonly string[], commitRuns: ReadonlySet<string>): (hex: string) => boolean {
  const yes = new Set<string>();
  for (const m of matchesOf(text, HEX_RUN)) {
    const run = m.text.toLowerCase();
    if (commitRuns.has(run) || isKnownPrefix(run, known)) yes.add(run);
  }
  return (hex) => yes.has(hex.toLowerCase());
}

/**
 * The subject line pasted with bisect output (`# first bad commit: [sha] Subject`, or the first
 * message line of the commit block after `<sha> is the first bad commit`); null unless exactly one.
 */
export function subjectFromBisectOutput(attributions: readonly Attribution[]): string | null {
  const subjects = new Set<string>();
  for (const a of attributions) {
    if (a.kind !== 'bisect-output') continue;
    const log = /#\s*first bad commit:\s*\[[0-9a-fA-F]{7,40}\]\s+(\S.*)$/m.exec(a.sentence.text);
    const block = /^(?:>\s?)*(?:Date|CommitDate):.*\n(?:(?:>\s?)*\s*\n)?(?:>\s?)*\s{4}(\S.*)$/m.exec(a.sentence.text);
    const subject = (log?.[1] ?? block?.[1])?.trim();
    if (subject) subjects.add(subject);
  }
  return subjects.size === 1 ? [...subjects][0]! : null;
}

/**
 * The reverted commit's subject quoted by a revert's title (`Revert "<subject>"`, cut short with
 * an ellipsis when long), when an attribution is that revert's "This reverts commit X"; else null.
 */
export function subjectFromRevertTitle(thread: Thread, attributions: readonly Attribution[]): string | null {
  // `Revert "<subject>"`, also lower-case, and `[Area] Reverted: <subject>`.
  const m =
    /^\s*(?:\[[^\]\n]{1,40}\]\s*|#\d+\s*:\s*|[A-Z][A-Z0-9]+-\d+\s*:?\s*)?(?:(?:partly|partially|partial|temporarily|selectively)\s+)?revert\s+"([^"\n]+?)(?:\s?…|\s?\.\.\.)?(?:"|$)/i.exec(thread.title) ??
    /^\s*(?:\[[^\]\n]{1,40}\]\s*)?revert(?:ed|s)?\s*:\s*([^"\n]+?)(?:\s?…|\s?\.\.\.)?\s*$/i.exec(thread.title);
  if (!m || !attributions.some((a) => /\brevert(?:s|ed|ing)?\s+(?:commit|these\s+changes|this\s+change)\b/i.test(a.sentence.text) || a.post === -1)) return null;
  // A title GitHub cut short goes on at the start of the description ('Revert "Move the … e…' / '…arlier, and …"'): the whole subject.
  const rest = /(?:…|\.\.\.)\s*$/.test(thread.title) ? /^\s*(?:…|\.\.\.)([^"\n]+?)"?[ \t]*(?:\n|$)/.exec(thread.posts[0]?.body ?? '') : null;
  // (A space before the title's ellipsis was a space between words of the subject.)
  return rest ? `${m[1]!}${/\s(?:…|\.\.\.)\s*$/.test(thread.title) ? ' ' : ''}${rest[1]!}`.trim() : m[1]!.trim();
}

/** The pull request named right after an attributed commit ("X from PR #226", "X (#226)"): the culprit's own. */
function pullsAfterCulprits(thread: Thread, attributions: readonly Attribution[]): number[] {
  const out: number[] = [];
  for (const a of attributions) {
    if (a.ref.type === 'pr') continue;
    const body = a.post === -1 ? thread.title : (thread.posts.find((p) => p.index === a.post)?.body ?? '');
    const m = /^[`'"\])]*\s*,?\s*(?:\(\s*)?(?:(?:from|in|of|via)\s+(?:(?:the\s+)?(?:PR|pull\s+request)\s+)?)?#(\d{1,7})\b/i.exec(body.slice(a.end, a.end + 60));
    if (m) out.push(Number(m[1]));
  }
  return out;
}

/**
 * The pull request a revert's description names as the work it takes back, on a trailer line of
 * its own ("Refs: #17828", "Reverts #812", "Reverts: owner/name#812"), in the post whose "This
 * reverts commit X" is an attribution: the culprit's pull request.
 */
function revertedPulls(thread: Thread, attributions: readonly Attribution[]): number[] {
  const out: number[] = [];
  for (const a of attributions) {
    if (!/\bthis\s+reverts\s+commit\b/i.test(a.sentence.text)) continue;
    const body = a.post === -1 ? thread.title : (thread.posts.find((p) => p.index === a.post)?.body ?? '');
    for (const m of body.slice(0, 20000).matchAll(/^[ \t]*(?:refs?|reverts?)\s*:?\s*(?:[\w.-]+\/[\w.-]+)?#(\d{1,7})[ \t]*$/gim)) out.push(Number(m[1]));
  }
  // A revert pull request opened with GitHub's button ("Reverts owner/name#63" as its description's first line), in a thread
  // that names a culprit: the pull request it reverts holds that culprit.
  const opening = /^\s*Reverts\s+(?:[\w.-]+\/[\w.-]+)?#(\d{1,7})[ \t]*(?:\n|$)/.exec(thread.posts[0]?.body ?? '');
  if (attributions.length > 0 && opening && /^\s*(?:\[[^\]]*\]\s*)?Revert\b/i.test(thread.title)) out.push(Number(opening[1]));
  return out;
}

/** Pull-request numbers written as `(#N)` in a commit subject. */
function subjectPulls(subject: string | null): number[] {
  return [...(subject ?? '').matchAll(/\(#(\d{1,7})\)/g)].map((m) => Number(m[1]));
}

/**
 * Deletes the answer from the first draft, audits it and checks a symptom remains; when no
 * symptom remains, the wider draft is used instead if it audits clean and gives one.
 * `commitRuns`: the hex runs of the drafts (hexRunsOf) that the repository knows as commits.
 */
export function decideReport(
  thread: Thread,
  attributions: readonly Attribution[],
  target: SanitizeTarget,
  drafts: ReportDrafts,
  commitRuns: ReadonlySet<string>,
): ThreadSanitization {
  // Without the repository, pasted bisect output still tells the culprit's subject line.
  const goldSubject = target.goldSubject ?? subjectFromBisectOutput(attributions) ?? subjectFromRevertTitle(thread, attributions);
  // Every pull request an attribution names is answer-bearing, whether or not it is the culprit.
  const attributedPulls = [
    ...attributions.filter((a) => a.ref.type === 'pr' && /^\d+$/.test(a.ref.value)).map((a) => Number(a.ref.value)),
    ...pullsAfterCulprits(thread, attributions),
    ...revertedPulls(thread, attributions),
  ];
  const known = knownCommitShas(attributions, target);
  const attempt = (built: Report, atts: readonly Attribution[] = attributions): ThreadSanitization => {
    const report = sanitizeBuiltReport(built, atts, {
      repo: thread.repo,
      aliases: thread.aliases ?? [],
      isCommitPrefix: commitPrefixTest(built.text, known, commitRuns),
      // A squash-merged culprit's subject ends in its pull request number ("… (#123)"): that number names the culprit too.
      prNumbers: [...new Set([...target.prNumbers, ...attributedPulls, ...subjectPulls(goldSubject)])],
      goldSubject,
      knownShas: known,
      svnRevision: target.svnRevision ?? null,
    });
    const audit = auditLeaks(report.text, { gold: target.gold, goldSubject, repo: thread.repo, aliases: thread.aliases ?? [] });
    const symptom = hasObservableSymptom(report.text);
    const reasons: Reason[] = [];
    if (!audit.ok) reasons.push({ code: 'leak', evidence: audit.findings.map((f) => `${f.code}: ${f.text}`).join('; ') });
    if (!symptom.ok) reasons.push({ code: 'insufficient-symptom', evidence: symptom.why });
    return { report, audit, symptom, reasons };
  };
  const first = attempt(drafts.first);
  if (first.symptom.ok) return first;
  const wider = attempt(drafts.wider);
  if (wider.symptom.ok && wider.audit.ok) return wider;
  // A short report whose only symptom shares the attribution's sentence ("That commit caused
  // losing every change", "X broke the rendering"): delete the reference and its lead-in words
  // rather than the sentence, and keep the result only when it audits clean and says something.
  const narrow = narrowAttributions(attributions);
  for (const built of [drafts.first, drafts.wider]) {
    const tried = attempt(built, narrow);
    if (tried.symptom.ok && tried.audit.ok) return tried;
  }
  return first;
}

/** Words that lead to a reference and go with it ("introduced in commit", "since", "by"). */
const LEAD_IN = /(?:\b(?:(?:was|were|is|got|been)\s+)?(?:introduced|caused|broken|regressed|started|appeared|since|after|at|in|by|on|with|from|this|the|commit|revision|change|changeset)\b[\s`'"(\[]*)+$/i;

/**
 * The attributions with each sentence narrowed to the reference and the words leading to it
 * (pasted bisect output stays whole: all of it is answer).
 */
export function narrowAttributions(attributions: readonly Attribution[]): Attribution[] {
  return attributions.map((a) => {
    if (a.kind === 'bisect-output') return a;
    const rel = a.start - a.sentence.start;
    if (rel < 0 || a.end - a.sentence.start > a.sentence.text.length) return a;
    const lead = LEAD_IN.exec(a.sentence.text.slice(0, rel));
    const start = lead ? a.sentence.start + lead.index : a.start;
    return { ...a, sentence: { start, end: a.end, text: a.sentence.text.slice(start - a.sentence.start, rel + (a.end - a.start)) } };
  });
}
