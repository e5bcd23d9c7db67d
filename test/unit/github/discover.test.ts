import { describe, expect, it } from 'vitest';
import { advanceCursor, linksForPull, mergeLinks, SEARCH_QUERIES, BISECT_TERMS, type PullFetch } from '../../../src/github/discover.js';
import { graphqlUrlFor, requestLabel, tokenFrom } from '../../../src/github/client.js';
import { toGitHubError } from '../../../src/github/errors.js';
import { parseSearchQuery } from '../../../src/github/fake-server.js';
import { parseLooseArray, RestComment } from '../../../src/github/schema.js';

const pr = (fields: Partial<PullFetch['pull']> = {}): PullFetch['pull'] => ({
  number: 9, title: '', body: '', author: 'a', state: 'closed', draft: false, baseRef: 'main', baseSha: 'a'.repeat(40),
  headRef: 'f', headSha: 'b'.repeat(40), mergeCommitSha: null, createdAt: 't', updatedAt: null, mergedAt: 't', htmlUrl: 'u', ...fields,
});

describe('advanceCursor (lagged by one change)', () => {
  it.each([
    ['first run', { since: null, next: null }, false, ['2024-01-02', '2024-01-03'], { since: null, next: '2024-01-03' }],
    ['unchanged keeps the URL', { since: null, next: '2024-01-03' }, true, [], { since: null, next: '2024-01-03' }],
    ['a change moves since to the previous newest', { since: null, next: '2024-01-03' }, false, ['2024-01-05'], { since: '2024-01-03', next: '2024-01-05' }],
    ['an empty changed page keeps next', { since: 'x', next: '2024-01-05' }, false, [], { since: '2024-01-05', next: '2024-01-05' }],
  ] as const)('%s', (_name, prev, unchanged, times, expected) => {
    expect(advanceCursor(prev, unchanged, times)).toEqual(expected);
  });
});

describe('links of a pull request', () => {
  it('records every way a link was found, merges evidence and drops self-references', () => {
    const rows = linksForPull('o/r', {
      pull: pr({ title: 'Fix #1', body: 'Fixes #1, closes #2 and fixes #9; not `closes #3`' }),
      commits: [{ sha: 'c'.repeat(40), message: 'fix #2' }, { sha: 'd'.repeat(40), message: 'also fix #2' }],
      closing: [1],
      crossReferences: [{ source: 4, sourceIsPull: false, createdAt: null }, { source: 5, sourceIsPull: true, createdAt: null }],
    });
    expect(rows.map((r) => [r.issue, r.how, r.evidence])).toEqual([
      [1, 'closing-references', 'closingIssuesReferences'],
      [1, 'keyword-body', 'Fixes #1'],
      [1, 'keyword-title', 'Fix #1'],
      [2, 'keyword-body', 'closes #2'],
      [2, 'keyword-commit', 'cccccccccccc: fix #2 | dddddddddddd: fix #2'],
      [4, 'timeline', 'cross-referenced from #4'],
    ]);
  });

  it('mergeLinks keeps distinct evidence once', () => {
    expect(mergeLinks('o/r', 3, [{ issue: 1, how: 'h', evidence: 'x' }, { issue: 1, how: 'h', evidence: 'x' }])).toEqual([{ repo: 'o/r', issue: 1, pull: 3, how: 'h', evidence: 'x' }]);
  });
});

describe('search vocabulary', () => {
  it('covers every term with at most five operators per query', () => {
    expect(SEARCH_QUERIES.join(' OR ').split(' OR ')).toEqual([...BISECT_TERMS]);
    for (const q of SEARCH_QUERIES) expect(q.split(' OR ').length - 1).toBeLessThanOrEqual(5);
  });

  it('the fake parses repo, created ranges, phrases and OR', () => {
    expect(parseSearchQuery('repo:A/b "first bad commit" OR bisected created:2021-01-01T00:00:00Z..*')).toEqual({
      repo: 'a/b', kind: null, from: '2021-01-01T00:00:00Z', to: null, groups: [['first bad commit'], ['bisected']],
    });
  });
});

describe('client helpers', () => {
  it.each([
    ['https://api.github.com', undefined, 'https://api.github.com/graphql'],
    ['https://ghe.example.com/api/v3/', undefined, 'https://ghe.example.com/api/graphql'],
    ['http://127.0.0.1:9', 'http://127.0.0.1:9/gql', 'http://127.0.0.1:9/gql'],
  ])('graphql URL of %s', (api, explicit, expected) => {
    expect(graphqlUrlFor(api, explicit)).toBe(expected);
  });

  it('labels requests by method and path only', () => {
    expect(requestLabel('GET', 'https://api.github.com/repos/o/r/issues?page=2')).toBe('GET /repos/o/r/issues?page=2');
  });

  it('reads the token from the given environment only', () => {
    expect(tokenFrom({ MY_TOKEN: ' abc ' }, 'MY_TOKEN', 'discover')).toBe('abc');
    expect(() => tokenFrom({}, 'MY_TOKEN', 'discover')).toThrow(/^MY_TOKEN is not set: discover needs a token/);
  });

  it('classifies API errors without copying request headers', () => {
    const err = (status: number, message: string, headers: Record<string, string> = {}) => ({
      status, message, request: { headers: { authorization: 'token SECRET' } }, response: { headers },
    });
    expect(toGitHubError(err(401, 'Bad credentials'), 'GET /x', 0)).toMatchObject({ kind: 'auth', message: 'GET /x: GitHub refused the token (401 Bad credentials)' });
    expect(toGitHubError(err(404, 'Not Found'), 'GET /x', 0)).toMatchObject({ kind: 'not-found', message: 'GET /x: not found (404)' });
    expect(toGitHubError(err(502, 'Bad Gateway'), 'GET /x', 3)).toMatchObject({ kind: 'transient', message: 'GET /x: server error 502 after 3 retries' });
    expect(toGitHubError(err(403, 'You have exceeded a secondary rate limit'), 'GET /x', 3)).toMatchObject({ kind: 'rate-limit' });
    expect(toGitHubError(err(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '0' }), 'GET /x', 1).message).toBe(
      'GET /x: rate limit exhausted (resets at 1970-01-01T00:00:00.000Z), gave up after 1 retries',
    );
    expect(JSON.stringify(toGitHubError(err(500, 'x'), 'GET /x', 0).message)).not.toContain('SECRET');
  });
});

describe('schema', () => {
  it('drops and counts invalid list elements instead of failing the page', () => {
    const r = parseLooseArray(RestComment, [
      { id: 1, user: { login: 'a' }, created_at: 't', body: 'x' },
      { id: 'two', user: { login: 'a' }, created_at: 't', body: 'x' },
      null,
    ]);
    expect(r.items.map((c) => c.id)).toEqual([1]);
    expect(r.dropped).toBe(2);
  });
});

describe('GraphQL errors', () => {
  it('become item failures naming the request', () => {
    const e = Object.assign(new Error('Request failed due to following response errors'), {
      errors: [{ type: 'NOT_FOUND', message: 'Could not resolve to a Repository' }],
      response: { data: null },
    });
    expect(toGitHubError(e, 'POST /graphql', 0)).toMatchObject({ kind: 'not-found', message: 'POST /graphql: GraphQL error NOT_FOUND: Could not resolve to a Repository' });
  });
});
