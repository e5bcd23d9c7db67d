import type { App } from '../app.js';
import { redact, silentLogger } from '../log.js';
import { createStageContext } from '../run/context.js';
import { pendingReason } from '../run/runner.js';
import type { Stage } from '../stages/types.js';
import type { BudgetEntry } from '../store/tables/github.js';
import { Runs } from '../store/tables/runs.js';
import { liveLockHolder } from '../util/workspace-lock.js';
import type { CliContext } from './types.js';

export interface StatusReport {
  db: string;
  repos: string[];
  stages: { name: string; version: number; total: number; done: number; rejected: number; failed: number; pending: number; planError?: string }[];
  failures: { stage: string; key: string; repo: string; kind: string; message: string; attempts: number }[];
  rejections: { stage: string; reason: string; count: number }[];
  budget: BudgetEntry[];
  /** Runs that never finished: `running` while a live process holds the database's lock, else `interrupted`. */
  unfinished_runs: { id: number; started_at: string; argv: string[]; state: 'running' | 'interrupted' }[];
}

/** Counts per stage over the repositories in scope. Pending = planned items whose ledger row is missing, failed or stale. */
export async function statusReport(app: App, stages: readonly Stage<any>[], repos: readonly string[], cli: CliContext): Promise<StatusReport> {
  const ledger = app.store.workItems;
  const ctx = createStageContext({
    store: app.store,
    config: app.loaded.config,
    log: silentLogger,
    signal: cli.signal,
    dataDir: app.dataDir,
    env: cli.io.env,
  });
  const scope = new Set(repos);
  const report: StatusReport = { db: app.store.path, repos: [...repos], stages: [], failures: [], rejections: [], budget: [], unfinished_runs: [] };
  const rejections = new Map<string, { stage: string; reason: string; count: number }>();
  try {
    for (const stage of stages) {
      const rows = ledger.ofStage(stage.name);
      const entry = { name: stage.name, version: stage.version, total: 0, done: 0, rejected: 0, failed: 0, pending: 0 } as StatusReport['stages'][number];
      let planned: { key: string; repo: string; inputDigest: string }[] | null = null;
      try {
        planned = (await stage.plan(ctx, repos)) as { key: string; repo: string; inputDigest: string; input: unknown }[];
      } catch (error) {
        entry.planError = redact((error as Error).message.split('\n')[0]!, ctx.secrets ?? []);
      }
      for (const row of rows.values()) {
        if (!scope.has(row.repo)) continue;
        if (row.status === 'failed') {
          report.failures.push({ stage: row.stage, key: row.key, repo: row.repo, kind: row.errorKind ?? 'internal', message: redact(row.errorMessage ?? '', ctx.secrets ?? []), attempts: row.attempts });
        }
      }
      if (planned) {
        entry.total = planned.length;
        for (const item of planned) {
          const row = rows.get(item.key);
          const why = pendingReason({ ...item, input: null }, stage, row);
          if (why === 'failed') entry.failed += 1;
          else if (why !== null) entry.pending += 1;
          else if (row!.status === 'done') entry.done += 1;
          else {
            entry.rejected += 1;
            const k = `${stage.name}\u0000${row!.reason ?? ''}`;
            const r = rejections.get(k) ?? { stage: stage.name, reason: row!.reason ?? '', count: 0 };
            r.count += 1;
            rejections.set(k, r);
          }
        }
      } else {
        for (const row of rows.values()) {
          if (!scope.has(row.repo)) continue;
          entry.total += 1;
          entry[row.status] += 1;
        }
      }
      report.stages.push(entry);
    }
  } finally {
    await ctx.services.close();
  }
  report.failures.sort((a, b) => a.stage.localeCompare(b.stage) || a.key.localeCompare(b.key));
  report.rejections = [...rejections.values()].sort((a, b) => b.count - a.count || a.stage.localeCompare(b.stage) || a.reason.localeCompare(b.reason));
  report.budget = app.store.github.budget().filter((b) => scope.has(b.repo));
  const unfinished = app.store.runs.unfinished();
  const holder = liveLockHolder(app.store.path);
  report.unfinished_runs = unfinished.map((r, i) => ({
    id: r.id,
    started_at: r.startedAt,
    argv: JSON.parse(r.argv) as string[],
    // Only the newest unfinished run can be the live holder's.
    state: holder && i === unfinished.length - 1 ? ('running' as const) : ('interrupted' as const),
  }));
  return report;
}
