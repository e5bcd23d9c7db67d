import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfigText, repoNameProblem } from '../../../src/config.js';
import { mirrorDir } from '../../../src/git/mirror.js';
import { parseThreadLine } from '../../../src/github/import.js';
import { runCliCaptured } from '../../support/cli.js';
import { cleanupTempDirs, tempDir } from '../../support/make-repo.js';

afterAll(async () => {
  await cleanupTempDirs();
});

const BAD: readonly [string, RegExp][] = [
  ['x/..', /path step/],
  ['x/.', /path step/],
  ['a/.git', /ends in \.git/],
  ['a/repo.GIT', /ends in \.git/],
  ['../x', /must be owner\/name/],
  ['a/b/c', /must be owner\/name/],
];

describe('repository names', () => {
  it.each(BAD)('%s is refused by the one rule', (name, why) => {
    expect(repoNameProblem(name)).toMatch(why);
    expect(() => mirrorDir('/data', name)).toThrow(why);
  });

  it.each(['acme/widget', 'a.b/c.d', 'x/..y', 'x/.github', 'o/git'])('%s is accepted', (name) => {
    expect(repoNameProblem(name)).toBeNull();
  });

  it.each(BAD)('repo add %s prints one line, exits 2 and leaves the config alone', async (name) => {
    const dir = await tempDir();
    expect((await runCliCaptured(['init'], dir)).code).toBe(0);
    const before = readFileSync(join(dir, 'r2v.config.yaml'), 'utf8');
    const r = await runCliCaptured(['repo', 'add', name], dir);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(name);
    expect(readFileSync(join(dir, 'r2v.config.yaml'), 'utf8')).toBe(before);
  });

  it('a config naming evil/.. is a config error naming the field', async () => {
    expect(() => parseConfigText('repos:\n  - name: evil/..\n', 'r2v.config.yaml')).toThrow(/repos\.0\.name.*path step/);
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), 'repos:\n  - name: evil/..\n');
    const r = await runCliCaptured(['status'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/path step/);
  });

  it('an import line for evil/.. is refused with its reason', () => {
    const line = { repo: 'evil/..', issue: { number: 1, title: 't', body: null, user: { login: 'u' }, state: 'open', created_at: '2024-01-01T00:00:00Z', updated_at: '2024-01-01T00:00:00Z', html_url: 'https://github.com/evil/x/issues/1' } };
    const r = parseThreadLine(line);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.reason).toMatch(/^repo: .*path step/);
  });
});
