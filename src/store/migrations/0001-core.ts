import type { Migration } from '../migrate.js';

/** Core tables: the resume ledger, the run log, and the raw GitHub data every stage reads. */
export const migration0001: Migration = {
  id: 1,
  name: 'core',
  up(db) {
    db.exec(`
      CREATE TABLE work_items (
        stage          TEXT NOT NULL,
        key            TEXT NOT NULL,
        repo           TEXT NOT NULL,
        status         TEXT NOT NULL CHECK (status IN ('done', 'rejected', 'failed')),
        reason         TEXT,
        attempts       INTEGER NOT NULL DEFAULT 0,
        error_kind     TEXT,
        error_message  TEXT,
        stage_version  INTEGER NOT NULL,
        input_digest   TEXT NOT NULL,
        updated_at     TEXT NOT NULL,
        PRIMARY KEY (stage, key)
      ) WITHOUT ROWID;
      CREATE INDEX work_items_repo ON work_items (stage, repo);

      CREATE TABLE runs (
        id           INTEGER PRIMARY KEY,
        started_at   TEXT NOT NULL,
        finished_at  TEXT,
        argv         TEXT NOT NULL,
        outcome      TEXT
      );

      CREATE TABLE repos (
        name            TEXT PRIMARY KEY,
        default_branch  TEXT,
        is_fork         INTEGER,
        parent          TEXT,
        html_url        TEXT,
        source          TEXT NOT NULL,
        updated_at      TEXT NOT NULL
      ) WITHOUT ROWID;

      -- Issues and pull-request threads (kind = 'issue' | 'pull').
      CREATE TABLE threads (
        repo        TEXT NOT NULL,
        number      INTEGER NOT NULL,
        kind        TEXT NOT NULL,
        title       TEXT NOT NULL,
        body        TEXT NOT NULL,
        author      TEXT NOT NULL,
        state       TEXT,
        created_at  TEXT NOT NULL,
        updated_at  TEXT,
        closed_at   TEXT,
        html_url    TEXT NOT NULL,
        source      TEXT NOT NULL,
        PRIMARY KEY (repo, number)
      ) WITHOUT ROWID;

      CREATE TABLE comments (
        repo        TEXT NOT NULL,
        number      INTEGER NOT NULL,
        comment_id  INTEGER NOT NULL,
        author      TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        updated_at  TEXT,
        body        TEXT NOT NULL,
        html_url    TEXT,
        PRIMARY KEY (repo, comment_id)
      ) WITHOUT ROWID;
      CREATE INDEX comments_thread ON comments (repo, number, created_at);

      CREATE TABLE pulls (
        repo               TEXT NOT NULL,
        number             INTEGER NOT NULL,
        title              TEXT NOT NULL,
        body               TEXT NOT NULL,
        author             TEXT NOT NULL,
        state              TEXT NOT NULL,
        draft              INTEGER NOT NULL DEFAULT 0,
        base_ref           TEXT NOT NULL,
        base_sha           TEXT NOT NULL,
        head_ref           TEXT,
        head_sha           TEXT NOT NULL,
        merge_commit_sha   TEXT,
        created_at         TEXT NOT NULL,
        merged_at          TEXT,
        html_url           TEXT NOT NULL,
        commit_shas        TEXT NOT NULL DEFAULT '[]',
        commit_messages    TEXT NOT NULL DEFAULT '[]',
        source             TEXT NOT NULL,
        PRIMARY KEY (repo, number)
      ) WITHOUT ROWID;

      -- Issue <-> pull request links, one row per way the link was found.
      CREATE TABLE links (
        repo      TEXT NOT NULL,
        issue     INTEGER NOT NULL,
        pull      INTEGER NOT NULL,
        how       TEXT NOT NULL,
        evidence  TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (repo, issue, pull, how)
      ) WITHOUT ROWID;

      -- Conditional-request cache (ETag / Last-Modified) keyed by the request.
      CREATE TABLE http_cache (
        key            TEXT PRIMARY KEY,
        url            TEXT NOT NULL,
        etag           TEXT,
        last_modified  TEXT,
        status         INTEGER NOT NULL,
        body           TEXT NOT NULL,
        fetched_at     TEXT NOT NULL
      ) WITHOUT ROWID;

      -- Raw API responses, stored before they are parsed.
      CREATE TABLE raw_responses (
        id           INTEGER PRIMARY KEY,
        stage        TEXT NOT NULL,
        repo         TEXT NOT NULL,
        request      TEXT NOT NULL,
        status       INTEGER NOT NULL,
        body         TEXT NOT NULL,
        body_digest  TEXT NOT NULL,
        fetched_at   TEXT NOT NULL,
        UNIQUE (stage, repo, request, body_digest)
      );

      -- Incremental sync cursors (per repo and resource).
      CREATE TABLE sync_cursors (
        repo      TEXT NOT NULL,
        resource  TEXT NOT NULL,
        since     TEXT NOT NULL,
        PRIMARY KEY (repo, resource)
      ) WITHOUT ROWID;

      -- Request budget per stage and repository.
      CREATE TABLE budget (
        stage         TEXT NOT NULL,
        repo          TEXT NOT NULL,
        requests      INTEGER NOT NULL DEFAULT 0,
        not_modified  INTEGER NOT NULL DEFAULT 0,
        retries       INTEGER NOT NULL DEFAULT 0,
        waited_ms     INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (stage, repo)
      ) WITHOUT ROWID;
    `);
  },
};
