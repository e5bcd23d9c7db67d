import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Config } from '../../../src/config.js';
import { silentLogger } from '../../../src/log.js';
import { parseProbeSpec } from '../../../src/probe/spec.js';
import { probeStage, type ProbeItem } from '../../../src/stages/probe.js';
import type { PlannedItem, StageContext } from '../../../src/stages/types.js';
import { openStore, type Store } from '../../../src/store/db.js';
import { createStageContext } from '../../../src/run/context.js';
import { runStages } from '../../../src/run/runner.js';
import { makeRepo, tempDir, type TestRepo } from '../../support/make-repo.js';
import { BUILD_OK, CHECK, LIB_BAD, LIB_GOOD } from './support/repos.js';

const REPO = 'acme/calc';

interface Fixture {
  store: Store;
  ctx: StageContext;
  dataDir: string;
  repo: TestRepo;
  parent: string;
  gold: string;
}

function addCase(store: Store, caseId: string, number: number, gold: string, parent: string): void {
  store.backward.replaceResolution(
    {
      repo: REPO, number, status: 'resolved', decision: 'candidate', caseId, gold, goldSubject: 'change add', parent,
      defaultBranch: 'main', cutoff: gold, cutoffRule: 'first-parent', cutoffNotes: [], historyWindow: 0, tag: null, tagWindow: null,
      prNumbers: [], reportTime: '2024-02-01T00:00:00Z', reportUrl: `https://github.com/${REPO}/issues/${number}`,
    },
    [],
    [],
  );
}

async function fixture(): Promise<Fixture> {
  const repo = await makeRepo();
  await repo.commit('start', { files: { 'lib.sh': LIB_GOOD, 'build.sh': BUILD_OK, 'check.sh': CHECK } });
  const parent = await repo.commit('docs', { files: { README: 'calc\n' } });
  const gold = await repo.commit('change add', { files: { 'lib.sh': LIB_BAD } });
  const dataDir = await tempDir('r2v-data-');
  const store = openStore(':memory:');
  const config = Config.parse({ repos: [{ name: REPO, git_url: repo.dir }] });
  const ctx: StageContext = createStageContext({
    store, config, log: silentLogger, now: () => new Date('2024-03-01T00:00:00Z'), signal: new AbortController().signal, dataDir, env: {},
  });
  return { store, ctx, dataDir, repo, parent, gold };
}

function writeSpec(dataDir: string, caseId: string, text: string, ext = 'yaml'): string {
  mkdirSync(join(dataDir, 'probes'), { recursive: true });
  const p = join(dataDir, 'probes', `${caseId}.${ext}`);
  writeFileSync(p, text);
  return p;
}

const SPEC = `setup: ["sh build.sh"]
trigger: sh check.sh
symptom: { stderr_contains: "wrong sum" }
exercised: { marker: "checking sum" }
timeout_s: 5
repeats: 2
`;

async function runItem(f: Fixture, item: PlannedItem<ProbeItem>) {
  const outcome = await probeStage.process(item, f.ctx);
  f.store.transaction(() => outcome.save(f.store));
  return outcome;
}

