import type { Database } from 'better-sqlite3';

/** One row per `r2v run`: when it started and how it ended. */
export class Runs {
  constructor(private readonly db: Database) {}
  start(argv: readonly string[], at: Date): number {
    const r = this.db.prepare('INSERT INTO runs (started_at, argv) VALUES (?, ?)').run(at.toISOString(), JSON.stringify(argv));
    return Number(r.lastInsertRowid);
  }
  /** Marks every unfinished run as interrupted (called by a writer holding the lock); returns how many. */
  markInterrupted(): number {
    return this.db.prepare("UPDATE runs SET outcome = 'interrupted' WHERE finished_at IS NULL AND (outcome IS NULL OR outcome <> 'interrupted')").run().changes;
  }
  /** Runs without finished_at, oldest first. */
  unfinished(): { id: number; startedAt: string; argv: string }[] {
    return this.db.prepare('SELECT id, started_at AS startedAt, argv FROM runs WHERE finished_at IS NULL ORDER BY id').all() as { id: number; startedAt: string; argv: string }[];
  }
  finish(id: number, outcome: string, at: Date): void {
    this.db.prepare('UPDATE runs SET finished_at = ?, outcome = ? WHERE id = ?').run(at.toISOString(), outcome, id);
  }
}
