import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ItemOutcome, PlannedItem, Stage, StageContext } from '../stages/types.js';
import type { WorkItemRow } from '../store/tables/work-items.js';
import { describeError, errorKind, isFatal } from '../errors.js';
import { redact } from '../log.js';
import { quietProgress, type Progress } from './progress.js';

export interface RunStagesOptions {
  /** Stages to run, in order (already selected from the registry). */
  readonly stages: readonly Stage<any>[];
  /** Repositories in scope. */
  readonly repos: readonly string[];
  /** Recompute every item in scope, not only pending ones. */
  readonly force?: boolean;
  /** Only re-run failed items (optionally of one error kind). */
  readonly onlyFailed?: { readonly kind?: string };
  readonly concurrency?: number;
  readonly progress?: Progress;
  /** Append one JSON event per line (the audit trail of runs). */
  readonly runLogPath?: string;
}

export interface StageSummary {
  readonly name: string;
  readonly planned: number;
  readonly processed: number;
  readonly done: number;
  readonly rejected: number;
  readonly failed: number;
  readonly upToDate: number;
}

export interface RunSummary {
  readonly stages: StageSummary[];
  readonly failed: number;
  readonly interrupted: boolean;
}

/** Why an item is pending, or null when its ledger row is current. */
export function pendingReason(item: PlannedItem, stage: Stage<any>, row: WorkItemRow | undefined): string | null {
  if (!row) return 'new';
  if (row.status === 'failed') return 'failed';
  if (row.stageVersion !== stage.version) return 'stage-version';
  if (row.inputDigest !== item.inputDigest) return 'input-changed';
  return null;
}

/**
 * Runs stages in order. Each item's results and its ledger row commit in one transaction, so a
 * killed run resumes where it stopped without duplicates. A failing item is recorded and the run
 * goes on; a fatal error (config, auth, disk, bug in the runner) stops it after in-flight items.
 * An aborted signal (Ctrl-C) finishes the items in flight and stops.
 */
export async function runStages(ctx: StageContext, options: RunStagesOptions): Promise<RunSummary> {
  const ledger = ctx.store.workItems;
  const progress = options.progress ?? quietProgress;
  const log = (event: Record<string, unknown>): void => {
    if (!options.runLogPath) return;
    mkdirSync(dirname(options.runLogPath), { recursive: true });
    appendFileSync(options.runLogPath, `${JSON.stringify({ at: ctx.now().toISOString(), ...event })}\n`);
  };
  const summaries: StageSummary[] = [];
  let failedTotal = 0;

  for (const stage of options.stages) {
    if (ctx.signal.aborted) break;
    const planned = await stage.plan(ctx, options.repos);
    const rows = ledger.ofStage(stage.name);
    const seen = new Set<string>();
    const todo: PlannedItem[] = [];
    for (const item of planned) {
      if (seen.has(item.key)) throw new Error(`stage ${stage.name} planned the key ${item.key} twice`);
      seen.add(item.key);
      const row = rows.get(item.key);
      if (options.onlyFailed) {
        if (row?.status === 'failed' && (!options.onlyFailed.kind || row.errorKind === options.onlyFailed.kind)) todo.push(item);
      } else if (options.force || pendingReason(item, stage, row) !== null) {
        todo.push(item);
      }
    }
    const counts = { done: 0, rejected: 0, failed: 0 };
    progress.stageStarted(stage.name, todo.length, planned.length - todo.length);
    log({ type: 'stage-started', stage: stage.name, planned: planned.length, pending: todo.length });

    let next = 0;
    let fatal: unknown = null;
    const worker = async (): Promise<void> => {
      while (fatal === null && !ctx.signal.aborted && next < todo.length) {
        const item = todo[next]!;
        next += 1;
        const previous = rows.get(item.key);
        const base = {
          stage: stage.name,
          key: item.key,
          repo: item.repo,
          stageVersion: stage.version,
          inputDigest: item.inputDigest,
        };
        let outcome: ItemOutcome;
        try {
          outcome = await stage.process(item, ctx);
        } catch (error) {
          if (isFatal(error)) {
            fatal ??= error;
            return;
          }
          const kind = errorKind(error);
          // Redacted again here, where the message is kept: the database, the run log and the log.
          const message = redact(describeError(error), ctx.secrets ?? []);
          ctx.store.transaction(() =>
            ledger.record(
              { ...base, status: 'failed', reason: null, errorKind: kind, errorMessage: message, updatedAt: ctx.now().toISOString() },
              previous,
            ),
          );
          counts.failed += 1;
          progress.item(stage.name, 'failed');
          ctx.log.warn('item failed', { stage: stage.name, key: item.key, kind, error: message });
          log({ type: 'item-failed', stage: stage.name, key: item.key, kind, message });
          continue;
        }
        try {
          ctx.store.transaction(() => {
            outcome.save(ctx.store);
            ledger.record(
              {
                ...base,
                status: outcome.status,
                reason: outcome.status === 'rejected' ? outcome.reason : null,
                errorKind: null,
                errorMessage: null,
                updatedAt: ctx.now().toISOString(),
              },
              previous,
            );
          });
        } catch (error) {
          // A save that throws is a bug or a disk problem: stop the run, nothing half-written.
          fatal ??= error;
          return;
        }
        counts[outcome.status] += 1;
        progress.item(stage.name, outcome.status);
        log({ type: outcome.status === 'done' ? 'item-done' : 'item-rejected', stage: stage.name, key: item.key });
      }
    };
    const n = Math.max(1, Math.min(options.concurrency ?? 1, todo.length || 1));
    await Promise.all(Array.from({ length: n }, () => worker()));
    progress.stageFinished(stage.name);
    failedTotal += counts.failed;
    summaries.push({
      name: stage.name,
      planned: planned.length,
      processed: counts.done + counts.rejected + counts.failed,
      ...counts,
      upToDate: planned.length - todo.length,
    });
    log({ type: 'stage-finished', stage: stage.name, ...counts });
    if (fatal !== null) throw fatal;
  }
  return { stages: summaries, failed: failedTotal, interrupted: ctx.signal.aborted };
}
