import { describe, expect, it } from 'vitest';
import { compileFile, type CompiledWorkflow } from '../../../src/routing/compile.js';
import { ContextPlan } from '../../../src/routing/fast.js';
import { compileWorkflows, type RouteContext, type WorkflowFile } from '../../../src/routing/index.js';
import { seededRandom } from '../../../src/util/random.js';

/**
 * Change sets are answered from per-path signals (one bit per list and use) read from the states
 * the path automata end in, ORed per change set, with the answers kept per signal (and, for one
 * path, per class). Every answer is checked against the explained evaluation (`route`) on its own
 * compiled copy.
 */
const JOB = 'jobs:\n  t:\n    runs-on: ubuntu-latest\n';
const CTX: RouteContext = { event: 'pull_request', action: 'synchronize', base_branch: 'main' };

function wf(name: string, on: string): WorkflowFile {
  return { path: `.github/workflows/${name}.yml`, text: `on:\n${on}\n${JOB}` };
}

function plan(files: readonly WorkflowFile[], maxCached?: number, ctx: RouteContext = CTX): ContextPlan {
  const compiled = files.map(compileFile).filter((f): f is CompiledWorkflow => f.kind === 'workflow' && f.triggers.length > 0);
  compiled.sort((a, b) => (a.path < b.path ? -1 : 1));
  return new ContextPlan(compiled, ctx, ctx.base_branch, maxCached);
}

/** Routes every change set with `router` and checks each answer against `route`. */
function expectAgreement(files: readonly WorkflowFile[], router: { activated(paths: readonly string[]): readonly string[] }, changes: readonly (readonly string[])[], ctx: RouteContext = CTX): void {
  const reference = compileWorkflows(files);
  for (const change of changes) expect([...router.activated(change)], change.join(' ')).toEqual(reference.route(change, ctx).activated);
}

const TRICKY: WorkflowFile[] = [
  // A later pattern overrides an earlier one, both ways.
  wf('later-wins', "  pull_request:\n    paths: ['docs/**', '!docs/internal/**', 'docs/internal/public.md']"),
  // Negation first: nothing is included before a positive pattern.
  wf('neg-first', "  pull_request:\n    paths: ['!**.md', 'src/**']"),
  // paths-ignore with an un-ignore.
  wf('ignore-unignore', "  pull_request:\n    paths-ignore: ['**.md', '!README.md', 'docs/**']"),
  // The same list as `paths` in one workflow and as `paths-ignore` in another: two bits.
  wf('same-list-paths', "  pull_request:\n    paths: ['**.md', 'docs/**']"),
  wf('same-list-ignore', "  pull_request:\n    paths-ignore: ['**.md', 'docs/**']"),
  // paths on one event, paths-ignore on the other (both on one event make the file invalid): either trigger activates.
  wf('two-triggers', "  pull_request:\n    paths: ['src/gen/**']\n  pull_request_target:\n    paths-ignore: ['src/**']"),
  // Both on one event: invalid, never activated.
  wf('both-invalid', "  pull_request:\n    paths: ['src/**']\n    paths-ignore: ['src/gen/**']"),
  // Branch filters: one passes for main, one does not; the second trigger decides by paths.
  wf('branches', "  pull_request:\n    branches: [release]\n  pull_request_target:\n    branches: ['ma*']\n    paths: ['lib/*.c']"),
  wf('branches-ignore', "  pull_request:\n    branches-ignore: [main]\n    paths: ['**']"),
  // No path filter: activated whatever the paths (also for no path at all).
  wf('always', '  pull_request:'),
  // `**` forms: leading, trailing, in the middle, glued.
  wf('stars', "  pull_request:\n    paths: ['**/test/**', 'lib/**/*.h', '*.ac', '**CMakeLists.txt']"),
  // Types that exclude synchronize, and an unrelated event.
  wf('labeled', "  pull_request:\n    types: [labeled]\n    paths: ['**']"),
  wf('push-only', "  push:\n    paths: ['**']"),
];

