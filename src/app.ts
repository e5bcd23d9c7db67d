import { join, resolve } from 'node:path';
import { loadConfig, resolveDataDir, type LoadedConfig } from './config.js';
import { openStore, type Store } from './store/db.js';
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

/** Loads the config and opens (creating and migrating) the database for a command. */
export function openApp(globals: GlobalOptions, io: Io): App {
  const loaded = loadConfig(globals.config, io.cwd);
  const store = openStore(dbPath(globals, loaded, io));
  return { loaded, dataDir: resolveDataDir(loaded), store, close: () => store.close() };
}
