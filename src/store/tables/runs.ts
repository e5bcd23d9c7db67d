import type { Database } from 'better-sqlite3';

/** One row per `r2v run`: when it started and how it ended. */
export class Runs {
  constructor(private readonly db: Database) {}
  start(argv: readonly string[], at: Date): number {
    const r = this.db.prepare('INSERT INTO runs (started_at, argv) VALUES (?, ?)').run(at.toISOString(), JSON.stringify(argv));
    return Number(r.lastInsertRowid);
  }
  finish(id: number, outcome: string, at: Date): void {
    this.db.prepare('UPDATE runs SET finished_at = ?, outcome = ? WHERE id = ?').run(at.toISOString(), outcome, id);
  }
}