const TRICKY_PATHS = [
  'docs/a.md', 'docs/internal/x.md', 'docs/internal/public.md', 'README.md', 'a/README.md', 'src/a.c', 'src/gen/b.c',
  'src/x.md', 'lib/a.c', 'lib/sub/a.c', 'lib/sub/x.h', 'lib/x.h', 'configure.ac', 'sub/configure.ac', 'CMakeLists.txt',
  'lib/CMakeLists.txt', 'test/a', 'a/test/b/c', 'Makefile', '.github/workflows/x.yml', 'docs', 'src',
  // Names that are special as object keys.
  '__proto__', 'constructor', 'toString', 'hasOwnProperty', '0', '123', 'docs/__proto__', '__proto__/a.md',
];

describe('signals of change sets of several paths', () => {
  it('agree with route on tricky patterns: later patterns overriding, negations, the same list as paths and paths-ignore, both filters, branch filters', () => {
    const rand = seededRandom(11);
    const changes: string[][] = [[], ...TRICKY_PATHS.map((p) => [p])];
    for (let k = 0; k < 600; k++) changes.push(Array.from({ length: 1 + Math.floor(rand() * 5) }, () => TRICKY_PATHS[Math.floor(rand() * TRICKY_PATHS.length)]!));
    expectAgreement(TRICKY, plan(TRICKY), changes);
    // The same with other contexts: branch filters decide differently.
    for (const ctx of [{ ...CTX, base_branch: 'release' }, { ...CTX, action: 'labeled' }, { ...CTX, merge_conflict: true }]) {
      expectAgreement(TRICKY, plan(TRICKY, undefined, ctx), changes, ctx);
    }
  });

  it('names the expected workflows for a few hand-picked change sets', () => {
    const router = plan(TRICKY);
    const names = (paths: string[]): string[] => router.activated(paths).map((p) => p.slice('.github/workflows/'.length, -'.yml'.length));
    expect(names(['docs/internal/x.md'])).toEqual(['always', 'same-list-paths', 'two-triggers']);
    expect(names(['docs/internal/x.md', 'docs/internal/public.md'])).toEqual(['always', 'later-wins', 'same-list-paths', 'two-triggers']);
    expect(names(['src/gen/b.c'])).toEqual(['always', 'ignore-unignore', 'neg-first', 'same-list-ignore', 'two-triggers']);
    // src/a.c is ignored by the pull_request_target trigger and not in src/gen/: not activated...
    expect(names(['src/a.c'])).toEqual(['always', 'ignore-unignore', 'neg-first', 'same-list-ignore']);
    // ...until another path is not ignored.
    expect(names(['src/a.c', 'README.md'])).toEqual(['always', 'ignore-unignore', 'neg-first', 'same-list-ignore', 'same-list-paths', 'two-triggers']);
    expect(names(['lib/a.c', 'a/README.md'])).toEqual(['always', 'branches', 'ignore-unignore', 'same-list-ignore', 'same-list-paths', 'two-triggers']);
    expect(names([])).toEqual(['always']);
  });

  it('spans several words when lists and uses need more than 30 bits', () => {
    // 40 workflows, each with its own list: 40 bits, two words.
    const files = Array.from({ length: 40 }, (_, i) =>
      wf(`w${String(i).padStart(2, '0')}`, i % 2 === 0 ? `  pull_request:\n    paths: ['d${i}/**', '!d${i}/skip/**']` : `  pull_request:\n    paths-ignore: ['d${i}/**', '**.md']`),
    );
    const pool = Array.from({ length: 41 }, (_, i) => [`d${i}/a.c`, `d${i}/skip/b.c`, `d${i}/c.md`]).flat();
    const rand = seededRandom(5);
    const changes: string[][] = [];
    for (let k = 0; k < 800; k++) changes.push(Array.from({ length: 1 + Math.floor(rand() * 8) }, () => pool[Math.floor(rand() * pool.length)]!));
    // Every path of the pool at once: every bit set, the early stop taken.
    changes.push(pool);
    expectAgreement(files, plan(files), changes);
  });

  it('counts only the first 300 paths, also when signals are kept', () => {
    const files = [wf('docs', "  pull_request:\n    paths: ['docs/**']"), wf('code', "  pull_request:\n    paths-ignore: ['**.md']")];
    const router = plan(files);
    const mds = Array.from({ length: 300 }, (_, i) => `n${i}.md`);
    expect(router.activated(['docs/a.txt', 'x.md'])).toEqual(['.github/workflows/code.yml', '.github/workflows/docs.yml']);
    expect(router.activated([...mds, 'docs/a.txt'])).toEqual([]);
    expect(router.activated([...mds.slice(1), 'docs/a.txt'])).toEqual(['.github/workflows/code.yml', '.github/workflows/docs.yml']);
  });

  it('stay right when the kept classes, answers and automaton states are cleared at their bound', () => {
    const rand = seededRandom(21);
    const files = Array.from({ length: 36 }, (_, i) => wf(`w${i}`, `  pull_request:\n    paths: ['p${i % 12}/**', '!**/x${i % 5}.c']`));
    const pool = Array.from({ length: 200 }, (_, i) => `p${i % 13}/s${i % 7}/x${i % 6}.c`);
    const changes: string[][] = [];
    for (let k = 0; k < 500; k++) changes.push(Array.from({ length: 1 + Math.floor(rand() * 6) }, () => pool[Math.floor(rand() * pool.length)]!));
    // A bound of 3: every cache is cleared again and again, also in the middle of a change set.
    expectAgreement(files, plan(files, 3), changes);
    expectAgreement(files, plan(files, 1), changes);
  });
});

