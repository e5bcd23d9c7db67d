import { CI, pr, single, workflow, type ConformanceCase } from './support.js';

const S12 = '§12 the 300-file limit';
const S13 = '§13 reusable workflows';
const S14 = '§14 pull_request_target';
const S15 = '§15 draft pull requests';
const S16 = '§16 merge-conflicted pull requests';
const S17 = '§17 outside the model';
const S18 = '§18 reference algorithm';
const SR = '§1-§18 multi-workflow repositories';

/** n paths a/f000 … in byte-wise order (all under a/). */
const under = (dir: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${dir}/f${String(i).padStart(3, '0')}`);

const JOB = 'jobs:\n  t:\n    runs-on: ubuntu-latest\n';

export const eventCases: ConformanceCase[] = [
  // §12
  {
    name: 'paths: a match at position 301 does not count',
    section: S12,
    source: 'triggering-a-workflow-paths5.md "Diffs are limited to 300 files"',
    files: { [CI]: pr("paths: ['z/**']") },
    changed: [...under('a', 300), 'z/last'],
    activated: [],
    limitApplied: true,
  },
  {
    name: 'paths: a match at position 300 counts',
    section: S12,
    source: 'triggering-a-workflow-paths5.md; ROUTING §12 first 300 in the order given',
    files: { [CI]: pr("paths: ['z/**']") },
    changed: [...under('a', 299), 'z/last', 'y/after'],
    activated: [CI],
    limitApplied: true,
  },
  {
    name: 'paths-ignore: first 300 ignored, a non-ignored file at 301 does not count (§19 point 3)',
    section: S12,
    source: 'ROUTING §12 reading for paths-ignore; not settled',
    files: { [CI]: pr("paths-ignore: ['a/**']") },
    changed: [...under('a', 300), 'src/main.c'],
    activated: [],
    limitApplied: true,
  },
  {
    name: 'paths-ignore: a non-ignored file at position 300 runs',
    section: S12,
    source: 'ROUTING §12',
    files: { [CI]: pr("paths-ignore: ['a/**']") },
    changed: [...under('a', 299), 'src/main.c', ...under('b', 50)],
    activated: [CI],
    limitApplied: true,
  },
  {
    name: 'a workflow without path filters is unaffected by the limit',
    section: S12,
    source: 'ROUTING §12 "A workflow without path filters is unaffected"',
    files: { [CI]: pr('branches: [main]') },
    changed: under('a', 400),
    activated: [CI],
    limitApplied: false,
  },
  {
    name: 'exactly 300 changed files: the limit does not apply',
    section: S12,
    source: 'ROUTING §12 only the first 300 are evaluated',
    files: { [CI]: pr("paths: ['a/f299']") },
    changed: under('a', 300),
    activated: [CI],
    limitApplied: false,
  },
  {
    name: 'the order given decides which 300: a match given first counts',
    section: S12,
    source: 'ROUTING §1 list order matters for the limit; §19 point 3',
    files: { [CI]: pr("paths: ['z/**']") },
    changed: ['z/first', ...under('a', 400)],
    activated: [CI],
    limitApplied: true,
  },

  // §13
  single('a workflow_call-only workflow is never activated directly', S13, 'reusing-workflow-configurations: github context is the caller\'s', workflow('on:\n  workflow_call:\n    inputs:\n      target:\n        type: string'), ['src/a.ts'], false),
  single('workflow_call plus pull_request is activated by its own trigger', S13, 'ROUTING §13', workflow('on:\n  workflow_call:\n  pull_request:'), ['src/a.ts'], true),
  {
    name: 'a caller and its reusable workflow: only the caller is activated',
    section: S13,
    source: 'ROUTING §13 no separate run of the called file',
    files: {
      '.github/workflows/ci.yml': 'on: pull_request\njobs:\n  build:\n    uses: ./.github/workflows/build.yml\n',
      '.github/workflows/build.yml': `on: workflow_call\n${JOB}`,
    },
    changed: ['src/a.ts'],
    activated: ['.github/workflows/ci.yml'],
  },
  {
    name: 'a reusable workflow in a subdirectory is not a workflow either',
    section: S13,
    source: 'community discussion 10773: reusable workflows must be directly in .github/workflows',
    files: { '.github/workflows/shared/build.yml': `on: [workflow_call, pull_request]\n${JOB}` },
    changed: ['src/a.ts'],
    activated: [],
  },

  // §14
  single('pull_request_target branches match the base branch', S14, 'events page pull_request_target branches example', pr('branches: [main]', 'pull_request_target'), ['src/a.ts'], true),
  single('pull_request_target branches do not match another base', S14, 'events page', pr('branches: [main]', 'pull_request_target'), ['src/a.ts'], false, { base_branch: 'dev' }),
  single('pull_request_target paths use the PR diff', S14, 'events page pull_request_target paths example', pr("paths: ['docs/**']", 'pull_request_target'), ['src/a.ts'], false),
  single('pull_request_target types [labeled] excludes synchronize', S14, 'events page pull_request_target types', pr('types: [labeled]', 'pull_request_target'), ['src/a.ts'], false),
  single('pull_request fails its paths but pull_request_target passes', S14, 'ROUTING §18 any eligible trigger', workflow("on:\n  pull_request:\n    paths: ['docs/**']\n  pull_request_target:\n    paths: ['src/**']"), ['src/a.ts'], true),

  // §15
  single('a draft PR opened runs default-typed workflows', S15, 'Start9Labs/start-technologies#3769', pr(), ['src/a.ts'], true, { action: 'opened' }),
  single('ready_for_review is not a default type', S15, 'Start9Labs/start-technologies#3769', pr(), ['src/a.ts'], false, { action: 'ready_for_review' }),
  single('converted_to_draft is not a default type', S15, 'events page', pr(), ['src/a.ts'], false, { action: 'converted_to_draft' }),
  single('types [ready_for_review] runs on ready_for_review', S15, 'parse-community/parse-server#10610', pr('types: [ready_for_review]'), ['src/a.ts'], true, { action: 'ready_for_review' }),

  // §16
  single('merge conflict: pull_request does not run', S16, 'events page: "Workflows will not run on pull_request activity if the pull request has a merge conflict"', pr(), ['src/a.ts'], false, { merge_conflict: true }),
  single('merge conflict: pull_request_target still runs', S16, 'events page: "pull_request_target ... will run even if the pull request has a merge conflict"', pr('', 'pull_request_target'), ['src/a.ts'], true, { merge_conflict: true }),
  single('merge conflict: a file with both triggers runs through pull_request_target', S16, 'events page pull_request note', workflow('on:\n  pull_request:\n  pull_request_target:'), ['src/a.ts'], true, { merge_conflict: true }),
  single('merge_conflict: false is mergeable', S16, 'ROUTING §16 absent or false = mergeable', pr(), ['src/a.ts'], true, { merge_conflict: false }),

  // §17
  single('job-level if: on draft status does not change routing', S17, 'ROUTING §15/§17 job-level conditions are out of scope', "on: pull_request\njobs:\n  t:\n    if: github.event.pull_request.draft == false\n    runs-on: ubuntu-latest\n", ['src/a.ts'], true),
  single('concurrency and permissions are not routing', S17, 'ROUTING scope: only on: counts', `on: pull_request\npermissions: read-all\nconcurrency:\n  group: ci-\${{ github.ref }}\n  cancel-in-progress: true\n${JOB}`, ['src/a.ts'], true),

  // §18
  single('a failing first trigger does not stop the second', S18, 'ROUTING §18 loop over (pull_request, pull_request_target)', workflow('on:\n  pull_request:\n    types: [closed]\n  pull_request_target:\n    branches: [main]'), ['src/a.ts'], true),
  single('types checked before branches: a type mismatch never runs', S18, 'ROUTING §18 order of predicates', pr('types: [opened]\nbranches: [main]'), ['src/a.ts'], false),
  {
    name: 'activated paths are sorted',
    section: S18,
    source: 'ROUTING §18 return sorted(result)',
    files: { '.github/workflows/z.yml': pr(), '.github/workflows/a.yml': pr(), '.github/workflows/m.yaml': pr() },
    changed: ['src/a.ts'],
    activated: ['.github/workflows/a.yml', '.github/workflows/m.yaml', '.github/workflows/z.yml'],
  },
];

/** A monorepo in the style of real projects: lint, docs, per-language tests, release, reusable. */
const MONO: Record<string, string> = {
  '.github/workflows/lint.yml': `name: lint\non:\n  pull_request:\n  push:\n    branches: [main]\n${JOB}`,
  '.github/workflows/docs.yml': `name: docs\non:\n  pull_request:\n    paths:\n      - 'docs/**'\n      - '*.md'\n${JOB}`,
  '.github/workflows/test-go.yml': `name: go\non:\n  pull_request:\n    paths: ['go/**', 'go.mod', 'go.sum', '.github/workflows/test-go.yml']\n${JOB}`,
  '.github/workflows/test-py.yml': `name: py\non:\n  pull_request:\n    paths-ignore: ['go/**', 'docs/**', '**.md']\n${JOB}`,
  '.github/workflows/release.yml': `name: release\non:\n  push:\n    tags: ['v*']\n${JOB}`,
  '.github/workflows/reusable-build.yml': `on:\n  workflow_call:\n${JOB}`,
  '.github/workflows/nightly.yml': `on:\n  schedule:\n    - cron: '0 3 * * *'\n${JOB}`,
  '.github/workflows/labeler.yml': `on:\n  pull_request_target:\n    types: [opened]\n${JOB}`,
  '.github/workflows/codeql.yml': `on:\n  push:\n    branches: [main]\n  pull_request:\n    branches: [main]\n${JOB}`,
};
const M = (name: string): string => `.github/workflows/${name}.yml`;

/** A Next.js-style application repository with one broken workflow. */
const APP: Record<string, string> = {
  '.github/workflows/ci.yml': `on:\n  pull_request:\n    branches: [main, 'release/**']\n    paths-ignore: ['**.md', 'docs/**']\n${JOB}`,
  '.github/workflows/e2e.yml': `on:\n  pull_request:\n    paths: ['app/**', 'e2e/**', 'package.json', 'pnpm-lock.yaml']\n${JOB}`,
  '.github/workflows/pr-title.yml': `on:\n  pull_request_target:\n    types: [opened, edited, synchronize]\n${JOB}`,
  '.github/workflows/stale.yml': `on:\n  schedule:\n    - cron: '30 1 * * *'\n${JOB}`,
  '.github/workflows/broken.yml': `on:\n  pull_request:\n    paths: ['src/**']\n    paths-ignore: ['docs/**']\n${JOB}`,
  '.github/workflows/scripts/helper.yml': `on: pull_request\n${JOB}`,
};
const A = (name: string): string => `.github/workflows/${name}.yml`;

export const repoCases: ConformanceCase[] = [
  { name: 'monorepo: a docs-only change', section: SR, source: 'docs paths; paths-ignore docs/**; branches [main]', files: MONO, changed: ['docs/intro.md'], activated: [M('codeql'), M('docs'), M('lint')] },
  { name: 'monorepo: a Go change', section: SR, source: 'paths go/**; paths-ignore go/**', files: MONO, changed: ['go/cmd/main.go'], activated: [M('codeql'), M('lint'), M('test-go')] },
  { name: 'monorepo: a root README change', section: SR, source: "'*.md' matches root files; '**.md' ignored", files: MONO, changed: ['README.md'], activated: [M('codeql'), M('docs'), M('lint')] },
  { name: 'monorepo: a Python change on a release base', section: SR, source: 'branches [main] fails on release/1.x', files: MONO, changed: ['py/pkg/a.py'], ctx: { base_branch: 'release/1.x' }, activated: [M('lint'), M('test-py')] },
  { name: 'monorepo: no changed files', section: SR, source: 'path-filtered workflows do not run without files', files: MONO, changed: [], activated: [M('codeql'), M('lint')] },
  { name: 'monorepo: editing the Go workflow itself', section: SR, source: 'paths list the workflow file; paths-ignore does not ignore it', files: MONO, changed: ['.github/workflows/test-go.yml'], activated: [M('codeql'), M('lint'), M('test-go'), M('test-py')] },
  { name: 'monorepo: labeled activity', section: SR, source: 'default types exclude labeled; labeler types [opened]', files: MONO, changed: ['go/x.go'], ctx: { action: 'labeled' }, activated: [] },
  { name: 'monorepo: opened activity reaches the labeler', section: SR, source: 'pull_request_target types [opened]', files: MONO, changed: ['go/x.go'], ctx: { action: 'opened' }, activated: [M('codeql'), M('labeler'), M('lint'), M('test-go')] },
  { name: 'app: a Next.js route change', section: SR, source: 'escaping not needed in the changed path; paths app/**', files: APP, changed: ['app/blog/[slug]/page.tsx'], activated: [A('ci'), A('e2e'), A('pr-title')], invalid: { [A('broken')]: 'exclusive-filters' } },
  { name: 'app: docs and changelog only', section: SR, source: 'paths-ignore **.md and docs/**', files: APP, changed: ['CHANGELOG.md', 'docs/x.md'], activated: [A('pr-title')], invalid: { [A('broken')]: 'exclusive-filters' } },
  { name: 'app: a lockfile change on a release branch', section: SR, source: "branches [main, 'release/**']; paths package files", files: APP, changed: ['pnpm-lock.yaml'], ctx: { base_branch: 'release/2.0' }, activated: [A('ci'), A('e2e'), A('pr-title')], invalid: { [A('broken')]: 'exclusive-filters' } },
  { name: 'app: a merge-conflicted PR', section: SR, source: 'merge conflict stops pull_request only', files: APP, changed: ['app/page.tsx'], ctx: { merge_conflict: true }, activated: [A('pr-title')], invalid: { [A('broken')]: 'exclusive-filters' } },
];
