/**
 * `r2v merge OUT.db SHARD.db...`: combines shard databases into one.
 *
 * Every table is keyed by natural keys (repository, number, stage, key, digest…) except those
 * with an INTEGER PRIMARY KEY row id — `runs`, `raw_responses`, `review_entries`,
 * `review_labels`, found from the schema — whose ids are assigned afresh in the output (shards in
 * the order given, rows in id order), so ids never collide.
 * A natural key present in two shards with the same content is kept once (content-addressed
 * patch blobs); with different content it is a refusal naming the table, the key and both
 * files. `budget` rows of one (stage, repository) are summed, and `http_cache` keeps the newest
 * answer. Shards written by different r2v versions, routing evaluators or schemas, or holding
 * the same repository, are refused before anything is written. The output is built in a
 * temporary sibling and renamed into place only when complete.
 */
import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { MinerError, UsageError } from '../errors.js';
import { openStore, type Db } from './db.js';
import { migrations } from './migrations/index.js';

/** Tables not copied row by row: bookkeeping of the output database itself. */
// `workspace` names where one database's files live (its config and data directory): local to
// each shard, and written afresh when the merged database is opened.
const SKIP = new Set(['schema_migrations', 'sqlite_sequence', 'store_meta', 'workspace']);

export interface ShardInfo {
  readonly path: string;
  readonly schema: string;
  readonly version: string | null;
  readonly evaluator: string | null;
  readonly shard: string | null;
  readonly repos: string[];
}

export interface MergeSummary {
  readonly out: string;
  readonly shards: ShardInfo[];
  readonly rows: Record<string, number>;
}

function openReadonly(path: string): Db {
  if (!existsSync(path)) throw new UsageError(`${path}: no such database`);
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    db.prepare('SELECT 1 FROM schema_migrations LIMIT 1').all();
    return db;
  } catch (error) {
    throw new UsageError(`${path}: not an r2v database (${(error as Error).message.split('\n')[0]})`);
  }
}

function hasTable(db: Db, name: string, schema = 'main'): boolean {
  return db.prepare(`SELECT 1 FROM ${schema}.sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== undefined;
}

/** Reads what identifies a shard: schema, r2v version, evaluator, shard label and its repositories. */
export function shardInfo(path: string): ShardInfo {
  const db = openReadonly(path);
  try {
    const schema = (db.prepare('SELECT id FROM schema_migrations ORDER BY id').all() as { id: number }[]).map((r) => r.id).join(',');
    const meta = new Map<string, string>();
    if (hasTable(db, 'store_meta')) {
      for (const r of db.prepare('SELECT key, value FROM store_meta').all() as { key: string; value: string }[]) meta.set(r.key, r.value);
    }
    const repos = new Set<string>();
    for (const [table, column] of [['repos', 'name'], ['work_items', 'repo'], ['threads', 'repo'], ['pulls', 'repo']] as const) {
      if (!hasTable(db, table)) continue;
      for (const r of db.prepare(`SELECT DISTINCT ${column} AS repo FROM ${table}`).all() as { repo: string }[]) {
        if (r.repo.includes('/')) repos.add(r.repo.toLowerCase());
      }
    }
    return {
      path,
      schema,
      version: meta.get('r2v_version') ?? null,
      evaluator: meta.get('evaluator') ?? null,
      shard: meta.get('shard') ?? null,
      repos: [...repos].sort(),
    };
  } finally {
    db.close();
  }
}

/** Refuses shards that do not belong together: one line naming both files. */
export function checkCompatible(shards: readonly ShardInfo[]): void {
  const current = migrations.map((m) => m.id).join(',');
  const seen = new Map<string, string>();
  for (const s of shards) {
    if (s.schema !== current) {
      throw new UsageError(`${s.path}: schema version ${s.schema || '(none)'} differs from this r2v's ${current} (run any r2v command on it with this version first, or merge with the version that wrote it)`);
    }
    if (s.version === null) throw new UsageError(`${s.path}: no r2v version recorded (not written by r2v run)`);
  }
  const first = shards[0]!;
  for (const s of shards.slice(1)) {
    if (s.version !== first.version) throw new UsageError(`${first.path} and ${s.path}: written by different r2v versions (${first.version} vs ${s.version})`);
    if (s.evaluator !== first.evaluator) throw new UsageError(`${first.path} and ${s.path}: different routing evaluators (${first.evaluator ?? 'none'} vs ${s.evaluator ?? 'none'})`);
  }
  for (const s of shards) {
    for (const repo of s.repos) {
      const other = seen.get(repo);
      if (other !== undefined) throw new UsageError(`${other} and ${s.path}: both hold repository ${repo} (each repository must be in exactly one shard)`);
      seen.set(repo, s.path);
    }
  }
}

