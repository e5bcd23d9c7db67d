/**
 * A generated repository with realistic workflows and a set of issue–PR pairs, stored in the
 * core tables the way discover/import would store them.
 */
import type { PullRow, ThreadRow } from '../../../src/store/tables/sources.js';
import type { Store } from '../../../src/store/db.js';
import { makeRepo, type TestRepo } from '../../support/make-repo.js';
import { WORKFLOWS } from '../../unit/forward/workflows.js';

export const REPO = 'acme/widgets';
const GH = `https://github.com/${REPO}`;

export const NEW_WORKFLOW = `name: services
on:
  pull_request:
    paths: ['services/**']
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - run: make services
`;

const BASE_FILES: Record<string, string> = {
  'package.json': '{ "name": "widgets" }\n',
  'docs/guide.md': '# Guide\n',
  'docs/index.md': '# Widgets\n',
  'src/app/main.ts': "import { slug } from '../lib/strings.js';\nexport const main = () => slug('x');\n",
  'src/app/util.ts': 'export const id = (x: string) => x;\n',
  'src/app/main.test.ts': "import { main } from './main.js';\n",
  'src/app/styles.css': 'body { margin: 0; }\n',
  'src/lib/strings.ts': 'export const slug = (s: string) => s.toLowerCase();\n',
  'services/api/handler.py': 'def handle():\n    return 1\n',
  'tests/test_handler.py': 'from services.api.handler import handle\n',
};

export interface Scenario {
  readonly repo: TestRepo;
  readonly shas: Record<string, string>;
}

interface PullSpec {
  number: number;
  baseRef?: string;
  baseSha: string;
  headSha: string;
  mergeCommitSha: string | null;
  createdAt: string;
  mergedAt: string | null;
  commitShas: string[];
}

const at = (day: number, hour = 0): string => new Date(Date.UTC(2024, 2, day, hour)).toISOString().replace('.000Z', 'Z');

function issue(number: number, title: string, body: string, createdAt: string): ThreadRow {
  return {
    repo: REPO, number, kind: 'issue', title, body, author: 'reporter', state: 'closed', createdAt,
    updatedAt: null, closedAt: null, htmlUrl: `${GH}/issues/${number}`, source: 'test',
  };
}

function pull(spec: PullSpec): PullRow {
  return {
    repo: REPO, number: spec.number, title: `PR ${spec.number}`, body: '', author: 'dev',
    state: spec.mergedAt ? 'closed' : 'open', draft: false, baseRef: spec.baseRef ?? 'main', baseSha: spec.baseSha,
    headRef: `pr-${spec.number}`, headSha: spec.headSha, mergeCommitSha: spec.mergeCommitSha, createdAt: spec.createdAt,
    mergedAt: spec.mergedAt, htmlUrl: `${GH}/pull/${spec.number}`, commitShas: spec.commitShas, commitMessages: [], source: 'test',
  };
}

