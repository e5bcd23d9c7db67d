import { describe, expect, it } from 'vitest';
import { compileWorkflows, type RouteContext, type WorkflowFile } from '../../../src/routing/index.js';
import { seededRandom } from '../../../src/util/random.js';

/**
 * The fast path (`activatedFor`: shared lists, the path automata built along the way, signals per
 * pair of states, answers kept per signal, early stops) against the explained evaluation (`route`, on its own compiled copy), on generated workflows
 * and paths chosen so that patterns of every shape meet paths they match, almost match and
 * cannot match.
 */
const JOB = 'jobs:\n  t:\n    runs-on: ubuntu-latest\n';

const PATTERNS = [
  '**', '**.md', '**/*.md', '**/*.ts', '**/*.d.ts', '*.json', '**/package.json', 'package.json', 'docs/**', 'docs/*',
  'docs', 'src/**', 'src/*/gen/**', 'src/gen/**', 'src/a.ts', '**/test/**', 'test/**/*.c', '*', 'Makefile', '**/Makefile',
  'appveyor.*', 'a?.c', 'ab+.c', 'v[12].txt', 'src/**/README*', '**/CHANGELOG.md', 'lib/*.c', '**/*.c', 'lib/**', '.github/**',
  '**/v1.0/*.md', 'docs/Makefile', '**/b.d.ts', 'x.md.ts', '**/.hidden', 'src/*.ts', '*.d.ts', 'v1.0/**', 'docs/v1.0/README.md', '**/v1.0/README.md',
];
const BRANCHES = ['main', 'master', 'release/**', '*'];
const DIRS = ['', 'src/', 'src/gen/', 'src/x/gen/', 'docs/', 'docs/api/', 'test/', 'test/unit/', 'lib/', 'lib/vtls/', '.github/workflows/', 'a/docs/', '/abs/', '/', 'v1.0/', 'docs/v1.0/'];
const NAMES = ['a.ts', 'b.d.ts', 'README.md', 'README', 'CHANGELOG.md', 'package.json', 'x.json', 'Makefile', 'appveyor.yml', 'ac.c', 'abbb.c', 'a.c', 'v1.txt', 'v3.txt', 'docs', '.hidden', 'x.md.ts', 'md', 'gen', 'a.b.c.d.ts', '.d.ts', 'Makefile.am', 'xMakefile'];

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)]!;
}

function list(rand: () => number): string {
  const n = 1 + Math.floor(rand() * 4);
  return `[${Array.from({ length: n }, () => `'${rand() < 0.3 ? '!' : ''}${pick(rand, PATTERNS)}'`).join(', ')}]`;
}

function workflows(rand: () => number, count: number): WorkflowFile[] {
  return Array.from({ length: count }, (_, i) => {
    const triggers: string[] = [];
    for (const event of ['pull_request', 'pull_request_target']) {
      if (rand() < 0.35) continue;
      const lines = [`  ${event}:`];
      if (rand() < 0.3) lines.push(`    branches: ['${pick(rand, BRANCHES)}']`);
      if (rand() < 0.1) lines.push('    types: [labeled]');
      const r = rand();
      if (r < 0.45) lines.push(`    paths: ${list(rand)}`);
      else if (r < 0.8) lines.push(`    paths-ignore: ${list(rand)}`);
      triggers.push(lines.join('\n'));
    }
    const on = triggers.length > 0 ? `on:\n${triggers.join('\n')}` : 'on: push';
    return { path: `.github/workflows/w${String(i).padStart(2, '0')}.yml`, text: `${on}\n${JOB}` };
  });
}

function paths(rand: () => number, count: number): string[] {
  return Array.from({ length: count }, () => pick(rand, DIRS) + pick(rand, NAMES));
}

describe('activatedFor agrees with route', () => {
  const contexts: RouteContext[] = [
    { event: 'pull_request', action: 'synchronize', base_branch: 'main' },
    { event: 'pull_request', action: 'synchronize', base_branch: 'release/1.x' },
    { event: 'pull_request', action: 'labeled', base_branch: 'master', merge_conflict: true },
  ];

  it('on one-path changes, in sorted and shuffled order, with the automata built along the way', () => {
    for (let seed = 1; seed <= 25; seed++) {
      const rand = seededRandom(seed);
      const files = workflows(rand, 12);
      const compiled = compileWorkflows(files);
      const reference = compileWorkflows(files);
      const all = paths(rand, 150);
      const orders = [[...all].sort(), all];
      for (const ctx of contexts) {
        for (const order of orders) {
          for (const p of order) expect(compiled.activatedFor([p], ctx), `seed ${seed} ${p}`).toEqual(reference.route([p], ctx).activated);
        }
      }
    }
  });

  it('on change sets of several paths, repeating paths across sets (answers kept per signal reused)', () => {
    for (let seed = 100; seed <= 120; seed++) {
      const rand = seededRandom(seed);
      const files = workflows(rand, 12);
      const compiled = compileWorkflows(files);
      const reference = compileWorkflows(files);
      const pool = paths(rand, 40);
      for (const ctx of contexts) {
        for (let k = 0; k < 120; k++) {
          const size = Math.floor(rand() * 6);
          const change = Array.from({ length: size }, () => pick(rand, pool));
          expect(compiled.activatedFor(change, ctx), `seed ${seed} ${change.join(' ')}`).toEqual(reference.route(change, ctx).activated);
        }
      }
    }
  });

  it('counts only the first 300 paths of a change set, for paths and for paths-ignore', () => {
    const files: WorkflowFile[] = [
      { path: '.github/workflows/docs.yml', text: `on:\n  pull_request:\n    paths: ['docs/**']\n${JOB}` },
      { path: '.github/workflows/code.yml', text: `on:\n  pull_request:\n    paths-ignore: ['**.md']\n${JOB}` },
    ];
    const ctx = contexts[0]!;
    const compiled = compileWorkflows(files);
    const mds = Array.from({ length: 300 }, (_, i) => `n${String(i).padStart(3, '0')}.md`);
    expect(compiled.activatedFor([...mds, 'docs/a.txt'], ctx)).toEqual([]);
    expect(compiled.activatedFor([...mds.slice(1), 'docs/a.txt'], ctx)).toEqual(['.github/workflows/code.yml', '.github/workflows/docs.yml']);
    expect(compiled.activatedFor([], ctx)).toEqual(compileWorkflows(files).route([], ctx).activated);
  });

  it('shares identical lists between workflows without mixing up their other triggers', () => {
    const files: WorkflowFile[] = [
      { path: '.github/workflows/a.yml', text: `on:\n  pull_request:\n    paths-ignore: ['**.md', 'docs/**']\n${JOB}` },
      { path: '.github/workflows/b.yml', text: `on:\n  pull_request:\n    branches: [other]\n  pull_request_target:\n    paths-ignore: ['**.md', 'docs/**']\n${JOB}` },
      { path: '.github/workflows/c.yml', text: `on:\n  pull_request:\n    paths: ['**.md', 'docs/**']\n${JOB}` },
    ];
    const ctx = contexts[0]!;
    const compiled = compileWorkflows(files);
    expect(compiled.activatedFor(['docs/a.md', 'README.md'], ctx)).toEqual(['.github/workflows/c.yml']);
    expect(compiled.activatedFor(['docs/a.md', 'src/x.c'], ctx)).toEqual(['.github/workflows/a.yml', '.github/workflows/b.yml', '.github/workflows/c.yml']);
    expect(compiled.activatedFor(['src/x.c'], ctx)).toEqual(['.github/workflows/a.yml', '.github/workflows/b.yml']);
  });
});
