import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';
import { MinerError } from '../errors.js';
import { ensureDir } from '../util/ensure-dir.js';
import { AdmissionTables } from './tables/admission.js';
import { BackwardTables } from './tables/backward.js';
import { ForwardTables } from './tables/forward.js';
import { GitHubTables } from './tables/github.js';
import { LabelOverrides } from './tables/label-overrides.js';
import { StoreMeta } from './tables/meta.js';
import { PairTables } from './tables/pairs.js';
import { ProbeTables } from './tables/probes.js';
import { ReviewLedger } from './tables/review.js';
import { Runs } from './tables/runs.js';
import { Sources } from './tables/sources.js';
import { WorkItems } from './tables/work-items.js';
import { Workspace } from './tables/workspace.js';

export type Db = Database.Database;

/**
 * The table groups of a store, one per concern. Each is made at its first use and kept: its
 * statements are prepared once per store.
 */
export interface Tables {
  /** Repositories, threads, comments, pulls, links (discover and import). */
  readonly sources: Sources;
  /** HTTP cache, raw responses, sync cursors, request budget. */
  readonly github: GitHubTables;
  readonly backward: BackwardTables;
  readonly forward: ForwardTables;
  readonly probes: ProbeTables;
  readonly pairs: PairTables;
  readonly admission: AdmissionTables;
  /** The append-only review ledger. */
  readonly review: ReviewLedger;
  /** Review overrides of difficulty labels (append-only). */
  readonly labelOverrides: LabelOverrides;
  /** The resume ledger of the stage runner. */
  readonly workItems: WorkItems;
  readonly runs: Runs;
  /** What produced the database (r2v version, evaluator, shard). */
  readonly meta: StoreMeta;
  /** Workspace facts (data directory, config path). */
  readonly workspace: Workspace;
}

export interface Store extends Tables {
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
  const base = {
    db,
    path,
    readonly,
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    close: () => db.close(),
  };
  return withTables(base, db);
}

const TABLES: { readonly [K in keyof Tables]: (db: Db) => Tables[K] } = {
  sources: (db) => new Sources(db),
  github: (db) => new GitHubTables(db),
  backward: (db) => new BackwardTables(db),
  forward: (db) => new ForwardTables(db),
  probes: (db) => new ProbeTables(db),
  pairs: (db) => new PairTables(db),
  admission: (db) => new AdmissionTables(db),
  review: (db) => new ReviewLedger(db),
  labelOverrides: (db) => new LabelOverrides(db),
  workItems: (db) => new WorkItems(db),
  runs: (db) => new Runs(db),
  meta: (db) => new StoreMeta(db),
  workspace: (db) => new Workspace(db),
};

/** Adds the table groups of `db` to `target`, each made at its first use and then kept. */
function withTables<T extends object>(target: T, db: Db): T & Tables {
  for (const name of Object.keys(TABLES) as (keyof Tables)[]) {
    let made: Tables[typeof name] | undefined;
    Object.defineProperty(target, name, { enumerable: false, get: () => (made ??= TABLES[name](db)) });
  }
  return target as T & Tables;
}
