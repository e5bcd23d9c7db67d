import { describe, expect, it } from 'vitest';
import { parseChangedPaths } from '../../../src/commands/route.js';

describe('parseChangedPaths: paths as git prints them', () => {
  it.each(['./docs/index.md', '/src/app.py', 'docs/', 'src//app.py', 'src/../app.py'])('rejects %j, naming the file and line', (bad) => {
    expect(() => parseChangedPaths(`README.md\n${bad}\n`, '--changed-paths p.txt')).toThrow(
      `--changed-paths p.txt:2: ${JSON.stringify(bad)} is not a repository-relative path`,
    );
  });

  it('rejects a bad item of a JSON array, naming its position', () => {
    expect(() => parseChangedPaths('["a.txt", "./b.txt"]', '--changed-paths p.json')).toThrow(
      '--changed-paths p.json: item 2: "./b.txt" is not a repository-relative path',
    );
  });

  it('keeps dot files, dots inside names and non-ASCII names', () => {
    expect(parseChangedPaths('.github/workflows/ci.yml\r\ndocs/zh-CN/功能.md\na..b/.x\n', 'f')).toEqual([
      '.github/workflows/ci.yml',
      'docs/zh-CN/功能.md',
      'a..b/.x',
    ]);
  });
});
