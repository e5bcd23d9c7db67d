import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { migrate } from '../../../src/store/migrate.js';
import { migrations } from '../../../src/store/migrations/index.js';
import { openStore } from '../../../src/store/db.js';
import { tempDir } from '../../support/make-repo.js';

describe('migrations', () => {
  it('apply on an empty database, are recorded, and are idempotent', () => {
    const db = new Database(':memory:');
    const applied = migrate(db, migrations);
    expect(applied).toEqual(migrations.map((m) => m.id));
    const schema = db.prepare("SELECT name, sql FROM sqlite_master WHERE type IN ('table','index') ORDER BY name").all();
    expect(migrate(db, migrations)).toEqual([]);
    expect(db.prepare("SELECT name, sql FROM sqlite_master WHERE type IN ('table','index') ORDER BY name").all()).toEqual(schema);
    const recorded = db.prepare('SELECT id FROM schema_migrations ORDER BY id').all() as { id: number }[];
    expect(recorded.map((r) => r.id)).toEqual(migrations.map((m) => m.id));
    const tables = (schema as { name: string }[]).map((r) => r.name);
    for (const t of ['work_items', 'threads', 'comments', 'pulls', 'links', 'http_cache', 'raw_responses', 'budget']) expect(tables).toContain(t);
  });

  it('have unique, increasing ids', () => {
    const ids = migrations.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('a failing migration leaves the database as it was', () => {
    const db = new Database(':memory:');
    migrate(db, migrations);
    const broken = { id: 9999, name: 'broken', up: (d: Database.Database) => { d.exec('CREATE TABLE half_done (x)'); d.exec('NOT SQL'); } };
    expect(() => migrate(db, [...migrations, broken])).toThrow();
    expect(db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'half_done'").get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM schema_migrations WHERE id = 9999').get()).toEqual({ n: 0 });
  });

  it('openStore uses WAL and foreign keys on a file database', async () => {
    const dir = await tempDir();
    const store = openStore(join(dir, 'x', 'r2v.db'));
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    store.close();
    const again = openStore(join(dir, 'x', 'r2v.db'));
    expect(again.db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get()).toEqual({ n: migrations.length });
    again.close();
  });
});
