import type { FakeIssue, FakePull, FakeRepo, FakeWorld } from '../../support/github-server.js';

export const TOKEN = 'ghp_r2vTestSecretToken0123456789abcdef';

const sha = (n: number, salt = 'a'): string => `${salt}${n.toString(16).padStart(39, '0')}`.slice(0, 40);
const at = (minutes: number): string => new Date(Date.UTC(2021, 0, 1) + minutes * 60_000).toISOString().replace('.000Z', 'Z');

/** `count` issues (#1…#count), one comment on every fifth, created a minute apart. */
export function manyIssues(count: number, text = 'Something broke'): FakeIssue[] {
  return Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    return {
      number: n,
      title: `Issue ${n}`,
      body: `${text} (${n})`,
      user: `user${n % 7}`,
      state: n % 3 === 0 ? 'closed' : 'open',
      created_at: at(n),
      updated_at: at(n + 1),
      closed_at: n % 3 === 0 ? at(n + 2) : null,
      comments: n % 5 === 0 ? [{ id: 10_000 + n, user: 'commenter', created_at: at(n + 1), body: `comment on ${n}` }] : [],
    };
  });
}

export function pull(number: number, fields: Partial<FakePull> = {}): FakePull {
  return {
    number,
    title: `PR ${number}`,
    body: '',
    user: 'dev',
    state: 'closed',
    base_ref: 'main',
    base_sha: sha(number, 'b'),
    head_sha: sha(number, 'c'),
    merge_commit_sha: sha(number, 'd'),
    created_at: at(10_000 + number),
    updated_at: at(10_100 + number),
    merged_at: at(10_050 + number),
    commits: [{ sha: sha(number, 'e'), message: `change for ${number}` }],
    ...fields,
  };
}

/**
 * acme/widget: 250 issues (3 pages of 100) and four pull requests:
 * #300 "Fixes #1, closes #2" (GraphQL also says #1; issue #5 cross-references it),
 * #301 only a back-quoted keyword, #302 not merged, #303 "resolve #4" in a commit message.
 */
export function widgetRepo(): FakeRepo {
  return {
    name: 'acme/widget',
    default_branch: 'main',
    fork: true,
    parent: 'upstream/widget',
    created_at: '2020-06-01T00:00:00Z',
    issues: manyIssues(250),
    pulls: [
      pull(300, {
        title: 'Repair start-up',
        body: 'Fixes #1, closes #2',
        closing_issues: [1],
        timeline: [{ event: 'cross-referenced', created_at: at(20_000), source_number: 5 }],
      }),
      pull(301, { title: 'Docs', body: 'Write `fixes #3` in the PR body to close an issue.' }),
      pull(302, { title: 'Abandoned', body: 'fixes #6', merged_at: null, merge_commit_sha: null }),
      pull(303, { title: 'Refactor', commits: [{ sha: sha(303, 'e'), message: 'Tidy up\n\nresolve #4' }] }),
    ],
  };
}

export function smallRepo(name: string): FakeRepo {
  return {
    name,
    default_branch: 'trunk',
    issues: manyIssues(3),
    pulls: [pull(10, { body: 'fix #2' })],
  };
}

export function world(...repos: FakeRepo[]): FakeWorld {
  return { repos };
}
