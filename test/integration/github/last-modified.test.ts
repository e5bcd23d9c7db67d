import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../../src/github/client.js';
import { openStore } from '../../../src/store/db.js';
import { FAST_CLIENT } from '../../support/discover-child.js';
import { TOKEN } from './world.js';

const LAST_MODIFIED = 'Tue, 02 Jan 2024 03:04:05 GMT';
const REPO = { full_name: 'o/r', default_branch: 'trunk', fork: false, parent: null, html_url: 'https://github.com/o/r', created_at: '2020-01-01T00:00:00Z' };

describe('conditional requests by Last-Modified (no ETag)', () => {
  it('keeps Last-Modified in the database, sends If-Modified-Since, and reuses the stored body on a 304', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      if (req.method !== 'GET' || req.url !== '/repos/o/r') {
        res.writeHead(404).end();
        return;
      }
      const base = { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4999', 'x-ratelimit-reset': '9999999999', 'last-modified': LAST_MODIFIED };
      if (req.headers['if-modified-since'] === LAST_MODIFIED) {
        res.writeHead(304, base).end();
        return;
      }
      res.writeHead(200, { ...base, 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(REPO));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const store = openStore(':memory:');
    try {
      const client = createGitHubClient({ apiUrl: url, token: TOKEN, recorder: store.github, ...FAST_CLIENT });
      const expected = { name: 'o/r', defaultBranch: 'trunk', isFork: false, parent: null };
      expect(await client.port({ stage: 'discover', repo: 'o/r' }).getRepository('o/r')).toMatchObject(expected);
      const row = store.db.prepare('SELECT etag, last_modified FROM http_cache').all();
      expect(row).toEqual([{ etag: null, last_modified: LAST_MODIFIED }]);
      expect(seen[0]!['if-modified-since']).toBeUndefined();

      // A second client over the same database: the answer comes from the stored body.
      const again = createGitHubClient({ apiUrl: url, token: TOKEN, recorder: store.github, ...FAST_CLIENT });
      expect(await again.port({ stage: 'discover', repo: 'o/r' }).getRepository('o/r')).toMatchObject(expected);
      expect(seen).toHaveLength(2);
      expect(seen[1]!['if-modified-since']).toBe(LAST_MODIFIED);
      expect(seen[1]!['if-none-match']).toBeUndefined();
      expect(store.github.budget().find((b) => b.repo === 'o/r')).toMatchObject({ requests: 2, notModified: 1 });
    } finally {
      store.close();
      await new Promise((r) => server.close(r));
    }
  });
});
