import type { Migration } from '../migrate.js';

/**
 * Review overrides of difficulty labels: a reviewer sets one label of a case to a value, bound to
 * the digest of the case's inputs like every review decision (a changed case drops the
 * override). Append-only: the latest row of a (case, label) on the current digest counts.
 */
export const migration0015: Migration = {
  id: 15,
  name: 'label-overrides',
  up(db) {
    db.exec(`
      CREATE TABLE review_labels (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        case_key      TEXT NOT NULL,
        task          TEXT NOT NULL CHECK (task IN ('backward', 'forward')),
        label         TEXT NOT NULL CHECK (length(label) > 0),
        value         TEXT NOT NULL CHECK (length(value) > 0),
        reviewer      TEXT NOT NULL CHECK (length(reviewer) > 0),
        reason        TEXT NOT NULL,
        input_digest  TEXT NOT NULL CHECK (length(input_digest) > 0),
        recorded_at   TEXT NOT NULL
      );
      CREATE INDEX review_labels_case ON review_labels (case_key, label, id);
      CREATE TRIGGER review_labels_no_update BEFORE UPDATE ON review_labels
        BEGIN SELECT RAISE(ABORT, 'review_labels is append-only'); END;
      CREATE TRIGGER review_labels_no_delete BEFORE DELETE ON review_labels
        BEGIN SELECT RAISE(ABORT, 'review_labels is append-only'); END;
    `);
  },
};
