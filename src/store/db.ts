import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';
import { MinerError } from '../errors.js';

export type Db = Database.Database;

export interface Store {
  readonly db: Db;
  readonly path: string;
  transaction<T>(fn: () => T): T;
  close(): void;
}

/** Opens (and creates, and migrates) the database. `:memory:` is allowed for tests. */
export function openStore(path: string, options: { readonly?: boolean } = {}): Store {
  let db: Db;
  try {
    if (path !== ':memory:' && !options.readonly) mkdirSync(dirname(path), { recursive: true });
    db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  } catch (error) {
    throw new MinerError('disk', `${path}: cannot open database: ${(error as Error).message}`, { cause: error });
  }
  try {
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    if (!options.readonly) migrate(db, migrations);
  } catch (error) {
    db.close();
    throw new MinerError('disk', `${path}: not a usable r2v database: ${(error as Error).message}`, { cause: error });
  }
  return {
    db,
    path,
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    close: () => db.close(),
  };
}
