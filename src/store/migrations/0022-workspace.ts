import type { Migration } from '../migrate.js';

/**
 * Facts about the workspace a database belongs to (key/value): the absolute data directory and
 * config file it was last opened with, so `r2v --db FILE` alone finds the same mirrors and repos.
 */
export const migration0022: Migration = {
  id: 22,
  name: 'workspace',
  up(db) {
    db.exec(`
      CREATE TABLE workspace (
        key   TEXT PRIMARY KEY,   -- data_dir | config_path
        value TEXT NOT NULL
      );
    `);
  },
};
