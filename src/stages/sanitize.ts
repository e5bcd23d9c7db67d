import { repositoryAliases } from '../github/identity.js';
import { sanitizeThread } from '../backward/chain.js';
import { threadFromRows } from '../backward/thread.js';
import { repoConfig } from '../config.js';
import type { Attribution, Thread } from '../model/backward.js';
import type { BackwardCaseRecord, ReportRow } from '../store/tables/backward.js';
import type { Store } from '../store/db.js';
import { planItem } from './plan.js';
import type { PlannedItem, Stage } from './types.js';

export interface SanitizeItem {
  readonly repo: string;
  readonly number: number;
  /** The thread's case as resolve stored it (null: none). */
  readonly record: BackwardCaseRecord | null;
  /** For a resolved case: what the report is built from (null otherwise: nothing to sanitize). */
  readonly resolved: {
    /** The thread as the report reads it (posts in order, with the repository's former names). */
    readonly thread: Thread;
    readonly attributions: readonly Attribution[];
    /** Full SHAs the resolutions found (commits of the repository). */
    readonly knownShas: readonly string[];
  } | null;
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
    const sources = ctx.store.sources;
    const tables = ctx.store.backward;
    const items: PlannedItem<SanitizeItem>[] = [];
    for (const repo of repos) {
      const aliases = repositoryAliases(repo, repoConfig(ctx.config, repo)?.aliases ?? [], sources.repo(repo)?.htmlUrl);
      for (const number of tables.screenedThreads(repo)) {
        const row = sources.thread(repo, number);
        if (!row) continue;
        const record = tables.caseOf(repo, number) ?? null;
        const resolved =
          record?.status === 'resolved'
            ? {
                thread: threadFromRows(row, sources.comments(repo, number), aliases),
                attributions: tables.attributions(repo, number),
                knownShas: tables.resolutions(repo, number).flatMap((r) => (r.sha ? [r.sha] : [])),
              }
            : null;
        items.push(planItem(`${repo}#${number}`, repo, { repo, number, record, resolved }));
      }
    }
    return items;
  },
  async process(item, ctx) {
    const { repo, number, record, resolved } = item.input;
    if (!record || !resolved) {
      return {
        status: 'rejected',
        reason: record ? 'unresolved' : 'not-resolved',
        save: (s) => s.backward.replaceReport(repo, number, null, []),
      };
    }
    const handle = await ctx.git.get(repo);
    const out = await sanitizeThread(
      resolved.thread,
      resolved.attributions,
      { gold: record.gold, goldSubject: record.goldSubject, prNumbers: record.prNumbers, knownShas: resolved.knownShas },
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
      s.backward.replaceReport(repo, number, stored, out.reasons);
    if (out.reasons.length > 0) return { status: 'rejected', reason: out.reasons.map((r) => r.code).join(','), save };
    return { status: 'done', save };
  },
};
