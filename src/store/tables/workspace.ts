import type { Database } from 'better-sqlite3';

export type WorkspaceKey = 'data_dir' | 'config_path';

/** The workspace facts recorded in a database (see migration 0010). */
export class Workspace {
  constructor(private readonly db: Database) {}

  get(key: WorkspaceKey): string | null {
    const row = this.db.prepare('SELECT value FROM workspace WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value ?? null;
  }

  /** Records the value; writes only when it changed. */
  set(key: WorkspaceKey, value: string): void {
    if (this.get(key) === value) return;
    this.db.prepare('INSERT INTO workspace (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }
}