describe('one-path change sets', () => {
  it('agree with route whether the path is new, already met in a change set of several paths, or seen again', () => {
    const files = TRICKY;
    const router = plan(files);
    const changes: string[][] = [];
    // New one-path change sets first...
    for (let i = 0; i < 300; i++) changes.push([`gen/d${i % 17}/f${i}.${i % 3 === 0 ? 'md' : 'c'}`]);
    // ...then paths kept from change sets of several paths, and one-path change sets that repeat.
    for (let i = 0; i < 200; i++) changes.push([TRICKY_PATHS[i % TRICKY_PATHS.length]!, `gen/d${i % 17}/f${i}.c`]);
    // ...many repeats, then new paths again.
    for (let i = 0; i < 3000; i++) changes.push([TRICKY_PATHS[i % TRICKY_PATHS.length]!]);
    for (let i = 0; i < 100; i++) changes.push([`gen/e${i % 5}/g${i}.c`]);
    expectAgreement(files, router, changes);
  });
});

describe('routers and contexts', () => {
  it('keep nothing from one context for another: activatedFor alternating contexts on the same paths', () => {
    const compiled = compileWorkflows(TRICKY);
    const reference = compileWorkflows(TRICKY);
    const contexts: RouteContext[] = [CTX, { ...CTX, base_branch: 'release' }, { ...CTX, base_branch: 'refs/heads/main' }, { ...CTX, merge_conflict: true }];
    for (let k = 0; k < 200; k++) {
      const ctx = contexts[k % contexts.length]!;
      const change = [TRICKY_PATHS[k % TRICKY_PATHS.length]!, TRICKY_PATHS[(k * 7) % TRICKY_PATHS.length]!];
      expect(compiled.activatedFor(change, ctx), `${ctx.base_branch} ${change.join(' ')}`).toEqual(reference.route(change, ctx).activated);
    }
  });

  it('a fresh router per context starts empty and answers like a used one', () => {
    const compiled = compileWorkflows(TRICKY);
    const used = compiled.routerFor(CTX);
    const changes = TRICKY_PATHS.map((p, i) => [p, TRICKY_PATHS[(i + 3) % TRICKY_PATHS.length]!]);
    const first = changes.map((c) => [...used.activated(c)]);
    const fresh = compiled.routerFor(CTX);
    expect(changes.map((c) => [...fresh.activated(c)])).toEqual(first);
    expect(changes.map((c) => [...used.activated(c)])).toEqual(first);
  });
});
