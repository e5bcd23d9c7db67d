import type { Migration } from '../migrate.js';

/**
 * Scale-out: `store_meta` records what produced the database (r2v version, routing evaluator,
 * shard), so `r2v merge` can refuse shards that do not belong together; the budget ledger names
 * the token variable (never its value) each repository's requests used.
 */
export const migration0010: Migration = {
  id: 10,
  name: 'shards',
  up(db) {
    db.exec(`
      CREATE TABLE store_meta (
        key    TEXT PRIMARY KEY,
        value  TEXT NOT NULL
      ) WITHOUT ROWID;
      ALTER TABLE budget ADD COLUMN token_env TEXT;
    `);
  },
};
