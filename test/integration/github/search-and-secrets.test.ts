import { readFileSync, existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { exportThreads } from '../../../src/commands/github.js';
import { createGitHubClient } from '../../../src/github/client.js';
import { fetchRepository } from '../../../src/github/discover.js';
import { createLogger } from '../../../src/log.js';
import { openStore } from '../../../src/store/db.js';
import { tempDir } from '../../support/make-repo.js';
import { discoverContext, runDiscover, FAST_CLIENT } from '../../support/discover-child.js';
import { startFakeGitHub, parseSearchQuery, type FakeGitHub, type FakeIssue } from '../../support/github-server.js';
import { TOKEN, manyIssues, pull, smallRepo, widgetRepo, world } from './world.js';

const servers: FakeGitHub[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

function bisectIssues(): FakeIssue[] {
  // 12 bisect reports spread over 2022, plus 20 unrelated issues.
  const reports: FakeIssue[] = Array.from({ length: 12 }, (_, i) => ({
    number: 100 + i,
    title: `Regression ${i}`,
    body: i % 2 === 0 ? 'git bisect says abc123 is the first bad commit' : 'Startup got slow',
    user: 'reporter',
    created_at: new Date(Date.UTC(2022, i, 3)).toISOString().replace('.000Z', 'Z'),
    comments: i % 2 === 1 ? [{ id: 5000 + i, user: 'dev', created_at: new Date(Date.UTC(2022, i, 4)).toISOString(), body: 'I bisected it to def456' }] : [],
  }));
  return [...manyIssues(20), ...reports];
}

describe('search mode', () => {
  it('slices by creation date past the result cap and keeps only bisect threads', async () => {
    const server = await startFakeGitHub(
      world({
        name: 'acme/search',
        created_at: '2021-01-01T00:00:00Z',
        issues: bisectIssues(),
        pulls: [pull(200, { body: 'Ran git bisect; fixes #100' })],
      }),
    );
    servers.push(server);
    const store = openStore(':memory:');
    const client = createGitHubClient({ apiUrl: server.url, token: TOKEN, recorder: store.github, ...FAST_CLIENT });
    const fetched = await fetchRepository(client.port({ stage: 'discover', repo: 'acme/search' }), 'acme/search', {
      mode: 'search',
      cursors: {},
      now: () => new Date('2023-01-01T00:00:00Z'),
      isStored: () => false,
      searchCap: 5,
    });
    expect(fetched.threads.map((t) => t.number)).toEqual([100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 200]);
    expect(fetched.threads.find((t) => t.number === 200)?.isPull).toBe(true);
    expect(fetched.incompleteSlices).toEqual([]);
    expect(fetched.commentLists.find((l) => l.number === 101)?.comments.map((c) => c.body)).toEqual(['I bisected it to def456']);

    const queries = server.requests.filter((r) => r.path.startsWith('/search/issues')).map((r) => new URL(r.path, server.url).searchParams.get('q')!);
    const ranges = new Set(queries.map((q) => parseSearchQuery(q)).map((p) => `${p.from}..${p.to}`));
    expect(ranges.size).toBeGreaterThan(2); // the first slice was split
    expect(ranges.has('2021-01-01T00:00:00Z..null')).toBe(true);
    for (const q of queries) {
      expect(q.startsWith('repo:acme/search ')).toBe(true);
      expect(q.split(' OR ').length - 1).toBeLessThanOrEqual(5);
    }
    expect(server.unexpected).toEqual([]);
    store.close();
  });
});

describe('the token', () => {
  it('never reaches the database file, the logs or an export', async () => {
    const server = await startFakeGitHub(world(widgetRepo(), smallRepo('acme/broken')), {
      faults: [
        { match: 'GET /repos/acme/widget/pulls?', kind: 'secondary-rate-limit' },
        { match: 'GET /repos/acme/broken/issues?', kind: 'status', status: 401 },
      ],
    });
    servers.push(server);
    const dir = await tempDir();
    const dbFile = join(dir, 'r2v.db');
    const store = openStore(dbFile);
    let logs = '';
    const stream = new Writable({ write: (chunk, _e, done) => ((logs += String(chunk)), done()) });
    const ctx = discoverContext(store, {
      apiUrl: server.url,
      repos: ['acme/widget', 'acme/broken'],
      env: { GITHUB_TOKEN: TOKEN },
      log: createLogger({ stream, level: 'debug' }),
    });
    const results = await runDiscover(ctx, ['acme/widget']);
    expect(results).toEqual([{ key: 'acme/widget', status: 'done' }]);
    await expect(runDiscover(ctx, ['acme/broken'])).rejects.toMatchObject({ kind: 'auth' });
    const exportFile = join(dir, 'threads.jsonl');
    await writeFile(exportFile, exportThreads(store));
    store.close();

    // The token was really used, and the data really was written.
    expect(server.requests.every((r) => r.headers.authorization === `token ${TOKEN}`)).toBe(true);
    expect(logs).toContain('rate limit: waiting');
    expect(readFileSync(exportFile, 'utf8')).toContain('"number":300');
    const files = [dbFile, `${dbFile}-wal`, exportFile].filter((f) => existsSync(f));
    const haystack = Buffer.concat([...files.map((f) => readFileSync(f)), Buffer.from(logs)]);
    expect(haystack.length).toBeGreaterThan(100_000);
    expect(haystack.includes(Buffer.from(TOKEN))).toBe(false);
    expect(haystack.includes(Buffer.from(TOKEN.slice(4, 24)))).toBe(false);
  });
});
