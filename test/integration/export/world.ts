/**
 * One small repository with both kinds of case, stored as discover/import would store it, and
 * the upstream stages that turn it into admission inputs.
 */
import { join } from 'node:path';
import { Config } from '../../../src/config.js';
import { silentLogger } from '../../../src/log.js';
import { createStageContext } from '../../../src/run/context.js';
import { runStages, type RunSummary } from '../../../src/run/runner.js';
import { stages } from '../../../src/stages/index.js';
import type { Stage } from '../../../src/stages/types.js';
import type { Store } from '../../../src/store/db.js';
import { BASE_EPOCH, makeRepo, type TestRepo } from '../../support/make-repo.js';
import { SYMPTOM } from '../backward/pipeline-fixture.js';

export const REPO = 'acme/widget';
const GH = `https://github.com/${REPO}`;

/** The registry's stages but discover (the world stores its rows directly) and pairs (not part of these cases). */
export const ALL_STAGES: readonly Stage<any>[] = stages.filter((s) => s.name !== 'discover' && s.name !== 'pairs');
/** Every stage before admit. */
export const UPSTREAM: readonly Stage<any>[] = ALL_STAGES.filter((s) => s.name !== 'admit');

const CI = `name: ci
on:
  pull_request:
    paths: ['src/**']
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: make test
`;
const DOCS = `name: docs
on:
  pull_request:
    paths: ['docs/**']
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: make docs
`;

export interface World {
  readonly repo: TestRepo;
  readonly gold: string;
  readonly cutoff: string;
  /** The first commit of main after the cutoff. */
  readonly afterCutoff: string;
  readonly shas: Record<string, string>;
}

const hour = (h: number): number => BASE_EPOCH + h * 3600;
export const at = (h: number): string => new Date(hour(h) * 1000).toISOString().replace('.000Z', 'Z');

/** Builds the repository and stores two Backward threads and three Forward issue–PR pairs. */
export async function buildWorld(store: Store): Promise<World> {
  const repo = await makeRepo();
  const shas: Record<string, string> = {};
  shas.c1 = await repo.commit('Initial import', {
    files: { 'src/flatten.js': 'v1\n', 'README.md': '# widget\n', 'docs/guide.md': '# Guide\n', '.github/workflows/ci.yml': CI, '.github/workflows/docs.yml': DOCS },
    time: hour(1),
  });
  shas.c2 = await repo.commit('Add renderer', { files: { 'src/render.js': 'r\n' }, time: hour(2) });
  await repo.tag('v2.3.0', shas.c2);
  const gold = await repo.commit('Rework the path flattener', { files: { 'src/flatten.js': 'v2\n' }, time: hour(3) });
  shas.c4 = await repo.commit('Tidy docs', { files: { 'README.md': '# widget\n\ndocs\n' }, time: hour(4) });
  const cutoff = await repo.commit('Bump version to 2.4.0', { files: { 'package.json': '{"version":"2.4.0"}\n' }, time: hour(5) });

  // Forward pull requests, based on the cutoff commit, merged after the Backward reports.
  const pr = async (n: number, files: Record<string, string>, h: number): Promise<void> => {
    await repo.checkout(`pr-${n}`, { create: true, from: cutoff });
    shas[`h${n}`] = await repo.commit(`change for #${n}`, { files, time: hour(h) });
    await repo.updateRef(`refs/pull/${n}/head`, shas[`h${n}`]!);
    await repo.checkout('main');
  };
  await pr(50, { 'src/render.js': 'r2\n' }, 20);
  await pr(51, { 'docs/guide.md': '# Guide\n\nMargins.\n' }, 21);
  await pr(52, { 'README.md': '# widget\n\nusage\n' }, 22);
  const afterCutoff = await repo.merge('pr-50', { message: 'Merge pull request #50', time: hour(23) });
  shas.m51 = await repo.merge('pr-51', { message: 'Merge pull request #51', time: hour(24) });
  shas.fix = await repo.commit('Fix flattener crash', { files: { 'src/flatten.js': 'v3\n' }, time: hour(40) });
  await repo.tag('v2.4.1', shas.fix);

  const s = store.sources;
  s.upsertRepo({ name: REPO, defaultBranch: 'main', isFork: false, parent: null, htmlUrl: GH, source: 'test', updatedAt: at(1) });
  const thread = (number: number, title: string, body: string, created: number, comments: string[] = []): void => {
    s.upsertThread({
      repo: REPO, number, kind: 'issue', title, body, author: 'reporter', state: 'open', createdAt: at(created),
      updatedAt: null, closedAt: null, htmlUrl: `${GH}/issues/${number}`, source: 'test',
    });
    s.replaceComments(REPO, number, comments.map((c, i) => ({
      repo: REPO, number, commentId: number * 100 + i, author: `dev${i}`, createdAt: at(created + i + 1), updatedAt: null,
      body: c, htmlUrl: `${GH}/issues/${number}#issuecomment-${number * 100 + i}`,
    })));
  };
  // Backward #1: a clean bisect transcript. #2: a hedged guess.
  thread(1, 'render crashes on nested groups in 2.4.0',
    `${SYMPTOM}\n\nI ran git bisect between v2.3.0 and main:\n\n\`\`\`\n${gold} is the first bad commit\ncommit ${gold}\nAuthor: Test Author <author@example.com>\nDate:   Mon Jan 1 03:00:00 2024 +0000\n\n    Rework the path flattener\n\`\`\`\n`,
    10);
  thread(2, 'render crashes on nested groups again', SYMPTOM, 10, [`I suspect the culprit is ${gold.slice(0, 9)}.`]);
  // Forward: #40 → PR 50 (src), #41 → PR 51 (docs), #42 → PR 52 (README only: empty gold, equal to the prior).
  thread(40, 'Renderer ignores margins', 'The renderer in src/render.js ignores the margin option.', 12);
  thread(41, 'Guide lacks margins', 'docs/guide.md says nothing about margins.', 12);
  thread(42, 'README lacks usage', 'The README has no usage section.', 12);
  for (const [issue, n, h] of [[40, 50, 20], [41, 51, 21], [42, 52, 22]] as const) {
    s.upsertPull({
      repo: REPO, number: n, title: `Fix #${issue}`, body: `Fixes #${issue}`, author: 'dev', state: 'closed', draft: false,
      baseRef: 'main', baseSha: cutoff, headRef: `pr-${n}`, headSha: shas[`h${n}`]!, mergeCommitSha: null,
      createdAt: at(h - 5), mergedAt: at(h + 3), htmlUrl: `${GH}/pull/${n}`, commitShas: [shas[`h${n}`]!], commitMessages: [], source: 'test',
    });
    s.upsertLink({ repo: REPO, issue, pull: n, how: 'closing-references', evidence: '' });
  }
  return { repo, gold, cutoff, afterCutoff, shas };
}

