/**
 * Runs the discover stage the way the runner does (plan, then process and save each item in a
 * transaction), without vitest, so a test can start it as a child process and kill it.
 *
 *   node --import tsx test/support/discover-child.ts DB_PATH API_URL REPO...
 *
 * Reads the token from R2V_TEST_TOKEN; prints one JSON line per item to stdout.
 */
import { pathToFileURL } from 'node:url';
import { Config } from '../../src/config.js';
import { describeError, errorKind, isFatal } from '../../src/errors.js';
import { silentLogger, type Logger } from '../../src/log.js';
import { createStageContext } from '../../src/run/context.js';
import { discoverStage as discover } from '../../src/stages/discover.js';
import type { StageContext } from '../../src/stages/types.js';
import { openStore, type Store } from '../../src/store/db.js';

export interface ItemResult {
  key: string;
  status: 'done' | 'rejected' | 'failed';
  kind?: string;
  error?: string;
}

/** Fast retry knobs for a local server: milliseconds instead of seconds. */
export const FAST_CLIENT = { retryBaseMs: 1, rateLimitBaseMs: 1, pace: false } as const;

export function discoverContext(store: Store, input: {
  apiUrl: string;
  repos: string[];
  env: Record<string, string | undefined>;
  mode?: 'sync' | 'search';
  log?: Logger;
  now?: () => Date;
  maxRetries?: number;
}): StageContext {
  const config = Config.parse({
    github: { api_url: input.apiUrl, discover_mode: input.mode ?? 'sync', max_retries: input.maxRetries ?? 3 },
    repos: input.repos.map((name) => ({ name })),
  });
  return createStageContext({
    store,
    config,
    log: input.log ?? silentLogger,
    now: input.now ?? (() => new Date('2025-01-01T00:00:00Z')),
    signal: new AbortController().signal,
    // discover opens no mirror: no data directory.
    dataDir: '',
    env: input.env,
    githubClient: FAST_CLIENT,
  });
}

/** plan → process → save per item, like the runner; fatal errors propagate. */
export async function runDiscover(ctx: StageContext, repos: string[]): Promise<ItemResult[]> {
  const results: ItemResult[] = [];
  for (const item of await discover.plan(ctx, repos)) {
    try {
      const outcome = await discover.process(item, ctx);
      ctx.store.transaction(() => outcome.save(ctx.store));
      results.push({ key: item.key, status: outcome.status });
    } catch (error) {
      if (isFatal(error)) throw error;
      results.push({ key: item.key, status: 'failed', kind: errorKind(error), error: describeError(error) });
    }
  }
  return results;
}

async function main(argv: string[]): Promise<void> {
  const [dbPath, apiUrl, ...repos] = argv;
  if (!dbPath || !apiUrl || repos.length === 0) throw new Error('usage: discover-child.ts DB_PATH API_URL REPO...');
  const store = openStore(dbPath);
  try {
    const ctx = discoverContext(store, { apiUrl, repos, env: { GITHUB_TOKEN: process.env.R2V_TEST_TOKEN } });
    for (const r of await runDiscover(ctx, repos)) process.stdout.write(`${JSON.stringify(r)}\n`);
  } finally {
    store.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${describeError(error)}\n`);
    process.exitCode = 1;
  });
}
