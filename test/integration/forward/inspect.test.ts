import { describe, expect, it } from 'vitest';
import { runCliCaptured as cli } from '../../support/cli.js';
import { makeRepo, tempDir } from '../../support/make-repo.js';
import { BROKEN, WORKFLOWS } from '../../unit/forward/workflows.js';

const W = (name: string): string => `.github/workflows/${name}`;

describe('r2v inspect forward', () => {
  it('prints Δ*, the workflows at base, the gold, invalid files, the signals and the prior', async () => {
    const repo = await makeRepo();
    const base = await repo.commit('project', {
      files: {
        ...WORKFLOWS,
        '.github/workflows/broken.yml': BROKEN,
        'docs/guide.md': '# Guide\n',
        'docs/index.md': '# Index\n',
        'src/a.ts': 'export const a = 1;\n',
      },
    });
    await repo.checkout('change', { create: true });
    const head = await repo.commit('change', { files: { 'docs/guide.md': '# Guide\n\nMore.\n', 'src/a.ts': 'export const a = 2;\n', '.github/workflows/added.yml': WORKFLOWS['.github/workflows/lint.yml']! } });
    const mirror = await repo.bareMirror();
    const r = await cli(['inspect', 'forward', '--git-dir', mirror, '--base', base, '--head', head.slice(0, 12), '--base-branch', 'main'], repo.dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, any>;
    expect(Object.keys(out)).toEqual(['changed_paths', 'workflows', 'gold', 'invalid', 'evaluator', 'stability', 'labels', 'prior', 'context', 'reasons']);
    expect(out.changed_paths).toEqual([W('added.yml'), 'docs/guide.md', 'src/a.ts']);
    expect(out.workflows).toEqual([W('api.yml'), W('broken.yml'), W('docs.yml'), W('lint.yml'), W('release.yml'), W('reusable-test.yml'), W('test-python.yml'), W('test-ts.yaml')]);
    expect(out.gold).toEqual([W('docs.yml'), W('lint.yml'), W('test-ts.yaml')]);
    expect(out.invalid.map((i: { path: string }) => i.path)).toEqual([W('broken.yml')]);
    expect(out.evaluator).toBe('routing/1');
    expect(out.labels).toEqual({ scope: 'cross', top_level: ['.github', 'docs', 'src'], changed_paths: 3, workflows: 8 });
    // drop added.yml: same; drop guide: −docs; drop a.ts: −test-ts; add src/a.test.ts: same;
    // move added.yml → api.yml: same; guide → index.md: same (a.ts has no sibling).
    expect(out.stability).toMatchObject({ alternatives: 6, changed: 2, unstable: true });
    // one-path changes at base: 8 workflow files + src/a.ts... → [lint] for the 8, [docs, lint] for 2 docs, [lint, test-ts] for a.ts
    expect(out.prior).toEqual({ workflows: [W('lint.yml')], count: 8, paths: 11, sets: 3, equal: false });
    expect(out.context).toEqual({ event: 'pull_request', action: 'synchronize', base_branch: 'main' });
  });

  it('rejects bad input with one line and exit code 2', async () => {
    const repo = await makeRepo();
    const base = await repo.commit('one', { files: { 'a.txt': 'a\n' } });
    const notGit = await tempDir('r2v-plain-');
    const cases: [string[], RegExp][] = [
      [['--git-dir', notGit, '--base', base, '--head', base, '--base-branch', 'main'], /^r2v: --git-dir .*: not a git repository\n$/],
      [['--git-dir', `${notGit}/missing`, '--base', base, '--head', base, '--base-branch', 'main'], /^r2v: --git-dir .*: no such directory\n$/],
      [['--git-dir', repo.dir, '--base', 'f'.repeat(40), '--head', base, '--base-branch', 'main'], /^r2v: --base f{40}: not a commit in /],
      [['--git-dir', repo.dir, '--base', base, '--head', 'nope', '--base-branch', 'main'], /^r2v: --head nope: not a commit in /],
      [['--git-dir', repo.dir, '--base', base, '--head', base, '--base-branch', 'main', '--action', 'Sync now'], /^r2v: --action Sync now: not a pull_request activity type\n$/],
      [['--git-dir', repo.dir, '--base', base, '--head', base], /required option '--base-branch <name>' not specified/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(['inspect', 'forward', ...args], repo.dir);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    }
  });
});
