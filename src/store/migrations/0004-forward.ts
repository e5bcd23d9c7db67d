import type { Migration } from '../migrate.js';

/**
 * Forward task tables, one row per issue–PR pair and stage (replaced on every run of the item):
 * links → recoveries (base, Δ*, workflows at base) → golds (routing) → cases (agent-visible
 * issue, signals, decision). Priors are cached per repository base and routing context.
 * JSON columns hold canonical JSON.
 */
export const migration0004: Migration = {
  id: 4,
  name: 'forward',
  up(db) {
    db.exec(`
      CREATE TABLE forward_links (
        repo          TEXT NOT NULL,
        issue         INTEGER NOT NULL,
        pull          INTEGER NOT NULL,
        status        TEXT NOT NULL CHECK (status IN ('kept', 'rejected')),
        base_ref      TEXT,
        branch_rule   TEXT,
        link_kinds    TEXT NOT NULL,
        links         TEXT NOT NULL,
        flags         TEXT NOT NULL,
        reasons       TEXT NOT NULL,
        PRIMARY KEY (repo, issue, pull)
      ) WITHOUT ROWID;

      CREATE TABLE forward_recoveries (
        repo               TEXT NOT NULL,
        issue              INTEGER NOT NULL,
        pull               INTEGER NOT NULL,
        status             TEXT NOT NULL CHECK (status IN ('done', 'rejected')),
        base               TEXT,
        base_rule          TEXT,
        head               TEXT,
        base_ref           TEXT NOT NULL,
        changed_paths      TEXT NOT NULL,
        workflows          TEXT NOT NULL,
        workflows_digest   TEXT NOT NULL,
        reasons            TEXT NOT NULL,
        PRIMARY KEY (repo, issue, pull)
      ) WITHOUT ROWID;

      CREATE TABLE forward_golds (
        repo            TEXT NOT NULL,
        issue           INTEGER NOT NULL,
        pull            INTEGER NOT NULL,
        status          TEXT NOT NULL CHECK (status IN ('done', 'rejected')),
        context         TEXT NOT NULL,
        gold            TEXT NOT NULL,
        invalid         TEXT NOT NULL,
        explain         TEXT NOT NULL,
        evaluator       TEXT NOT NULL,
        limit_applied   INTEGER NOT NULL,
        input_digests   TEXT NOT NULL,
        reasons         TEXT NOT NULL,
        PRIMARY KEY (repo, issue, pull)
      ) WITHOUT ROWID;

      CREATE TABLE forward_cases (
        repo                TEXT NOT NULL,
        issue               INTEGER NOT NULL,
        pull                INTEGER NOT NULL,
        case_id             TEXT NOT NULL,
        issue_text          TEXT NOT NULL,
        deletions           TEXT NOT NULL,
        excluded_comments   TEXT NOT NULL,
        stability           TEXT,
        prior               TEXT,
        labels              TEXT,
        flags               TEXT NOT NULL,
        decision            TEXT NOT NULL CHECK (decision IN ('candidate', 'review', 'reject')),
        reasons             TEXT NOT NULL,
        PRIMARY KEY (repo, issue, pull)
      ) WITHOUT ROWID;
      CREATE UNIQUE INDEX forward_cases_id ON forward_cases (case_id);

      CREATE TABLE forward_priors (
        repo            TEXT NOT NULL,
        base            TEXT NOT NULL,
        context_digest  TEXT NOT NULL,
        evaluator       TEXT NOT NULL,
        prior           TEXT NOT NULL,
        PRIMARY KEY (repo, base, context_digest, evaluator)
      ) WITHOUT ROWID;
    `);
  },
};
