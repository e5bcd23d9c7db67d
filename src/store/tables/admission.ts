import type { Database } from 'better-sqlite3';
import { type Row, allRows, getRow, json, num, numOrNull, str } from '../row.js';
import type { Blocker, Task } from '../../model/admission.js';
import { canonicalJson } from '../../util/canonical.js';

/** One admission row: the frozen record of a candidate case and what blocks it (migration 0007). */
export interface AdmissionRow {
  task: Task;
  itemKey: string;
  caseId: string;
  repo: string;
  number: number;
  pull: number | null;
  /** Canonical JSON of the manifest record, written to manifests as is. */
  record: string;
  blockers: Blocker[];
}

/** A row as streamed for export: the blockers stay as their stored JSON text until needed. */
export interface AdmissionStreamRow {
  task: Task;
  caseId: string;
  repo: string;
  number: number;
  pull: number | null;
  record: string;
  blockers: string;
}

/**
 * A row still describes a candidate: its Backward thread still has attributions, a case row or
 * a text-screen reason other than no-attribution (range only, skipped bisect, …),
 * its Forward pair is still linked. Rows of candidates that vanished upstream (the admit stage
 * never plans them again, so never replaces them) are left out of exports.
 */
const CURRENT = `(
  (a.task = 'backward' AND (EXISTS (SELECT 1 FROM backward_attributions x WHERE x.repo = a.repo AND x.number = a.number)
                         OR EXISTS (SELECT 1 FROM backward_cases c WHERE c.repo = a.repo AND c.number = a.number)
                         OR EXISTS (SELECT 1 FROM backward_reasons r WHERE r.stage = 'attribute' AND r.repo = a.repo
                                    AND r.number = a.number AND r.code <> 'no-attribution')))
  OR (a.task = 'forward' AND EXISTS (SELECT 1 FROM links l WHERE l.repo = a.repo AND l.issue = a.number AND l.pull = a.pull)))`;


/** The statements of AdmissionTables, prepared once per instance. */
function prepareAdmissionTables(db: Database) {
  return {
    del: db.prepare('DELETE FROM admissions WHERE task = ? AND item_key = ?'),
    ins: db.prepare(`INSERT INTO admissions (task, item_key, case_id, repo, number, pull, record, blockers)
      VALUES (@task, @itemKey, @caseId, @repo, @number, @pull, @record, @blockers)`),
    byCase: db.prepare('SELECT * FROM admissions WHERE case_id = ? ORDER BY task, item_key'),
    byKey: db.prepare('SELECT * FROM admissions WHERE task = ? AND item_key = ?'),
    streamAll: db.prepare(`SELECT task, case_id AS caseId, repo, number, pull, record, blockers FROM admissions a INDEXED BY admissions_case
      WHERE ${CURRENT} ORDER BY case_id, task, item_key`),
    streamTask: db.prepare(`SELECT task, case_id AS caseId, repo, number, pull, record, blockers FROM admissions a INDEXED BY admissions_case
      WHERE task = ? AND ${CURRENT} ORDER BY case_id, task, item_key`),
    count: db.prepare('SELECT count(*) AS n FROM admissions'),
  };
}

export class AdmissionTables {
  private readonly s: ReturnType<typeof prepareAdmissionTables>;
  constructor(private readonly db: Database) {
    this.s = prepareAdmissionTables(db);
  }

  /** Replaces the row of one item (task + key). */
  replace(row: AdmissionRow): void {
    this.s.del.run(row.task, row.itemKey);
    this.s.ins.run({ ...row, blockers: canonicalJson(row.blockers) });
  }

  get(task: Task, itemKey: string): AdmissionRow | undefined {
    const r = getRow(this.s.byKey, task, itemKey);
    return r ? toRow(r) : undefined;
  }

  ofCase(caseId: string): AdmissionRow[] {
    return allRows(this.s.byCase, caseId).map(toRow);
  }

  count(): number {
    return (this.s.count.get() as { n: number }).n;
  }

  /** Every row (or one task's), sorted by case id, read one row at a time. */
  *stream(task?: Task): Generator<AdmissionStreamRow> {
    const it = task ? this.s.streamTask.iterate(task) : this.s.streamAll.iterate();
    for (const r of it as Iterable<AdmissionStreamRow>) yield r;
  }
}

function toRow(r: Row): AdmissionRow {
  return {
    task: r.task as Task,
    itemKey: str(r, 'item_key'),
    caseId: str(r, 'case_id'),
    repo: str(r, 'repo'),
    number: num(r, 'number'),
    pull: numOrNull(r, 'pull'),
    record: str(r, 'record'),
    blockers: json<Blocker[]>(r, 'blockers'),
  };
}