/** Runs stages with the real runner over the world's repository. */
export async function runWorld(
  store: Store,
  dataDir: string,
  gitUrl: string,
  options: { stages?: readonly Stage<any>[]; force?: boolean; runOptions?: Record<string, unknown> } = {},
): Promise<RunSummary> {
  const config = Config.parse({ repos: [{ name: REPO, git_url: gitUrl, default_branch: 'main' }] });
  const ctx = createStageContext({
    store, config, log: silentLogger, signal: new AbortController().signal, dataDir, env: {},
    now: () => new Date('2024-06-01T00:00:00Z'), options: options.runOptions,
  });
  try {
    return await runStages(ctx, { stages: options.stages ?? ALL_STAGES, repos: [REPO], force: options.force ?? false });
  } finally {
    await ctx.services.close();
  }
}

export const mirrorOf = (dataDir: string): string => join(dataDir, 'mirrors', 'acme__widget.git');

/**
 * Records a verified probe boundary for Backward thread `number` through the probe stage's own
 * table (this world's repository has no runnable test to replay), as a probe run would.
 */
export function recordVerifiedProbe(store: Store, world: World, number: number): void {
  const record = store.backward.caseOf(REPO, number);
  if (!record?.caseId) throw new Error(`#${number} has no resolved case`);
  store.probes.replaceCase({
    caseId: record.caseId, repo: REPO, number, status: 'replayed', specPath: 'probes/x.yaml', specDigest: 'd', draft: false, draftPath: null,
    draftKind: null, goldSha: world.gold, parentSha: null, parentVerdict: 'good', parentWhy: 'ok', goldVerdict: 'bad', goldWhy: 'crash',
    boundary: 'verified', observed: 'verified', reason: 'verified', repeats: 3, networkIsolated: true, finishedAt: '2024-06-01T00:00:00Z',
  }, []);
}
