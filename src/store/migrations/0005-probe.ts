import type { Migration } from '../migrate.js';

/** Behavioural replay: one verdict per Backward case, and every setup step and trigger run behind it. */
export const migration0005: Migration = {
  id: 5,
  name: 'probe',
  up(db) {
    db.exec(`
      CREATE TABLE probe_verdicts (
        case_id           TEXT PRIMARY KEY,
        repo              TEXT NOT NULL,
        number            INTEGER NOT NULL,
        status            TEXT NOT NULL CHECK (status IN ('replayed', 'no-spec')),
        spec_path         TEXT,
        spec_digest       TEXT,
        draft             INTEGER NOT NULL DEFAULT 0,
        draft_path        TEXT,                 -- where a draft spec was written (no-spec)
        draft_kind        TEXT,                 -- pytest | cargo | go | junit | command
        gold_sha          TEXT NOT NULL,
        parent_sha        TEXT,
        parent_verdict    TEXT CHECK (parent_verdict IN ('bad', 'good', 'flaky', 'nonreproducible')),
        parent_why        TEXT,
        gold_verdict      TEXT CHECK (gold_verdict IN ('bad', 'good', 'flaky', 'nonreproducible')),
        gold_why          TEXT,
        boundary          TEXT CHECK (boundary IN ('verified', 'not-a-boundary', 'flaky', 'nonreproducible')),
        observed          TEXT,                 -- boundary the runs showed (differs for drafts)
        reason            TEXT NOT NULL,        -- machine-readable code
        repeats           INTEGER,
        network_isolated  INTEGER,              -- 1 when every command ran without network
        finished_at       TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX probe_verdicts_repo ON probe_verdicts (repo, boundary);

      CREATE TABLE probe_runs (
        case_id           TEXT NOT NULL REFERENCES probe_verdicts (case_id) ON DELETE CASCADE,
        state             TEXT NOT NULL CHECK (state IN ('parent', 'gold')),
        phase             TEXT NOT NULL CHECK (phase IN ('setup', 'trigger')),
        idx               INTEGER NOT NULL,     -- setup step or repeat number, from 0
        sha               TEXT NOT NULL,
        command           TEXT NOT NULL,
        executed          INTEGER NOT NULL,
        exit_code         INTEGER,
        signal            TEXT,
        timed_out         INTEGER NOT NULL,
        duration_ms       INTEGER NOT NULL,
        stdout_tail       TEXT NOT NULL,
        stderr_tail       TEXT NOT NULL,
        stdout_digest     TEXT NOT NULL,        -- full log at <data_dir>/logs/<digest>.log
        stderr_digest     TEXT NOT NULL,
        network_isolated  INTEGER NOT NULL,
        classification    TEXT NOT NULL,        -- trigger: a run class; setup: ok | setup-failed
        why               TEXT NOT NULL,
        PRIMARY KEY (case_id, state, phase, idx)
      ) WITHOUT ROWID;
    `);
  },
};
