/**
 * probe: behavioural replay of each resolved Backward case. A human-written spec at
 * `<dataDir>/probes/<case-id>.yaml|.yml|.json` always wins. Without one, the probe is derived
 * from the fixing change: the merged pull request that closes or references the report (link
 * rules, merged after the report) whose test files (repos[].test_globs) are transplanted onto
 * gold's parent and gold and run with repos[].test_command; the derived spec is written to
 * `<dataDir>/probes/derived/<case-id>.yaml` (`kind: transplanted`). A case with neither is
 * recorded as `no-spec` with the reason. Either way, when the report names something runnable
 * a draft is written to `<dataDir>/probes/drafts/<case-id>.yaml` (never admitted). Setup results
 * are cached under `<dataDir>/cache/setup`; full logs go to `<dataDir>/logs/<sha256>.log`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoConfig } from '../config.js';
import { MinerError } from '../errors.js';
import { runGit } from '../git/runner.js';
import { compileGlobs, DEFAULT_TEST_GLOBS } from '../pairs/globs.js';
import { draftProbeWithKind } from '../probe/draft.js';
import { chooseFix, type FixChoice } from '../probe/fix-link.js';
import { describeProposal, proposeTestCommand, type TestCommandProposal } from '../probe/presets.js';
import { replay, type ReplayResult } from '../probe/replay.js';
import type { SetupCache } from '../probe/setup-cache.js';
import { formatProbeSpec, isTransplanted, parseAnyProbeSpec, TransplantedSpec, type AnyProbeSpec } from '../probe/spec.js';
import { fixTestChanges, replayTransplanted, type NotApplicable } from '../probe/transplant.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { BackwardTables, type BackwardCaseRow } from '../store/tables/backward.js';
import { Sources } from '../store/tables/sources.js';
import type { ProbeRunRow, ProbeVerdictRow } from '../store/tables/probes.js';
import { digestOf, sha256 } from '../util/canonical.js';
import type { Stage, StageContext } from './types.js';
import type { Store } from '../store/db.js';

export interface ProbeItem {
  readonly caseId: string;
  readonly repo: string;
  readonly number: number;
  readonly gold: string;
  readonly parent: string | null;
  /** The human-written spec file, or null when the case has none. */
  readonly specPath: string | null;
  /** Without a human spec: the fixing change found by the link rules (null with a spec). */
  readonly fix: FixChoice | null;
  /** The repository's test configuration (transplanted probes). */
  readonly tests: { readonly command: string | null; readonly globs: readonly string[]; readonly setup: readonly string[]; readonly setupCache: readonly string[] };
}

const SPEC_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;

