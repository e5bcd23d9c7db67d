import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors.js';
import { compileWorkflows, EVALUATOR_ID, isWorkflowPath, parseWorkflow, route, type RouteContext } from '../../../src/routing/index.js';

const CTX: RouteContext = { event: 'pull_request', action: 'synchronize', base_branch: 'main' };
const JOB = 'jobs:\n  t:\n    runs-on: ubuntu-latest\n';
const CI = '.github/workflows/ci.yml';
const file = (on: string, path = CI) => ({ path, text: `${on}\n${JOB}` });

describe('parseWorkflow', () => {
  it('returns the pull_request triggers with their filters as written', () => {
    const parsed = parseWorkflow(`on:\n  push:\n  pull_request:\n    types: opened\n    paths: ['src/**', '!src/gen/**']\n  pull_request_target:\n${JOB}`);
    expect(parsed).toEqual({
      ok: true,
      events: ['push', 'pull_request', 'pull_request_target'],
      triggers: [
        { event: 'pull_request', types: ['opened'], filters: { paths: ['src/**', '!src/gen/**'] } },
        { event: 'pull_request_target', types: null, filters: {} },
      ],
    });
  });

  it('keeps a non-string list entry as written in the file (3.10 stays 3.10)', () => {
    const parsed = parseWorkflow(`on:\n  pull_request:\n    branches: [3.10, v1]\n${JOB}`);
    expect(parsed.ok && parsed.triggers[0]!.filters.branches).toEqual(['3.10', 'v1']);
  });

  it('names the line of a YAML syntax error in one line', () => {
    const parsed = parseWorkflow('on:\n  pull_request:\n    paths: [src/**\njobs: {}\n');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.reason).toMatch(/^yaml-syntax: .*line \d+/);
      expect(parsed.reason).not.toContain('\n');
    }
  });

  it.each([
    ['duplicate-key', `on: push\non: pull_request\n${JOB}`],
    ['unknown-tag', `on:\n  pull_request:\n    paths:\n      - !docs/**\n${JOB}`],
    ['unresolved-alias', `on:\n  pull_request:\n    paths:\n      - **/x\n${JOB}`],
    ['not-a-mapping', 'just a string\n'],
    ['unknown-root-key', `on: pull_request\nruns-on: x\n${JOB}`],
    ['missing-jobs', 'on: pull_request\n'],
    ['invalid-job', 'on: pull_request\njobs:\n  t: {}\n'],
    ['invalid-on', `on: 5\n${JOB}`],
    ['invalid-on', `on: [pull_request, {push: null}]\n${JOB}`],
    ['invalid-event', `on:\n  pull_request: opened\n${JOB}`],
    ['invalid-filter', `on:\n  pull_request:\n    branches: {main: true}\n${JOB}`],
    ['invalid-filter', `on:\n  pull_request:\n    types: [opened, [x]]\n${JOB}`],
    ['exclusive-filters', `on:\n  push:\n    branches: [a]\n    branches-ignore: [b]\n${JOB}`],
  ])('reports %s', (code, text) => {
    const parsed = parseWorkflow(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason.startsWith(`${code}: `)).toBe(true);
  });
});

describe('isWorkflowPath', () => {
  it.each([
    ['.github/workflows/ci.yml', true],
    ['.github/workflows/ci.yaml', true],
    ['.github/workflows/.hidden.yml', true],
    ['.github/workflows/a/ci.yml', false],
    ['.github/workflows/ci.yml.bak', false],
    ['.github/workflows/ci.YML', false],
    ['x/.github/workflows/ci.yml', false],
  ])('%s → %s', (path, expected) => expect(isWorkflowPath(path)).toBe(expected));
});

