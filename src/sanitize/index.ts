import type { Attribution, Thread } from '../model/backward.js';
import { applyDeletions } from './delete.js';
import type { Span } from '../model/deletions.js';
import { detectAttributionSentences } from './attribution-sentences.js';
import { detectBisectOutcome, detectBisectTranscript } from './bisect.js';
import { detectGoldSubject } from './gold-subject.js';
import { detectLocalisation } from './localisation.js';
import { detectPrRefs, detectTitlePrSuffix } from './pr-refs.js';
import { detectRepoUrls } from './repo-urls.js';
import { buildReport, LATER_POST_DETECTOR, type Report } from './report.js';
import { detectChangeIds, detectEmbeddedShas, detectShas } from './sha.js';
import { detectSvnRevision } from './svn-revision.js';

export { auditLeaks, type LeakAudit, type AuditTarget } from './audit.js';
export { buildReport, toReportSpan, type Report, type Segment } from './report.js';

export interface SanitizeOptions {
  /** owner/name of the repository the report belongs to. */
  readonly repo: string;
  /** Former owner/name spellings of the repository; their URLs are deleted like the repository's. */
  readonly aliases?: readonly string[];
  /** True when a lowercase hex run (7–39 chars) names a commit of the repository. */
  readonly isCommitPrefix: (hex: string) => boolean;
  /** The culprit's and the fix's pull-request numbers. */
  readonly prNumbers?: readonly number[];
  /** Full SHAs known to be commits (gold, resolved or attributed): their prefixes go even inside longer names. */
  readonly knownShas?: readonly string[];
  /** The gold commit's subject line, when known. */
  readonly goldSubject?: string | null;
  /** The gold commit's Subversion revision, in a repository converted by `git svn` (its "git-svn-id" line). */
  readonly svnRevision?: number | null;
}

export interface SanitizedReport {
  /** The report before sanitization (title, body, early comments). */
  readonly original: string;
  readonly text: string;
  /** Merged, sorted spans of `original` that were removed, each naming its detector. */
  readonly deletions: Span[];
}

interface RuleInput {
  readonly report: Report;
  readonly attributions: readonly Attribution[];
  readonly options: SanitizeOptions;
}

/** The sanitize rules, in order; the first rule of a merged deletion names it. */
export const sanitizeRules: readonly { readonly detector: string; detect(input: RuleInput): Span[] }[] = [
  { detector: LATER_POST_DETECTOR, detect: ({ report }) => [...report.trims] },
  { detector: 'bisect-transcript', detect: ({ report }) => detectBisectTranscript(report.text) },
  { detector: 'attribution-sentence', detect: ({ report, attributions }) => detectAttributionSentences(report, attributions) },
  { detector: 'bisect-outcome', detect: ({ report }) => detectBisectOutcome(report.text) },
  { detector: 'localisation', detect: ({ report, attributions }) => detectLocalisation(report.text, attributions.length > 0) },
  { detector: 'repo-url', detect: ({ report, options }) => [options.repo, ...(options.aliases ?? [])].flatMap((r) => detectRepoUrls(report.text, r)) },
  { detector: 'pr-ref', detect: ({ report, options }) => detectPrRefs(report.text, options.repo, options.prNumbers ?? []) },
  { detector: 'title-pr-suffix', detect: ({ report }) => detectTitlePrSuffix(report) },
  { detector: 'gold-subject', detect: ({ report, options }) => detectGoldSubject(report.text, options.goldSubject) },
  { detector: 'sha', detect: ({ report, options }) => detectShas(report.text, options.isCommitPrefix) },
  { detector: 'change-id', detect: ({ report }) => detectChangeIds(report.text) },
  { detector: 'embedded-sha', detect: ({ report, options }) => detectEmbeddedShas(report.text, options.knownShas ?? []) },
  { detector: 'svn-revision', detect: ({ report, options }) => detectSvnRevision(report.text, options.svnRevision) },
];

/** Deletes the answer-bearing spans of a built report. Never rewrites: see applyDeletions. */
export function sanitizeBuiltReport(report: Report, attributions: readonly Attribution[], options: SanitizeOptions): SanitizedReport {
  const spans = sanitizeRules.flatMap((r) => r.detect({ report, attributions, options }));
  const { text, deletions } = applyDeletions(report.text, spans);
  return { original: report.text, text, deletions };
}

/** buildReport + sanitizeBuiltReport. */
export function sanitizeReport(thread: Thread, attributions: readonly Attribution[], options: SanitizeOptions): SanitizedReport {
  return sanitizeBuiltReport(buildReport(thread, attributions), attributions, options);
}
