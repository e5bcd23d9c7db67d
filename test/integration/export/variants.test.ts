import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPackages } from '../../../src/export/audit.js';
import { BackwardManifestRecord, ForwardManifestRecord } from '../../../src/export/read-manifest.js';
import { packageVariant, type Variant } from '../../../src/export/variants.js';
import type { ForwardPairRecord } from '../../../src/export/forward-pairs.js';
import { cleanupTempDirs, makeRepo, tempDir } from '../../support/make-repo.js';
import { jsonLines, runCliCaptured } from '../../support/cli.js';

const BID = 'acme_widget__1__0000000a';
const FID = 'acme_widget__2__0000000b';
const CI = (paths: string): string =>
  `name: ci\non:\n  pull_request:\n    paths: ['${paths}']\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n`;
const REPORT = [
  'Saving a drawing with nested groups now crashes the renderer with a segmentation fault.',
  '',
  '```',
  'render: segmentation fault (core dumped)',
  '```',
  '',
  '## Environment',
  '- OS: Debian 12',
  '- widget 4.2.1',
  '',
].join('\n');

async function setup() {
  const repo = await makeRepo();
  await repo.commit('Initial import', { files: { 'src/a.js': 'a1\n', 'README.md': '# w\n', '.github/workflows/ci.yml': CI('docs/**') } });
  const flip = await repo.commit('ci: build on source changes', { files: { '.github/workflows/ci.yml': CI('src/**') } });
  const parent = await repo.commit('Work', { files: { 'src/b.js': 'b\n' } });
  const gold = await repo.commit('Break a', { files: { 'src/a.js': 'a2\n' } });
  const cutoff = await repo.commit('Tidy', { files: { 'README.md': '# widget\n' } });
  const mirror = await repo.bareMirror();
  const backward = BackwardManifestRecord.parse({
    task: 'backward', case_id: BID, repo: 'acme/widget', number: 1, report: REPORT, report_time: '2024-01-02T00:00:00Z',
    default_branch: 'main', cutoff, gold, parent, history_window: 1, checks: {}, digests: { cutoff_tree: null },
  });
  const forward = ForwardManifestRecord.parse({
    task: 'forward', case_id: FID, repo: 'acme/widget', issue: 2, pull: 7, issue_text: 'Parsing of nested groups is slow.', base: cutoff, head: null,
    context: { event: 'pull_request', action: 'synchronize', base_branch: 'main' }, changed_paths: ['src/a.js', 'src/parse/groups.js'],
    gold: ['.github/workflows/ci.yml'], evaluator: 'routing/1',
    source: { issue_url: 'https://github.com/acme/widget/issues/2', pr_url: 'https://github.com/acme/widget/pull/7' },
    digests: { base_tree: null, workflows: null, changed_paths: null, context: null },
  });
  return { repo, mirror, flip, gold, cutoff, backward, forward };
}

type Setup = Awaited<ReturnType<typeof setup>>;
let s: Setup;
let pairs: Map<string, ForwardPairRecord>;
let pairsFile: string;

beforeAll(async () => {
  s = await setup();
  const dir = await tempDir('r2v-fp-');
  const manifest = join(dir, 'forward.jsonl');
  writeFileSync(manifest, `${JSON.stringify(s.forward)}\n`);
  const r = await runCliCaptured(['forward-pairs', '--manifest', manifest, '--out', dir, '--git-dir', s.mirror], dir);
  expect(r.stderr).toContain('1 paired');
  expect(r.code).toBe(0);
  pairsFile = join(dir, 'forward-pairs.jsonl');
  const lines = jsonLines<ForwardPairRecord>(readFileSync(pairsFile, 'utf8'));
  pairs = new Map(lines.map((p) => [p.case_id, p]));
});
afterAll(async () => {
  await cleanupTempDirs();
});

async function build(variant: Variant): Promise<string> {
  const out = await tempDir(`r2v-var-${variant}-`);
  await packageVariant(s.backward, s.mirror, out, variant, pairs);
  await packageVariant(s.forward, s.mirror, out, variant, pairs);
  return out;
}