describe('route', () => {
  it('records the evaluator id', () => {
    expect(route([], [], CTX).evaluator).toBe(EVALUATOR_ID);
    expect(EVALUATOR_ID).toBe('routing/1');
  });

  it('refuses a context that is not a pull_request event, naming the field', () => {
    const bad = { ...CTX, event: 'push' } as unknown as RouteContext;
    expect(() => route([], [], bad)).toThrow(ValidationError);
    expect(() => route([], [], bad)).toThrow(/event must be 'pull_request'/);
    expect(() => route([], [], { ...CTX, base_branch: '' })).toThrow(/base_branch/);
    expect(() => compileWorkflows([]).activatedFor([], { ...CTX, action: '' })).toThrow(/action/);
  });

  it('refuses an action that is not a pull_request activity type (a typo would silently activate nothing)', () => {
    expect(() => route([], [], { ...CTX, action: 'synchronise' })).toThrow(ValidationError);
    expect(() => route([], [], { ...CTX, action: 'synchronise' })).toThrow(/action 'synchronise' is not a pull_request activity type/);
    expect(() => compileWorkflows([]).activatedFor([], { ...CTX, action: 'push' })).toThrow(/action 'push'/);
    for (const action of ['review_requested', 'converted_to_draft', 'enqueued', 'milestoned']) expect(route([], [], { ...CTX, action }).activated).toEqual([]);
  });

  it('sorts activated paths byte-wise (code point order), not by UTF-16 units', () => {
    const wide = '.github/workflows/\uFF21.yml';
    const astral = '.github/workflows/\u{1F600}.yml';
    expect(route([file('on: pull_request', astral), file('on: pull_request', wide)], ['a'], CTX).activated).toEqual([wide, astral]);
  });

  it('refuses the same workflow path twice', () => {
    expect(() => route([file('on: pull_request'), file('on: push')], [], CTX)).toThrow(/'\.github\/workflows\/ci\.yml' is given twice/);
  });

  it('accepts a base branch given as a full ref (refs/heads/ is stripped)', () => {
    expect(route([file('on:\n  pull_request:\n    branches: [main]')], ['a'], { ...CTX, base_branch: 'refs/heads/main' }).activated).toEqual([CI]);
  });

  it('limitApplied is false when no path filter was evaluated, true when one saw only 300', () => {
    const many = Array.from({ length: 301 }, (_, i) => `f${i}`);
    expect(route([file('on: pull_request')], many, CTX).limitApplied).toBe(false);
    expect(route([file("on:\n  pull_request:\n    paths: ['**']")], many, CTX).limitApplied).toBe(true);
    expect(route([file("on:\n  pull_request:\n    paths: ['**']")], many.slice(0, 300), CTX).limitApplied).toBe(false);
  });

  it('an invalid pattern is reported once the trigger type matched, and stops the file', () => {
    const files = [file("on:\n  pull_request:\n    paths: ['[b-a]']\n  pull_request_target:")];
    const r = route(files, ['x'], CTX);
    expect(r.activated).toEqual([]);
    expect(r.invalid).toEqual([{ path: CI, reason: "invalid-pattern: on.pull_request.paths: invalid pattern '[b-a]': invalid range 'b-a' (ranges can only include a-z, A-Z and 0-9, low to high)" }]);
    // A trigger whose type does not match never reaches its patterns (section 18 order).
    const other = route([file("on:\n  pull_request:\n    types: [labeled]\n    paths: ['[b-a]']")], ['x'], CTX);
    expect(other.invalid).toEqual([]);
  });

  it('compiled workflows route many change sets with the same answers', () => {
    const compiled = compileWorkflows([
      file("on:\n  pull_request:\n    paths: ['docs/**']", '.github/workflows/docs.yml'),
      file("on:\n  pull_request:\n    paths-ignore: ['docs/**']", '.github/workflows/code.yml'),
      file('on: push', '.github/workflows/push.yml'),
    ]);
    expect(compiled.activatedFor(['docs/a.md'], CTX)).toEqual(['.github/workflows/docs.yml']);
    expect(compiled.activatedFor(['src/a.c'], CTX)).toEqual(['.github/workflows/code.yml']);
    expect(compiled.route(['docs/a.md', 'src/a.c'], CTX).activated).toEqual(['.github/workflows/code.yml', '.github/workflows/docs.yml']);
    expect(compiled.invalidOnLoad()).toEqual([]);
  });

  it('one-path changes in any order, across directories and name endings, route like single routes', () => {
    const compiled = compileWorkflows([
      file("on:\n  pull_request:\n    paths: ['src/**', '!src/**/*.md', 'src/keep.md']", '.github/workflows/src.yml'),
      file("on:\n  pull_request:\n    paths: ['**/*.md', 'Makefile']", '.github/workflows/md.yml'),
      file("on:\n  pull_request:\n    paths-ignore: ['src/gen/**']", '.github/workflows/all.yml'),
    ]);
    const cases: [string, string[]][] = [
      ['src/a.ts', ['.github/workflows/all.yml', '.github/workflows/src.yml']],
      ['README.md', ['.github/workflows/all.yml', '.github/workflows/md.yml']],
      ['src/gen/x.md', ['.github/workflows/md.yml']],
      ['src/keep.md', ['.github/workflows/all.yml', '.github/workflows/md.yml', '.github/workflows/src.yml']],
      ['src/gen/x.ts', ['.github/workflows/src.yml']],
      ['Makefile', ['.github/workflows/all.yml', '.github/workflows/md.yml']],
      ['src/Makefile', ['.github/workflows/all.yml', '.github/workflows/src.yml']],
      ['src/other.md', ['.github/workflows/all.yml', '.github/workflows/md.yml']],
      ['src/a.ts', ['.github/workflows/all.yml', '.github/workflows/src.yml']],
    ];
    for (const [path, expected] of cases) expect(compiled.activatedFor([path], CTX), path).toEqual(expected);
  });
});

