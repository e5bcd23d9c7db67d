import { afterEach, describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../../src/github/client.js';
import { openStore } from '../../../src/store/db.js';
import { FAST_CLIENT } from '../../support/discover-child.js';
import { startFakeGitHub, type FakeGitHub } from '../../support/github-server.js';
import { TOKEN, manyIssues, smallRepo, world } from './world.js';

const servers: FakeGitHub[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

async function serve(...args: Parameters<typeof startFakeGitHub>): Promise<FakeGitHub> {
  const s = await startFakeGitHub(...args);
  servers.push(s);
  return s;
}

describe('fake GitHub server', () => {
  it('paginates with absolute Link URLs and answers 304 to a matching ETag', async () => {
    const server = await serve(world({ name: 'o/r', issues: manyIssues(7) }));
    const first = await fetch(`${server.url}/repos/o/r/issues?state=all&per_page=3`);
    expect(first.status).toBe(200);
    expect(((await first.json()) as unknown[]).length).toBe(3);
    expect(first.headers.get('link')).toBe(
      `<${server.url}/repos/o/r/issues?state=all&per_page=3&page=2>; rel="next", <${server.url}/repos/o/r/issues?state=all&per_page=3&page=3>; rel="last"`,
    );
    expect(first.headers.get('x-ratelimit-limit')).toBe('5000');
    const etag = first.headers.get('etag')!;
    const again = await fetch(`${server.url}/repos/o/r/issues?state=all&per_page=3`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const last = await fetch(`${server.url}/repos/o/r/issues?state=all&per_page=3&page=3`);
    expect(((await last.json()) as { number: number }[]).map((i) => i.number)).toEqual([1]);
    expect(server.unexpected).toEqual([]);
  });

  it('records unknown routes as unexpected and answers 404', async () => {
    const server = await serve(world());
    const r = await fetch(`${server.url}/repos/o/r/releases`);
    expect(r.status).toBe(404);
    expect(server.unexpected.map((u) => `${u.method} ${u.path}`)).toEqual(['GET /repos/o/r/releases']);
  });

  it('injects a primary rate limit with x-ratelimit-reset, a 502 and malformed JSON, each once', async () => {
    const server = await serve(world(smallRepo('o/r')), {
      faults: [
        { match: 'GET /repos/o/r/pulls', kind: 'primary-rate-limit', retryAfterSeconds: 30 },
        { match: 'GET /repos/o/r/issues', kind: 'status', status: 502 },
        { match: 'GET /repos/o/r/issues', kind: 'malformed-json' },
      ],
    });
    const limited = await fetch(`${server.url}/repos/o/r/pulls`);
    expect(limited.status).toBe(403);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('x-ratelimit-reset')) - Date.now() / 1000).toBeGreaterThan(25);
    expect((await fetch(`${server.url}/repos/o/r/pulls`)).status).toBe(200);
    expect((await fetch(`${server.url}/repos/o/r/issues`)).status).toBe(502);
    const bad = await fetch(`${server.url}/repos/o/r/issues`);
    expect(bad.status).toBe(200);
    await expect(bad.clone().json()).rejects.toThrow();
    expect((await fetch(`${server.url}/repos/o/r/issues`)).status).toBe(200);
  });

  it('a truncated body is retried as a network failure, and named when retries run out', async () => {
    const server = await serve(world({ name: 'o/r', issues: manyIssues(5) }), {
      faults: [
        { match: 'GET /repos/o/r/issues/5/comments', kind: 'truncated' },
        { match: 'GET /repos/o/r/issues/10/comments', kind: 'truncated', times: Infinity },
      ],
    });
    const store = openStore(':memory:');
    const port = createGitHubClient({ apiUrl: server.url, token: TOKEN, recorder: store.github, maxRetries: 2, ...FAST_CLIENT }).port({
      stage: 'discover',
      repo: 'o/r',
    });
    expect((await port.listIssueComments('o/r', 5)).items.map((c) => c.body)).toEqual(['comment on 5']);
    expect(store.github.budget()[0]).toMatchObject({ stage: 'discover', repo: 'o/r', requests: 2, retries: 1 });
    await expect(port.listIssueComments('o/r', 10)).rejects.toMatchObject({
      kind: 'transient',
      message: expect.stringMatching(/^GET \/repos\/o\/r\/issues\/10\/comments\?per_page=100: network error \(.+\) after 2 retries$/),
    });
    expect(server.requests.filter((r) => r.path.startsWith('/repos/o/r/issues/10/'))).toHaveLength(3);
    store.close();
  });

  it('answers GraphQL closingIssuesReferences by operation name, through the throttled instance', async () => {
    const w = world(smallRepo('o/r'));
    w.repos[0]!.pulls![0]!.closing_issues = [2, 3];
    const server = await serve(w);
    const store = openStore(':memory:');
    const port = createGitHubClient({ apiUrl: server.url, token: TOKEN, recorder: store.github, ...FAST_CLIENT }).port({ stage: 'discover', repo: 'o/r' });
    expect(await port.closingIssues('o/r', 10, 'v1')).toEqual([2, 3]);
    expect(await port.closingIssues('o/r', 10, 'v1')).toEqual([2, 3]); // memoised
    expect(await port.closingIssues('o/r', 10, 'v2')).toEqual([2, 3]);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /graphql', 'POST /graphql']);
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ variables: { owner: 'o', name: 'r', number: 10 } });
    store.close();
  });
});

describe('GraphQL errors in a 200', () => {
  it('fail the call with the operation named', async () => {
    const server = await serve(world());
    const store = openStore(':memory:');
    const port = createGitHubClient({ apiUrl: server.url, token: TOKEN, recorder: store.github, ...FAST_CLIENT }).port({ stage: 'discover', repo: 'gone/repo' });
    await expect(port.closingIssues('gone/repo', 3, 'v')).rejects.toMatchObject({
      kind: 'not-found',
      message: 'POST /graphql ClosingIssues(gone/repo#3): GraphQL error NOT_FOUND: Could not resolve to a Repository',
    });
    store.close();
  });
});

describe('GitHub Enterprise URLs', () => {
  it('sends REST under /api/v3 and GraphQL to /api/graphql', async () => {
    const w = world(smallRepo('o/r'));
    w.repos[0]!.pulls![0]!.closing_issues = [1];
    const server = await serve(w);
    const store = openStore(':memory:');
    const port = createGitHubClient({ apiUrl: `${server.url}/api/v3`, token: TOKEN, recorder: store.github, ...FAST_CLIENT }).port({ stage: 'discover', repo: 'o/r' });
    expect((await port.getRepository('o/r')).defaultBranch).toBe('trunk');
    expect(await port.closingIssues('o/r', 10, null)).toEqual([1]);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v3/repos/o/r', 'POST /api/graphql']);
    store.close();
  });
});
