import type { Migration } from '../migrate.js';

/**
 * The review ledger: one row per recorded decision about a case (human, or an external
 * screener's proposal), bound to the digest of the case's inputs the reviewer saw. Append-only:
 * triggers refuse every UPDATE and DELETE, so nothing recorded is ever overwritten or lost.
 */
export const migration0009: Migration = {
  id: 9,
  name: 'review',
  up(db) {
    db.exec(`
      CREATE TABLE review_entries (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        case_key      TEXT NOT NULL,              -- owner/name#N (Backward) or owner/name#I<-P (Forward)
        task          TEXT NOT NULL CHECK (task IN ('backward', 'forward')),
        reviewer      TEXT NOT NULL CHECK (length(reviewer) > 0),
        decision      TEXT NOT NULL CHECK (decision IN ('accept', 'reject', 'uncertain')),
        reason        TEXT NOT NULL,
        input_digest  TEXT NOT NULL CHECK (length(input_digest) > 0),
        recorded_at   TEXT NOT NULL,
        source        TEXT NOT NULL CHECK (source IN ('human', 'screener')),
        CHECK ((source = 'screener') = (reviewer LIKE 'screener:%'))
      );
      CREATE INDEX review_entries_case ON review_entries (case_key, id);
      CREATE TRIGGER review_entries_no_update BEFORE UPDATE ON review_entries
        BEGIN SELECT RAISE(ABORT, 'review_entries is append-only'); END;
      CREATE TRIGGER review_entries_no_delete BEFORE DELETE ON review_entries
        BEGIN SELECT RAISE(ABORT, 'review_entries is append-only'); END;
      -- INSERT OR REPLACE would delete the old row without firing the delete trigger.
      CREATE TRIGGER review_entries_no_replace BEFORE INSERT ON review_entries
        WHEN NEW.id IS NOT NULL AND EXISTS (SELECT 1 FROM review_entries WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'review_entries is append-only'); END;
    `);
  },
};
