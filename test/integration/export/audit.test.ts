import { copyFileSync, mkdirSync, readFileSync, writeFileSync, appendFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli.js';
import { auditPackages } from '../../../src/export/audit.js';
import { packageBackward, packageForward } from '../../../src/export/package.js';
import { BackwardManifestRecord, ForwardManifestRecord } from '../../../src/export/read-manifest.js';
import { directoryTree } from '../../../src/export/tree.js';
import { captureStream } from '../../../src/util/capture.js';
import { cleanupTempDirs, makeRepo, tempDir } from '../../support/make-repo.js';

const BID = 'acme_widget__1__0000000a';
const FID = 'acme_widget__2__0000000b';

async function setup() {
  const repo = await makeRepo();
  await repo.commit('Initial import', { files: { 'src/a.js': 'a1\n', 'README.md': '# w\n', 'bin/run.sh': '#!/bin/sh\n' } });
  chmodSync(join(repo.dir, 'bin', 'run.sh'), 0o755);
  await repo.git(['add', '-A']);
  await repo.git(['commit', '-q', '--amend', '--no-edit']);
  const base = await repo.rev('HEAD');
  const gold = await repo.commit('Break a', { files: { 'src/a.js': 'a2\n', 'docs/x.md': 'x\n' } });
  const cutoff = await repo.commit('Tidy', { files: { 'README.md': '# widget\n' } });
  const after = await repo.commit('Later work', { files: { 'src/a.js': 'a3\n', 'LATER.md': 'future\n' } });
  await repo.tag('v9', after);
  const mirror = await repo.bareMirror();
  const cutoffTree = await repo.git(['rev-parse', `${cutoff}^{tree}`]);
  const backward = BackwardManifestRecord.parse({
    task: 'backward', case_id: BID, repo: 'acme/widget', number: 1, report: 'render crashes on nested groups\n', report_time: '2024-01-02T00:00:00Z',
    default_branch: 'main', cutoff, gold, parent: base, history_window: 1, checks: {}, digests: { cutoff_tree: null },
  });
  const forward = ForwardManifestRecord.parse({
    task: 'forward', case_id: FID, repo: 'acme/widget', issue: 2, pull: 7, issue_text: 'The README is terse.', base: cutoff, head: after,
    context: { event: 'pull_request', action: 'synchronize', base_branch: 'main' }, changed_paths: ['README.md'], gold: [], evaluator: 'routing/1',
    source: { issue_url: 'https://github.com/acme/widget/issues/2', pr_url: 'https://github.com/acme/widget/pull/7' },
    digests: { base_tree: null, workflows: null, changed_paths: null, context: null },
  });
  return { repo, mirror, gold, cutoff, cutoffTree, after, backward, forward };
}

type Setup = Awaited<ReturnType<typeof setup>>;

async function fresh(s: Setup): Promise<{ out: string; bgit: (args: string[]) => Promise<string>; tree: string }> {
  const out = await tempDir('r2v-pkg-');
  await packageBackward(s.backward, s.mirror, out);
  await packageForward(s.forward, s.mirror, out);
  const repoDir = join(out, BID, 'repo');
  const bgit = async (args: string[]): Promise<string> =>
    (await execa('git', ['-C', repoDir, ...args], { env: { LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' } })).stdout;
  return { out, bgit, tree: join(out, FID, 'tree') };
}

let shared: Setup;
beforeAll(async () => {
  shared = await setup();
});
afterAll(async () => {
  await cleanupTempDirs();
});

describe('package audit', () => {
  it('passes clean packages whose Forward tree digest equals the base tree', async () => {
    const s = shared;
    const { out, tree } = await fresh(s);
    expect(await auditPackages(out)).toEqual({ packages: 2, findings: [] });
    expect(directoryTree(tree).tree).toBe(await s.repo.git(['rev-parse', `${s.cutoff}^{tree}`]));
  });

  it.each([
    [
      'a tag past the cutoff',
      async (p: Awaited<ReturnType<typeof fresh>>, s: Setup) => void (await p.bgit(['fetch', '-q', '--no-write-fetch-head', s.mirror, 'refs/tags/v9:refs/tags/v9'])),
      (s: Setup) => [
        `${BID}: unexpected refs: refs/tags/v9`,
        expect.stringMatching(new RegExp(`^${BID}: 5 objects not reachable from the cutoff: .*${s.after}`)),
        `${BID}: commit ${s.after} from after the cutoff is present`,
      ],
    ],
    [
      'a stray ref inside the history',
      async (p: Awaited<ReturnType<typeof fresh>>, s: Setup) => void (await p.bgit(['update-ref', 'refs/heads/old', s.gold])),
      () => [`${BID}: unexpected refs: refs/heads/old`],
    ],
    [
      'a reflog entry',
      async (p: Awaited<ReturnType<typeof fresh>>, s: Setup) =>
        void (await p.bgit(['-c', 'core.logAllRefUpdates=always', 'update-ref', '-m', 'moved', 'refs/heads/main', s.cutoff])),
      () => [expect.stringMatching(new RegExp(`^${BID}: reflogs present: logs/`))],
    ],
    [
      'an extra object from after the cutoff',
      async (p: Awaited<ReturnType<typeof fresh>>, s: Setup) => {
        const raw = await s.repo.git(['cat-file', 'commit', s.after]);
        await execa('git', ['-C', join(p.out, BID, 'repo'), 'hash-object', '-t', 'commit', '-w', '--stdin'], { input: `${raw}\n` });
      },
      (s: Setup) => [`${BID}: 1 objects not reachable from the cutoff: ${s.after}`, `${BID}: commit ${s.after} from after the cutoff is present`],
    ],
    [
      'a remote and a shallow file',
      async (p: Awaited<ReturnType<typeof fresh>>, s: Setup) => {
        await p.bgit(['remote', 'add', 'origin', s.mirror]);
        writeFileSync(join(p.out, BID, 'repo', '.git', 'shallow'), `${s.gold}\n`);
      },
      () => expect.arrayContaining([
        `${BID}: repository is shallow (.git/shallow exists)`,
        expect.stringMatching(new RegExp(`^${BID}: remote configured: remote\\.origin\\.url `)),
      ]),
    ],
    [
      'a future file in the work tree and the gold in the report',
      async (p: Awaited<ReturnType<typeof fresh>>, s: Setup) => {
        writeFileSync(join(p.out, BID, 'repo', 'LATER.md'), 'future\n');
        appendFileSync(join(p.out, BID, 'report.md'), `bisected to ${s.gold.slice(0, 8)}\n`);
      },
      (s: Setup) => [`${BID}: work tree differs from the cutoff: ?? LATER.md`, `${BID}: report.md contains a prefix of the gold: ${s.gold.slice(0, 8)}`],
    ],
    [
      'grading data whose gold is not reachable from the cutoff and whose tree digest differs',
      async (p: Awaited<ReturnType<typeof fresh>>, s: Setup) => {
        const path = join(p.out, 'grading', `${BID}.json`);
        const g = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
        writeFileSync(path, JSON.stringify({ ...g, gold: s.after, cutoff_tree: '0'.repeat(40) }));
      },
      (s: Setup) => [`${BID}: gold is not reachable from the cutoff`, `${BID}: cutoff tree ${s.cutoffTree} differs from the recorded ${'0'.repeat(40)}`],
    ],
    [
      'a .git in the Forward tree',
      async (p: Awaited<ReturnType<typeof fresh>>) => {
        mkdirSync(join(p.tree, 'src', '.git'), { recursive: true });
        writeFileSync(join(p.tree, 'src', '.git', 'HEAD'), 'ref: refs/heads/main\n');
      },
      () => [
        `${FID}: .git in the tree: tree/src/.git`,
        expect.stringMatching(new RegExp(`^${FID}: tree digest [0-9a-f]{40} differs from the recorded base tree`)),
        `${FID}: files not in the base: src/.git/HEAD`,
      ],
    ],
    [
      'file content from after the base, and grading data in the package',
      async (p: Awaited<ReturnType<typeof fresh>>) => {
        writeFileSync(join(p.tree, 'src', 'a.js'), 'a3\n');
        chmodSync(join(p.tree, 'bin', 'run.sh'), 0o644);
        copyFileSync(join(p.out, 'grading', `${FID}.json`), join(p.out, FID, 'gold.json'));
      },
      () => [
        `${FID}: unexpected entry gold.json in the package`,
        expect.stringMatching(new RegExp(`^${FID}: tree digest [0-9a-f]{40} differs from the recorded base tree`)),
        `${FID}: file content differs from the base: bin/run.sh, src/a.js`,
      ],
    ],
  ])('catches %s', async (_label, plant, expected) => {
    const s = shared;
    const p = await fresh(s);
    await plant(p, s);
    const report = await auditPackages(p.out);
    expect(report.findings).toEqual(expected(s));
  });

  it('exits non-zero from the CLI with one line per finding', async () => {
    const p = await fresh(shared);
    await p.bgit(['update-ref', 'refs/heads/old', shared.gold]);
    const output = captureStream();
    const code = await runCli(['package', 'audit', p.out], { io: { stdout: output.stream, stderr: output.stream, cwd: p.out, env: {}, isTTY: false }, signal: new AbortController().signal });
    expect(code).toBe(3);
    expect(output.text().trim().split('\n')).toEqual([`${BID}: unexpected refs: refs/heads/old`, 'audited 2 packages: 1 findings']);
  });
});
