import { join, resolve } from 'node:path';
import { loadConfig, resolveDataDir, type LoadedConfig } from './config.js';
import { openStore, type Store } from './store/db.js';
import { acquireWorkspaceLock } from './util/workspace-lock.js';
import type { GlobalOptions, Io } from './commands/types.js';

export interface App {
  readonly loaded: LoadedConfig;
  readonly dataDir: string;
  readonly store: Store;
  close(): void;
}

/** Path of the database: --db, else <data_dir>/r2v.db. */
export function dbPath(globals: GlobalOptions, loaded: LoadedConfig, io: Io): string {
  return globals.db ? resolve(io.cwd, globals.db) : join(resolveDataDir(loaded), 'r2v.db');
}

/**
 * Loads the config and opens (creating and migrating) the database for a command. A command
 * that writes names itself in `opts.lock` and holds the database's lock until `close`.
 */
export function openApp(globals: GlobalOptions, io: Io, opts: { lock?: string } = {}): App {
  const loaded = loadConfig(globals.config, io.cwd);
  const path = dbPath(globals, loaded, io);
  const lock = opts.lock ? acquireWorkspaceLock(path, opts.lock) : null;
  let store: Store;
  try {
    store = openStore(path);
  } catch (error) {
    lock?.release();
    throw error;
  }
  return {
    loaded,
    dataDir: resolveDataDir(loaded),
    store,
    close: () => {
      try {
        store.close();
      } finally {
        lock?.release();
      }
    },
  };
}
