import { afterEach, describe, expect, it } from 'vitest';
import { extractAttributions } from '../../../src/backward/attribute.js';
import { screenThread } from '../../../src/backward/attribution-screen.js';
import { threadFromRows } from '../../../src/backward/thread.js';
import { nameOfRepoUrl, repositoryAliases } from '../../../src/github/identity.js';
import { findClosingReferences } from '../../../src/github/links.js';
import { sanitizeReport } from '../../../src/sanitize/index.js';
import { openStore, type Store } from '../../../src/store/db.js';
import { discoverContext, runDiscover } from '../../support/discover-child.js';
import { startFakeGitHub, type FakeGitHub } from '../../support/github-server.js';
import { pull, TOKEN, world } from './world.js';

const FULL = '5d41402abc4b2a76b9719d911017c592a1b2c3d4';
const open: FakeGitHub[] = [];
const stores: Store[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!.close();
  while (stores.length > 0) stores.pop()!.close();
});

describe('a repository renamed on GitHub, discovered under its former name', () => {
  it('follows the 301, records the current name, and treats both names as one repository downstream', async () => {
    const server = await startFakeGitHub(
      world({
        name: 'newco/widget',
        former_names: ['oldco/widget'],
        issues: [
          {
            number: 1,
            title: 'Export writes empty files since the stream rewrite',
            body: 'Exporting any project to CSV now writes a zero-byte file; 2.3 wrote the rows.',
            user: 'reporter',
            state: 'open',
            created_at: '2024-03-01T00:00:00Z',
            updated_at: '2024-03-02T00:00:00Z',
            closed_at: null,
            comments: [{ id: 501, user: 'helper', created_at: '2024-03-02T00:00:00Z', body: `I bisected it: the culprit is https://github.com/newco/widget/commit/${FULL}.` }],
          },
        ],
        pulls: [pull(10, { body: 'Fixes newco/widget#1' })],
      }),
    );
    open.push(server);
    const store = openStore(':memory:');
    stores.push(store);
    const ctx = discoverContext(store, { apiUrl: server.url, repos: ['oldco/widget'], env: { GITHUB_TOKEN: TOKEN }, mode: 'sync' });
    expect(await runDiscover(ctx, ['oldco/widget'])).toEqual([{ key: 'oldco/widget', status: 'done' }]);
    expect(server.unexpected).toEqual([]);

    // The first request under the former name was redirected; the rest went to the current name.
    const repoCalls = server.requests.filter((r) => /^\/repos\/[^/]+\/widget(?:\?|$)/.test(r.path));
    expect(repoCalls.map((r) => [r.path.split('?')[0], r.status])).toEqual([
      ['/repos/oldco/widget', 301],
      ['/repos/newco/widget', 200],
    ]);
    expect(server.requests.filter((r) => r.path.startsWith('/repos/oldco/') && r.path !== '/repos/oldco/widget')).toEqual([]);

    // Rows stay under the configured name; the current name is recorded with them.
    const sources = store.sources;
    const row = sources.repo('oldco/widget');
    expect(row?.htmlUrl).toBe('https://github.com/newco/widget');
    expect(nameOfRepoUrl(row?.htmlUrl)).toBe('newco/widget');
    expect(sources.threads('oldco/widget').map((t) => t.number)).toEqual([1, 10]);
    // "Fixes newco/widget#1" links the pull request under the current name.
    expect(sources.links('oldco/widget').map((l) => [l.pull, l.issue, l.how])).toEqual([[10, 1, 'keyword-body']]);

    const aliases = repositoryAliases('oldco/widget', [], row?.htmlUrl);
    expect(aliases).toEqual(['newco/widget']);
    const thread = threadFromRows(sources.thread('oldco/widget', 1)!, sources.comments('oldco/widget', 1), aliases);
    const attributions = extractAttributions(thread);
    expect(attributions.map((a) => a.ref.value)).toEqual([FULL]);
    // Screening sees no other repository, and sanitization deletes the URL under the current name.
    expect(screenThread(thread, attributions).reasons.map((r) => r.code)).not.toContain('cross-repository');
    const out = sanitizeReport(thread, attributions, { repo: 'oldco/widget', aliases, isCommitPrefix: (h) => FULL.startsWith(h) });
    expect(out.text).not.toContain('newco/widget/commit');
    expect(out.text).toContain('zero-byte file');

    // Without the recorded name the same URL is another repository's.
    const bare = threadFromRows(sources.thread('oldco/widget', 1)!, sources.comments('oldco/widget', 1), []);
    expect(screenThread(bare, extractAttributions(bare)).reasons.map((r) => r.code)).toContain('cross-repository');
  });
});

describe('repository identity helpers', () => {
  it('reads owner/name from a repository page URL on any host', () => {
    expect(nameOfRepoUrl('https://github.com/newco/widget')).toBe('newco/widget');
    expect(nameOfRepoUrl('https://ghe.example.com/team/tool.git')).toBe('team/tool');
    expect(nameOfRepoUrl('https://github.com/newco/widget/issues/3')).toBeNull();
    expect(nameOfRepoUrl(null)).toBeNull();
  });
  it('lists configured former names and a differing current name once, never the repository itself', () => {
    expect(repositoryAliases('oldco/widget', ['older/widget', 'OLDCO/widget'], 'https://github.com/newco/widget')).toEqual(['older/widget', 'newco/widget']);
    expect(repositoryAliases('acme/widget', [], 'https://github.com/Acme/Widget')).toEqual([]);
  });
  it('closing references accept any name of the repository', () => {
    expect(findClosingReferences('Fixes oldco/widget#4 and closes newco/widget#5, not other/x#6', ['newco/widget', 'oldco/widget']).map((r) => r.issue)).toEqual([4, 5]);
  });
});
