import { describe, expect, it } from 'vitest';
import { resolveGitUrl } from '../../../src/run/context.js';

describe('resolveGitUrl', () => {
  it.each([
    [undefined, undefined],
    ['https://github.com/o/n.git', 'https://github.com/o/n.git'],
    ['file:///srv/n.git', 'file:///srv/n.git'],
    ['git@github.com:o/n.git', 'git@github.com:o/n.git'],
    ['/srv/mirrors/n.git', '/srv/mirrors/n.git'],
    ['remotes/n.git', '/work/project/remotes/n.git'],
    ['../n.git', '/work/n.git'],
  ])('%s → %s (config in /work/project)', (input, expected) => {
    expect(resolveGitUrl(input, '/work/project')).toBe(expected);
  });
});
