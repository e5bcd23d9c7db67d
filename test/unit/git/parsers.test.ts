import { describe, expect, it } from 'vitest';
import { parseCommit } from '../../../src/git/batch.js';
import { parseHeader } from '../../../src/git/cat-file.js';
import { GitError, isTransientGitStderr, redactUrls, stderrTail } from '../../../src/git/errors.js';
import { mergesBranchIn } from '../../../src/backward/cutoff.js';
import { compareBytes, parseLsTree } from '../../../src/git/workflows.js';

const SHA = 'a'.repeat(40);

describe('parseCommit', () => {
  it('reads tree, parents, author, committer time, subject and message; skips signatures', () => {
    const raw = [
      `tree ${'1'.repeat(40)}`,
      `parent ${'2'.repeat(40)}`,
      `parent ${'3'.repeat(40)}`,
      'author Jane Q. Dev <jane@example.com> 1700000000 +0200',
      'committer Bot <bot@example.com> 1700000500 -0500',
      'gpgsig -----BEGIN PGP SIGNATURE-----',
      ' parent-looking line inside the signature',
      ' -----END PGP SIGNATURE-----',
      '',
      'Fix the widget',
      'across two lines',
      '',
      'Body text.',
      '',
    ].join('\n');
    expect(parseCommit(SHA, raw)).toEqual({
      sha: SHA,
      tree: '1'.repeat(40),
      parents: ['2'.repeat(40), '3'.repeat(40)],
      authorName: 'Jane Q. Dev',
      authorEmail: 'jane@example.com',
      authorTime: 1700000000,
      committerTime: 1700000500,
      subject: 'Fix the widget across two lines',
      message: 'Fix the widget\nacross two lines\n\nBody text.\n',
    });
  });

  it('handles a root commit with an empty message', () => {
    const c = parseCommit(SHA, `tree ${'1'.repeat(40)}\nauthor A <a@b> 5 +0000\ncommitter A <a@b> 6 +0000\n\n`);
    expect(c).toMatchObject({ parents: [], authorTime: 5, committerTime: 6, subject: '', message: '' });
  });
});

describe('parseHeader', () => {
  it.each([
    [`${SHA} commit 230`, { kind: 'object', sha: SHA, type: 'commit', size: 230 }],
    ['abc1 ambiguous', { kind: 'ambiguous', sha: null, type: null }],
    ['HEAD:nope missing', { kind: 'missing', sha: null, type: null }],
  ])('%s', (line, expected) => {
    expect(parseHeader(line, 'name')).toMatchObject({ name: 'name', ...expected });
  });

  it('rejects an answer it does not understand', () => {
    expect(() => parseHeader('garbage', 'x')).toThrow(/unexpected answer for "x": "garbage"/);
  });
});

describe('mergesBranchIn', () => {
  it.each([
    ["Merge branch 'main' into feature", true],
    ["Merge branch 'main' of github.com:acme/widgets", true],
    ["Merge remote-tracking branch 'origin/main' into fix-42", true],
    ["Merge remote-tracking branch 'upstream/main'", true],
    ["Merge branch 'feature' into main", false],
    ["Merge branch 'maintenance' into feature", false],
    ['Merge pull request #12 from dev/main', false],
    ['Refactor main loop', false],
  ])('%s → %s', (subject, expected) => {
    expect(mergesBranchIn(subject, 'main')).toBe(expected);
  });
});

describe('git errors', () => {
  it('classifies network failures as transient and keeps the stderr tail', () => {
    expect(isTransientGitStderr('fatal: unable to access \'https://x/\': Could not resolve host: x')).toBe(true);
    expect(isTransientGitStderr('fatal: repository not found')).toBe(false);
    // A source missing objects also ends in "early EOF", but a retry gets the same answer.
    expect(
      isTransientGitStderr('remote: aborting due to possible repository corruption on the remote side.\nfatal: early EOF\nfatal: fetch-pack: invalid index-pack output\n'),
    ).toBe(false);
    expect(stderrTail('a\n\nb\nc\nd\n')).toBe('b | c | d');
    expect(stderrTail('remote: aborting on the remote side.\u0000\nReceiving objects:  50%\rReceiving objects: 100%\u001b[K\nfatal: early EOF\n')).toBe(
      'remote: aborting on the remote side. | Receiving objects: 100% | fatal: early EOF',
    );
    const e = new GitError(['fetch', 'origin'], 128, 'error: RPC failed; curl 56\nfatal: early EOF\n');
    expect(e.kind).toBe('transient');
    expect(e.message).toBe('git fetch origin: exited with code 128: error: RPC failed; curl 56 | fatal: early EOF');
    expect(new GitError(['x'], null, '', { timedOut: true }).kind).toBe('timeout');
    expect(new GitError(['rev-parse'], 128, 'fatal: bad revision').kind).toBe('git');
  });

  it('never puts URL credentials into messages or recorded args', () => {
    expect(redactUrls('see https://x-access-token:ghp_abc123@github.com/a/b.git and http://u@h/x')).toBe('see https://github.com/a/b.git and http://h/x');
    const e = new GitError(['config', 'remote.origin.url', 'https://tok:ghp_secret@github.com/a/b.git'], 1, "fatal: unable to access 'https://tok:ghp_secret@github.com/a/b.git/'");
    expect(e.message).not.toContain('ghp_secret');
    expect(e.args.join(' ')).not.toContain('ghp_secret');
  });
});

describe('tree parsing', () => {
  it('parses ls-tree -z records and sorts byte-wise', () => {
    const out = `100644 blob ${SHA}\tb c.txt\0` + `160000 commit ${SHA}\tsub\0`;
    expect(parseLsTree(out)).toEqual([
      { mode: '100644', type: 'blob', oid: SHA, path: 'b c.txt' },
      { mode: '160000', type: 'commit', oid: SHA, path: 'sub' },
    ]);
    expect(['é', 'z', 'Z', 'a'].sort(compareBytes)).toEqual(['Z', 'a', 'z', 'é']);
  });
});
