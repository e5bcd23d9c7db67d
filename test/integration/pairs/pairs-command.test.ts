import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/db.js';
import { runCliCaptured as cli } from '../../support/cli.js';
import { tempDir } from '../../support/make-repo.js';
import { buildWorld, REPO } from './world.js';

/** A directory with the world of PRs 11 and 12 in data/r2v.db and a config naming its repository with `testCommand`. */
async function worldDir(testCommand: string, extra: readonly string[] = []): Promise<string> {
  const dir = await tempDir('r2v-pairs-cli-');
  const store = openStore(join(dir, 'data', 'r2v.db'));
  const world = await buildWorld(store, { only: [11, 12] });
  store.close();
  writeFileSync(
    join(dir, 'r2v.config.yaml'),
    [...extra, 'repos:', `  - name: ${REPO}`, `    git_url: ${JSON.stringify(world.repo.dir)}`, `    test_command: ${JSON.stringify(testCommand)}`, ''].join('\n'),
  );
  return dir;
}

describe('r2v pairs commands', () => {
  it('run --stage pairs, then list, show and export; bad input gets one line and exit 2', async () => {
    const dir = await worldDir('sh run-test.sh {tests}', ['data_dir: data', 'pairs:', '  window_days: 0', '  repeats: 2']);

    const run = await cli(['--quiet', 'run', '--stage', 'pairs'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);

    const list = await cli(['pairs', 'list'], dir);
    expect(list).toEqual({ code: 0, stdout: `${REPO}#11+12\tvalid\tcontrol\t-\n`, stderr: '' });

    const show = await cli(['pairs', 'show', `${REPO}#11+12`], dir);
    expect(show.code).toBe(0);
    const shown = JSON.parse(show.stdout) as { tier: string; pr_a: number; members: { pr: number; fail_to_pass: string[] }[]; runs: unknown[] };
    expect(shown.tier).toBe('control');
    expect(shown.pr_a).toBe(11); // snake_case keys, as the manifests
    expect(show.stdout).not.toMatch(/"[a-z]+[A-Z][A-Za-z]*":/);
    expect(shown.members.map((m) => [m.pr, m.fail_to_pass])).toEqual([
      [11, ['test/one.test.sh']],
      [12, ['test/two.test.sh']],
    ]);
    expect(shown.runs).toHaveLength(12);

    const exp = await cli(['pairs', 'export', '--out', 'out/pairs'], dir);
    expect(exp.code).toBe(0);
    expect(JSON.parse(exp.stdout)).toMatchObject({ out: join(dir, 'out/pairs'), coupled: 0, control: 1, rejected: 0 });
    expect(readFileSync(join(dir, 'out/pairs/instances/acme__widgets.jsonl'), 'utf8')).toBe('');
    expect(readFileSync(join(dir, 'out/pairs/control.jsonl'), 'utf8')).toMatch(/^\{"base_commit":"[0-9a-f]{40}","id":"acme__widgets__11_12",/);

    // Bad inputs: one line naming the input, exit 2, nothing written.
    const unknownRepo = await cli(['pairs', 'export', '--out', 'other', '--repo', 'acme/nope'], dir);
    expect(unknownRepo).toEqual({ code: 2, stdout: '', stderr: 'r2v: --repo acme/nope: unknown repository (not in the config)\n' });
    expect(existsSync(join(dir, 'other'))).toBe(false);
    const badRepo = await cli(['pairs', 'list', '--repo', 'not-a-repo'], dir);
    expect(badRepo).toEqual({ code: 2, stdout: '', stderr: 'r2v: --repo not-a-repo: must be owner/name\n' });
    const noPair = await cli(['pairs', 'show', `${REPO}#1+99`], dir);
    expect(noPair.code).toBe(2);
    expect(noPair.stderr).toBe(`r2v: ${REPO}#1+99: no such pair (keys look like owner/name#A+B; see r2v pairs list)\n`);
    writeFileSync(join(dir, 'a-file'), 'x');
    const outIsFile = await cli(['pairs', 'export', '--out', 'a-file'], dir);
    expect(outIsFile).toEqual({ code: 2, stdout: '', stderr: 'r2v: --out a-file: exists and is not a directory\n' });
    expect(readFileSync(join(dir, 'a-file'), 'utf8')).toBe('x');
  });

  it('rejects a test command without {tests} as a config error naming the repository', async () => {
    const dir = await worldDir('npm test');
    const run = await cli(['--quiet', 'run', '--stage', 'pairs'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`r2v: repos.${REPO}.test_command: must contain {tests} (replaced by the test ids), got "npm test"\n`);
  });
});
