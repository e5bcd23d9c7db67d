import { describe, expect, it } from 'vitest';
import { computeGold, PATH_LIMIT } from '../../../src/forward/gold.js';
import { isSharedPath } from '../../../src/forward/imports.js';
import { labelsOf, memoizeOnePath, repositoryPrior } from '../../../src/forward/prior.js';
import { compiledRouter } from '../../../src/forward/router.js';
import { alternativeScopes, measureStability, SCOPE_AMBIGUITY_THRESHOLD } from '../../../src/forward/stability.js';
import { inferTestLayout, isSourcePath, testPathFor } from '../../../src/forward/test-layout.js';
import { isWorkflowPath, route } from '../../../src/routing/index.js';
import { BROKEN, WORKFLOWS, workflowFiles } from './workflows.js';

const ctx = { event: 'pull_request', action: 'synchronize', base_branch: 'main' } as const;
const W = (name: string): string => `.github/workflows/${name}`;
const TREE = [
  'README.md',
  'docs/guide.md',
  'docs/index.md',
  'services/api/handler.py',
  'src/app/main.test.ts',
  'src/app/main.ts',
  'src/app/styles.css',
  'src/app/util.ts',
  'src/lib/strings.ts',
  'tests/test_handler.py',
];
const activatedFor = compiledRouter(workflowFiles(), ctx);

describe('test layout', () => {
  it('follows the layout the repository uses for the extension', () => {
    expect(inferTestLayout(TREE, '.ts')).toEqual({ style: 'dot-test', place: 'same-dir', root: '' });
    expect(testPathFor('src/app/util.ts', TREE)).toBe('src/app/util.test.ts');
    expect(testPathFor('services/api/handler.py', TREE)).toBe('tests/services/api/test_handler.py');
    expect(testPathFor('src/pkg/mod.py', ['tests/test_x.py'])).toBe('tests/pkg/test_mod.py');
  });
  it('falls back to the language convention when the repository has no tests of that kind', () => {
    expect(testPathFor('cmd/run.go', TREE)).toBe('cmd/run_test.go');
    expect(testPathFor('lib/a.js', [])).toBe('lib/a.test.js');
    expect(testPathFor('app/Main.java', [])).toBe('app/MainTest.java');
  });
  it('tells source files from tests, docs and workflows', () => {
    expect(['src/a.ts', 'src/a.test.ts', 'docs/x.md', '.github/workflows/a.yml', 'tests/t.py', 'Makefile'].map(isSourcePath)).toEqual([
      true, false, false, false, false, false,
    ]);
  });
});

describe('shared directories', () => {
  it('knows shared directories', () => {
    expect([isSharedPath('src/lib/strings.ts'), isSharedPath('src/app/main.ts'), isSharedPath('lib.ts')]).toEqual([true, false, false]);
  });
});

describe('gold stability', () => {
  const imports = new Map([['src/app/main.ts', ['src/lib/strings.ts']]]);

  it('a one-file change whose alternatives all route alike is stable', () => {
    const changed = ['src/app/main.ts'];
    const gold = activatedFor(changed);
    expect(gold).toEqual([W('lint.yml'), W('test-ts.yaml')]);
    const alts = alternativeScopes({ changed, tree: TREE, imports });
    expect(alts.map((a) => [a.kind, a.paths])).toEqual([
      ['add-test', ['src/app/main.test.ts', 'src/app/main.ts']],
      ['move-to-sibling', ['src/app/util.ts']],
      ['add-shared', ['src/app/main.ts', 'src/lib/strings.ts']],
    ]);
    const s = measureStability(gold, alts, activatedFor);
    expect(s).toMatchObject({ alternatives: 3, changed: 0, fraction: 0, unstable: false, flips: [], details: [] });
  });

  it('a change whose gold depends on which paths it touches is unstable, naming the flipping workflows', () => {
    const changed = ['docs/guide.md', 'src/app/main.ts'];
    const gold = activatedFor(changed);
    expect(gold).toEqual([W('docs.yml'), W('lint.yml'), W('test-ts.yaml')]);
    const alts = alternativeScopes({ changed, tree: TREE, imports });
    expect(alts.map((a) => a.description)).toEqual([
      'drop docs/guide.md',
      'drop src/app/main.ts',
      'add src/app/main.test.ts',
      'move docs/guide.md to docs/index.md',
      'move src/app/main.ts to src/app/util.ts',
      'add src/lib/strings.ts (imported by src/app/main.ts)',
    ]);
    const s = measureStability(gold, alts, activatedFor);
    expect(s.alternatives).toBe(6);
    expect(s.changed).toBe(2);
    expect(s.fraction).toBeCloseTo(2 / 6);
    expect(s.unstable).toBe(2 / 6 > SCOPE_AMBIGUITY_THRESHOLD);
    expect(s.unstable).toBe(true);
    expect(s.flips).toEqual([{ workflow: W('docs.yml'), count: 1 }, { workflow: W('test-ts.yaml'), count: 1 }]);
    expect(s.details).toEqual([
      { kind: 'drop-path', description: 'drop docs/guide.md', added: [], removed: [W('docs.yml')] },
      { kind: 'drop-path', description: 'drop src/app/main.ts', added: [], removed: [W('test-ts.yaml')] },
    ]);
  });

  it('adds the test where the repository keeps Python tests', () => {
    const alts = alternativeScopes({ changed: ['services/api/handler.py'], tree: TREE, imports: new Map() });
    expect(alts[0]).toEqual({ kind: 'add-test', description: 'add tests/services/api/test_handler.py', paths: ['services/api/handler.py', 'tests/services/api/test_handler.py'] });
  });
});