function dataDirOf(ctx: StageContext): string {
  const d = ctx.options.dataDir;
  if (d.length === 0) throw new MinerError('config', 'the probe stage needs a data directory (run option dataDir is missing)');
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

/** Where the spec derived from the fixing change's tests is written. */
export function derivedPathOf(dataDir: string, caseId: string): string {
  return join(dataDir, 'probes', 'derived', `${caseId}.yaml`);
}

/** The rows of a replayed case: one verdict, its setup steps and trigger runs. Pure. */
export function replayRows(
  c: Pick<ProbeItem, 'caseId' | 'repo' | 'number'>,
  specPath: string,
  specDigest: string,
  r: ReplayResult,
  finishedAt: string,
  extra: Partial<Pick<ProbeVerdictRow, 'kind' | 'fixSha' | 'fixPull' | 'tests' | 'draftPath' | 'draftKind'>> = {},
): { verdict: ProbeVerdictRow; runs: ProbeRunRow[] } {
  const runs: ProbeRunRow[] = [];
  for (const state of ['parent', 'gold'] as const) {
    const s = r[state];
    for (const step of s.setup) {
      runs.push({
        caseId: c.caseId, state, phase: 'setup', idx: step.step, sha: s.sha, command: step.command, executed: true,
        exitCode: step.exitCode, signal: step.signal, timedOut: step.timedOut, durationMs: step.durationMs,
        stdoutTail: step.stdoutTail, stderrTail: step.stderrTail, stdoutDigest: step.stdoutDigest, stderrDigest: step.stderrDigest,
        networkIsolated: step.networkIsolated, classification: step.ok ? 'ok' : 'setup-failed',
        why: step.cachedKey ? `restored from the setup cache (${step.cachedKey.slice(0, 12)})` : step.ok ? 'setup step succeeded' : s.why,
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
      caseId: c.caseId, repo: c.repo, number: c.number, status: 'replayed', kind: extra.kind ?? 'command', specPath, specDigest, draft: r.draft,
      draftPath: extra.draftPath ?? null, draftKind: extra.draftKind ?? null, goldSha: r.gold.sha, parentSha: r.parent.sha,
      parentVerdict: r.parent.verdict, parentWhy: r.parent.why, goldVerdict: r.gold.verdict, goldWhy: r.gold.why,
      boundary: r.boundary, observed: r.observed, reason: r.reason, detail: boundaryDetail(r),
      fixSha: extra.fixSha ?? null, fixPull: extra.fixPull ?? null, tests: extra.tests ?? null, repeats: r.repeats,
      networkIsolated: executed.length > 0 && executed.every((x) => x.networkIsolated), finishedAt,
    },
    runs,
  };
}


/** The boundary in words: what each state showed. */
function boundaryDetail(r: ReplayResult): string {
  return `parent ${r.parent.verdict} (${r.parent.why}); gold ${r.gold.verdict} (${r.gold.why})`;
}

/** The text a draft is made from: the sanitized report, else the raw issue body. */
function reportTextOf(store: Store, repo: string, number: number): string | null {
  return store.backward.report(repo, number)?.text ?? store.sources.thread(repo, number)?.body ?? null;
}

async function topLevelNames(gitDir: string, sha: string): Promise<string[]> {
  return (await runGit(gitDir, ['ls-tree', '--name-only', sha])).stdout.split('\n').filter((l) => l !== '');
}

/** Writes a draft from the report (a draft someone is already editing is kept); returns where, and from what. */
function writeDraft(dataDir: string, c: ProbeItem, report: string | null, proposal: TestCommandProposal | null): { path: string; kind: string } | null {
  const drafted = report ? draftProbeWithKind(report, (ext) => join(dataDir, 'probes', 'drafts', `${c.caseId}.repro.${ext}`)) : null;
  if (!drafted) return null;
  const path = draftPathOf(dataDir, c.caseId);
  if (!existsSync(path)) {
    mkdirSync(join(dataDir, 'probes', 'drafts'), { recursive: true });
    // A reproduction script is saved as it is; the trigger feeds it to its interpreter.
    if (drafted.script) writeFileSync(drafted.script.path, drafted.script.body);
    const header = `Draft probe for ${c.caseId} (${c.repo}#${c.number}), drafted from the report (${drafted.kind}).\n` +
      `${drafted.needsHuman ? `NEEDS A HUMAN: ${drafted.needsHuman}.\n` : ''}` +
      `Review setup, trigger, symptom and exercised, set draft: false, and save it as probes/${c.caseId}.yaml.\n` +
      (c.tests.command ? `Configured test command: ${c.tests.command}` : describeProposal(proposal));
    writeFileSync(path, formatProbeSpec(drafted.spec, header));
  }
  return { path, kind: drafted.kind };
}

/** What the probe stage knows about a case it could not run a probe for. */
function notRunRow(c: ProbeItem, now: string, fields: Pick<ProbeVerdictRow, 'status' | 'reason' | 'detail'> & Partial<ProbeVerdictRow>): ProbeVerdictRow {
  return {
    caseId: c.caseId, repo: c.repo, number: c.number, kind: null, specPath: null, specDigest: null, draft: false,
    draftPath: null, draftKind: null, goldSha: c.gold, parentSha: c.parent, parentVerdict: null, parentWhy: null,
    goldVerdict: null, goldWhy: null, boundary: null, observed: null, repeats: null, networkIsolated: null, finishedAt: now,
    fixSha: null, fixPull: null, tests: null, proposedCommand: null, ...fields,
  };
}

type Derived =
  | { readonly spec: TransplantedSpec; readonly path: string; readonly text: string }
  | { readonly spec: null; readonly reason: string; readonly detail: string };

/** The transplanted-test spec of the case's fix, written under probes/derived/, or why there is none. */
async function deriveSpec(dataDir: string, c: ProbeItem, gitDir: string, proposal: TestCommandProposal | null): Promise<Derived> {
  const fix = c.fix;
  if (!fix || fix.status === 'none') return { spec: null, reason: fix?.reason === 'fix-ambiguous' ? 'fix-ambiguous' : 'no-spec', detail: fix?.detail ?? 'no probe spec' };
  const isTest = compileGlobs(c.tests.globs);
  const { changes } = await fixTestChanges(gitDir, fix.sha, isTest);
  const pr = `pull request #${fix.pull} (${fix.sha.slice(0, 12)})`;
  if (changes.length === 0) return { spec: null, reason: 'fix-without-tests', detail: `the fix, ${pr}, adds or changes no test file (test globs: ${c.tests.globs.join(', ')})` };
  if (!c.tests.command) {
    return { spec: null, reason: 'no-test-command', detail: `the fix, ${pr}, changes tests (${changes.map((t) => t.path).join(', ')}) but the repository has no test_command; ${describeProposal(proposal)}` };
  }
  const spec = TransplantedSpec.parse({
    kind: 'transplanted',
    fix: { sha: fix.sha, pull: fix.pull },
    tests: changes.map((t) => t.path),
    test_command: c.tests.command,
    setup: [...c.tests.setup],
    setup_cache: [...c.tests.setupCache],
  });
  const header = `Derived for ${c.caseId} (${c.repo}#${c.number}) from the fixing change, ${pr}, found by: ${fix.links.map((l) => `${l.how} (${l.evidence})`).join('; ')}.\n` +
    `Its test files (${changes.map((t) => `${t.path}: ${t.status}`).join(', ')}) are applied onto gold's parent and gold; they should pass at the parent and fail at gold.\n` +
    `Regenerated on every run. To edit it, copy it to probes/${c.caseId}.yaml: a spec there always wins.`;
  const text = formatProbeSpec(spec, header);
  const path = derivedPathOf(dataDir, c.caseId);
  mkdirSync(join(dataDir, 'probes', 'derived'), { recursive: true });
  writeFileAtomic(path, text);
  return { spec, path, text };
}

function notApplicableRow(c: ProbeItem, now: string, spec: TransplantedSpec, path: string, digest: string, na: NotApplicable, parentSha: string, goldSha: string): ProbeVerdictRow {
  return notRunRow(c, now, {
    status: 'not-applicable', kind: 'transplanted', reason: 'not-applicable', detail: na.detail, specPath: path, specDigest: digest,
    fixSha: spec.fix.sha, fixPull: spec.fix.pull, tests: [...spec.tests], parentSha, goldSha,
  });
}

export const probeStage: Stage<ProbeItem> = {
  name: 'probe',
  // 2: probes derived from the fixing change's tests.
  version: 2,
  needs: ['validate', 'screen'],
  description: 'replay each case\'s probe (written, or derived from the fix\'s tests) at the parent of gold and at gold; verify the good→bad boundary',
  plan(ctx, repos) {
    const dataDir = dataDirOf(ctx);
    const backward = ctx.store.backward;
    const sources = ctx.store.sources;
    const linksOf = new Map<string, ReturnType<Sources['links']>>();
    return backward.resolvedCases(repos).map((c: BackwardCaseRow) => {
      const specPath = specPathOf(dataDir, c.caseId);
      const specDigest = specPath ? sha256(readFileSync(specPath)) : null;
      const rc = repoConfig(ctx.config, c.repo);
      const tests = {
        command: rc?.test_command ?? null,
        globs: rc?.test_globs ?? [...DEFAULT_TEST_GLOBS],
        setup: rc?.test_setup ?? [],
        setupCache: rc?.test_setup_cache ?? [],
      };
      let fix: FixChoice | null = null;
      if (!specPath) {
        if (!linksOf.has(c.repo)) linksOf.set(c.repo, sources.links(c.repo));
        fix = chooseFix(c.number, c.reportTime, linksOf.get(c.repo)!, (n) => sources.pull(c.repo, n));
      }
      const input: ProbeItem = { caseId: c.caseId, repo: c.repo, number: c.number, gold: c.gold, parent: c.parent, specPath, fix, tests };
      // Without a spec the item reads the report (for the draft) and the fix; with one, the spec's bytes.
      const reportDigest = specPath ? null : sha256(reportTextOf(ctx.store, c.repo, c.number) ?? '');
      return {
        key: c.caseId,
        repo: c.repo,
        inputDigest: digestOf({ gold: c.gold, parent: c.parent, specDigest, reportDigest, fix, tests: specPath ? null : tests }),
        input,
      };
    });
  },
  async process(item, ctx) {
    const c = item.input;
    const dataDir = dataDirOf(ctx);
    const now = ctx.now().toISOString();
    const { gitDir } = await ctx.git.get(c.repo);
    const setupCache: SetupCache = { dir: join(dataDir, 'cache', 'setup'), repo: c.repo };
    let spec: AnyProbeSpec;
    let specPath: string;
    let specText: Buffer;
    let draft: { path: string; kind: string } | null = null;
    if (c.specPath !== null && existsSync(c.specPath)) {
      specPath = c.specPath;
      specText = readFileSync(c.specPath);
      spec = parseAnyProbeSpec(specText.toString('utf8'), c.specPath);
    } else {
      const proposal = c.tests.command ? null : proposeTestCommand(await topLevelNames(gitDir, c.gold));
      draft = writeDraft(dataDir, c, reportTextOf(ctx.store, c.repo, c.number), proposal);
      const derived = await deriveSpec(dataDir, c, gitDir, proposal);
      if (derived.spec === null) {
        const verdict = notRunRow(c, now, {
          status: 'no-spec', reason: derived.reason, detail: derived.detail, draftPath: draft?.path ?? null, draftKind: draft?.kind ?? null,
          proposedCommand: proposal?.command ?? null,
          fixSha: c.fix?.status === 'found' ? c.fix.sha : null, fixPull: c.fix?.status === 'found' ? c.fix.pull : null,
        });
        return { status: 'done', save: (store) => store.probes.replaceCase(verdict, []) };
      }
      spec = derived.spec;
      specPath = derived.path;
      specText = Buffer.from(derived.text);
    }
    const common = {
      gitDir,
      gold: c.gold,
      workRoot: join(dataDir, 'work', 'probe'),
      logDir: join(dataDir, 'logs'),
      setupCache,
      // An interrupt stops the probe's processes at once rather than after minutes of runs.
      signal: ctx.signal,
      onEvent: (e: object) => ctx.log.debug('probe command finished', { case: c.caseId, ...e }),
    };
    const digest = sha256(specText);
    const extra = { draftPath: draft?.path ?? null, draftKind: draft?.kind ?? null };
    let rows: { verdict: ProbeVerdictRow; runs: ProbeRunRow[] };
    try {
      if (isTransplanted(spec)) {
        const t = spec;
        const out = await replayTransplanted({ ...common, spec: t });
        const fixFields = { kind: 'transplanted' as const, fixSha: t.fix.sha, fixPull: t.fix.pull, tests: [...t.tests] };
        rows = out.applicable
          ? replayRows(c, specPath, digest, out.result, now, { ...extra, ...fixFields })
          : { verdict: { ...notApplicableRow(c, now, t, specPath, digest, out.notApplicable, out.parentSha, out.goldSha), ...extra }, runs: [] };
      } else {
        rows = replayRows(c, specPath, digest, await replay({ ...common, spec }), now, { ...extra, kind: 'command' });
      }
    } catch (error) {
      if (ctx.signal.aborted) throw new MinerError('transient', `${c.caseId}: probe interrupted; it runs again on the next run`, { cause: error });
      throw error;
    }
    const save = (store: StageContext['store']): void => store.probes.replaceCase(rows.verdict, rows.runs);
    if (rows.verdict.boundary === 'verified') return { status: 'done', save };
    return { status: 'rejected', reason: rows.verdict.reason, save };
  },
};
