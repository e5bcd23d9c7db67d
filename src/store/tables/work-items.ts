import type { Database } from 'better-sqlite3';
import { allRows, getRow, num, type Row, str, strOrNull } from '../row.js';

export type ItemStatus = 'done' | 'rejected' | 'failed';

export interface WorkItemRow {
  stage: string;
  key: string;
  repo: string;
  status: ItemStatus;
  reason: string | null;
  attempts: number;
  errorKind: string | null;
  errorMessage: string | null;
  stageVersion: number;
  inputDigest: string;
  updatedAt: string;
}

export interface StageCounts {
  stage: string;
  done: number;
  rejected: number;
  failed: number;
}

/** The statements of WorkItems, prepared once per instance. */
function prepareWorkItems(db: Database) {
  return {
    get: db.prepare('SELECT * FROM work_items WHERE stage = ? AND key = ?'),
    ofStage: db.prepare('SELECT * FROM work_items WHERE stage = ?'),
    upsert: db.prepare(`INSERT INTO work_items (stage, key, repo, status, reason, attempts, error_kind, error_message, stage_version, input_digest, updated_at)
      VALUES (@stage, @key, @repo, @status, @reason, @attempts, @errorKind, @errorMessage, @stageVersion, @inputDigest, @updatedAt)
      ON CONFLICT (stage, key) DO UPDATE SET repo=excluded.repo, status=excluded.status, reason=excluded.reason, attempts=excluded.attempts,
        error_kind=excluded.error_kind, error_message=excluded.error_message, stage_version=excluded.stage_version,
        input_digest=excluded.input_digest, updated_at=excluded.updated_at`),
    failures: db.prepare(`SELECT * FROM work_items WHERE status = 'failed' ORDER BY stage, key`),
    rejectionsByReason: db.prepare(`SELECT stage, reason, COUNT(*) AS n FROM work_items WHERE status = 'rejected'
      GROUP BY stage, reason ORDER BY n DESC, stage, reason`),
  };
}

/** The resume ledger: one row per (stage, item key). */
export class WorkItems {
  private readonly s: ReturnType<typeof prepareWorkItems>;
  constructor(db: Database) {
    this.s = prepareWorkItems(db);
  }

  get(stage: string, key: string): WorkItemRow | undefined {
    const r = getRow(this.s.get, stage, key);
    return r ? toRow(r) : undefined;
  }

  ofStage(stage: string): Map<string, WorkItemRow> {
    const out = new Map<string, WorkItemRow>();
    for (const r of allRows(this.s.ofStage, stage)) out.set(str(r, 'key'), toRow(r));
    return out;
  }

  record(row: Omit<WorkItemRow, 'attempts'>, previous: WorkItemRow | undefined): void {
    this.s.upsert.run({ ...row, attempts: (previous?.attempts ?? 0) + 1 });
  }

  failures(): WorkItemRow[] {
    return allRows(this.s.failures).map(toRow);
  }

  rejectionsByReason(): { stage: string; reason: string | null; n: number }[] {
    return this.s.rejectionsByReason.all() as { stage: string; reason: string | null; n: number }[];
  }
}

function toRow(r: Row): WorkItemRow {
  return {
    stage: str(r, 'stage'),
    key: str(r, 'key'),
    repo: str(r, 'repo'),
    status: r.status as ItemStatus,
    reason: strOrNull(r, 'reason'),
    attempts: num(r, 'attempts'),
    errorKind: strOrNull(r, 'error_kind'),
    errorMessage: strOrNull(r, 'error_message'),
    stageVersion: num(r, 'stage_version'),
    inputDigest: str(r, 'input_digest'),
    updatedAt: str(r, 'updated_at'),
  };
}
