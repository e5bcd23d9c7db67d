import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Config } from '../../../src/config.js';
import { silentLogger } from '../../../src/log.js';
import { parseAnyProbeSpec } from '../../../src/probe/spec.js';
import { createStageContext } from '../../../src/run/context.js';
import { probeStage, type ProbeItem } from '../../../src/stages/probe.js';
import type { PlannedItem, StageContext } from '../../../src/stages/types.js';
import { openStore, type Store } from '../../../src/store/db.js';
import type { PullRow } from '../../../src/store/tables/sources.js';
import { makeRepo, tempDir } from '../../support/make-repo.js';
import { BASIC_TEST, SLUG_BAD, SLUG_GOOD, SLUG_TEST } from './support/transplant-repos.js';

const REPO = 'acme/slug';
const REPORT_TIME = '2024-01-01T05:30:00Z';

interface Fixture {
  store: Store;
  ctx: StageContext;
  dataDir: string;
  gold: string;
  fix: string;
  caseId: string;
}

function pull(number: number, mergeCommitSha: string, mergedAt: string | null): PullRow {
  return {
    repo: REPO, number, title: `Fix ${number}`, body: '', author: 'maya', state: mergedAt ? 'closed' : 'open', draft: false, baseRef: 'main', baseSha: mergeCommitSha,
    headRef: `fix-${number}`, headSha: mergeCommitSha, mergeCommitSha: mergedAt ? mergeCommitSha : null, createdAt: REPORT_TIME, mergedAt,
    htmlUrl: `https://github.com/${REPO}/pull/${number}`, commitShas: [mergeCommitSha], commitMessages: ['fix'], source: 'test',
  };
}

/** A slug regression (gold), and a fix commit whose test files are `fixFiles`. */
async function fixture(opts: { testCommand?: string; fixFiles?: Record<string, string | null>; between?: Record<string, string> } = {}): Promise<Fixture> {
  const repo = await makeRepo();
  await repo.commit('start', { files: { 'lib/slug.js': SLUG_GOOD, 'package.json': '{"name": "slug"}\n' } });
  const parent = await repo.commit('docs', { files: { 'README.md': 'slug\n' } });
  const gold = await repo.commit('simplify slugify', { files: { 'lib/slug.js': SLUG_BAD } });
  if (opts.between) await repo.commit('meanwhile', { files: opts.between });
  const fix = await repo.commit('strip trailing dashes again', { files: { 'lib/slug.js': SLUG_GOOD, ...(opts.fixFiles ?? { 'test/slug.test.js': SLUG_TEST }) } });
  const dataDir = await tempDir('r2v-data-');
  const store = openStore(':memory:');
  const config = Config.parse({ repos: [{ name: REPO, git_url: repo.dir, ...(opts.testCommand ? { test_command: opts.testCommand } : {}) }] });
  const ctx: StageContext = createStageContext({
    store, config, log: silentLogger, now: () => new Date('2024-03-01T00:00:00Z'), signal: new AbortController().signal, dataDir, env: {},
  });
  const caseId = 'acme_slug__7__0123abcd';
  store.backward.replaceResolution(
    {
      repo: REPO, number: 7, status: 'resolved', decision: 'candidate', caseId, gold, goldSubject: 'simplify slugify', parent,
      defaultBranch: 'main', cutoff: gold, cutoffRule: 'first-parent', cutoffNotes: [], historyWindow: 0, tag: null, tagWindow: null,
      prNumbers: [], reportTime: REPORT_TIME, reportUrl: `https://github.com/${REPO}/issues/7`,
    },
    [],
    [],
  );
  return { store, ctx, dataDir, gold, fix, caseId };
}

function link(f: Fixture, number: number, mergedAt: string | null, how = 'keyword-body'): void {
  const s = f.store.sources;
  s.upsertPull(pull(number, f.fix, mergedAt));
  s.upsertLink({ repo: REPO, issue: 7, pull: number, how, evidence: `Fixes #7 (in #${number})` });
}

async function runOnly(f: Fixture): Promise<{ item: PlannedItem<ProbeItem>; outcome: Awaited<ReturnType<typeof probeStage.process>> }> {
  const [item] = await probeStage.plan(f.ctx, [REPO]);
  const outcome = await probeStage.process(item!, f.ctx);
  f.store.transaction(() => outcome.save(f.store));
  return { item: item!, outcome };
}