interface Column {
  name: string;
  type: string;
  pk: number;
}

function columns(db: Db, table: string): Column[] {
  return db.prepare(`SELECT name, type, pk FROM pragma_table_info(?)`).all(table) as Column[];
}

const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** A rowid table whose only key is an INTEGER PRIMARY KEY: its ids are assigned afresh. */
function surrogateKey(cols: readonly Column[]): string | null {
  const pk = cols.filter((c) => c.pk > 0);
  return pk.length === 1 && pk[0]!.type.toUpperCase() === 'INTEGER' ? pk[0]!.name : null;
}

/** The columns that identify a row of a natural-key table: the primary key, else the first UNIQUE index, else every column. */
function identity(db: Db, table: string, cols: readonly Column[]): string[] {
  const pk = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
  if (pk.length > 0) return pk;
  for (const idx of db.prepare(`SELECT name, "unique" AS u FROM pragma_index_list(?)`).all(table) as { name: string; u: number }[]) {
    if (idx.u !== 1) continue;
    return (db.prepare(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`).all(idx.name) as { name: string }[]).map((r) => r.name);
  }
  return cols.map((c) => c.name);
}

export function mergeShards(outPath: string, shardPaths: readonly string[], opts: { force?: boolean } = {}): MergeSummary {
  if (shardPaths.length === 0) throw new UsageError('merge: name at least one shard database');
  const out = resolve(outPath);
  const inputs = shardPaths.map((p) => resolve(p));
  const dup = inputs.find((p, i) => inputs.indexOf(p) !== i);
  if (dup) throw new UsageError(`${dup}: named twice`);
  if (inputs.includes(out)) throw new UsageError(`${outPath}: the output is also an input`);
  if (existsSync(out) && !opts.force) throw new UsageError(`${outPath}: already exists (use --force to replace it)`);
  const shards = inputs.map((p) => shardInfo(p));
  checkCompatible(shards);

  const tmp = `${out}.partial-${process.pid}`;
  const cleanup = (p: string): void => {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${p}${suffix}`, { force: true });
  };
  cleanup(tmp);
  const rows: Record<string, number> = {};
  try {
    const store = openStore(tmp);
    const db = store.db;
    try {
      db.pragma('foreign_keys = OFF');
      const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[])
        .map((r) => r.name)
        .filter((n) => !SKIP.has(n));
      // One transaction per shard (SQLite cannot attach or detach inside one); the output is a
      // temporary file until every shard is in, so a failure part-way leaves nothing behind.
      for (const [i, shard] of shards.entries()) {
        db.prepare('ATTACH DATABASE ? AS shard').run(shard.path);
        try {
          db.transaction(() => {
            for (const table of tables) rows[table] = (rows[table] ?? 0) + copyTable(db, table, shard, shards.slice(0, i));
          })();
        } finally {
          db.prepare('DETACH DATABASE shard').run();
        }
      }
      db.transaction(() => {
        const meta = db.prepare('INSERT INTO store_meta (key, value) VALUES (?, ?)');
        meta.run('r2v_version', shards[0]!.version);
        if (shards[0]!.evaluator !== null) meta.run('evaluator', shards[0]!.evaluator);
        meta.run('merged_from', shards.map((s) => `${s.shard ?? 'all'}=${basename(s.path)}`).join(' '));
      })();
      const broken = db.pragma('foreign_key_check') as unknown[];
      if (broken.length > 0) throw new MinerError('validation', `merge: ${broken.length} rows reference missing rows (${JSON.stringify(broken[0])})`);
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.pragma('journal_mode = DELETE');
    } finally {
      store.close();
    }
    cleanup(out);
    renameSync(tmp, out);
  } catch (error) {
    cleanup(tmp);
    throw error;
  }
  return { out, shards, rows };
}

