import type { Database } from 'better-sqlite3';

export interface BudgetRow {
  stage: string;
  repo: string;
  requests: number;
  notModified: number;
  retries: number;
  waitedMs: number;
}

/** Read-only queries behind `r2v status`. */
export class StatusQueries {
  constructor(private readonly db: Database) {}
  budget(repos: readonly string[]): BudgetRow[] {
    const rows = this.db
      .prepare('SELECT stage, repo, requests, not_modified, retries, waited_ms FROM budget ORDER BY stage, repo')
      .all() as { stage: string; repo: string; requests: number; not_modified: number; retries: number; waited_ms: number }[];
    const scope = new Set(repos);
    return rows
      .filter((r) => scope.has(r.repo))
      .map((r) => ({ stage: r.stage, repo: r.repo, requests: r.requests, notModified: r.not_modified, retries: r.retries, waitedMs: r.waited_ms }));
  }
}