describe('repository prior and labels', () => {
  it('is the most frequent set over one-path changes', () => {
    // README/docs → docs+lint (3); src .ts → lint+test-ts (4); css → lint (1); handler.py → api+lint+python (1); test_handler.py → lint+python (1)
    expect(repositoryPrior(TREE, activatedFor)).toEqual({ workflows: [W('lint.yml'), W('test-ts.yaml')], count: 4, paths: 10, sets: 5 });
  });
  it('breaks ties by the sorted key and handles an empty tree', () => {
    expect(repositoryPrior(['a', 'b'], (p) => (p[0] === 'a' ? ['x'] : ['w']))).toEqual({ workflows: ['w'], count: 1, paths: 2, sets: 2 });
    expect(repositoryPrior([], () => [])).toEqual({ workflows: [], count: 0, paths: 0, sets: 0 });
  });
  it('routes each path once across priors that share workflows, with the same answer', () => {
    const calls: string[] = [];
    const cache = new Map<string, readonly string[]>();
    const counted = (paths: readonly string[]): string[] => {
      calls.push(paths.join(','));
      return activatedFor(paths);
    };
    const first = repositoryPrior(TREE, memoizeOnePath(counted, cache));
    const second = repositoryPrior([...TREE, 'src/app/new.ts'], memoizeOnePath(counted, cache));
    expect(first).toEqual(repositoryPrior(TREE, activatedFor));
    expect(second).toEqual({ workflows: [W('lint.yml'), W('test-ts.yaml')], count: 5, paths: 11, sets: 5 });
    expect(calls).toEqual([...TREE, 'src/app/new.ts']);
  });
  it('labels Local and Cross changes', () => {
    expect(labelsOf(['src/a.ts', 'src/b/c.ts'], 5)).toEqual({ scope: 'local', top_level: ['src'], changed_paths: 2, workflows: 5 });
    expect(labelsOf(['README.md', 'src/a.ts'], 5)).toEqual({ scope: 'cross', top_level: ['', 'src'], changed_paths: 2, workflows: 5 });
  });
});

describe('computeGold', () => {
  it('routes the workflows at base and reports invalid files without rejecting', () => {
    const files = workflowFiles({ ...WORKFLOWS, '.github/workflows/broken.yml': BROKEN });
    const g = computeGold(files, ['services/api/handler.py'], ctx, route, isWorkflowPath);
    expect(g.gold).toEqual([W('api.yml'), W('lint.yml'), W('test-python.yml')]);
    expect(g.invalid.map((i) => i.path)).toEqual([W('broken.yml')]);
    expect(g.reasons).toEqual([]);
    expect(g.evaluator).toMatch(/^routing\/\d+$/);
  });
  it('rejects no-workflows and empty-change', () => {
    expect(computeGold([], ['a.txt'], ctx, route, isWorkflowPath).reasons.map((r) => r.code)).toEqual(['no-workflows']);
    const onlyNested = [{ path: '.github/workflows/sub/x.yml', text: WORKFLOWS['.github/workflows/lint.yml']! }];
    expect(computeGold(onlyNested, ['a.txt'], ctx, route, isWorkflowPath).reasons.map((r) => r.code)).toEqual(['no-workflows']);
    const empty = computeGold(workflowFiles(), [], ctx, route, isWorkflowPath);
    expect(empty.reasons.map((r) => r.code)).toEqual(['empty-change']);
    expect(empty.gold).toEqual([W('lint.yml')]);
  });
  it('rejects more than 300 paths as path-limit but keeps the limited gold', () => {
    const changed = [...Array.from({ length: PATH_LIMIT }, (_, i) => `aaa/f${String(i).padStart(3, '0')}.txt`), 'docs/z.md'];
    const g = computeGold(workflowFiles(), changed, ctx, route, isWorkflowPath);
    expect(g.reasons.map((r) => r.code)).toEqual(['path-limit']);
    expect(g.gold).toEqual([W('lint.yml')]);
    expect(g.limitApplied).toBe(true);
  });
});
