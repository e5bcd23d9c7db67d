import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { findCommitPrefixCollision, gitObjectDigest, gitObjectId } from '../../../src/git/object-id.js';

describe('git object ids', () => {
  it('gives the well-known ids of the empty blob and the empty tree', () => {
    expect(gitObjectId('blob', '')).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    expect(gitObjectDigest('tree', Buffer.alloc(0)).toString('hex')).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
  });

  it('agrees with git hash-object on a UTF-8 body', async () => {
    const text = 'héllo, wörld\n';
    const r = await execa('git', ['hash-object', '--stdin'], { input: text, env: { LC_ALL: 'C' } });
    expect(gitObjectId('blob', text)).toBe(r.stdout.trim());
    expect(gitObjectId('blob', Buffer.from(text, 'utf8'))).toBe(r.stdout.trim());
  });
});

describe('findCommitPrefixCollision', () => {
  const body = (i: number): string => `tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n\nattempt ${i}\n`;

  it('returns two different bodies whose commit ids share the prefix', () => {
    const found = findCommitPrefixCollision(body, 3);
    expect(found).not.toBeNull();
    const [a, b] = found!.bodies;
    expect(a).not.toBe(b);
    expect(found!.prefix).toHaveLength(3);
    expect(gitObjectId('commit', a).slice(0, 3)).toBe(found!.prefix);
    expect(gitObjectId('commit', b).slice(0, 3)).toBe(found!.prefix);
  });

  it('passes over collisions whose prefix is refused, and gives up at the limit', () => {
    const refused = new Set<string>();
    const found = findCommitPrefixCollision(body, 2, { accept: (p) => (/^\d+$/.test(p) ? true : (refused.add(p), false)) });
    expect(found!.prefix).toMatch(/^\d\d$/);
    expect(refused.size).toBeGreaterThan(0);
    expect(findCommitPrefixCollision(body, 2, { accept: () => false, limit: 2_000 })).toBeNull();
    expect(findCommitPrefixCollision(body, 12, { limit: 50 })).toBeNull();
  });
});
