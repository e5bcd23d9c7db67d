import type { Database } from 'better-sqlite3';

export interface Migration {
  readonly id: number;
  readonly name: string;
  up(db: Database): void;
}

/** Applies every pending migration, in order, in one transaction. Idempotent. */
export function migrate(db: Database, migrations: readonly Migration[]): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const ids = migrations.map((m) => m.id);
  for (let i = 1; i < ids.length; i += 1) {
    if (ids[i]! <= ids[i - 1]!) throw new Error(`migrations out of order: ${ids[i - 1]} then ${ids[i]}`);
  }
  const applied = new Set(
    (db.prepare('SELECT id FROM schema_migrations').all() as { id: number }[]).map((r) => r.id),
  );
  const pending = migrations.filter((m) => !applied.has(m.id));
  if (pending.length === 0) return [];
  const record = db.prepare('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const m of pending) {
      m.up(db);
      record.run(m.id, m.name, new Date().toISOString());
    }
  })();
  return pending.map((m) => m.id);
}
