import type { Migration } from '../migrate.js';

/**
 * Backward tables, one family per stage: attributions and the text screen (attribute),
 * resolutions and cases (resolve), structural checks (validate), sanitized reports (sanitize),
 * final decisions (screen), and the reasons each stage rejected a thread for, with evidence.
 * Every row is keyed by thread so a stage's save can replace what it wrote before.
 */
export const migration0003: Migration = {
  id: 3,
  name: 'backward',
  up(db) {
    db.exec(`
      CREATE TABLE backward_attributions (
        repo         TEXT NOT NULL,
        number       INTEGER NOT NULL,
        idx          INTEGER NOT NULL,
        kind         TEXT NOT NULL,
        ref_type     TEXT NOT NULL,
        ref_text     TEXT NOT NULL,
        ref_value    TEXT NOT NULL,
        url_repo     TEXT,
        post         INTEGER NOT NULL,
        ref_start    INTEGER NOT NULL,
        ref_end      INTEGER NOT NULL,
        sentence_start INTEGER NOT NULL,
        sentence_end   INTEGER NOT NULL,
        sentence     TEXT NOT NULL,
        author       TEXT NOT NULL,
        created_at   TEXT NOT NULL,
        hedged       INTEGER NOT NULL,
        PRIMARY KEY (repo, number, idx)
      ) WITHOUT ROWID;

      -- Text-level screen of a thread (attribute stage): decision before anything is resolved.
      CREATE TABLE backward_text_screens (
        repo      TEXT NOT NULL,
        number    INTEGER NOT NULL,
        decision  TEXT NOT NULL CHECK (decision IN ('candidate', 'reject', 'review')),
        culprits  TEXT NOT NULL,
        PRIMARY KEY (repo, number)
      ) WITHOUT ROWID;

      CREATE TABLE backward_resolutions (
        repo        TEXT NOT NULL,
        number      INTEGER NOT NULL,
        idx         INTEGER NOT NULL,
        input       TEXT NOT NULL,
        status      TEXT NOT NULL,
        sha         TEXT,
        candidates  TEXT NOT NULL,
        via         TEXT NOT NULL,
        PRIMARY KEY (repo, number, idx)
      ) WITHOUT ROWID;

      -- One row per thread the resolve stage looked at; gold is null when it was rejected.
      CREATE TABLE backward_cases (
        repo            TEXT NOT NULL,
        number          INTEGER NOT NULL,
        status          TEXT NOT NULL CHECK (status IN ('resolved', 'rejected')),
        decision        TEXT NOT NULL CHECK (decision IN ('candidate', 'reject', 'review')),
        case_id         TEXT,
        gold            TEXT,
        gold_subject    TEXT,
        parent          TEXT,
        default_branch  TEXT,
        cutoff          TEXT,
        cutoff_rule     TEXT NOT NULL,
        cutoff_notes    TEXT NOT NULL,
        history_window  INTEGER,
        tag             TEXT,
        tag_window      INTEGER,
        pr_numbers      TEXT NOT NULL,
        report_time     TEXT NOT NULL,
        report_url      TEXT NOT NULL,
        PRIMARY KEY (repo, number)
      ) WITHOUT ROWID;
      CREATE UNIQUE INDEX backward_cases_id ON backward_cases (case_id) WHERE case_id IS NOT NULL;

      CREATE TABLE backward_checks (
        repo      TEXT NOT NULL,
        number    INTEGER NOT NULL,
        name      TEXT NOT NULL,
        pass      INTEGER NOT NULL,
        evidence  TEXT NOT NULL,
        PRIMARY KEY (repo, number, name)
      ) WITHOUT ROWID;

      CREATE TABLE backward_reports (
        repo          TEXT NOT NULL,
        number        INTEGER NOT NULL,
        original      TEXT NOT NULL,
        text          TEXT NOT NULL,
        deletions     TEXT NOT NULL,
        leak_ok       INTEGER NOT NULL,
        leak_findings TEXT NOT NULL,
        symptom_ok    INTEGER NOT NULL,
        symptom_why   TEXT NOT NULL,
        PRIMARY KEY (repo, number)
      ) WITHOUT ROWID;

      -- The final Backward decision (screen stage); 'review' waits for a human decision.
      CREATE TABLE backward_screens (
        repo      TEXT NOT NULL,
        number    INTEGER NOT NULL,
        case_id   TEXT,
        decision  TEXT NOT NULL CHECK (decision IN ('candidate', 'reject', 'review')),
        reasons   TEXT NOT NULL,
        PRIMARY KEY (repo, number)
      ) WITHOUT ROWID;

      -- Why a stage rejected (or flagged) a thread: machine-readable code plus evidence.
      CREATE TABLE backward_reasons (
        stage     TEXT NOT NULL,
        repo      TEXT NOT NULL,
        number    INTEGER NOT NULL,
        seq       INTEGER NOT NULL,
        code      TEXT NOT NULL,
        evidence  TEXT NOT NULL,
        post      INTEGER,
        PRIMARY KEY (stage, repo, number, seq)
      ) WITHOUT ROWID;
      CREATE INDEX backward_reasons_thread ON backward_reasons (repo, number);
    `);
  },
};
