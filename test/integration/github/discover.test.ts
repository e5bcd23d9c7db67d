import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/store/db.js';
import { discoverContext, runDiscover } from '../../support/discover-child.js';
import { startFakeGitHub, type FakeGitHub, type Fault, type FakeWorld } from '../../support/github-server.js';
import { count, dumpData } from './helpers.js';
import { TOKEN, smallRepo, widgetRepo, world } from './world.js';

const open: FakeGitHub[] = [];
const stores: Store[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!.close();
  while (stores.length > 0) stores.pop()!.close();
});

async function serve(w: FakeWorld, faults: Fault[] = []): Promise<FakeGitHub> {
  const server = await startFakeGitHub(w, { faults });
  open.push(server);
  return server;
}

function memoryStore(): Store {
  const s = openStore(':memory:');
  stores.push(s);
  return s;
}

async function discoverOnce(store: Store, server: FakeGitHub, repos: string[], mode: 'sync' | 'search' = 'sync') {
  const ctx = discoverContext(store, { apiUrl: server.url, repos, env: { GITHUB_TOKEN: TOKEN }, mode });
  return runDiscover(ctx, repos);
}

describe('discover over the fake GitHub', () => {
  it('reads every page, the pull requests and their links, and the repository metadata', async () => {
    const server = await serve(world(widgetRepo()));
    const store = memoryStore();
    expect(await discoverOnce(store, server, ['acme/widget'])).toEqual([{ key: 'acme/widget', status: 'done' }]);
    expect(server.unexpected).toEqual([]);

    const pages = server.requests.filter((r) => r.path.startsWith('/repos/acme/widget/issues?')).map((r) => new URL(r.path, server.url).searchParams.get('page') ?? '1');
    expect(pages).toEqual(['1', '2', '3']);

    const src = store.sources;
    expect(src.repo('acme/widget')).toMatchObject({ defaultBranch: 'main', isFork: true, parent: 'upstream/widget', source: 'github' });
    const threads = src.threads('acme/widget');
    expect(threads.filter((t) => t.kind === 'issue')).toHaveLength(250);
    expect(threads.filter((t) => t.kind === 'pull').map((t) => t.number)).toEqual([300, 301, 302, 303]);
    expect(count(store, 'comments', 'repo = ?', 'acme/widget')).toBe(50);
    expect(src.comments('acme/widget', 5)).toMatchObject([{ commentId: 10005, author: 'commenter', body: 'comment on 5' }]);

    expect(src.pulls('acme/widget').map((p) => p.number)).toEqual([300, 301, 303]);
    expect(src.pull('acme/widget', 303)).toMatchObject({
      baseRef: 'main',
      baseSha: `b${'0'.repeat(36)}12f`,
      commitMessages: ['Tidy up\n\nresolve #4'],
      draft: false,
      source: 'github',
    });

    expect(src.links('acme/widget').map((l) => [l.pull, l.issue, l.how, l.evidence])).toEqual([
      [300, 1, 'closing-references', 'closingIssuesReferences'],
      [300, 1, 'keyword-body', 'Fixes #1'],
      [300, 2, 'keyword-body', 'closes #2'],
      [303, 4, 'keyword-commit', 'e00000000000: resolve #4'],
      [300, 5, 'timeline', 'cross-referenced from #5 at 2021-01-14T21:20:00Z'],
    ]);
    // The back-quoted keyword of #301 and the unmerged #302 give no link.
    expect(src.links('acme/widget').filter((l) => l.pull === 301 || l.pull === 302)).toEqual([]);
  });

  it('waits out a secondary rate limit and retries a 502, then completes', async () => {
    const server = await serve(world(smallRepo('acme/small')), [
      { match: 'GET /repos/acme/small/issues?', kind: 'secondary-rate-limit', retryAfterSeconds: 2 },
      { match: 'GET /repos/acme/small/pulls?', kind: 'status', status: 502, times: 2 },
    ]);
    const store = memoryStore();
    expect(await discoverOnce(store, server, ['acme/small'])).toEqual([{ key: 'acme/small', status: 'done' }]);
    const issueCalls = server.requests.filter((r) => r.path.startsWith('/repos/acme/small/issues?'));
    expect(issueCalls.map((r) => r.status)).toEqual([403, 200]);
    const pullCalls = server.requests.filter((r) => r.path.startsWith('/repos/acme/small/pulls?'));
    expect(pullCalls.map((r) => r.status)).toEqual([502, 502, 200]);
    expect(store.sources.threads('acme/small')).toHaveLength(4);
    const [row] = store.github.budget().filter((b) => b.repo === 'acme/small');
    expect(row).toMatchObject({ stage: 'discover', retries: 3, waitedMs: 2 }); // 2 s × the test's 1 ms unit
    expect(row!.requests).toBe(server.requests.length);
    expect(server.unexpected).toEqual([]);
  });

  it('gives up on a rate limit after the configured retries with a one-line error', async () => {
    const server = await serve(world(smallRepo('acme/small')), [
      { match: 'GET /repos/acme/small?', kind: 'primary-rate-limit', times: Infinity },
      { match: /^GET \/repos\/acme\/small$/, kind: 'primary-rate-limit', times: Infinity },
    ]);
    const store = memoryStore();
    const ctx = discoverContext(store, { apiUrl: server.url, repos: ['acme/small'], env: { GITHUB_TOKEN: TOKEN }, maxRetries: 2 });
    const [result] = await runDiscover(ctx, ['acme/small']);
    expect(result).toMatchObject({ status: 'failed', kind: 'rate-limit' });
    expect(result!.error).toMatch(/^GET \/repos\/acme\/small: rate limit exhausted \(resets at .*\), gave up after 2 retries$/);
    expect(server.requests).toHaveLength(3);
  });

  it('a second run over unchanged data only makes conditional requests and stores nothing new', async () => {
    const server = await serve(world(widgetRepo(), smallRepo('acme/small')));
    const store = memoryStore();
    await discoverOnce(store, server, ['acme/widget', 'acme/small']);
    const before = dumpData(store);
    const firstRun = server.requests.length;

    expect(await discoverOnce(store, server, ['acme/widget', 'acme/small'])).toEqual([
      { key: 'acme/widget', status: 'done' },
      { key: 'acme/small', status: 'done' },
    ]);
    const second = server.requests.slice(firstRun);
    expect(second.length).toBeGreaterThan(10);
    expect(second.filter((r) => r.method !== 'GET')).toEqual([]); // GraphQL answers are memoised per PR version
    expect(second.filter((r) => !r.headers['if-none-match'])).toEqual([]);
    expect(second.filter((r) => r.status !== 304)).toEqual([]);
    expect(dumpData(store)).toEqual(before);
    const totals = store.github.budget().find((b) => b.repo === '*');
    expect(totals).toMatchObject({ requests: server.requests.length, notModified: second.length });
  });

  it('fails only the repository whose response is malformed JSON, with the request named', async () => {
    const server = await serve(world(smallRepo('acme/broken'), smallRepo('acme/small')), [
      { match: 'GET /repos/acme/broken/issues?', kind: 'malformed-json', times: Infinity },
    ]);
    const store = memoryStore();
    const results = await discoverOnce(store, server, ['acme/broken', 'acme/small']);
    expect(results[0]).toEqual({
      key: 'acme/broken',
      status: 'failed',
      kind: 'parse',
      error: 'GET /repos/acme/broken/issues?per_page=100&state=all&sort=updated&direction=asc: response body is not valid JSON (24 bytes)',
    });
    expect(results[1]).toEqual({ key: 'acme/small', status: 'done' });
    expect(store.sources.threads('acme/broken')).toEqual([]);
    expect(store.sources.threads('acme/small')).toHaveLength(4);
    // The raw body was stored before parsing failed.
    expect(count(store, 'raw_responses', "repo = 'acme/broken' AND body LIKE '{\"message\": \"this is not%'")).toBe(1);
  });

  it('fails the run with one line when the token is missing', async () => {
    const server = await serve(world(smallRepo('acme/small')));
    const store = memoryStore();
    const ctx = discoverContext(store, { apiUrl: server.url, repos: ['acme/small'], env: {} });
    await expect(runDiscover(ctx, ['acme/small'])).rejects.toMatchObject({
      kind: 'auth',
      message: expect.stringMatching(/^GITHUB_TOKEN is not set: discover needs a token/),
    });
    expect(server.requests).toEqual([]);
  });
});

