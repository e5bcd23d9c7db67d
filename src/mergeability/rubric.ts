/**
 * Rubrics of schema `repo_rubric.v1`: what a mergeable change to a task may touch and must keep,
 * and the draft scaffold r2v derives from a gold change. Pure.
 */
import { z } from 'zod';
import { inferTestLayout, isTestPath, type TestLayout } from '../forward/test-layout.js';
import { DEFAULT_TEST_GLOBS, expandBraces } from '../pairs/globs.js';
import { globMatcher, globProblem, literalGlob } from './glob.js';
import type { FileChange } from './workspace.js';

export const RUBRIC_SCHEMA = 'repo_rubric.v1';

const Glob = z.string().superRefine((g, ctx) => {
  const problem = globProblem(g);
  if (problem) ctx.addIssue({ code: 'custom', message: `glob ${JSON.stringify(g)}: ${problem}` });
});

const Headroom = z.object({ gold: z.number().int().nonnegative(), factor: z.number().positive(), plus: z.number().int().nonnegative() });

export const EvidenceCandidate = z.object({
  kind: z.string(),
  pull: z.number().int(),
  author: z.string(),
  created_at: z.string(),
  url: z.string().nullable(),
  body: z.string(),
});
export type EvidenceCandidate = z.infer<typeof EvidenceCandidate>;

export const Rubric = z.object({
  schema: z.literal(RUBRIC_SCHEMA),
  status: z.enum(['draft', 'reviewed']),
  task_id: z.string().min(1),
  task: z.enum(['forward', 'pair']),
  repo: z.string().min(1),
  base: z.string().regex(/^[0-9a-f]{40}$/, 'must be 40 lowercase hex'),
  intent: z.string(),
  scope: z.object({
    allowed_globs: z.array(Glob),
    denied_globs: z.array(Glob),
    max_files: z.number().int().nonnegative(),
    max_changed_lines: z.number().int().nonnegative(),
    headroom: z.object({ files: Headroom, changed_lines: Headroom }).optional(),
  }),
  tests: z.object({
    globs: z.array(Glob),
    config_globs: z.array(Glob),
    /** Test ids that must still exist after the change; null when not configured. */
    list: z.array(z.string().min(1)).nullable(),
    /** Skipped tests of the gold change's run; a run skipping more fails. Null when not known. */
    oracle_skipped: z.number().int().nonnegative().nullable(),
  }),
  blockers: z.array(z.unknown()),
  non_blockers: z.array(z.unknown()),
  evidence_candidates: z.array(EvidenceCandidate),
});
export type Rubric = z.infer<typeof Rubric>;

/** CI and release configuration: never part of a mergeable change to a task. */
export const DENIED_GLOBS: readonly string[] = [
  '.github/**',
  '.gitlab-ci.yml',
  '.gitlab/**',
  '.circleci/**',
  '.travis.yml',
  '.buildkite/**',
  'azure-pipelines.yml',
  'appveyor.yml',
  '.appveyor.yml',
  'Jenkinsfile',
  '.goreleaser.yml',
  '.goreleaser.yaml',
  '.releaserc',
  '.releaserc.*',
  'release.config.*',
  'release-please-config.json',
  '.release-please-manifest.json',
  '.changeset/config.json',
];

/** Test-runner configuration a change could use to disable tests; kept when the repository has such a file. */
export const TEST_CONFIG_GLOBS: readonly string[] = [
  '**/pytest.ini',
  '**/tox.ini',
  '**/setup.cfg',
  '**/conftest.py',
  '**/noxfile.py',
  '**/jest.config.*',
  '**/vitest.config.*',
  '**/vitest.workspace.*',
  '**/karma.conf.*',
  '**/.mocharc*',
  '**/phpunit.xml*',
  '**/.rspec',
  '**/playwright.config.*',
];

/** Top-level directories that hold several independent components: scope goes one level deeper there. */
export const COMPONENT_CONTAINERS: ReadonlySet<string> = new Set([
  'packages', 'apps', 'libs', 'crates', 'modules', 'plugins', 'services', 'components', 'extensions', 'projects',
]);

/** Headroom over the gold change: limit = ceil(gold × factor) + plus. */
export const FILES_HEADROOM = { factor: 2, plus: 3 } as const;
export const LINES_HEADROOM = { factor: 3, plus: 50 } as const;

export const withHeadroom = (gold: number, h: { factor: number; plus: number }): number => Math.ceil(gold * h.factor) + h.plus;

/**
 * Allowed globs for the paths a gold change touched: each touched top-level directory as `dir/**`
 * (one level deeper under a component container such as `packages/`), each touched root-level
 * file by its exact name. The shallowest level that still leaves out untouched top-level parts.
 */
export function allowedGlobsFor(paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    const segs = p.split('/');
    if (segs.length === 1) out.add(literalGlob(p));
    else if (COMPONENT_CONTAINERS.has(segs[0]!) && segs.length > 2) out.add(`${literalGlob(segs[0]!)}/${literalGlob(segs[1]!)}/**`);
    else out.add(`${literalGlob(segs[0]!)}/**`);
  }
  return [...out].sort();
}