/** Builds the repository (history below) and stores issues, comments, pulls and links. */
export async function buildScenario(store: Store): Promise<Scenario> {
  const repo = await makeRepo();
  const shas: Record<string, string> = {};
  const s = store.sources;
  s.upsertRepo({ name: REPO, defaultBranch: 'main', isFork: false, parent: null, htmlUrl: GH, source: 'test', updatedAt: at(1) });

  // c0: no workflows yet. c1: workflows and the project.
  shas.c0 = await repo.commit('initial', { files: { 'README.md': '# widgets\n' } });
  shas.c1 = await repo.commit('project and CI', { files: { ...BASE_FILES, ...WORKFLOWS } });

  // #111: based before any workflow existed → no-workflows.
  await repo.checkout('pr-111', { create: true, from: shas.c0 });
  shas.h111 = await repo.commit('readme typo', { files: { 'README.md': '# Widgets\n' } });
  await repo.updateRef('refs/pull/111/head', shas.h111);

  // #101: rename src/app/util.ts → src/app/helpers.ts, merged with a merge commit.
  await repo.checkout('pr-101', { create: true, from: shas.c1 });
  shas.h101 = await repo.commit('rename util to helpers', { files: { 'src/app/util.ts': null, 'src/app/helpers.ts': BASE_FILES['src/app/util.ts']! } });
  await repo.updateRef('refs/pull/101/head', shas.h101);
  await repo.checkout('main');
  shas.m101 = await repo.merge('pr-101', { message: 'Merge pull request #101' });

  // #102: two commits squash-merged (docs and README).
  await repo.checkout('pr-102', { create: true, from: shas.m101 });
  shas.h102a = await repo.commit('docs', { files: { 'docs/guide.md': '# Guide\n\nEmpty input.\n' } });
  shas.h102 = await repo.commit('readme', { files: { 'README.md': '# widgets\n\nSee the guide.\n' } });
  await repo.updateRef('refs/pull/102/head', shas.h102);
  await repo.checkout('main');
  shas.m102 = await repo.commit('Document empty input (#102)', { files: { 'docs/guide.md': '# Guide\n\nEmpty input.\n', 'README.md': '# widgets\n\nSee the guide.\n' } });

  // #103: handler change plus a workflow the PR itself adds, merge commit.
  await repo.checkout('pr-103', { create: true, from: shas.m102 });
  shas.h103 = await repo.commit('api: handle empty', {
    files: { 'services/api/handler.py': 'def handle():\n    return 0\n', '.github/workflows/new.yml': NEW_WORKFLOW },
  });
  await repo.updateRef('refs/pull/103/head', shas.h103);
  await repo.checkout('main');
  shas.m103 = await repo.merge('pr-103', { message: 'Merge pull request #103' });

  // #104: 301 generated files.
  await repo.checkout('pr-104', { create: true, from: shas.m103 });
  const many: Record<string, string> = {};
  for (let i = 0; i < 301; i += 1) many[`gen/f${String(i).padStart(3, '0')}.txt`] = `${i}\n`;
  shas.h104 = await repo.commit('generate', { files: many });
  await repo.updateRef('refs/pull/104/head', shas.h104);

  // #105 and #106 both close issue #5; #107 changes only a stylesheet; #112 is empty.
  await repo.checkout('pr-105', { create: true, from: shas.m103 });
  shas.h105 = await repo.commit('main tweak', { files: { 'src/app/main.ts': "import { slug } from '../lib/strings.js';\nexport const main = () => slug('y');\n" } });
  await repo.updateRef('refs/pull/105/head', shas.h105);
  await repo.checkout('pr-106', { create: true, from: shas.m103 });
  shas.h106 = await repo.commit('guide tweak', { files: { 'docs/guide.md': '# Guide\n\nMore.\n' } });
  await repo.updateRef('refs/pull/106/head', shas.h106);
  await repo.checkout('pr-107', { create: true, from: shas.m103 });
  shas.h107 = await repo.commit('style', { files: { 'src/app/styles.css': 'body { margin: 1px; }\n' } });
  await repo.updateRef('refs/pull/107/head', shas.h107);
  await repo.checkout('pr-112', { create: true, from: shas.m103 });
  shas.h112 = await repo.commit('nothing', {});
  await repo.updateRef('refs/pull/112/head', shas.h112);

  // #113: the head of #101 again, with a base SHA the mirror lacks → merge-base fallback.
  // #110: head on an unrelated history, base SHA unknown → base-missing.
  await repo.git(['checkout', '-q', '--orphan', 'pr-110']);
  shas.h110 = await repo.commit('unrelated', { files: { 'other.txt': 'x\n' } });
  await repo.updateRef('refs/pull/110/head', shas.h110);
  await repo.checkout('main');

  const missing = 'deadbeef'.repeat(5);
  const pulls: PullSpec[] = [
    { number: 101, baseSha: shas.c1, headSha: shas.h101, mergeCommitSha: shas.m101, createdAt: at(2), mergedAt: at(3), commitShas: [shas.h101] },
    { number: 102, baseSha: shas.m101, headSha: shas.h102, mergeCommitSha: shas.m102, createdAt: at(5, 12), mergedAt: at(6), commitShas: [shas.h102a, shas.h102] },
    { number: 103, baseSha: shas.m102, headSha: shas.h103, mergeCommitSha: shas.m103, createdAt: at(8), mergedAt: at(9), commitShas: [shas.h103] },
    { number: 104, baseSha: shas.m103, headSha: shas.h104, mergeCommitSha: null, createdAt: at(10), mergedAt: at(11), commitShas: [shas.h104] },
    { number: 105, baseSha: shas.m103, headSha: shas.h105, mergeCommitSha: null, createdAt: at(12), mergedAt: at(13), commitShas: [shas.h105] },
    { number: 106, baseSha: shas.m103, headSha: shas.h106, mergeCommitSha: null, createdAt: at(12), mergedAt: at(13), commitShas: [shas.h106] },
    { number: 107, baseSha: shas.m103, headSha: shas.h107, mergeCommitSha: null, createdAt: at(14), mergedAt: at(15), commitShas: [shas.h107] },
    { number: 108, baseSha: shas.m103, headSha: shas.h107, mergeCommitSha: null, createdAt: at(14), mergedAt: null, commitShas: [shas.h107] },
    { number: 109, baseRef: 'feature/x', baseSha: shas.m103, headSha: shas.h107, mergeCommitSha: null, createdAt: at(14), mergedAt: at(15), commitShas: [] },
    { number: 110, baseSha: missing, headSha: shas.h110, mergeCommitSha: null, createdAt: at(14), mergedAt: at(15), commitShas: [shas.h110] },
    { number: 111, baseSha: shas.c0, headSha: shas.h111, mergeCommitSha: null, createdAt: at(14), mergedAt: at(15), commitShas: [shas.h111] },
    { number: 113, baseSha: 'feedface'.repeat(5), headSha: shas.h101, mergeCommitSha: shas.m101, createdAt: at(2), mergedAt: at(3), commitShas: [shas.h101] },
    { number: 112, baseSha: shas.m103, headSha: shas.h112, mergeCommitSha: null, createdAt: at(14), mergedAt: at(15), commitShas: [shas.h112] },
  ];
  for (const p of pulls) s.upsertPull(pull(p));

  s.upsertThread(issue(1, 'Rename util to helpers', 'The name `src/app/util.ts` is confusing.', at(1)));
  s.upsertThread(issue(2, 'Document empty input', `The guide says nothing about empty input (docs/guide.md).\nUpdate: fixed in ${GH}/pull/102, thanks!`, at(4)));
  s.replaceComments(REPO, 2, [
    { repo: REPO, number: 2, commentId: 21, author: 'alice', createdAt: at(5), updatedAt: null, body: 'Also README.md should link the guide.', htmlUrl: null },
    { repo: REPO, number: 2, commentId: 22, author: 'dev', createdAt: at(5, 12), updatedAt: null, body: `Opened #102 with ${shas.h102!.slice(0, 8)}.`, htmlUrl: null },
    { repo: REPO, number: 2, commentId: 23, author: 'bob', createdAt: at(7), updatedAt: null, body: 'Merged, closing. Follow-up in services/api.', htmlUrl: null },
  ]);
  s.upsertThread(issue(3, 'API returns 1 on empty input', 'handler.py returns 1; expected 0.', at(7)));
  s.upsertThread(issue(4, 'Generate fixtures', 'We need 301 fixtures.', at(9)));
  s.upsertThread(issue(5, 'Main and guide disagree', 'main() slugs x; the guide says y.', at(11)));
  s.upsertThread(issue(7, 'Margin is wrong', 'Body margin should be 1px.', at(13)));
  s.upsertThread(issue(8, 'Unmerged attempt', 'x', at(13)));
  s.upsertThread(issue(9, 'Feature branch fix', 'x', at(13)));
  s.upsertThread(issue(10, 'Lost base', 'x', at(13)));
  s.upsertThread(issue(11, 'Readme typo', 'x', at(13)));
  s.upsertThread(issue(12, 'Nothing to do', 'x', at(13)));
  s.upsertThread(issue(13, 'Helpers again', 'Same as the util rename, from a fork whose base is gone.', at(1)));
  const links: [number, number, string][] = [
    [1, 101, 'closing-references'], [1, 101, 'keyword-body'], [2, 102, 'closing-references'], [3, 103, 'keyword-body'],
    [4, 104, 'closing-references'], [5, 105, 'closing-references'], [5, 106, 'timeline'], [7, 107, 'closing-references'],
    [8, 108, 'timeline'], [9, 109, 'closing-references'], [10, 110, 'closing-references'], [11, 111, 'closing-references'],
    [12, 112, 'closing-references'], [13, 113, 'closing-references'],
  ];
  for (const [i, p, how] of links) s.upsertLink({ repo: REPO, issue: i, pull: p, how, evidence: how === 'keyword-body' ? `Fixes #${i}` : '' });
  return { repo, shas };
}