describe('forward-pairs', () => {
  it('pairs the case with the state before the workflow change', async () => {
    const p = pairs.get(FID)!;
    expect(p).toMatchObject({ status: 'paired', paired_sha: await s.repo.rev(`${s.flip}^`), paired_gold: [], flipped: ['.github/workflows/ci.yml'], bound: 500 });
    expect(existsSync(pairsFile.replace('.jsonl', '.meta.json'))).toBe(true);
  });
});

describe('package variants', () => {
  it.each<[Variant, number]>([
    ['full', 2],
    ['metadata-only', 1],
    ['symptom-ablated', 1],
    ['no-issue', 1],
    ['oracle-scope', 1],
    ['paired-state', 1],
  ])('%s packages and audits clean', async (variant, count) => {
    const out = await build(variant);
    expect(await auditPackages(out)).toEqual({ packages: count, findings: [] });
  });

  it('metadata-only holds commit metadata and no repository', async () => {
    const out = await build('metadata-only');
    expect(existsSync(join(out, BID, 'repo'))).toBe(false);
    const lines = jsonLines(readFileSync(join(out, BID, 'history_metadata.jsonl'), 'utf8'));
    expect(lines).toHaveLength(5);
    expect(Object.keys(lines[0]!).sort()).toEqual(['author_date', 'changed_paths', 'parents', 'sha', 'subject']);
    expect(lines.find((l) => l.sha === s.gold)!.changed_paths).toEqual(['src/a.js']);
  });

  it('symptom-ablated keeps the environment and deletes the symptom', async () => {
    const out = await build('symptom-ablated');
    const report = readFileSync(join(out, BID, 'report.md'), 'utf8');
    expect(report).toContain('- OS: Debian 12');
    expect(report).not.toContain('segmentation fault');
  });

  it.each<[Variant, string, (out: string) => void, RegExp]>([
    ['metadata-only', 'a diff left in the history', (out) => appendFileSync(join(out, BID, 'history_metadata.jsonl'), `${JSON.stringify({ sha: 'x', diff: 'diff --git a/src/a.js b/src/a.js' })}\n`), /fields beyond commit metadata: diff/],
    ['symptom-ablated', 'a symptom line put back', (out) => appendFileSync(join(out, BID, 'report.md'), 'Saving a drawing with nested groups now crashes the renderer with a segmentation fault.\n'), /still holds 1 deleted symptom/],
    ['no-issue', 'Δ* in the context', (out) => {
      const p = join(out, FID, 'context.json');
      writeFileSync(p, JSON.stringify({ ...JSON.parse(readFileSync(p, 'utf8')), changed: ['src/parse/groups.js'] }));
    }, /context.json names changed paths of the fix: src\/parse\/groups.js/],
    ['no-issue', 'the issue left in', (out) => writeFileSync(join(out, FID, 'issue.md'), 'Parsing is slow.\n'), /unexpected entry issue.md/],
    ['oracle-scope', 'a path dropped from the scope', (out) => writeFileSync(join(out, FID, 'changed_paths.json'), '["src/a.js"]\n'), /changed_paths.json is missing or differs/],
    ['paired-state', 'the gold list in the task', (out) => appendFileSync(join(out, `${FID}__paired`, 'task.json'), ' ".github/workflows/ci.yml"'), /task.json names gold workflows/],
  ])('%s: %s is caught', async (variant, _what, plant, finding) => {
    const out = await build(variant);
    plant(out);
    const report = await auditPackages(out);
    expect(report.findings.some((f) => finding.test(f))).toBe(true);
  });

  it('refuses paired-state without a pairs file, with one line', async () => {
    const dir = await tempDir('r2v-var-cli-');
    const manifest = join(dir, 'forward.jsonl');
    writeFileSync(manifest, `${JSON.stringify(s.forward)}\n`);
    const r = await runCliCaptured(['package', '--all', '--manifest', manifest, '--out', join(dir, 'p'), '--git-dir', s.mirror, '--variant', 'paired-state'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--pairs');
  });
});