describe('explain', () => {
  const explainOf = (on: string, changed: string[], ctx: RouteContext = CTX) => route([file(on)], changed, ctx).explain[0]!;

  it('names the deciding paths pattern and the path it matched last', () => {
    const e = explainOf("on:\n  pull_request:\n    paths: ['**', '!docs/**', 'docs/api/**']", ['docs/guide.md', 'docs/api/x.md']);
    expect(e.activated).toBe(true);
    const paths = e.triggers[0]!.predicates.find((p) => p.predicate === 'paths')!;
    expect(paths).toMatchObject({ passed: true, pattern: 'docs/api/**', subject: 'docs/api/x.md', evaluated: 2, total: 2 });
    expect(e.summary).toBe("activated by pull_request: paths: 'docs/api/x.md' included by 'docs/api/**'");
  });

  it('names the negative pattern that excluded the only path', () => {
    const e = explainOf("on:\n  pull_request:\n    paths: ['src/**', '!src/gen/**']", ['src/gen/a.ts']);
    const paths = e.triggers[0]!.predicates[1]!;
    expect(paths).toMatchObject({ predicate: 'paths', passed: false, pattern: '!src/gen/**', subject: 'src/gen/a.ts' });
    expect(e.summary).toContain("'src/gen/a.ts' excluded by '!src/gen/**'");
  });

  it('names the branch pattern that decided', () => {
    const e = explainOf("on:\n  pull_request:\n    branches: ['release/**', '!release/old']", ['a'], { ...CTX, base_branch: 'release/old' });
    expect(e.triggers[0]!.predicates[1]).toMatchObject({ predicate: 'branches', passed: false, pattern: '!release/old', subject: 'release/old' });
  });

  it('names the ignore pattern when every path is ignored', () => {
    const e = explainOf("on:\n  pull_request:\n    paths-ignore: ['**.md']", ['README.md', 'docs/a.md']);
    expect(e.triggers[0]!.predicates[1]).toMatchObject({ predicate: 'paths-ignore', passed: false, pattern: '**.md', subject: 'README.md' });
  });

  it('says the types predicate failed, with the default types', () => {
    const e = explainOf('on: pull_request', ['a'], { ...CTX, action: 'labeled' });
    expect(e.triggers[0]!.predicates).toEqual([
      { predicate: 'types', passed: false, detail: "no types: the default types (opened, synchronize, reopened) do not include 'labeled'" },
    ]);
  });

  it('marks the merge-conflict skip and the trigger not evaluated after activation', () => {
    const conflicted = explainOf('on: [pull_request, pull_request_target]', ['a'], { ...CTX, merge_conflict: true });
    expect(conflicted.triggers.map((t) => [t.event, t.activated, t.skipped])).toEqual([
      ['pull_request', false, 'skipped: the pull request has a merge conflict'],
      ['pull_request_target', true, undefined],
    ]);
    const both = explainOf('on: [pull_request, pull_request_target]', ['a']);
    expect(both.triggers[1]).toMatchObject({ event: 'pull_request_target', activated: false, skipped: 'not evaluated: the file is already decided' });
  });

  it('explains files that are not workflows and workflows without a PR trigger', () => {
    const r = route([{ path: '.github/workflows/x/ci.yml', text: '' }, file('on: push')], [], CTX);
    expect(r.explain.map((e) => e.summary)).toEqual([
      'not activated: no pull_request or pull_request_target trigger (on: push)',
      'skipped: not a workflow file (only .yml/.yaml files directly in .github/workflows/ are)',
    ]);
  });
});
