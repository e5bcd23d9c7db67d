import type { Database } from 'better-sqlite3';
import { allRows, getRow, num, str, strOrNull } from '../row.js';
import { sha256 } from '../../util/canonical.js';

/** A stored answer to a GET, with what is needed to ask for it conditionally next time. */
export interface CachedResponse {
  readonly key: string;
  readonly url: string;
  readonly etag: string | null;
  readonly lastModified: string | null;
  readonly link: string | null;
  readonly status: number;
  readonly body: string;
  readonly fetchedAt: string;
}

export interface RawResponse {
  readonly stage: string;
  readonly repo: string;
  readonly request: string;
  readonly status: number;
  readonly body: string;
  readonly fetchedAt: string;
}

export interface BudgetDelta {
  readonly requests?: number;
  readonly notModified?: number;
  readonly retries?: number;
  readonly waitedMs?: number;
}

export interface BudgetEntry {
  readonly stage: string;
  readonly repo: string;
  readonly requests: number;
  readonly notModified: number;
  readonly retries: number;
  readonly waitedMs: number;
  /** The environment variable whose token the requests used (never the token); null for the total row. */
  readonly tokenEnv: string | null;
}

/** The statements of GitHubTables, prepared once per instance. */
function prepareGitHubTables(db: Database) {
  return {
    cached: db.prepare('SELECT * FROM http_cache WHERE key = ?'),
    putCache: db.prepare(`INSERT INTO http_cache (key, url, etag, last_modified, link, status, body, fetched_at)
      VALUES (@key, @url, @etag, @lastModified, @link, @status, @body, @fetchedAt)
      ON CONFLICT (key) DO UPDATE SET url=excluded.url, etag=excluded.etag, last_modified=excluded.last_modified,
        link=excluded.link, status=excluded.status, body=excluded.body, fetched_at=excluded.fetched_at`),
    putRaw: db.prepare(`INSERT OR IGNORE INTO raw_responses (stage, repo, request, status, body, body_digest, fetched_at)
      VALUES (@stage, @repo, @request, @status, @body, @bodyDigest, @fetchedAt)`),
    cursor: db.prepare('SELECT since FROM sync_cursors WHERE repo = ? AND resource = ?'),
    putCursor: db.prepare(`INSERT INTO sync_cursors (repo, resource, since) VALUES (?, ?, ?)
      ON CONFLICT (repo, resource) DO UPDATE SET since=excluded.since`),
    deleteCursor: db.prepare('DELETE FROM sync_cursors WHERE repo = ? AND resource = ?'),
    threadRepos: db.prepare('SELECT DISTINCT repo FROM threads ORDER BY repo'),
    count: db.prepare(`INSERT INTO budget (stage, repo, requests, not_modified, retries, waited_ms, token_env)
      VALUES (@stage, @repo, @requests, @notModified, @retries, @waitedMs, @tokenEnv)
      ON CONFLICT (stage, repo) DO UPDATE SET requests = requests + excluded.requests,
        token_env = coalesce(excluded.token_env, token_env),
        not_modified = not_modified + excluded.not_modified, retries = retries + excluded.retries,
        waited_ms = waited_ms + excluded.waited_ms`),
  };
}

/** HTTP cache, raw responses, sync cursors and the request budget of the GitHub edge. */
export class GitHubTables {
  private readonly s: ReturnType<typeof prepareGitHubTables>;
  /** `tokenEnv`: the variable name the budget ledger records for the requests counted here. */
  constructor(
    private readonly db: Database,
    private readonly tokenEnv: string | null = null,
    statements?: ReturnType<typeof prepareGitHubTables>,
  ) {
    this.s = statements ?? prepareGitHubTables(db);
  }

  /** The same tables (and statements), counting requests against the token in `tokenEnv`. */
  withTokenEnv(tokenEnv: string | null): GitHubTables {
    return new GitHubTables(this.db, tokenEnv, this.s);
  }

  /** Request budget per stage and repository (see budgetSummary). */
  budget(): BudgetEntry[] {
    return budgetSummary(this.db);
  }

  cached(key: string): CachedResponse | undefined {
    const r = getRow(this.s.cached, key);
    if (!r) return undefined;
    return {
      key: str(r, 'key'),
      url: str(r, 'url'),
      etag: strOrNull(r, 'etag'),
      lastModified: strOrNull(r, 'last_modified'),
      link: strOrNull(r, 'link'),
      status: num(r, 'status'),
      body: str(r, 'body'),
      fetchedAt: str(r, 'fetched_at'),
    };
  }

  putCached(entry: CachedResponse): void {
    this.s.putCache.run(entry);
  }

  /** Stores a raw body once per (stage, repo, request, body): an unchanged answer adds nothing. */
  putRaw(raw: RawResponse): void {
    this.s.putRaw.run({ ...raw, bodyDigest: sha256(raw.body) });
  }

  cursor(repo: string, resource: string): string | null {
    const r = getRow(this.s.cursor, repo, resource);
    return r ? strOrNull(r, 'since') : null;
  }

  /** Sets (or, with null, clears) a sync cursor. */
  setCursor(repo: string, resource: string, since: string | null): void {
    if (since === null) this.s.deleteCursor.run(repo, resource);
    else this.s.putCursor.run(repo, resource, since);
  }

  /** Repositories that have stored threads, sorted. */
  threadRepos(): string[] {
    return allRows(this.s.threadRepos).map((r) => str(r, 'repo'));
  }

  count(stage: string, repo: string, delta: BudgetDelta): void {
    this.s.count.run({
      stage,
      repo,
      requests: delta.requests ?? 0,
      notModified: delta.notModified ?? 0,
      retries: delta.retries ?? 0,
      waitedMs: Math.round(delta.waitedMs ?? 0),
      tokenEnv: this.tokenEnv,
    });
  }
}

/** Request budget per stage and repository, sorted, plus a total row (`repo: '*'`, `stage: '*'`). */
function budgetSummary(db: Database): BudgetEntry[] {
  const rows = (db
    .prepare('SELECT stage, repo, requests, not_modified, retries, waited_ms, token_env FROM budget ORDER BY stage, repo')
    .all() as Record<string, number | string>[]).map((r) => ({
    stage: str(r, 'stage'),
    repo: str(r, 'repo'),
    requests: num(r, 'requests'),
    notModified: num(r, 'not_modified'),
    retries: num(r, 'retries'),
    waitedMs: num(r, 'waited_ms'),
    tokenEnv: strOrNull(r, 'token_env'),
  }));
  if (rows.length === 0) return [];
  const total = rows.reduce(
    (t, r) => ({
      stage: '*',
      repo: '*',
      requests: t.requests + r.requests,
      notModified: t.notModified + r.notModified,
      retries: t.retries + r.retries,
      waitedMs: t.waitedMs + r.waitedMs,
      tokenEnv: null,
    }),
    { stage: '*', repo: '*', requests: 0, notModified: 0, retries: 0, waitedMs: 0, tokenEnv: null as string | null },
  );
  return [...rows, total];
}
