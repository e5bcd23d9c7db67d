import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';
import { MinerError } from '../errors.js';
import { ensureDir } from '../util/ensure-dir.js';

export type Db = Database.Database;

export interface Store {
  readonly db: Db;
  readonly path: string;
  /** Opened read-only (no migrations, no writes). */
  readonly readonly: boolean;
  transaction<T>(fn: () => T): T;
  close(): void;
}

// A read-only database in a read-only directory can only be opened as `file:…?immutable=1`; the
// native module reads this variable when it loads (lazily, at the first open).
process.env.SQLITE_USE_URI ??= '1';

export interface OpenOptions {
  /** Open read-only: nothing is written, not even migrations (a database that needs them is opened writable once). */
  readonly readonly?: boolean;
  /** Create the file (and its directory) when missing. Default: true unless read-only. */
  readonly create?: boolean;
}

/** The one-line error for a database that cannot be opened or used; `disk` errors exit 3, `usage` 2. */
export function databaseError(path: string, error: unknown): MinerError {
  if (error instanceof MinerError) return error;
  const code = String((error as { code?: unknown }).code ?? '');
  const message = (error as Error).message?.split('\n')[0] ?? String(error);
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || /file is not a database/.test(message)) {
    return new MinerError('usage', `${path}: not an SQLite database`, { cause: error });
  }
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return new MinerError('disk', `${path}: disk full (${code})`, { cause: error });
  if (code.startsWith('SQLITE_READONLY')) return new MinerError('disk', `${path}: database is read-only (${code})`, { cause: error });
  return new MinerError('disk', `${path}: cannot open database: ${message}${code ? ` (${code})` : ''}`, { cause: error });
}

function kindOf(path: string): 'file' | 'directory' | 'missing' | 'other' {
  try {
    const s = statSync(path);
    return s.isDirectory() ? 'directory' : s.isFile() ? 'file' : 'other';
  } catch {
    return 'missing';
  }
}

function pendingMigrations(db: Db): boolean {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (!table) return true;
  const applied = new Set((db.prepare('SELECT id FROM schema_migrations').all() as { id: number }[]).map((r) => r.id));
  return migrations.some((m) => !applied.has(m.id));
}

function openReadonly(path: string): Db {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (error) {
    db.close();
    const code = String((error as { code?: unknown }).code ?? '');
    // A WAL database in a directory nobody may write: read the file as it is.
    if (code !== 'SQLITE_READONLY_DIRECTORY' && code !== 'SQLITE_CANTOPEN') throw error;
    return new Database(`${pathToFileURL(path).href}?immutable=1`, { readonly: true, fileMustExist: true });
  }
}

/** Opens (and creates, and migrates) the database. `:memory:` is allowed for tests. */
export function openStore(path: string, options: OpenOptions = {}): Store {
  const readonly = options.readonly ?? false;
  const create = options.create ?? !readonly;
  if (path !== ':memory:') {
    const kind = kindOf(path);
    if (kind === 'directory') throw new MinerError('usage', `${path}: is a directory, not a database file`);
    if (kind === 'other') throw new MinerError('usage', `${path}: not a regular file`);
    if (kind === 'missing' && !create) throw new MinerError('usage', `${path}: no such database (create one with: r2v init)`);
    if (kind === 'missing') ensureDir(dirname(path), 'database directory');
  }
  let db: Db;
  try {
    db = readonly && path !== ':memory:' ? openReadonly(path) : new Database(path);
  } catch (error) {
    throw databaseError(path, error);
  }
  try {
    if (readonly && pendingMigrations(db)) {
      // An older database: bring it up to date once, then read.
      db.close();
      return openStore(path, { readonly: false, create: false });
    }
    if (!readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    if (!readonly) migrate(db, migrations);
  } catch (error) {
    db.close();
    throw databaseError(path, error);
  }
  return {
    db,
    path,
    readonly,
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    close: () => db.close(),
  };
}
