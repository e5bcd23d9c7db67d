import { repositoryAliases } from '../github/identity.js';
import { sanitizeThread } from '../backward/chain.js';
import { threadFromRows } from '../backward/thread.js';
import { repoConfig } from '../config.js';
import { MinerError } from '../errors.js';
import type { ReportRow } from '../store/tables/backward.js';
import { digestOf } from '../util/canonical.js';
import type { Store } from '../store/db.js';
import type { PlannedItem, Stage } from './types.js';

export interface SanitizeItem {
  readonly repo: string;
  readonly number: number;
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
    const sources = ctx.store.sources;
    const tables = ctx.store.backward;
    const record = tables.caseOf(repo, number);
    if (!record || record.status !== 'resolved') {
      return {
        status: 'rejected',
        reason: record ? 'unresolved' : 'not-resolved',
        save: (s) => s.backward.replaceReport(repo, number, null, []),
      };
    }
    const row = sources.thread(repo, number);
    if (!row) throw new MinerError('not-found', `${repo}#${number}: thread is gone from the store`);
    const thread = threadFromRows(row, sources.comments(repo, number), repositoryAliases(repo, repoConfig(ctx.config, repo)?.aliases ?? [], sources.repo(repo)?.htmlUrl));
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
      s.backward.replaceReport(repo, number, stored, out.reasons);
    if (out.reasons.length > 0) return { status: 'rejected', reason: out.reasons.map((r) => r.code).join(','), save };
    return { status: 'done', save };
  },
};