describe('incremental sync', () => {
  it('moves the since cursor after a change and still stores every update', async () => {
    const repo = smallRepo('acme/small');
    const server = await serve(world(repo));
    const store = memoryStore();
    await discoverOnce(store, server, ['acme/small']);
    await discoverOnce(store, server, ['acme/small']); // unchanged: same URL, 304
    const issueUrls = () => server.requests.filter((r) => r.path.startsWith('/repos/acme/small/issues?')).map((r) => new URL(r.path, server.url).searchParams.get('since'));
    expect(issueUrls()).toEqual([null, null]);

    repo.issues!.push({ number: 4, title: 'New', body: 'first bad commit is abc', user: 'x', created_at: '2021-02-01T00:00:00Z', updated_at: '2021-02-01T00:00:00Z' });
    await discoverOnce(store, server, ['acme/small']);
    repo.issues![0]!.title = 'Renamed';
    repo.issues![0]!.updated_at = '2021-03-01T00:00:00Z';
    repo.issues![0]!.comments = [{ id: 77, user: 'y', created_at: '2021-03-01T00:00:00Z', body: 'bisected to def' }];
    await discoverOnce(store, server, ['acme/small']);

    // Run 3 still asked for everything; run 4 asked only for what changed after run 1's newest update.
    expect(issueUrls()).toEqual([null, null, null, '2021-01-08T00:30:00Z']);
    const src = store.sources;
    expect(src.threads('acme/small').map((t) => [t.number, t.title])).toEqual([[1, 'Renamed'], [2, 'Issue 2'], [3, 'Issue 3'], [4, 'New'], [10, 'PR 10']]);
    expect(src.comments('acme/small', 1).map((c) => c.body)).toEqual(['bisected to def']);
    expect(server.unexpected).toEqual([]);
  });
});