/** Copies one table of the attached shard into the output; returns the rows added. */
function copyTable(db: Db, table: string, shard: ShardInfo, earlier: readonly ShardInfo[]): number {
  if (!hasTable(db, table, 'shard')) return 0;
  const cols = columns(db, table);
  const surrogate = surrogateKey(cols);
  const kept = cols.filter((c) => c.name !== surrogate).map((c) => c.name);
  const list = kept.map(q).join(', ');
  const order = surrogate !== null ? ` ORDER BY ${q(surrogate)}` : '';
  if (table === 'budget') {
    const sums = ['requests', 'not_modified', 'retries', 'waited_ms'].map((c) => `${c} = ${c} + excluded.${c}`).join(', ');
    return db.prepare(`INSERT INTO main.budget (${list}) SELECT ${list} FROM shard.budget WHERE true
      ON CONFLICT (stage, repo) DO UPDATE SET ${sums}, token_env = coalesce(token_env, excluded.token_env)`).run().changes;
  }
  if (table === 'http_cache') {
    const sets = kept.filter((c) => c !== 'key').map((c) => `${q(c)} = excluded.${q(c)}`).join(', ');
    return db.prepare(`INSERT INTO main.http_cache (${list}) SELECT ${list} FROM shard.http_cache WHERE true
      ON CONFLICT (key) DO UPDATE SET ${sets} WHERE excluded.fetched_at > http_cache.fetched_at`).run().changes;
  }
  if (surrogate !== null) {
    // Ids are assigned afresh; a row equal on a UNIQUE key (an unchanged raw response) is kept once.
    return db.prepare(`INSERT OR IGNORE INTO main.${q(table)} (${list}) SELECT ${list} FROM shard.${q(table)}${order}`).run().changes;
  }
  // Rows whose key already exists with different content: refuse, naming both files.
  const key = identity(db, table, cols);
  const keyList = key.map(q).join(', ');
  const fresh = `SELECT ${list} FROM shard.${q(table)} EXCEPT SELECT ${list} FROM main.${q(table)}`;
  const clash = db.prepare(`SELECT ${keyList} FROM (${fresh}) WHERE (${keyList}) IN (SELECT ${keyList} FROM main.${q(table)}) LIMIT 1`).get() as
    | Record<string, unknown>
    | undefined;
  if (clash) {
    const other = earlier.find((s) => holds(s.path, table, clash)) ?? earlier[0];
    const shown = key.map((k) => `${k}=${String(clash[k])}`).join(', ');
    throw new UsageError(`${other?.path ?? 'an earlier shard'} and ${shard.path}: both hold ${table} row ${shown} with different content`);
  }
  try {
    return db.prepare(`INSERT INTO main.${q(table)} (${list}) ${fresh}`).run().changes;
  } catch (error) {
    throw new UsageError(`${shard.path}: ${table}: rows collide with an earlier shard (${(error as Error).message})`);
  }
}

function holds(path: string, table: string, key: Record<string, unknown>): boolean {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const names = Object.keys(key);
    return db.prepare(`SELECT 1 FROM ${q(table)} WHERE ${names.map((n) => `${q(n)} IS ?`).join(' AND ')}`).get(...names.map((n) => key[n])) !== undefined;
  } finally {
    db.close();
  }
}
