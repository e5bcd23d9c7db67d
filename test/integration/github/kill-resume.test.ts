import { execa } from 'execa';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/db.js';
import { tempDir } from '../../support/make-repo.js';
import { startFakeGitHub, type FakeGitHub } from '../../support/github-server.js';
import { count } from './helpers.js';
import { TOKEN, smallRepo, widgetRepo, world } from './world.js';

const CHILD = join(import.meta.dirname, '../../support/discover-child.ts');
const REPOS = ['acme/widget', 'acme/small'];
const servers: FakeGitHub[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

function runChild(db: string, url: string) {
  return execa('node', ['--import', 'tsx', CHILD, db, url, ...REPOS], {
    env: { R2V_TEST_TOKEN: TOKEN },
    reject: false,
  });
}

function coreRows(db: string): Record<string, unknown[]> {
  const store = openStore(db);
  try {
    const out: Record<string, unknown[]> = {};
    for (const [t, by] of [['repos', 'name'], ['threads', 'repo, number'], ['comments', 'repo, comment_id'], ['pulls', 'repo, number'], ['links', 'repo, issue, pull, how'], ['sync_cursors', 'repo, resource']] as const) {
      out[t] = store.db.prepare(`SELECT * FROM ${t} ORDER BY ${by}`).all();
    }
    return out;
  } finally {
    store.close();
  }
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('discover killed during pagination', () => {
  it('resumes to exactly the rows of an uninterrupted run', async () => {
    const server = await startFakeGitHub(world(widgetRepo(), smallRepo('acme/small')), {
      // Slow the first two pages so the kill lands while page 2 is in flight.
      faults: [{ match: 'GET /repos/acme/widget/issues?', kind: 'delay', delayMs: 1000, times: 2 }],
    });
    servers.push(server);
    const dir = await tempDir();
    const killedDb = join(dir, 'killed.db');
    const cleanDb = join(dir, 'clean.db');

    const child = runChild(killedDb, server.url);
    await until(() => server.requests.some((r) => r.path.includes('/repos/acme/widget/issues?') && r.path.includes('page=2')), 'page 2');
    child.kill('SIGKILL');
    const killed = await child;
    expect(killed.signal).toBe('SIGKILL');
    expect(server.requests.some((r) => r.path.includes('/repos/acme/widget/issues?') && r.path.includes('page=3'))).toBe(false);
    const partial = openStore(killedDb);
    expect(count(partial, 'threads')).toBe(0); // the item never reached save()
    partial.close();

    const resumed = await runChild(killedDb, server.url);
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stdout.trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([
      { key: 'acme/widget', status: 'done' },
      { key: 'acme/small', status: 'done' },
    ]);
    // Pages fetched before the kill were asked again conditionally and answered by 304s.
    const firstPages = server.requests.filter((r) => r.path === '/repos/acme/widget/issues?per_page=100&state=all&sort=updated&direction=asc');
    expect(firstPages.map((r) => r.status)).toEqual([200, 304]);

    const clean = await runChild(cleanDb, server.url);
    expect(clean.exitCode).toBe(0);
    const expected = coreRows(cleanDb);
    expect(expected.threads).toHaveLength(250 + 4 + 3 + 1);
    expect(coreRows(killedDb)).toEqual(expected);
    expect(server.unexpected).toEqual([]);
  });
});
