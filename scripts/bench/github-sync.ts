/**
 * Re-sync cost of discover over an unchanged repository: conditional requests (ETag → 304,
 * stored bodies reused) against the naive approach of downloading everything again.
 * Runs against the local fake GitHub on 127.0.0.1.
 *
 *   node --import tsx scripts/bench/github-sync.ts
 */
import { Config } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { createStageContext } from '../../src/run/context.js';
import { startFakeGitHub, type FakeIssue, type FakePull } from '../../src/github/fake-server.js';
import { discoverStage } from '../../src/stages/discover.js';
import type { StageContext } from '../../src/stages/types.js';
import { openStore, type Store } from '../../src/store/db.js';

const ISSUES = 2000;
const PULLS = 40;
const REPO = 'bench/repo';

const at = (m: number): string => new Date(Date.UTC(2022, 0, 1) + m * 60_000).toISOString().replace('.000Z', 'Z');
const hex = (n: number, c: string): string => `${c}${n.toString(16).padStart(39, '0')}`;
const issues: FakeIssue[] = Array.from({ length: ISSUES }, (_, i) => ({
  number: i + 1,
  title: `Issue ${i + 1}`,
  body: `Steps to reproduce ${i + 1}\n`.repeat(8),
  user: 'u',
  created_at: at(i),
  comments: i % 3 === 0 ? [{ id: 100_000 + i, user: 'c', created_at: at(i + 1), body: 'me too '.repeat(20) }] : [],
}));
const pulls: FakePull[] = Array.from({ length: PULLS }, (_, i) => ({
  number: ISSUES + 1 + i,
  title: `Fix ${i + 1}`,
  body: `Fixes #${i + 1}`,
  user: 'd',
  base_ref: 'main',
  base_sha: hex(i, 'a'),
  head_sha: hex(i, 'b'),
  merge_commit_sha: hex(i, 'c'),
  created_at: at(ISSUES + i),
  merged_at: at(ISSUES + i + 5),
  commits: [{ sha: hex(i, 'd'), message: `fix #${i + 1}` }],
  closing_issues: [i + 1],
}));

function context(store: Store, url: string): StageContext {
  return createStageContext({
    store,
    config: Config.parse({ github: { api_url: url }, repos: [{ name: REPO }] }),
    log: silentLogger,
    now: () => new Date('2025-01-01T00:00:00Z'),
    signal: new AbortController().signal,
    // discover opens no mirror: no data directory.
    dataDir: '',
    env: { GITHUB_TOKEN: 'bench-token' },
    githubClient: { retryBaseMs: 1, rateLimitBaseMs: 1, pace: false },
  });
}

async function discoverOnce(store: Store, url: string): Promise<number> {
  const ctx = context(store, url);
  const started = performance.now();
  const [item] = await discoverStage.plan(ctx, [REPO]);
  const outcome = await discoverStage.process(item!, ctx);
  store.transaction(() => outcome.save(store));
  return performance.now() - started;
}

const server = await startFakeGitHub({ repos: [{ name: REPO, issues, pulls }] });
try {
  const store = openStore(':memory:');
  const coldMs = await discoverOnce(store, server.url);
  const coldRequests = server.requests.length;
  const warmMs = await discoverOnce(store, server.url);
  const warm = server.requests.slice(coldRequests);
  const notModified = warm.filter((r) => r.status === 304).length;

  const naiveStore = openStore(':memory:');
  const before = server.requests.length;
  const naiveMs = await discoverOnce(naiveStore, server.url);
  const naive = server.requests.slice(before);

  const threads = (store.db.prepare('SELECT COUNT(*) AS n FROM threads').get() as { n: number }).n;
  console.log(`repository: ${ISSUES} issues, ${PULLS} merged pull requests, ${threads} threads stored`);
  console.log(`cold discover:            ${coldMs.toFixed(0)} ms, ${coldRequests} requests, ${(threads / (coldMs / 1000)).toFixed(0)} threads/s`);
  console.log(`re-sync, conditional:     ${warmMs.toFixed(0)} ms, ${warm.length} requests, ${notModified} answered 304, ${warm.filter((r) => r.method === 'POST').length} GraphQL`);
  console.log(`re-sync, naive download:  ${naiveMs.toFixed(0)} ms, ${naive.length} requests, 0 answered 304, ${naive.filter((r) => r.method === 'POST').length} GraphQL`);
  console.log(`ratio naive/conditional:  time ${(naiveMs / warmMs).toFixed(2)}x, rate-limited requests ${naive.length}/${warm.length - notModified} (304s are not counted by GitHub)`);
  store.close();
  naiveStore.close();
} finally {
  await server.close();
}
