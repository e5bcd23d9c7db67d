/**
 * probe: behavioural replay of each resolved Backward case that has a probe spec at
 * `<dataDir>/probes/<case-id>.yaml|.yml|.json`. A case without one gets a draft written to
 * `<dataDir>/probes/drafts/<case-id>.yaml` when its report names something runnable, and is
 * recorded as `no-spec`. Full logs go to `<dataDir>/logs/<sha256>.log`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MinerError } from '../errors.js';
import { draftProbeWithKind } from '../probe/draft.js';
import { replay, type ReplayResult } from '../probe/replay.js';
import { formatProbeSpec, parseProbeSpec } from '../probe/spec.js';
import { BackwardTables, type BackwardCaseRow } from '../store/tables/backward.js';
import { Sources } from '../store/tables/sources.js';
import { ProbeTables, type ProbeRunRow, type ProbeVerdictRow } from '../store/tables/probes.js';
import { digestOf, sha256 } from '../util/canonical.js';
import { gitReposOf } from './git-service.js';
import type { Stage, StageContext } from './types.js';

export interface ProbeItem {
  readonly caseId: string;
  readonly repo: string;
  readonly number: number;
  readonly gold: string;
  readonly parent: string | null;
  /** The spec file, or null when the case has none. */
  readonly specPath: string | null;
}

const SPEC_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;

function dataDirOf(ctx: StageContext): string {
  const d = ctx.options.dataDir;
  if (typeof d !== 'string' || d.length === 0) throw new MinerError('config', 'the probe stage needs a data directory (run option dataDir is missing)');
  return d;
}

/** The case's spec file under `<dataDir>/probes`, or null. */
export function specPathOf(dataDir: string, caseId: string): string | null {
  for (const ext of SPEC_EXTENSIONS) {
    const p = join(dataDir, 'probes', `${caseId}${ext}`);
    if (existsSync(p)) return p;
  }
  return null;
}

export function draftPathOf(dataDir: string, caseId: string): string {
  return join(dataDir, 'probes', 'drafts', `${caseId}.yaml`);
}

/** The rows of a replayed case: one verdict, its setup steps and trigger runs. Pure. */
export function replayRows(c: ProbeItem, specPath: string, specDigest: string, r: ReplayResult, finishedAt: string): { verdict: ProbeVerdictRow; runs: ProbeRunRow[] } {
  const runs: ProbeRunRow[] = [];
  for (const state of ['parent', 'gold'] as const) {
    const s = r[state];
    for (const step of s.setup) {
      runs.push({
        caseId: c.caseId, state, phase: 'setup', idx: step.step, sha: s.sha, command: step.command, executed: true,
        exitCode: step.exitCode, signal: step.signal, timedOut: step.timedOut, durationMs: step.durationMs,
        stdoutTail: step.stdoutTail, stderrTail: step.stderrTail, stdoutDigest: step.stdoutDigest, stderrDigest: step.stderrDigest,
        networkIsolated: step.networkIsolated, classification: step.ok ? 'ok' : 'setup-failed', why: step.ok ? 'setup step succeeded' : s.why,
      });
    }
    for (const run of s.runs) {
      runs.push({
        caseId: c.caseId, state, phase: 'trigger', idx: run.repeat, sha: s.sha, command: run.command, executed: run.executed,
        exitCode: run.exitCode, signal: run.signal, timedOut: run.timedOut, durationMs: run.durationMs,
        stdoutTail: run.stdoutTail, stderrTail: run.stderrTail, stdoutDigest: run.stdoutDigest, stderrDigest: run.stderrDigest,
        networkIsolated: run.networkIsolated, classification: run.classification, why: run.why,
      });
    }
  }
  const executed = runs.filter((x) => x.executed);
  return {
    verdict: {
      caseId: c.caseId, repo: c.repo, number: c.number, status: 'replayed', specPath, specDigest, draft: r.draft,
      draftPath: null, draftKind: null, goldSha: r.gold.sha, parentSha: r.parent.sha,
      parentVerdict: r.parent.verdict, parentWhy: r.parent.why, goldVerdict: r.gold.verdict, goldWhy: r.gold.why,
      boundary: r.boundary, observed: r.observed, reason: r.reason, repeats: r.repeats,
      networkIsolated: executed.length > 0 && executed.every((x) => x.networkIsolated), finishedAt,
    },
    runs,
  };
}

