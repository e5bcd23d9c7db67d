import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Config, CONFIG_FILE, loadConfig, requireConfig, resolveDataDir, type LoadedConfig } from './config.js';
import { openStore, type Store } from './store/db.js';
import { ensureDir } from './util/ensure-dir.js';
import { MinerError } from './errors.js';
import { acquireWorkspaceLock, type WorkspaceLock } from './util/workspace-lock.js';
import type { GlobalOptions, Io } from './commands/types.js';

export interface App {
  readonly loaded: LoadedConfig;
  readonly dataDir: string;
  readonly store: Store;
  close(): void;
}

/**
 * How a command uses the database: `read` opens it read-only (commands that only look: status,
 * export, show…), `write` may change it. Only `r2v init` creates a database named by --db.
 */
export type OpenMode = 'read' | 'write';

/** Path of the database: --db, else <data_dir>/r2v.db. */
export function dbPath(globals: GlobalOptions, loaded: LoadedConfig, io: Io): string {
  return globals.db ? resolve(io.cwd, globals.db) : join(resolveDataDir(loaded), 'r2v.db');
}

/** Whether a config is at hand: --config, or the default file in the working directory. */
function hasConfig(globals: GlobalOptions, io: Io): boolean {
  return globals.config !== undefined || existsSync(resolve(io.cwd, CONFIG_FILE));
}

/**
 * The config of a database opened with --db alone: the config file it was last used with (when it
 * still exists), else defaults with the data directory it recorded (else the database's directory).
 */
function configOfDatabase(store: Store): { loaded: LoadedConfig; dataDir: string } {
  const workspace = store.workspace;
  const configPath = workspace.get('config_path');
  if (configPath !== null && existsSync(configPath)) {
    const loaded = loadConfig(configPath, dirname(configPath));
    const recorded = workspace.get('data_dir');
    const dataDir = recorded ?? resolveDataDir(loaded);
    return { loaded: { ...loaded, config: { ...loaded.config, data_dir: dataDir } }, dataDir };
  }
  const dataDir = workspace.get('data_dir') ?? dirname(store.path);
  return { loaded: { config: Config.parse({ data_dir: dataDir }), path: null, baseDir: dataDir }, dataDir };
}

/**
 * Loads the config and opens the database for a command. Without --config, --db or a
 * ./r2v.config.yaml it stops with one line. A database named by --db must exist; the default
 * <data_dir>/r2v.db (or a path given with `createDb`, such as a shard's database) is created when missing. `mode: 'read'` opens it read-only (no lock);
 * a command that writes names itself in `lock` and holds the database's lock until `close`.
 * Opening writable records the data directory and the config file in the database, so
 * `--db FILE` alone later finds the same workspace.
 */
export function openApp(globals: GlobalOptions, io: Io, opts: { lock?: string; mode?: OpenMode; createDb?: boolean } = {}): App {
  const mode: OpenMode = opts.lock !== undefined ? 'write' : (opts.mode ?? 'write');
  const dbOnly = !hasConfig(globals, io) && globals.db !== undefined;
  const loadedFromConfig = dbOnly ? null : requireConfig(globals.config, io.cwd);
  const path = loadedFromConfig ? dbPath(globals, loadedFromConfig, io) : resolve(io.cwd, globals.db!);
  // A --db the user typed must exist; a path r2v derived (a shard's database) is created like the default.
  const named = globals.db !== undefined && opts.createDb !== true;
  const exists = existsSync(path);
  if (named && !exists) throw new MinerError('usage', `${path}: no such database (create one with: r2v init)`);
  if (loadedFromConfig && !exists) ensureDir(resolveDataDir(loadedFromConfig), 'data directory');
  const lock: WorkspaceLock | null = opts.lock ? acquireWorkspaceLock(path, opts.lock) : null;
  let store: Store | null = null;
  try {
    // A read-only command on a workspace without a database yet creates the (empty) database.
    store = openStore(path, { readonly: mode === 'read' && exists, create: !named });
    let loaded: LoadedConfig;
    let dataDir: string;
    if (loadedFromConfig) {
      loaded = loadedFromConfig;
      dataDir = resolveDataDir(loaded);
    } else {
      ({ loaded, dataDir } = configOfDatabase(store));
    }
    if (!store.readonly) {
      const workspace = store.workspace;
      workspace.set('data_dir', dataDir);
      if (loaded.path !== null) workspace.set('config_path', loaded.path);
    }
    const opened = store;
    return {
      loaded,
      dataDir,
      store: opened,
      close: () => {
        try {
          opened.close();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    store?.close();
    lock?.release();
    throw error;
  }
}
