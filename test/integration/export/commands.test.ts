import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { execa } from 'execa';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../../src/export/records.js';
import { openStore } from '../../../src/store/db.js';
import { runCliCaptured, type CliResult } from '../../support/cli.js';
import { cleanupTempDirs, tempDir } from '../../support/make-repo.js';
import { admitStage } from '../../../src/stages/admit.js';
import { buildWorld, mirrorOf, recordVerifiedProbe, REPO, runWorld, type World } from './world.js';

let dir: string;
let world: World;

const r2v = (args: string[]): Promise<CliResult> => runCliCaptured(['--config', join(dir, 'r2v.config.yaml'), ...args], dir);

const records = (path: string): Record<string, unknown>[] =>
  readFileSync(path, 'utf8').split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l) as Record<string, unknown>);

function writeLines(path: string, rows: readonly unknown[]): void {
  writeFileSync(path, rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
}

beforeAll(async () => {
  dir = await tempDir('r2v-export-cli-');
  const store = openStore(join(dir, 'r2v.db'));
  try {
    world = await buildWorld(store);
    const summary = await runWorld(store, dir, world.repo.dir);
    expect(summary.failed).toBe(0);
    recordVerifiedProbe(store, world, 1);
    expect((await runWorld(store, dir, world.repo.dir, { stages: [admitStage] })).failed).toBe(0);
  } finally {
    store.close();
  }
  writeFileSync(join(dir, 'r2v.config.yaml'), YAML.stringify({ data_dir: '.', repos: [{ name: REPO, git_url: world.repo.dir, default_branch: 'main' }] }));
  const r = await r2v(['export', '--out', 'manifests']);
  expect(r.code).toBe(0);
});

afterAll(async () => {
  await cleanupTempDirs();
});

describe('r2v export / verify', () => {
  it('export rejects a bad --task with exit 2', async () => {
    const r = await r2v(['export', '--task', 'sideways']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('sideways');
  });

  it('export --task into a directory with an earlier export removes the other task\'s stale manifests', async () => {
    expect((await r2v(['export', '--out', 'stale-out'])).code).toBe(0);
    expect(existsSync(join(dir, 'stale-out/forward.jsonl'))).toBe(true);
    const r = await r2v(['export', '--out', 'stale-out', '--task', 'backward']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`r2v: removed ${join(dir, 'stale-out/forward.jsonl')} (left by an earlier export; --task backward rewrote rejections.jsonl)`);
    expect(existsSync(join(dir, 'stale-out/forward.jsonl'))).toBe(false);
    expect(existsSync(join(dir, 'stale-out/forward.meta.json'))).toBe(false);
    expect(existsSync(join(dir, 'stale-out/backward.jsonl'))).toBe(true);
  });

  it("export --summary prints each baseline's accuracy over the manifests it wrote", async () => {
    const r = await r2v(['export', '--out', 'summary-out', '--summary']);
    expect(r.code).toBe(0);
    const out = r.stdout.split('\n');
    expect(out).toContain('baselines over backward.jsonl (1 cases):');
    for (const name of ['bm25_diffs', 'bm25_messages', 'recent_1']) expect(out.some((l) => new RegExp(`^  ${name}\t[01]/1\t(0|100)\.0%$`).test(l))).toBe(true);
    expect(out).toContain('baselines over forward.jsonl (3 cases):');
    expect(out).toContain('  repo_prior\t1/3\t33.3%');
  });

  it('export --freeze writes a release with FROZEN.json, and a frozen directory is never written again', async () => {
    const r = await r2v(['export', '--out', 'releases', '--freeze', 'v1']);
    expect(r.code).toBe(0);
    const rel = join(dir, 'releases', 'v1');
    const frozen = JSON.parse(readFileSync(join(rel, 'FROZEN.json'), 'utf8')) as Record<string, unknown>;
    expect(frozen).toMatchObject({ name: 'v1', schema_version: SCHEMA_VERSION, evaluator: 'routing/1', labels: 'labels/1',
      baselines: { recent_1: 'recent-1/1', bm25_messages: 'bm25-messages/1', bm25_diffs: 'bm25-diffs/1', repo_prior: 'repo-prior/1' } });
    const files = frozen.files as Record<string, string>;
    expect(Object.keys(files)).toEqual(readdirSync(rel).filter((f) => f !== 'FROZEN.json').sort());
    for (const [f, digest] of Object.entries(files)) expect(createHash('sha256').update(readFileSync(join(rel, f))).digest('hex')).toBe(digest);
    const before = readFileSync(join(rel, 'backward.jsonl'), 'utf8');

    for (const args of [['export', '--out', 'releases', '--freeze', 'v1'], ['export', '--out', 'releases/v1']]) {
      const again = await r2v(args);
      expect(again.code).toBe(2);
      expect(again.stderr.trim()).toBe(`r2v: --out ${rel}: frozen as release v1 (FROZEN.json); export into another directory`);
    }
    expect(readFileSync(join(rel, 'backward.jsonl'), 'utf8')).toBe(before);
    const bad = await r2v(['export', '--freeze', '../up']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--freeze "../up": a release name is');
  });

  it('baselines recomputes every recorded baseline from git, and reports a tampered one', async () => {
    for (const [name, n] of [['backward', 1], ['forward', 3]] as const) {
      const r = await r2v(['baselines', '--manifest', `manifests/${name}.jsonl`]);
      expect(r.code).toBe(0);
      const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { case_id: string; baselines: unknown; same_as_manifest: boolean });
      expect(rows.map((x) => x.same_as_manifest)).toEqual(Array(n).fill(true));
      const recorded = records(join(dir, `manifests/${name}.jsonl`));
      expect(rows.map((x) => x.baselines)).toEqual(recorded.map((x) => x.baselines));
      expect(r.stderr).toContain(`r2v: recomputed ${n} cases: 0 differ from the manifest`);
    }
    const fwd = records(join(dir, 'manifests/forward.jsonl'));
    (fwd[0]!.baselines as { repo_prior: { correct: boolean } }).repo_prior.correct = !(fwd[0]!.baselines as { repo_prior: { correct: boolean } }).repo_prior.correct;
    mkdirSync(join(dir, 'tampered-baselines'), { recursive: true });
    writeLines(join(dir, 'tampered-baselines/forward.jsonl'), fwd);
    const t = await r2v(['baselines', '--manifest', 'tampered-baselines/forward.jsonl']);
    expect(t.code).toBe(3);
    expect(t.stderr).toContain('r2v: recomputed 3 cases: 1 differ from the manifest');
    expect(t.stderr).toMatch(/^r2v: repo_prior\t1\/3\t33\.3%$/m);
    const missing = await r2v(['baselines', '--manifest', 'nope.jsonl']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe(`r2v: --manifest ${join(dir, 'nope.jsonl')}: no such file`);
  });

  it('verify recomputes every gold and check of both manifests with no difference', async () => {
    for (const name of ['backward', 'forward']) {
      const r = await r2v(['verify', '--manifest', `manifests/${name}.jsonl`]);
      expect(r.stdout).toMatch(new RegExp(`^verified ${name === 'backward' ? 1 : 3} cases: 0 differences$`, 'm'));
      expect(r.code).toBe(0);
    }
    const viaGitDir = await r2v(['verify', '--manifest', 'manifests/forward.jsonl', '--git-dir', mirrorOf(dir)]);
    expect(viaGitDir.code).toBe(0);
  });

  it('verify reports tampered golds, checks and trees, and the sidecar digest', async () => {
    mkdirSync(join(dir, 'tampered'), { recursive: true });
    const fwd = records(join(dir, 'manifests/forward.jsonl'));
    fwd[0]!.gold = [];
    writeLines(join(dir, 'tampered/forward.jsonl'), fwd);
    copyFileSync(join(dir, 'manifests/forward.meta.json'), join(dir, 'tampered/forward.meta.json'));
    const r = await r2v(['verify', '--manifest', 'tampered/forward.jsonl']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(`${fwd[0]!.case_id as string}: gold: recorded [], recomputed [`);
    expect(r.stdout).toMatch(/^\(manifest\): sha256 [0-9a-f]{64} differs from the sidecar's/m);

    const bwd = records(join(dir, 'manifests/backward.jsonl'));
    (bwd[0]!.checks as Record<string, boolean>).temporal = false;
    (bwd[0]!.digests as Record<string, string>).cutoff_tree = '0'.repeat(40);
    writeLines(join(dir, 'tampered/backward.jsonl'), bwd);
    const b = await r2v(['verify', '--manifest', 'tampered/backward.jsonl']);
    expect(b.code).toBe(3);
    expect(b.stdout).toContain('check temporal: recorded fail, now pass');
    expect(b.stdout).toContain(`cutoff tree: recorded ${'0'.repeat(40)}`);
  });

  it('verify refuses a manifest computed by another evaluator, and bad input, with one line and exit 2', async () => {
    const fwd = records(join(dir, 'manifests/forward.jsonl'));
    fwd[1]!.evaluator = 'routing/0';
    writeLines(join(dir, 'other-evaluator.jsonl'), fwd);
    const r = await r2v(['verify', '--manifest', 'other-evaluator.jsonl']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/evaluator routing\/0, this r2v has routing\/1/);

    const missing = await r2v(['verify', '--manifest', 'nope.jsonl']);
    expect([missing.code, missing.stderr.trim()]).toEqual([2, `r2v: --manifest ${join(dir, 'nope.jsonl')}: no such file`]);
    writeFileSync(join(dir, 'broken.jsonl'), '{"task": "forward", "case_id": \n');
    const broken = await r2v(['verify', '--manifest', 'broken.jsonl']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/broken\.jsonl:1: malformed JSON/);
    const noMirror = await r2v(['verify', '--manifest', 'manifests/forward.jsonl', '--git-dir', join(dir, 'manifests')]);
    expect(noMirror.code).toBe(2);
    expect(noMirror.stderr).toContain('not a git repository');
  });
});

describe('r2v package / package audit', () => {
  it('packages every admitted case with grading data apart, and the audit finds nothing', async () => {
    const r = await r2v(['package', '--all', '--out', 'packages']);
    expect(r.code).toBe(0);
    const ids = [...records(join(dir, 'manifests/backward.jsonl')), ...records(join(dir, 'manifests/forward.jsonl'))].map((x) => x.case_id as string);
    expect(r.stdout.trim().split('\n').sort()).toEqual([...ids].sort());
    expect(readdirSync(join(dir, 'packages')).sort()).toEqual([...ids, 'grading', 'index.json'].sort());

    const b = records(join(dir, 'manifests/backward.jsonl'))[0]!;
    const pkg = join(dir, 'packages', b.case_id as string);
    expect(readdirSync(pkg).sort()).toEqual(['history', 'repo', 'report.md', 'task.json']);
    const git = (args: string[]) => execa('git', ['-C', join(pkg, 'repo'), ...args], { reject: false, env: { LC_ALL: 'C' } });
    expect((await git(['rev-parse', 'HEAD'])).stdout).toBe(world.cutoff);
    expect((await git(['for-each-ref', '--format=%(refname)'])).stdout).toBe('refs/heads/main');
    expect((await git(['cat-file', '-e', world.afterCutoff])).exitCode).not.toBe(0);
    expect((await git(['cat-file', '-e', world.gold])).exitCode).toBe(0);
    expect((await git(['remote'])).stdout).toBe('');
    // A small history: one part, the package's own.
    expect(readdirSync(join(pkg, 'history'))).toEqual(['00000.jsonl']);
    const history = records(join(pkg, 'history', '00000.jsonl'));
    expect(history.map((h) => h.sha)).toEqual((await git(['rev-list', world.cutoff])).stdout.split('\n'));
    expect(history[0]).toMatchObject({ sha: world.cutoff, message: 'Bump version to 2.4.0\n', author: 'Test Author <author@example.com>' });
    expect(readFileSync(join(pkg, 'report.md'), 'utf8')).not.toContain(world.gold.slice(0, 7));
    const task = JSON.parse(readFileSync(join(pkg, 'task.json'), 'utf8')) as { answer_format: { pattern: string } };
    expect(task.answer_format.pattern).toBe('^[0-9a-f]{40}$');
    expect(JSON.parse(readFileSync(join(dir, 'packages/grading', `${b.case_id as string}.json`), 'utf8'))).toMatchObject({
      gold: world.gold, cutoff: world.cutoff, after_cutoff: world.afterCutoff, commits: 5,
    });

    const f = records(join(dir, 'manifests/forward.jsonl')).find((x) => x.pull === 50)!;
    const fpkg = join(dir, 'packages', f.case_id as string);
    expect(readdirSync(fpkg).sort()).toEqual(['context.json', 'issue.md', 'task.json', 'tree']);
    expect(existsSync(join(fpkg, 'tree', '.git'))).toBe(false);
    expect(readFileSync(join(fpkg, 'tree/src/render.js'), 'utf8')).toBe('r\n');
    expect(JSON.parse(readFileSync(join(fpkg, 'context.json'), 'utf8'))).toEqual({ event: 'pull_request', action: 'synchronize', base_branch: 'main' });
    expect(JSON.stringify(JSON.parse(readFileSync(join(fpkg, 'task.json'), 'utf8')))).not.toContain('ci.yml');

    const audit = await r2v(['package', 'audit', 'packages']);
    expect(audit.stdout.trim()).toBe('audited 4 packages: 0 findings');
    expect(audit.code).toBe(0);
  });

  it('--work-tree none: Backward packages hold only .git, the audit passes; a bad mode is a usage error', async () => {
    const b = records(join(dir, 'manifests/backward.jsonl'))[0]!;
    const r = await r2v(['package', '--all', '--manifest', 'manifests/backward.jsonl', '--work-tree', 'none', '--out', 'lean']);
    expect(r.code).toBe(0);
    const pkg = join(dir, 'lean', b.case_id as string);
    expect(readdirSync(join(pkg, 'repo'))).toEqual(['.git']);
    expect(JSON.parse(readFileSync(join(pkg, 'task.json'), 'utf8')).repository).toEqual({ path: 'repo', work_tree: 'none', materialize: 'git -C repo reset -q --hard' });
    const audit = await r2v(['package', 'audit', 'lean']);
    expect([audit.code, audit.stdout.trim().split('\n').at(-1)]).toEqual([0, `audited ${records(join(dir, 'manifests/backward.jsonl')).length} packages: 0 findings`]);
    const bad = await r2v(['package', '--all', '--manifest', 'manifests/backward.jsonl', '--work-tree', 'sparse', '--out', 'lean']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("option '--work-tree <mode>' argument 'sparse' is invalid");
  });

  it('--layer-commits: smaller shared layers give more history parts, the audit passes; 0 is a usage error', async () => {
    const b = records(join(dir, 'manifests/backward.jsonl'))[0]!;
    const r = await r2v(['package', '--all', '--manifest', 'manifests/backward.jsonl', '--layer-commits', '2', '--out', 'small-layers']);
    expect(r.code).toBe(0);
    const parts = readdirSync(join(dir, 'small-layers', b.case_id as string, 'history')).sort();
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[0]).toBe('00000.jsonl');
    expect(readdirSync(join(dir, 'small-layers', '.objects')).length).toBeGreaterThanOrEqual(parts.length - 1);
    const audit = await r2v(['package', 'audit', 'small-layers']);
    expect(audit.code).toBe(0);
    const zero = await r2v(['package', '--all', '--manifest', 'manifests/backward.jsonl', '--layer-commits', '0', '--out', 'small-layers']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--layer-commits must be an integer >= 1, got "0"');
  });

  it('packages one case from a manifest; an unknown case and missing options are usage errors', async () => {
    const f = records(join(dir, 'manifests/forward.jsonl'))[0]!;
    const one = await r2v(['package', '--case', f.case_id as string, '--manifest', 'manifests/forward.jsonl', '--out', 'one']);
    expect(one.code).toBe(0);
    expect(readdirSync(join(dir, 'one')).sort()).toEqual([f.case_id as string, 'grading', 'index.json'].sort());
    const unknown = await r2v(['package', '--case', 'acme_widget__9__00000000', '--out', 'one']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--case acme_widget__9__00000000: no such admitted case');
    expect((await r2v(['package', '--out', 'one'])).code).toBe(2);
    expect((await r2v(['package', '--all'])).code).toBe(2);
  });
});

describe('r2v score / preflight', () => {
  it('scores per case with an Overall line; unscorable predictions stay in the denominator', async () => {
    const fwd = records(join(dir, 'manifests/forward.jsonl'));
    writeLines(join(dir, 'pred-fwd.jsonl'), [
      { case_id: fwd[0]!.case_id, activated_workflows: [...(fwd[0]!.gold as string[])].reverse() },
      '{"case_id": "broken',
      { case_id: 'acme_widget__7__deadbeef', activated_workflows: [] },
      { case_id: fwd[1]!.case_id, activated_workflows: [] },
    ]);
    const r = await r2v(['score', '--manifest', 'manifests/forward.jsonl', '--predictions', 'pred-fwd.jsonl']);
    // Malformed prediction lines make the run exit 3 (the score is still printed).
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('r2v: pred-fwd.jsonl: 2 prediction lines malformed or not scorable');
    const out = r.stdout.trim().split('\n');
    expect(out).toContain(`${fwd[0]!.case_id as string}\t1\tcorrect`);
    expect(out).toContain(`${fwd[1]!.case_id as string}\t0\twrong\tdoes not match the gold`);
    expect(out.some((l) => l.startsWith('note\tline 2: malformed JSON'))).toBe(true);
    expect(out).toContain('note\tline 3: case acme_widget__7__deadbeef is not in the manifest');
    expect(out.at(-1)).toBe('Overall: 1/3 = 33.3%');
    const json = await r2v(['score', '--manifest', 'manifests/forward.jsonl', '--predictions', 'pred-fwd.jsonl', '--json']);
    expect(json.code).toBe(3);
    const report = JSON.parse(json.stdout) as { cases: Record<string, unknown>[] };
    expect(Object.keys(report.cases[0]!)).toContain('case_id'); // snake_case, as the manifests
    expect(json.stdout).not.toMatch(/"caseId"/);
    writeLines(join(dir, 'pred-clean.jsonl'), [{ case_id: fwd[0]!.case_id, activated_workflows: fwd[0]!.gold as string[] }]);
    expect((await r2v(['score', '--manifest', 'manifests/forward.jsonl', '--predictions', 'pred-clean.jsonl'])).code).toBe(0);

    const bwd = records(join(dir, 'manifests/backward.jsonl'));
    writeLines(join(dir, 'pred-bwd.jsonl'), [{ case_id: bwd[0]!.case_id, sha: world.gold.toUpperCase() }]);
    const upper = await r2v(['score', '--manifest', 'manifests/backward.jsonl', '--predictions', 'pred-bwd.jsonl']);
    expect(upper.stdout).toContain('\t0\tunscorable\tsha has uppercase hex');
    expect(upper.code).toBe(3);
    expect(upper.stdout.trim().split('\n').at(-1)).toBe('Overall: 0/1 = 0.0%');
    const missing = await r2v(['score', '--manifest', 'manifests/backward.jsonl', '--predictions', 'none.jsonl']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--predictions');
  });

  it('preflight passes on both manifests and fails on an empty one', async () => {
    for (const name of ['backward', 'forward']) {
      const r = await r2v(['preflight', '--manifest', `manifests/${name}.jsonl`]);
      expect(r.stdout).toMatch(/^preflight: 10\/10 checks passed/m);
      expect(r.stdout).toMatch(/^ok  \toracle\texpected 100\.0%\tgot 100\.0%$/m);
      expect(r.code).toBe(0);
    }
    writeFileSync(join(dir, 'empty.jsonl'), '');
    const empty = await r2v(['preflight', '--manifest', 'empty.jsonl']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('no cases to check the scorer on');
  });
});

describe('r2v review label', () => {
  it('overrides a rule-proposed label, bound to the case digest; the record says review and re-exports byte-identically', async () => {
    const bad = [
      [['review', 'label', 'acme/widget#1', 'mood', 'local', '--reviewer', 'alice', '--reason', 'x'], 'r2v: acme/widget#1: backward cases have no label "mood" (labels: locality, staging)'],
      [['review', 'label', 'acme/widget#1', 'staging', 'maybe', '--reviewer', 'alice', '--reason', 'x'], 'r2v: acme/widget#1: label staging takes direct or staged, not "maybe"'],
      [['review', 'label', 'acme/widget#40<-50', 'locality', 'local', '--reviewer', 'alice', '--reason', 'x'], 'r2v: acme/widget#40<-50: forward cases have no label "locality" (labels: staging)'],
      [['review', 'label', 'acme/widget#999', 'staging', 'direct', '--reviewer', 'alice', '--reason', 'x'], 'r2v: acme/widget#999: unknown case (expected a case key or case id)'],
    ] as const;
    for (const [args, line] of bad) {
      const r = await r2v([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim()).toBe(line);
    }
    const before = records(join(dir, 'manifests/backward.jsonl'))[0]!;
    const rule = (before.labels as { staging: { value: string; proposed_by: string; evidence: string } }).staging;
    expect(rule.proposed_by).toBe('rule');
    const flipped = rule.value === 'direct' ? 'staged' : 'direct';
    const ok = await r2v(['review', 'label', 'acme/widget#1', 'staging', flipped, '--reviewer', 'alice', '--reason', 'two partial fixes landed first']);
    expect(ok.code).toBe(0);
    expect((await r2v(['--quiet', 'run', '--stage', 'admit'])).code).toBe(0);
    expect((await r2v(['export', '--out', 'labeled'])).code).toBe(0);
    const after = records(join(dir, 'labeled/backward.jsonl'))[0]!;
    expect((after.labels as Record<string, unknown>).staging).toEqual({
      value: flipped, proposed_by: 'review', evidence: `alice: two partial fixes landed first; the rule proposed ${rule.value}: ${rule.evidence}`,
    });
    expect((after.labels as Record<string, unknown>).locality).toEqual((before.labels as Record<string, unknown>).locality);
    const bytes = readFileSync(join(dir, 'labeled/backward.jsonl'), 'utf8');
    expect((await r2v(['export', '--out', 'labeled'])).code).toBe(0);
    expect(readFileSync(join(dir, 'labeled/backward.jsonl'), 'utf8')).toBe(bytes);
  });
});
