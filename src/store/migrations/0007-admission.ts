import type { Migration } from '../migrate.js';

/**
 * Admission: one row per candidate case (Backward thread or Forward issue–PR pair) with the
 * frozen export record and every gate that keeps it out. Export streams this table by case id.
 */
export const migration0007: Migration = {
  id: 7,
  name: 'admission',
  up(db) {
    db.exec(`
      CREATE TABLE admissions (
        task      TEXT NOT NULL CHECK (task IN ('backward', 'forward')),
        item_key  TEXT NOT NULL,              -- owner/name#N (Backward) or owner/name#N->P (Forward)
        case_id   TEXT NOT NULL,
        repo      TEXT NOT NULL,
        number    INTEGER NOT NULL,
        pull      INTEGER,
        record    TEXT NOT NULL,              -- canonical JSON of the manifest record
        blockers  TEXT NOT NULL,              -- canonical JSON: [{gate, stage, code, evidence}]
        PRIMARY KEY (task, item_key)
      ) WITHOUT ROWID;
      CREATE INDEX admissions_case ON admissions (case_id, task, item_key);
      CREATE INDEX admissions_repo ON admissions (repo, task);
    `);
  },
};
