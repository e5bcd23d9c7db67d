import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parseChangedPaths } from '../../../src/commands/route.js';
import { runCliCaptured as run } from '../../support/cli.js';
import { makeRepo, tempDir } from '../../support/make-repo.js';

const JOB = 'jobs:\n  t:\n    runs-on: ubuntu-latest\n';
const BIN = fileURLToPath(new URL('../../../bin/r2v.js', import.meta.url));

const caseLine = (id: string, workflows: Record<string, string>, changed: string[], context: Record<string, unknown> = {}) =>
  JSON.stringify({ id, workflows, changed_paths: changed, context: { event: 'pull_request', action: 'synchronize', base_branch: 'main', ...context } });

describe('r2v route --cases', () => {
  it('writes one output line per case, in input order, with the documented keys', async () => {
    const dir = await tempDir();
    const docs = `on:\n  pull_request:\n    paths: ['docs/**']\n${JOB}`;
    const lines = [
      caseLine('one', { '.github/workflows/docs.yml': docs, '.github/workflows/bad.yml': `on: pull_request\nfoo: 1\n${JOB}` }, ['docs/a.md']),
      caseLine('two', { '.github/workflows/docs.yml': docs }, ['src/a.ts']),
    ];
    await writeFile(join(dir, 'cases.jsonl'), `${lines.join('\n')}\n`);
    const r = await run(['route', '--cases', 'cases.jsonl'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      '{"id":"one","activated":[".github/workflows/docs.yml"],"invalid":[{"path":".github/workflows/bad.yml","reason":"unknown-root-key: unexpected key \'foo\' at the top level"}],"evaluator":"routing/1"}\n' +
        '{"id":"two","activated":[],"invalid":[],"evaluator":"routing/1"}\n',
    );
  });

  it('reports bad lines as FILE:LINE: reason, keeps going, and exits 3', async () => {
    const dir = await tempDir();
    const good = caseLine('ok', { '.github/workflows/ci.yml': `on: pull_request\n${JOB}` }, ['a']);
    const content = [good, '{"id": "x"', caseLine('push', {}, [], { event: 'push' }), JSON.stringify({ id: 'y', workflows: {}, changed_paths: 'a', context: {} }), good].join('\n');
    await writeFile(join(dir, 'in.jsonl'), content);
    const r = await run(['route', '--cases', 'in.jsonl'], dir);
    expect(r.code).toBe(3);
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    const errors = r.stderr.trim().split('\n');
    expect(errors[0]).toMatch(/^in\.jsonl:2: malformed JSON/);
    expect(errors[1]).toMatch(/^in\.jsonl:3: context\.event: /);
    expect(errors[2]).toMatch(/^in\.jsonl:4: changed_paths: /);
    expect(errors[3]).toBe('r2v route: 3 bad input lines in in.jsonl');
  });

  it('reads cases from stdin with --cases - (real process)', async () => {
    const input = `${caseLine('s', { '.github/workflows/ci.yml': `on: [pull_request_target]\n${JOB}` }, [], { merge_conflict: true })}\n`;
    const r = await execa('node', [BIN, 'route', '--cases', '-'], { input, reject: false, env: { LC_ALL: 'C' } });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('{"id":"s","activated":[".github/workflows/ci.yml"],"invalid":[],"evaluator":"routing/1"}');
  });

  it('a missing cases file is a usage error naming the file', async () => {
    const dir = await tempDir();
    const r = await run(['route', '--cases', 'nope.jsonl'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/nope\.jsonl: cannot read: ENOENT/);
    expect(r.stdout).toBe('');
  });
});

describe('r2v route --git-dir', () => {
  async function fixture() {
    const repo = await makeRepo();
    const sha = await repo.commit('workflows', {
      files: {
        '.github/workflows/docs.yml': `on:\n  pull_request:\n    paths: ['docs/**', '!docs/drafts/**']\n${JOB}`,
        '.github/workflows/ci.yml': `on:\n  pull_request:\n    branches: [main]\n${JOB}`,
        '.github/workflows/broken.yml': `on:\n  pull_request:\n    branches: [a]\n    branches-ignore: [b]\n${JOB}`,
        '.github/workflows/nested/x.yml': `on: pull_request\n${JOB}`,
        'docs/a.md': 'hello\n',
      },
    });
    // A later commit adds a workflow that the routed revision must not see.
    await repo.commit('later', { files: { '.github/workflows/later.yml': `on: pull_request\n${JOB}` } });
    const dir = await tempDir();
    await writeFile(join(dir, 'changed.txt'), 'docs/drafts/x.md\ndocs/guide.md\n');
    return { repo, sha, dir };
  }

  it('prints one line per workflow of that commit', async () => {
    const { repo, sha, dir } = await fixture();
    const r = await run(['route', '--git-dir', repo.dir, '--rev', sha, '--changed-paths', 'changed.txt', '--base-branch', 'main'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'invalid    .github/workflows/broken.yml  exclusive-filters: on.pull_request defines both branches and branches-ignore; you may only define one of them for a single event',
      'activated  .github/workflows/ci.yml',
      'activated  .github/workflows/docs.yml',
      'evaluator routing/1; 2 activated, 1 invalid',
      '',
    ]);
  });

  it('--explain names the deciding predicate and pattern', async () => {
    const { repo, sha, dir } = await fixture();
    await writeFile(join(dir, 'drafts.json'), '["docs/drafts/x.md"]');
    const r = await run(['route', '--git-dir', repo.dir, '--rev', sha, '--changed-paths', 'drafts.json', '--base-branch', 'dev', '--explain'], dir);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toContain("not        .github/workflows/docs.yml  not activated: pull_request: paths failed: no changed path is included ('docs/drafts/x.md' excluded by '!docs/drafts/**'; 1 of 1 paths evaluated)");
    expect(lines).toContain("not        .github/workflows/ci.yml  not activated: pull_request: branches failed: base branch 'dev' matches no pattern of [main]");
    expect(lines).toContain('skipped    .github/workflows/nested/x.yml  skipped: not a workflow file (only .yml/.yaml files directly in .github/workflows/ are)');
  });

  it('--json prints the result; with --explain it includes the explanation', async () => {
    const { repo, sha, dir } = await fixture();
    const plain = await run(['route', '--git-dir', repo.dir, '--rev', sha, '--changed-paths', 'changed.txt', '--base-branch', 'main', '--json'], dir);
    const parsed = JSON.parse(plain.stdout) as Record<string, unknown>;
    expect(Object.keys(parsed).sort()).toEqual(['activated', 'evaluator', 'invalid', 'limitApplied']);
    expect(parsed.activated).toEqual(['.github/workflows/ci.yml', '.github/workflows/docs.yml']);
    const explained = await run(['route', '--git-dir', repo.dir, '--rev', sha, '--changed-paths', 'changed.txt', '--base-branch', 'main', '--json', '--explain', '--action', 'labeled'], dir);
    const withExplain = JSON.parse(explained.stdout) as { activated: string[]; explain: { path: string }[] };
    expect(withExplain.activated).toEqual([]);
    expect(withExplain.explain.map((e) => e.path)).toContain('.github/workflows/docs.yml');
  });

  it('a bad revision is a usage error naming the input', async () => {
    const { repo, dir } = await fixture();
    const r = await run(['route', '--git-dir', repo.dir, '--rev', 'deadbeef', '--changed-paths', 'changed.txt', '--base-branch', 'main'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^r2v: --git-dir .* --rev deadbeef: cannot read the workflow files/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('an --action that is not a pull_request activity type is an error naming it', async () => {
    const { repo, sha, dir } = await fixture();
    const r = await run(['route', '--git-dir', repo.dir, '--rev', sha, '--changed-paths', 'changed.txt', '--base-branch', 'main', '--action', 'synchronise'], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^r2v: route context: action 'synchronise' is not a pull_request activity type/);
  });

  it('missing options are usage errors', async () => {
    const dir = await tempDir();
    expect((await run(['route'], dir)).stderr).toMatch(/give --cases FILE or --git-dir DIR/);
    const r = await run(['route', '--git-dir', dir], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing --rev, --changed-paths, --base-branch/);
    expect((await run(['route', '--git-dir', dir, '--cases', 'x'], dir)).stderr).toMatch(/either --cases or --git-dir/);
  });
});

describe('parseChangedPaths', () => {
  it('reads one path per line, skipping blank lines and CRs', () => {
    expect(parseChangedPaths('a.txt\r\n\nsrc/[slug]/page.tsx\n', 'f')).toEqual(['a.txt', 'src/[slug]/page.tsx']);
  });

  it('reads a JSON array of strings', () => {
    expect(parseChangedPaths(' ["b", "a"]\n', 'f')).toEqual(['b', 'a']);
  });

  it('refuses a broken JSON array or one with non-strings, naming the input', () => {
    expect(() => parseChangedPaths('["a", ]', '--changed-paths x.json')).toThrow(/^--changed-paths x\.json: not a valid JSON array/);
    expect(() => parseChangedPaths('["a", 1]', '--changed-paths x.json')).toThrow(/only strings/);
  });
});
