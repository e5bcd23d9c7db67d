import { hasObservableSymptom } from '../backward/attribution-screen.js';
import { threadFromRows } from '../backward/thread.js';
import type { Attribution, Reason, Thread } from '../model/backward.js';
import type { BatchObjects } from '../git/batch.js';
import { repoConfig } from '../config.js';
import { MinerError } from '../errors.js';
import { auditLeaks, buildReport, sanitizeBuiltReport, type LeakAudit, type Report, type SanitizedReport } from '../sanitize/index.js';
import { HEX_RUN, matchesOf } from '../sanitize/text.js';
import { BackwardTables, type ReportRow } from '../store/tables/backward.js';
import { Sources } from '../store/tables/sources.js';
import { digestOf } from '../util/canonical.js';
import type { Store } from '../store/db.js';
import type { PlannedItem, Stage } from './types.js';

export interface SanitizeItem {
  readonly repo: string;
  readonly number: number;
}

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
}

/**
 * Which hex runs of the text name commits: asked of the repository's object reader in one batch
 * when there is one, plus prefixes of the known SHAs and of the attributed hex.
 */
export async function commitPrefixes(
  text: string,
  objects: BatchObjects | null,
  known: readonly string[],
): Promise<(hex: string) => boolean> {
  const runs = [...new Set(matchesOf(text, HEX_RUN).map((m) => m.text.toLowerCase()))];
  const yes = new Set<string>();
  for (const run of runs) if (known.some((k) => k.toLowerCase().startsWith(run))) yes.add(run);
  if (objects) {
    const answers = await objects.resolve(runs.filter((r) => !yes.has(r)));
    for (const a of answers) {
      if ((a.status === 'ok' && a.type === 'commit') || (a.status === 'ambiguous' && a.candidates.length > 0)) yes.add(a.input.toLowerCase());
    }
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

/** Pull-request numbers written as `(#N)` in a commit subject. */
function subjectPulls(subject: string | null): number[] {
  return [...(subject ?? '').matchAll(/\(#(\d{1,7})\)/g)].map((m) => Number(m[1]));
}

/** Builds the report, deletes the answer, audits the result and checks a symptom remains. */
export async function sanitizeThread(
  thread: Thread,
  attributions: readonly Attribution[],
  target: SanitizeTarget,
  objects: BatchObjects | null,
): Promise<ThreadSanitization> {
  // Without the repository, pasted bisect output still tells the culprit's subject line.
  const goldSubject = target.goldSubject ?? subjectFromBisectOutput(attributions);
  const attributedHex = attributions.filter((a) => a.ref.type !== 'pr' && /^[0-9a-f]{7,40}$/i.test(a.ref.value)).map((a) => a.ref.value);
  // Every pull request an attribution names is answer-bearing, whether or not it is the culprit.
  const attributedPulls = attributions.filter((a) => a.ref.type === 'pr' && /^\d+$/.test(a.ref.value)).map((a) => Number(a.ref.value));
  const known = [...target.knownShas, ...attributedHex, ...(target.gold ? [target.gold] : [])];
  const attempt = async (built: Report): Promise<ThreadSanitization> => {
    const isCommitPrefix = await commitPrefixes(built.text, objects, known);
    const report = sanitizeBuiltReport(built, attributions, {
      repo: thread.repo,
      aliases: thread.aliases ?? [],
      isCommitPrefix,
      // A squash-merged culprit's subject ends in its pull request number ("… (#123)"): that number names the culprit too.
      prNumbers: [...new Set([...target.prNumbers, ...attributedPulls, ...subjectPulls(goldSubject)])],
      goldSubject,
    });
    const audit = auditLeaks(report.text, { gold: target.gold, goldSubject, repo: thread.repo, aliases: thread.aliases ?? [] });
    const symptom = hasObservableSymptom(report.text);
    const reasons: Reason[] = [];
    if (!audit.ok) reasons.push({ code: 'leak', evidence: audit.findings.map((f) => `${f.code}: ${f.text}`).join('; ') });
    if (!symptom.ok) reasons.push({ code: 'insufficient-symptom', evidence: symptom.why });
    return { report, audit, symptom, reasons };
  };
  const first = await attempt(buildReport(thread, attributions));
  if (first.symptom.ok) return first;
  // The posts before the attribution say too little: the attribution's own post, its answer deleted, may hold the symptom
  // (a stack trace pasted above the bisect log). Used only when it audits clean and gives a symptom.
  const wider = await attempt(buildReport(thread, attributions, { withFirstAttributionPost: true }));
  return wider.symptom.ok && wider.audit.ok ? wider : first;
}

/**
 * Backward: the report an agent reads (title, body, comments before the first attribution) with
 * every answer-bearing span deleted and logged, then the leakage audit and the observable-symptom
 * check. Threads without a resolved gold are cleared and passed over.
 */
export const sanitizeStage: Stage<SanitizeItem> = {
  name: 'sanitize',
  version: 1,
  needs: ['resolve'],
  description: 'delete the answer from Backward reports, audit for leaks, require an observable symptom',
  plan(ctx, repos) {
    const sources = new Sources(ctx.store.db);
    const tables = new BackwardTables(ctx.store.db);
    const items: PlannedItem<SanitizeItem>[] = [];
    for (const repo of repos) {
      const aliases = repoConfig(ctx.config, repo)?.aliases ?? [];
      for (const number of tables.screenedThreads(repo)) {
        const thread = sources.thread(repo, number);
        if (!thread) continue;
        const record = tables.caseOf(repo, number) ?? null;
        const digest = digestOf({
          thread: { title: thread.title, body: thread.body },
          comments: record?.status === 'resolved' ? sources.comments(repo, number).map((c) => [c.commentId, c.createdAt, c.body]) : [],
          attributions: tables.attributions(repo, number),
          case: record,
          resolutions: tables.resolutions(repo, number).map((r) => r.sha),
          // Former names change which URLs are deleted; absent when there are none (digests of earlier runs stay valid).
          ...(aliases.length > 0 ? { aliases } : {}),
        });
        items.push({ key: `${repo}#${number}`, repo, inputDigest: digest, input: { repo, number } });
      }
    }
    return items;
  },
  async process(item, ctx) {
    const { repo, number } = item.input;
    const sources = new Sources(ctx.store.db);
    const tables = new BackwardTables(ctx.store.db);
    const record = tables.caseOf(repo, number);
    if (!record || record.status !== 'resolved') {
      return {
        status: 'rejected',
        reason: record ? 'unresolved' : 'not-resolved',
        save: (s) => new BackwardTables(s.db).replaceReport(repo, number, null, []),
      };
    }
    const row = sources.thread(repo, number);
    if (!row) throw new MinerError('not-found', `${repo}#${number}: thread is gone from the store`);
    const thread = threadFromRows(row, sources.comments(repo, number), repoConfig(ctx.config, repo)?.aliases ?? []);
    const handle = await ctx.git.get(repo);
    const out = await sanitizeThread(
      thread,
      tables.attributions(repo, number),
      {
        gold: record.gold,
        goldSubject: record.goldSubject,
        prNumbers: record.prNumbers,
        knownShas: tables.resolutions(repo, number).flatMap((r) => (r.sha ? [r.sha] : [])),
      },
      handle.objects,
    );
    const stored: ReportRow = {
      original: out.report.original,
      text: out.report.text,
      deletions: out.report.deletions,
      leakOk: out.audit.ok,
      leakFindings: out.audit.findings,
      symptomOk: out.symptom.ok,
      symptomWhy: out.symptom.why,
    };
    const save = (s: Store): void =>
      new BackwardTables(s.db).replaceReport(repo, number, stored, out.reasons);
    if (out.reasons.length > 0) return { status: 'rejected', reason: out.reasons.map((r) => r.code).join(','), save };
    return { status: 'done', save };
  },
};
