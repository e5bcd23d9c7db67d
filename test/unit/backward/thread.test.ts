import { describe, expect, it } from 'vitest';
import { threadFromImport, threadFromRows } from '../../../src/backward/thread.js';
import { ValidationError } from '../../../src/errors.js';
import { openStore } from '../../../src/store/db.js';

const line = {
  repo: 'acme/widget',
  issue: { number: 7, title: 'Blank page', body: 'It renders nothing.', user: { login: 'ann' }, created_at: '2024-05-01T10:00:00Z', html_url: 'https://github.com/acme/widget/issues/7' },
  comments: [
    { id: 31, user: { login: 'cid' }, created_at: '2024-05-03T10:00:00Z', body: 'third', html_url: 'https://github.com/acme/widget/issues/7#issuecomment-31' },
    { id: 30, user: { login: 'bob' }, created_at: '2024-05-02T10:00:00Z', body: 'second' },
  ],
};

describe('threadFromImport', () => {
  it('puts the issue body first and the comments in time order', () => {
    const t = threadFromImport(line);
    expect(t).toMatchObject({ repo: 'acme/widget', number: 7, title: 'Blank page', author: 'ann', createdAt: '2024-05-01T10:00:00Z' });
    expect(t.posts.map((p) => [p.index, p.id, p.author, p.body, p.url])).toEqual([
      [0, null, 'ann', 'It renders nothing.', 'https://github.com/acme/widget/issues/7'],
      [1, 30, 'bob', 'second', null],
      [2, 31, 'cid', 'third', 'https://github.com/acme/widget/issues/7#issuecomment-31'],
    ]);
  });

  it('accepts a null body and a deleted user', () => {
    const t = threadFromImport({ ...line, issue: { ...line.issue, body: null, user: null }, comments: [] });
    expect(t.posts).toEqual([{ index: 0, id: null, author: 'ghost', createdAt: '2024-05-01T10:00:00Z', body: '', url: 'https://github.com/acme/widget/issues/7' }]);
  });

  it.each([
    ['a missing repo', { issue: line.issue, comments: [] }, 'thread import: repo: '],
    ['a bad repo name', { ...line, repo: 'widget' }, 'thread import: repo: must be owner/name'],
    ['a missing issue number', { ...line, issue: { ...line.issue, number: undefined } }, 'thread import: issue.number: '],
    ['a bad timestamp', { ...line, issue: { ...line.issue, created_at: 'yesterday' } }, 'thread import: issue.created_at: not a timestamp'],
    ['a comment without id', { ...line, comments: [{ created_at: '2024-05-02T10:00:00Z', body: 'x' }] }, 'thread import: comments.0.id: '],
    ['not an object', 'hello', 'thread import: line: '],
  ])('rejects %s', (_name, input, message) => {
    expect(() => threadFromImport(input)).toThrow(ValidationError);
    expect(() => threadFromImport(input)).toThrow(message);
  });
});

describe('threadFromRows', () => {
  it('builds the thread from stored rows, comments in time order', () => {
    const store = openStore(':memory:');
    const sources = store.sources;
    sources.upsertThread({
      repo: 'acme/widget', number: 7, kind: 'issue', title: 'Blank page', body: 'It renders nothing.', author: 'ann', state: 'open',
      createdAt: '2024-05-01T10:00:00Z', updatedAt: null, closedAt: null, htmlUrl: 'https://github.com/acme/widget/issues/7', source: 'import',
    });
    const comment = (commentId: number, author: string, createdAt: string, body: string) =>
      ({ repo: 'acme/widget', number: 7, commentId, author, createdAt, updatedAt: null, body, htmlUrl: null });
    sources.replaceComments('acme/widget', 7, [comment(41, 'cid', '2024-05-03T00:00:00Z', 'third'), comment(40, 'bob', '2024-05-02T00:00:00Z', 'second')]);
    const t = threadFromRows(sources.thread('acme/widget', 7)!, [...sources.comments('acme/widget', 7)].reverse());
    expect(t.url).toBe('https://github.com/acme/widget/issues/7');
    expect(t.posts.map((p) => [p.index, p.id, p.author, p.body])).toEqual([
      [0, null, 'ann', 'It renders nothing.'],
      [1, 40, 'bob', 'second'],
      [2, 41, 'cid', 'third'],
    ]);
    store.close();
  });
});