describe('probe stage: probes derived from the fixing change', () => {
  it('derives a transplanted spec from the merged PR that closes the report, writes it, and verifies the case', async () => {
    const f = await fixture({ testCommand: 'node --test {tests}' });
    try {
      link(f, 31, '2024-01-02T00:00:00Z');
      const { item, outcome } = await runOnly(f);
      expect(item.input.fix).toMatchObject({ status: 'found', pull: 31, sha: f.fix });
      expect(outcome.status).toBe('done');
      const v = f.store.probes.verdict(f.caseId)!;
      expect(v).toMatchObject({ status: 'replayed', kind: 'transplanted', boundary: 'verified', reason: 'parent-good-gold-bad', fixSha: f.fix, fixPull: 31, tests: ['test/slug.test.js'] });
      const path = join(f.dataDir, 'probes', 'derived', `${f.caseId}.yaml`);
      expect(v.specPath).toBe(path);
      const text = readFileSync(path, 'utf8');
      expect(text).toMatch(/^# Derived for acme_slug__7__0123abcd .* pull request #31/);
      expect(parseAnyProbeSpec(text, path)).toMatchObject({ kind: 'transplanted', fix: { sha: f.fix, pull: 31 }, tests: ['test/slug.test.js'], test_command: 'node --test {tests}' });
    } finally {
      await f.ctx.services.close();
    }
  });

  it('lets a human-written spec win over the derived one', async () => {
    const f = await fixture({ testCommand: 'node --test {tests}' });
    try {
      link(f, 31, '2024-01-02T00:00:00Z');
      mkdirSync(join(f.dataDir, 'probes'), { recursive: true });
      const human = join(f.dataDir, 'probes', `${f.caseId}.yaml`);
      writeFileSync(human, `trigger: ${JSON.stringify("node -e \"process.exit(require('./lib/slug').slugify('a!') === 'a' ? 0 : 1)\"")}\nsymptom: { exit_code: 1 }\nrepeats: 1\n`);
      const { item, outcome } = await runOnly(f);
      expect(item.input.fix).toBeNull();
      expect(outcome.status).toBe('done');
      expect(f.store.probes.verdict(f.caseId)).toMatchObject({ kind: 'command', specPath: human, boundary: 'verified' });
      expect(existsSync(join(f.dataDir, 'probes', 'derived', `${f.caseId}.yaml`))).toBe(false);
    } finally {
      await f.ctx.services.close();
    }
  });

  it('records not-applicable with the missing file, and no runs', async () => {
    const f = await fixture({
      testCommand: 'node --test {tests}',
      between: { 'test/basic.test.js': BASIC_TEST },
      fixFiles: { 'test/basic.test.js': `${BASIC_TEST}// trailing dash case covered\n` },
    });
    try {
      link(f, 31, '2024-01-02T00:00:00Z');
      const { outcome } = await runOnly(f);
      expect(outcome).toMatchObject({ status: 'rejected', reason: 'not-applicable' });
      const t = f.store.probes;
      expect(t.verdict(f.caseId)).toMatchObject({ status: 'not-applicable', kind: 'transplanted', boundary: null, reason: 'not-applicable' });
      expect(t.verdictFor(f.caseId)!.detail).toMatch(/modifies test\/basic\.test\.js, but it does not exist at parent/);
      expect(t.runs(f.caseId)).toEqual([]);
    } finally {
      await f.ctx.services.close();
    }
  });

  it('takes no fix when two merged PRs close the report, and says which', async () => {
    const f = await fixture({ testCommand: 'node --test {tests}' });
    try {
      link(f, 31, '2024-01-02T00:00:00Z');
      link(f, 32, '2024-01-03T00:00:00Z', 'closing-references');
      const { outcome } = await runOnly(f);
      expect(outcome.status).toBe('done');
      expect(f.store.probes.verdict(f.caseId)).toMatchObject({
        status: 'no-spec', reason: 'fix-ambiguous', detail: 'several merged pull requests close #7 after the report: #31, #32',
      });
    } finally {
      await f.ctx.services.close();
    }
  });

  it('ignores a PR merged before the report and an unmerged one', async () => {
    const f = await fixture({ testCommand: 'node --test {tests}' });
    try {
      link(f, 30, '2024-01-01T01:00:00Z');
      link(f, 33, null);
      await runOnly(f);
      expect(f.store.probes.verdict(f.caseId)).toMatchObject({
        status: 'no-spec', reason: 'no-spec', detail: 'no merged pull request closes or references #7 after the report (#30 merged before the report; #33 not merged)',
      });
    } finally {
      await f.ctx.services.close();
    }
  });

  it('without a test command, proposes one from the layout and runs nothing', async () => {
    const f = await fixture();
    try {
      link(f, 31, '2024-01-02T00:00:00Z');
      await runOnly(f);
      const v = f.store.probes.verdict(f.caseId)!;
      expect(v).toMatchObject({ status: 'no-spec', reason: 'no-test-command', proposedCommand: 'npm test -- {tests}', fixPull: 31 });
      expect(v.detail).toMatch(/proposed test command \(from package\.json, not run until written into repos\[\]\.test_command\): npm test -- \{tests\}/);
      expect(existsSync(join(f.dataDir, 'probes', 'derived', `${f.caseId}.yaml`))).toBe(false);
    } finally {
      await f.ctx.services.close();
    }
  });

  it('says when the fix changes no test file', async () => {
    const f = await fixture({ testCommand: 'node --test {tests}', fixFiles: { 'docs/notes.md': 'fixed\n' } });
    try {
      link(f, 31, '2024-01-02T00:00:00Z');
      await runOnly(f);
      expect(f.store.probes.verdict(f.caseId)).toMatchObject({ status: 'no-spec', reason: 'fix-without-tests' });
    } finally {
      await f.ctx.services.close();
    }
  });
});
