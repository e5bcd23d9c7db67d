import { describe, expect, it } from 'vitest';
import { parsePullLine, parseThreadLine, threadLineRows } from '../../../src/github/import.js';

const issue = { number: 4, title: 't', body: null, user: { login: 'u' }, created_at: '2024-01-01T00:00:00Z', html_url: 'h' };

describe('thread lines', () => {
  it('needs only the fields r2v reads', () => {
    const r = parseThreadLine({ repo: 'o/r', issue, comments: [{ id: 1, user: { login: 'v' }, created_at: 'c', body: 'b' }] });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const rows = threadLineRows(r.value);
    expect(rows.thread).toMatchObject({ repo: 'o/r', number: 4, kind: 'issue', body: '', author: 'u', source: 'import' });
    expect(rows.comments).toEqual([{ repo: 'o/r', number: 4, commentId: 1, author: 'v', createdAt: 'c', updatedAt: null, body: 'b', htmlUrl: null }]);
  });

  it.each([
    [{ repo: 'o/r', issue: { ...issue, title: undefined } }, 'issue.title: Invalid input: expected string, received undefined'],
    [{ repo: 'o/r', issue: { ...issue, body: undefined } }, 'issue.body: Invalid input: expected string, received undefined'],
    [{ repo: 'o/r', issue, comments: [{ id: 1, user: { login: 'v' }, body: 'b' }] }, 'comments.0.created_at: Invalid input: expected string, received undefined'],
    [{ repo: 'o', issue }, 'repo: must be owner/name'],
    [[1, 2], '(root): Invalid input: expected object, received array'],
  ])('rejects %j', (value, reason) => {
    expect(parseThreadLine(value)).toEqual({ ok: false, reason });
  });

  it('rejects a pull request whose number differs from the issue', () => {
    const pull = { number: 5, title: 't', user: { login: 'u' }, state: 'closed', base: { ref: 'main', sha: 'a'.repeat(40) }, head: { sha: 'b'.repeat(40) }, created_at: 'c', html_url: 'h' };
    expect(parseThreadLine({ repo: 'o/r', issue, pull_request: pull })).toEqual({ ok: false, reason: 'pull_request.number 5 differs from issue.number 4' });
  });
});

describe('pull lines', () => {
  it('takes the repository from base.repo.full_name for a bare pull object', () => {
    const bare = { number: 5, title: 't', user: { login: 'u' }, state: 'closed', base: { ref: 'main', sha: 'a'.repeat(40), repo: { full_name: 'o/r' } }, head: { sha: 'b'.repeat(40) }, created_at: 'c', merged_at: 'm', html_url: 'h' };
    const r = parsePullLine(bare);
    expect(r.ok && r.value.repo).toBe('o/r');
    expect(parsePullLine({ ...bare, base: { ref: 'main', sha: 'short' } })).toEqual({ ok: false, reason: 'repo: Invalid input: expected string, received undefined' });
  });
});
