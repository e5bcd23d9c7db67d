import type { Migration } from '../migrate.js';

/** Coupled PR pairs: one result per candidate pair, its two members, every test run, patches by digest. */
export const migration0006: Migration = {
  id: 6,
  name: 'pairs',
  up(db) {
    db.exec(`
      CREATE TABLE pair_results (
        key          TEXT PRIMARY KEY,            -- owner/name#A+B, A < B
        repo         TEXT NOT NULL,
        pr_a         INTEGER NOT NULL,
        pr_b         INTEGER NOT NULL,
        why          TEXT NOT NULL,               -- overlap | window | overlap+window
        status       TEXT NOT NULL CHECK (status IN ('valid', 'rejected')),
        reason       TEXT,                        -- machine-readable code when rejected
        tier         TEXT,                        -- coupled | control | unrelated (null when not reached)
        tier_basis   TEXT,
        base_commit  TEXT,
        base_rule    TEXT,
        evidence     TEXT NOT NULL DEFAULT '{}'   -- canonical JSON
      ) WITHOUT ROWID;
      CREATE INDEX pair_results_repo ON pair_results (repo, status, tier);

      CREATE TABLE pair_members (
        key                TEXT NOT NULL REFERENCES pair_results (key) ON DELETE CASCADE,
        pr                 INTEGER NOT NULL,
        base_sha           TEXT NOT NULL,
        head_sha           TEXT NOT NULL,
        merge_base         TEXT NOT NULL,
        code_files         TEXT NOT NULL,         -- JSON array
        test_files         TEXT NOT NULL,
        candidate_tests    TEXT NOT NULL,
        fail_to_pass       TEXT NOT NULL,
        code_patch_sha256  TEXT NOT NULL,
        test_patch_sha256  TEXT NOT NULL,
        PRIMARY KEY (key, pr)
      ) WITHOUT ROWID;

      CREATE TABLE pair_runs (
        key            TEXT NOT NULL REFERENCES pair_results (key) ON DELETE CASCADE,
        condition      TEXT NOT NULL,             -- pre:<N> | post:<N> | gold
        test_id        TEXT NOT NULL,
        repeat         INTEGER NOT NULL,
        tree           TEXT NOT NULL,
        outcome        TEXT NOT NULL,             -- pass | fail | error | missing
        exit_code      INTEGER,
        timed_out      INTEGER NOT NULL,
        duration_ms    INTEGER NOT NULL,
        stdout_digest  TEXT NOT NULL,
        stderr_digest  TEXT NOT NULL,
        output_tail    TEXT NOT NULL,
        PRIMARY KEY (key, condition, test_id, repeat)
      ) WITHOUT ROWID;

      -- Code and test patches, content-addressed (sha256 of the bytes).
      CREATE TABLE pair_patches (
        sha256   TEXT PRIMARY KEY,
        content  BLOB NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