/** The text a draft is made from: the sanitized report, else the raw issue body. */
function reportTextOf(db: StageContext['store']['db'], repo: string, number: number): string | null {
  return new BackwardTables(db).report(repo, number)?.text ?? new Sources(db).thread(repo, number)?.body ?? null;
}

export const probeStage: Stage<ProbeItem> = {
  name: 'probe',
  version: 1,
  needs: ['validate', 'screen'],
  description: 'replay each case\'s probe at the parent of gold and at gold; verify the good→bad boundary',
  plan(ctx, repos) {
    const dataDir = dataDirOf(ctx);
    const backward = new BackwardTables(ctx.store.db);
    return backward.resolvedCases(repos).map((c: BackwardCaseRow) => {
      const specPath = specPathOf(dataDir, c.caseId);
      const specDigest = specPath ? sha256(readFileSync(specPath)) : null;
      const input: ProbeItem = { caseId: c.caseId, repo: c.repo, number: c.number, gold: c.gold, parent: c.parent, specPath };
      // Without a spec the item reads the report (for the draft); with one, the spec's bytes.
      const reportDigest = specPath ? null : sha256(reportTextOf(ctx.store.db, c.repo, c.number) ?? '');
      return { key: c.caseId, repo: c.repo, inputDigest: digestOf({ gold: c.gold, parent: c.parent, specDigest, reportDigest }), input };
    });
  },
  async process(item, ctx) {
    const c = item.input;
    const dataDir = dataDirOf(ctx);
    const now = ctx.now().toISOString();
    if (c.specPath === null || !existsSync(c.specPath)) {
      const report = reportTextOf(ctx.store.db, c.repo, c.number);
      const drafted = report ? draftProbeWithKind(report) : null;
      let draftPath: string | null = null;
      if (drafted) {
        draftPath = draftPathOf(dataDir, c.caseId);
        // A draft someone is already editing is kept.
        if (!existsSync(draftPath)) {
          mkdirSync(join(dataDir, 'probes', 'drafts'), { recursive: true });
          const header = `Draft probe for ${c.caseId} (${c.repo}#${c.number}), drafted from the report (${drafted.kind}).\n` +
            `${drafted.needsHuman ? `NEEDS A HUMAN: ${drafted.needsHuman}.\n` : ''}` +
            `Review setup, trigger, symptom and exercised, set draft: false, and save it as probes/${c.caseId}.yaml.`;
          writeFileSync(draftPath, formatProbeSpec(drafted.spec, header));
        }
      }
      const verdict: ProbeVerdictRow = {
        caseId: c.caseId, repo: c.repo, number: c.number, status: 'no-spec', specPath: null, specDigest: null, draft: false,
        draftPath, draftKind: drafted?.kind ?? null, goldSha: c.gold, parentSha: c.parent, parentVerdict: null, parentWhy: null,
        goldVerdict: null, goldWhy: null, boundary: null, observed: null, reason: 'no-spec', repeats: null, networkIsolated: null, finishedAt: now,
      };
      return { status: 'done', save: (store) => new ProbeTables(store.db).replaceCase(verdict, []) };
    }
    const text = readFileSync(c.specPath);
    const spec = parseProbeSpec(text.toString('utf8'), c.specPath);
    const { gitDir } = await gitReposOf(ctx).get(c.repo);
    let result: ReplayResult;
    try {
      result = await replay({
        gitDir,
        gold: c.gold,
        spec,
        workRoot: join(dataDir, 'work', 'probe'),
        logDir: join(dataDir, 'logs'),
        // An interrupt stops the probe's processes at once rather than after minutes of runs.
        signal: ctx.signal,
        onEvent: (e) => ctx.log.debug('probe command finished', { case: c.caseId, ...e }),
      });
    } catch (error) {
      if (ctx.signal.aborted) throw new MinerError('transient', `${c.caseId}: probe interrupted; it runs again on the next run`, { cause: error });
      throw error;
    }
    const rows = replayRows(c, c.specPath, sha256(text), result, now);
    const save = (store: StageContext['store']): void => new ProbeTables(store.db).replaceCase(rows.verdict, rows.runs);
    if (result.boundary === 'verified') return { status: 'done', save };
    return { status: 'rejected', reason: result.reason, save };
  },
};
