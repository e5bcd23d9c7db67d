import type { Migration } from '../migrate.js';

/**
 * Derived probes: a verdict records its probe kind (command or transplanted test), the fixing
 * change it was derived from and the tests it ran, a human-readable detail of its reason, the
 * test command proposed for the repository's layout, and a `not-applicable` status (the fix's
 * tests cannot be brought to gold's parent or gold). The status CHECK changes, so the two probe
 * tables are rebuilt (runs first, so no cascade deletes them).
 */
export const migration0017: Migration = {
  id: 17,
  name: 'probe-derived',
  up(db) {
    db.exec(`
      CREATE TABLE probe_verdicts_v2 (
        case_id           TEXT PRIMARY KEY,
        repo              TEXT NOT NULL,
        number            INTEGER NOT NULL,
        status            TEXT NOT NULL CHECK (status IN ('replayed', 'no-spec', 'not-applicable')),
        kind              TEXT CHECK (kind IN ('command', 'transplanted')),
        spec_path         TEXT,
        spec_digest       TEXT,
        draft             INTEGER NOT NULL DEFAULT 0,
        draft_path        TEXT,
        draft_kind        TEXT,
        gold_sha          TEXT NOT NULL,
        parent_sha        TEXT,
        parent_verdict    TEXT CHECK (parent_verdict IN ('bad', 'good', 'flaky', 'nonreproducible')),
        parent_why        TEXT,
        gold_verdict      TEXT CHECK (gold_verdict IN ('bad', 'good', 'flaky', 'nonreproducible')),
        gold_why          TEXT,
        boundary          TEXT CHECK (boundary IN ('verified', 'not-a-boundary', 'flaky', 'nonreproducible')),
        observed          TEXT,
        reason            TEXT NOT NULL,        -- machine-readable code
        detail            TEXT,                 -- the reason in words (what a maintainer reads)
        fix_sha           TEXT,                 -- transplanted: the fixing change
        fix_pull          INTEGER,
        tests             TEXT,                 -- transplanted: JSON array of the test files run
        proposed_command  TEXT,                 -- a test command proposed from the layout (never run)
        repeats           INTEGER,
        network_isolated  INTEGER,
        finished_at       TEXT NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO probe_verdicts_v2 (case_id, repo, number, status, kind, spec_path, spec_digest, draft, draft_path, draft_kind, gold_sha,
          parent_sha, parent_verdict, parent_why, gold_verdict, gold_why, boundary, observed, reason, repeats, network_isolated, finished_at)
        SELECT case_id, repo, number, status, CASE status WHEN 'replayed' THEN 'command' END, spec_path, spec_digest, draft, draft_path, draft_kind,
          gold_sha, parent_sha, parent_verdict, parent_why, gold_verdict, gold_why, boundary, observed, reason, repeats, network_isolated, finished_at
        FROM probe_verdicts;

      CREATE TABLE probe_runs_v2 (
        case_id           TEXT NOT NULL REFERENCES probe_verdicts_v2 (case_id) ON DELETE CASCADE,
        state             TEXT NOT NULL CHECK (state IN ('parent', 'gold')),
        phase             TEXT NOT NULL CHECK (phase IN ('setup', 'trigger')),
        idx               INTEGER NOT NULL,
        sha               TEXT NOT NULL,
        command           TEXT NOT NULL,
        executed          INTEGER NOT NULL,
        exit_code         INTEGER,
        signal            TEXT,
        timed_out         INTEGER NOT NULL,
        duration_ms       INTEGER NOT NULL,
        stdout_tail       TEXT NOT NULL,
        stderr_tail       TEXT NOT NULL,
        stdout_digest     TEXT NOT NULL,
        stderr_digest     TEXT NOT NULL,
        network_isolated  INTEGER NOT NULL,
        classification    TEXT NOT NULL,
        why               TEXT NOT NULL,
        PRIMARY KEY (case_id, state, phase, idx)
      ) WITHOUT ROWID;
      INSERT INTO probe_runs_v2 SELECT * FROM probe_runs;
      DROP TABLE probe_runs;
      DROP TABLE probe_verdicts;
      ALTER TABLE probe_verdicts_v2 RENAME TO probe_verdicts;
      ALTER TABLE probe_runs_v2 RENAME TO probe_runs;
      CREATE INDEX probe_verdicts_repo ON probe_verdicts (repo, boundary);
    `);
  },
};
