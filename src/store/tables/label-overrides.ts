import type { Database } from 'better-sqlite3';

/** One review override of a difficulty label (migration 0015). */
export interface LabelOverrideRow {
  caseKey: string;
  task: 'backward' | 'forward';
  label: string;
  value: string;
  reviewer: string;
  reason: string;
  inputDigest: string;
  recordedAt: string;
}

/** The statements of LabelOverrides, prepared once per instance. */
function prepareLabelOverrides(db: Database) {
  return {
    ins: db.prepare(`INSERT INTO review_labels (case_key, task, label, value, reviewer, reason, input_digest, recorded_at)
      VALUES (@caseKey, @task, @label, @value, @reviewer, @reason, @inputDigest, @recordedAt)`),
    current: db.prepare(`SELECT label, value, reviewer, reason FROM review_labels r
      WHERE case_key = ? AND input_digest = ? AND id = (SELECT max(id) FROM review_labels x WHERE x.case_key = r.case_key AND x.label = r.label AND x.input_digest = r.input_digest)
      ORDER BY label`),
  };
}

export class LabelOverrides {
  private readonly s: ReturnType<typeof prepareLabelOverrides>;
  constructor(db: Database) {
    this.s = prepareLabelOverrides(db);
  }

  append(row: LabelOverrideRow): void {
    this.s.ins.run(row);
  }

  /** The overrides that count for a case on its current input digest: label → latest value, sorted by label. */
  current(caseKey: string, inputDigest: string): [string, { value: string; reviewer: string; reason: string }][] {
    return (this.s.current.all(caseKey, inputDigest) as { label: string; value: string; reviewer: string; reason: string }[])
      .map((r) => [r.label, { value: r.value, reviewer: r.reviewer, reason: r.reason }]);
  }
}
