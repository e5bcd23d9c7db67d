import type { Database } from 'better-sqlite3';

/** Keys of `store_meta`: what produced the database. */
export type MetaKey = 'r2v_version' | 'evaluator' | 'shard';

/** What produced the database: r2v version, routing evaluator id, shard (`K/N` or `all`). */
export class StoreMeta {
  constructor(private readonly db: Database) {}
  get(key: MetaKey): string | undefined {
    return (this.db.prepare('SELECT value FROM store_meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }
  set(key: MetaKey, value: string): void {
    this.db.prepare('INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }
  all(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const r of this.db.prepare('SELECT key, value FROM store_meta ORDER BY key').all() as { key: string; value: string }[]) out[r.key] = r.value;
    return out;
  }
}
