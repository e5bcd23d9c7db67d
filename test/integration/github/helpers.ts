import type { Store } from '../../../src/store/db.js';

/** Every row of the data tables (not the budget), for before/after comparisons. */
export function dumpData(store: Store): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  const order: Record<string, string> = {
    repos: 'name',
    threads: 'repo, number',
    comments: 'repo, comment_id',
    pulls: 'repo, number',
    links: 'repo, issue, pull, how',
    http_cache: 'key',
    raw_responses: 'id',
    sync_cursors: 'repo, resource',
  };
  for (const [table, by] of Object.entries(order)) out[table] = store.db.prepare(`SELECT * FROM ${table} ORDER BY ${by}`).all();
  return out;
}

export function count(store: Store, table: string, where = '1=1', ...params: unknown[]): number {
  return (store.db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).get(...params) as { n: number }).n;
}