/** Lines a change adds plus lines it deletes (a binary file counts as one line). */
export function changedLines(changes: readonly FileChange[]): number {
  return changes.reduce((n, c) => n + (c.added === null || c.deleted === null ? 1 : c.added + c.deleted), 0);
}

export interface DraftInput {
  readonly taskId: string;
  readonly task: 'forward' | 'pair';
  readonly repo: string;
  readonly base: string;
  readonly intent: string;
  /** The gold change, as read from a workspace holding it. */
  readonly gold: readonly FileChange[];
  readonly testGlobs: readonly string[];
  readonly testConfigGlobs: readonly string[];
  readonly evidence: readonly EvidenceCandidate[];
  /** Test ids that must survive (e.g. a pair's fail-to-pass tests); null when none are known. */
  readonly testList?: readonly string[] | null;
}

/** The draft rubric of a gold change: scope from its paths and size, tests from the repository's layout. */
export function draftRubric(input: DraftInput): Rubric {
  const files = input.gold.length;
  const lines = changedLines(input.gold);
  return {
    schema: RUBRIC_SCHEMA,
    status: 'draft',
    task_id: input.taskId,
    task: input.task,
    repo: input.repo,
    base: input.base,
    intent: input.intent,
    scope: {
      allowed_globs: [...new Set([...allowedGlobsFor(input.gold.map((c) => c.path)), ...input.testGlobs])].sort(),
      denied_globs: [...DENIED_GLOBS],
      max_files: withHeadroom(files, FILES_HEADROOM),
      max_changed_lines: withHeadroom(lines, LINES_HEADROOM),
      headroom: { files: { gold: files, ...FILES_HEADROOM }, changed_lines: { gold: lines, ...LINES_HEADROOM } },
    },
    tests: { globs: [...input.testGlobs].sort(), config_globs: [...input.testConfigGlobs].sort(), list: input.testList && input.testList.length > 0 ? [...input.testList].sort() : null, oracle_skipped: null },
    blockers: [],
    non_blockers: [],
    evidence_candidates: [...input.evidence],
  };
}

/**
 * A repository's configured test globs (repos[].test_globs, the pair miner's dialect) in the
 * rubric dialect: brace alternatives expanded, a slash-less glob prefixed with `**` + `/` (it
 * matched a file name at any depth), a leading `./` dropped.
 */
export function toRubricGlobs(configured: readonly string[]): string[] {
  const out = new Set<string>();
  for (const g of configured) {
    for (const e of expandBraces(g.startsWith('./') ? g.slice(2) : g)) out.add(e.includes('/') ? e : `**/${e}`);
  }
  return [...out].sort();
}

function layoutGlob(layout: TestLayout, ext: string): string {
  if (layout.place === 'mirror') return `${literalGlob(layout.root)}/**`;
  if (layout.place === 'tests-subdir') return `**/${literalGlob(layout.root)}/**`;
  const e = literalGlob(ext);
  switch (layout.style) {
    case 'dot-test':
      return `**/*.test${e}`;
    case 'dot-spec':
      return `**/*.spec${e}`;
    case 'underscore-test':
      return `**/*_test${e}`;
    case 'test-prefix':
      return `**/test_*${e}`;
    case 'Test-suffix':
      return `**/*Test${e}`;
  }
}

/**
 * Test globs from the repository's layout at base (src/forward/test-layout.ts): for every file
 * extension its test files use, the glob of the most common layout, plus single test files such
 * as a root `test.js`; the configured globs when the repository has some; the miner's defaults
 * (those that match a file at base, else all) when neither gives any.
 */
export function testGlobsFor(tree: readonly string[], configured: readonly string[] | undefined): string[] {
  if (configured && configured.length > 0) return toRubricGlobs(configured);
  const exts = new Set<string>();
  for (const p of tree) {
    if (!isTestPath(p)) continue;
    const name = p.split('/').pop()!;
    const dot = name.lastIndexOf('.');
    if (dot > 0) exts.add(name.slice(dot));
  }
  const out = new Set<string>();
  for (const ext of exts) {
    const layout = inferTestLayout(tree, ext);
    if (layout) out.add(layoutGlob(layout, ext));
  }
  // A single test file named `test.js`, `tests.py`, `spec.rb` … has no layout of its own.
  for (const p of tree) if (SINGLE_TEST_FILE.test(p.split('/').pop()!)) out.add(literalGlob(p));
  if (out.size > 0) return [...out].sort();
  const present = DEFAULT_TEST_GLOBS.filter((g) => tree.some(globMatcher([g])));
  return [...(present.length > 0 ? present : DEFAULT_TEST_GLOBS)].sort();
}

const SINGLE_TEST_FILE = /^(test|tests|spec|specs)\.[A-Za-z0-9]+$/;

/** The test-configuration globs that match a file of the tree at base. */
export function testConfigGlobsFor(tree: readonly string[]): string[] {
  return TEST_CONFIG_GLOBS.filter((g) => tree.some(globMatcher([g]))).sort();
}