describe('probe stage', () => {
  it('replays a case with a spec, stores every run and a verified verdict, and replaces rows on a re-run', async () => {
    const f = await fixture();
    try {
      const caseId = 'acme_calc__7__0123abcd';
      addCase(f.store, caseId, 7, f.gold, f.parent);
      writeSpec(f.dataDir, caseId, SPEC);
      const items = await probeStage.plan(f.ctx, [REPO]);
      expect(items.map((i) => i.key)).toEqual([caseId]);
      expect(items[0]!.input.specPath).toBe(join(f.dataDir, 'probes', `${caseId}.yaml`));

      const outcome = await runItem(f, items[0]!);
      expect(outcome.status).toBe('done');
      const tables = f.store.probes;
      expect(tables.verdictFor(caseId)).toMatchObject({ boundary: 'verified', reason: 'parent-good-gold-bad', parent: 'good', gold: 'bad', draft: false });
      const runs = tables.runs(caseId);
      expect(runs.map((r) => `${r.state}/${r.phase}/${r.idx}/${r.classification}`)).toEqual([
        'parent/setup/0/ok', 'parent/trigger/0/good', 'parent/trigger/1/good',
        'gold/setup/0/ok', 'gold/trigger/0/bad', 'gold/trigger/1/bad',
      ]);
      const bad = runs.find((r) => r.state === 'gold' && r.phase === 'trigger')!;
      expect(bad).toMatchObject({ sha: f.gold, exitCode: 1, stderrTail: 'wrong sum: 5\n', executed: true, timedOut: false });
      // Full logs are stored by digest.
      expect(readFileSync(join(f.dataDir, 'logs', `${bad.stderrDigest}.log`), 'utf8')).toBe('wrong sum: 5\n');
      // No worktree is left behind.
      expect(readdirSync(join(f.dataDir, 'work', 'probe'))).toEqual([]);

      await runItem(f, items[0]!);
      expect(tables.runs(caseId)).toHaveLength(6);
      expect(f.store.db.prepare('SELECT COUNT(*) AS n FROM probe_verdicts').get()).toEqual({ n: 1 });
    } finally {
      await f.ctx.services.close();
    }
  });

  it('makes an edited spec stale and rejects a not-a-boundary case with its reason', async () => {
    const f = await fixture();
    try {
      const caseId = 'acme_calc__8__0123abcd';
      addCase(f.store, caseId, 8, f.gold, f.parent);
      writeSpec(f.dataDir, caseId, SPEC);
      const [before] = await probeStage.plan(f.ctx, [REPO]);
      // Symptom at both: any output at all.
      writeSpec(f.dataDir, caseId, SPEC.replace('symptom: { stderr_contains: "wrong sum" }', 'symptom: { stdout_contains: "checking" }'));
      const [after] = await probeStage.plan(f.ctx, [REPO]);
      expect(after!.inputDigest).not.toBe(before!.inputDigest);
      const outcome = await runItem(f, after!);
      expect(outcome).toMatchObject({ status: 'rejected', reason: 'bad-at-both' });
      expect(f.store.probes.verdictFor(caseId)).toMatchObject({ boundary: 'not-a-boundary', reason: 'bad-at-both' });
    } finally {
      await f.ctx.services.close();
    }
  });

  it('records a case without a spec as no-spec and writes a draft from its report', async () => {
    const f = await fixture();
    try {
      const caseId = 'acme_calc__9__0123abcd';
      addCase(f.store, caseId, 9, f.gold, f.parent);
      f.store.sources.upsertThread({
        repo: REPO, number: 9, kind: 'issue', title: 'sum is wrong', author: 'someone', state: 'open',
        body: 'Since the last update the sum is off:\n\n```\n$ sh check.sh\nchecking sum\nwrong sum: 5\n```\n',
        createdAt: '2024-02-01T00:00:00Z', updatedAt: null, closedAt: null, htmlUrl: `https://github.com/${REPO}/issues/9`, source: 'test',
      });
      const [item] = await probeStage.plan(f.ctx, [REPO]);
      expect(item!.input.specPath).toBeNull();
      const outcome = await runItem(f, item!);
      expect(outcome.status).toBe('done');
      const v = f.store.probes.verdict(caseId)!;
      expect(v).toMatchObject({ status: 'no-spec', boundary: null, reason: 'no-spec', draftKind: 'command' });
      expect(f.store.probes.verdictFor(caseId)).toMatchObject({ boundary: null, reason: 'no-spec' });
      const draftPath = join(f.dataDir, 'probes', 'drafts', `${caseId}.yaml`);
      expect(v.draftPath).toBe(draftPath);
      const draft = parseProbeSpec(readFileSync(draftPath, 'utf8'), draftPath);
      expect(draft).toMatchObject({ draft: true, trigger: 'sh check.sh', symptom: { stderr_contains: 'wrong sum: 5' } });
      // A spec added later makes the item stale.
      writeSpec(f.dataDir, caseId, SPEC, 'yml');
      const [again] = await probeStage.plan(f.ctx, [REPO]);
      expect(again!.inputDigest).not.toBe(item!.inputDigest);
      expect(again!.input.specPath).toBe(join(f.dataDir, 'probes', `${caseId}.yml`));
    } finally {
      await f.ctx.services.close();
    }
  });

  it('fails an item whose spec is invalid with a message naming the file and field', async () => {
    const f = await fixture();
    try {
      const caseId = 'acme_calc__10__0123abcd';
      addCase(f.store, caseId, 10, f.gold, f.parent);
      const path = writeSpec(f.dataDir, caseId, '{"trigger": "true", "symptom": {"exit_code": "one"}}', 'json');
      const [item] = await probeStage.plan(f.ctx, [REPO]);
      await expect(probeStage.process(item!, f.ctx)).rejects.toThrow(`${path}: symptom.exit_code: `);
      expect(f.store.probes.verdict(caseId)).toBeUndefined();
      expect(existsSync(join(f.dataDir, 'work'))).toBe(false);
    } finally {
      await f.ctx.services.close();
    }
  });

  it('through the runner: a repeat reuses finished runs, --force runs them again', async () => {
    const f = await fixture();
    try {
      const caseId = 'acme_calc__11__0123abcd';
      addCase(f.store, caseId, 11, f.gold, f.parent);
      const counter = join(await tempDir(), 'count');
      writeSpec(f.dataDir, caseId, SPEC.replace('trigger: sh check.sh', 'trigger: echo x >> "$COUNT"; sh check.sh') + `env: { COUNT: "${counter}" }\n`);
      const runs = (): number => (existsSync(counter) ? readFileSync(counter, 'utf8').split('\n').filter(Boolean).length : 0);

      const first = await runStages(f.ctx, { stages: [probeStage], repos: [REPO] });
      expect(first.stages[0]).toMatchObject({ done: 1, failed: 0 });
      expect(runs()).toBe(4);
      const second = await runStages(f.ctx, { stages: [probeStage], repos: [REPO] });
      expect(second.stages[0]).toMatchObject({ done: 0, upToDate: 1 });
      expect(runs()).toBe(4);
      const forced = await runStages(f.ctx, { stages: [probeStage], repos: [REPO], force: true });
      expect(forced.stages[0]).toMatchObject({ done: 1 });
      expect(runs()).toBe(8);
      expect(f.store.probes.runs(caseId)).toHaveLength(6);
    } finally {
      await f.ctx.services.close();
    }
  });
});
