import type { Database } from 'better-sqlite3';
import type { Boundary, Verdict } from '../../model/probe.js';

/** Probe results of one Backward case (SQL of the probe stage, read by `r2v probe` and admission). */
export interface ProbeVerdictRow {
  caseId: string;
  repo: string;
  number: number;
  /** replayed; no-spec (no probe to run: see reason and detail); not-applicable (the fix's tests cannot be brought to a state). */
  status: 'replayed' | 'no-spec' | 'not-applicable';
  /** command | transplanted; null when nothing was run. */
  kind?: 'command' | 'transplanted' | null;
  specPath: string | null;
  specDigest: string | null;
  draft: boolean;
  draftPath: string | null;
  draftKind: string | null;
  goldSha: string;
  parentSha: string | null;
  parentVerdict: Verdict | null;
  parentWhy: string | null;
  goldVerdict: Verdict | null;
  goldWhy: string | null;
  boundary: Boundary | null;
  observed: Boundary | null;
  reason: string;
  /** The reason in words (null when the reason code says it all). */
  detail?: string | null;
  /** Transplanted probes: the fixing change and the test files run. */
  fixSha?: string | null;
  fixPull?: number | null;
  tests?: string[] | null;
  /** A test command proposed from the repository's layout; proposed only, never run. */
  proposedCommand?: string | null;
  repeats: number | null;
  networkIsolated: boolean | null;
  finishedAt: string;
}

export interface ProbeRunRow {
  caseId: string;
  state: 'parent' | 'gold';
  phase: 'setup' | 'trigger';
  idx: number;
  sha: string;
  command: string;
  executed: boolean;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdoutTail: string;
  stderrTail: string;
  stdoutDigest: string;
  stderrDigest: string;
  networkIsolated: boolean;
  classification: string;
  why: string;
}

/** What admission reads: the boundary (null when no probe ran) and its reason, in code and in words. */
export interface ProbeVerdictSummary {
  boundary: Boundary | null;
  reason: string;
  status?: ProbeVerdictRow['status'];
  kind?: ProbeVerdictRow['kind'];
  detail?: string | null;
  parent: Verdict | null;
  gold: Verdict | null;
  draft: boolean;
  /** Whether every command of the replay ran without network; null when nothing ran. */
  networkIsolated?: boolean | null;
}

const b = (v: boolean | null): number | null => (v === null ? null : v ? 1 : 0);
const bool = (v: unknown): boolean | null => (v === null || v === undefined ? null : v === 1);

function toVerdict(r: Record<string, unknown>): ProbeVerdictRow {
  return {
    caseId: r.case_id as string,
    repo: r.repo as string,
    number: r.number as number,
    status: r.status as ProbeVerdictRow['status'],
    kind: r.kind as ProbeVerdictRow['kind'],
    specPath: r.spec_path as string | null,
    specDigest: r.spec_digest as string | null,
    draft: r.draft === 1,
    draftPath: r.draft_path as string | null,
    draftKind: r.draft_kind as string | null,
    goldSha: r.gold_sha as string,
    parentSha: r.parent_sha as string | null,
    parentVerdict: r.parent_verdict as Verdict | null,
    parentWhy: r.parent_why as string | null,
    goldVerdict: r.gold_verdict as Verdict | null,
    goldWhy: r.gold_why as string | null,
    boundary: r.boundary as Boundary | null,
    observed: r.observed as Boundary | null,
    reason: r.reason as string,
    detail: r.detail as string | null,
    fixSha: r.fix_sha as string | null,
    fixPull: r.fix_pull as number | null,
    tests: r.tests === null || r.tests === undefined ? null : (JSON.parse(r.tests as string) as string[]),
    proposedCommand: r.proposed_command as string | null,
    repeats: r.repeats as number | null,
    networkIsolated: bool(r.network_isolated),
    finishedAt: r.finished_at as string,
  };
}

function toRun(r: Record<string, unknown>): ProbeRunRow {
  return {
    caseId: r.case_id as string,
    state: r.state as ProbeRunRow['state'],
    phase: r.phase as ProbeRunRow['phase'],
    idx: r.idx as number,
    sha: r.sha as string,
    command: r.command as string,
    executed: r.executed === 1,
    exitCode: r.exit_code as number | null,
    signal: r.signal as string | null,
    timedOut: r.timed_out === 1,
    durationMs: r.duration_ms as number,
    stdoutTail: r.stdout_tail as string,
    stderrTail: r.stderr_tail as string,
    stdoutDigest: r.stdout_digest as string,
    stderrDigest: r.stderr_digest as string,
    networkIsolated: r.network_isolated === 1,
    classification: r.classification as string,
    why: r.why as string,
  };
}

/** The statements of ProbeTables, prepared once per instance. */
function prepareProbeTables(db: Database) {
  return {
    deleteVerdict: db.prepare('DELETE FROM probe_verdicts WHERE case_id = ?'),
    deleteRuns: db.prepare('DELETE FROM probe_runs WHERE case_id = ?'),
    insertVerdict: db.prepare(`INSERT INTO probe_verdicts (case_id, repo, number, status, kind, spec_path, spec_digest, draft, draft_path, draft_kind,
        gold_sha, parent_sha, parent_verdict, parent_why, gold_verdict, gold_why, boundary, observed, reason, detail, fix_sha, fix_pull, tests,
        proposed_command, repeats, network_isolated, finished_at)
      VALUES (@caseId, @repo, @number, @status, @kind, @specPath, @specDigest, @draft, @draftPath, @draftKind,
        @goldSha, @parentSha, @parentVerdict, @parentWhy, @goldVerdict, @goldWhy, @boundary, @observed, @reason, @detail, @fixSha, @fixPull, @tests,
        @proposedCommand, @repeats, @networkIsolated, @finishedAt)`),
    insertRun: db.prepare(`INSERT INTO probe_runs (case_id, state, phase, idx, sha, command, executed, exit_code, signal, timed_out, duration_ms,
        stdout_tail, stderr_tail, stdout_digest, stderr_digest, network_isolated, classification, why)
      VALUES (@caseId, @state, @phase, @idx, @sha, @command, @executed, @exitCode, @signal, @timedOut, @durationMs,
        @stdoutTail, @stderrTail, @stdoutDigest, @stderrDigest, @networkIsolated, @classification, @why)`),
    verdict: db.prepare('SELECT * FROM probe_verdicts WHERE case_id = ?'),
    runs: db.prepare(`SELECT * FROM probe_runs WHERE case_id = ?
      ORDER BY CASE state WHEN 'parent' THEN 0 ELSE 1 END, CASE phase WHEN 'setup' THEN 0 ELSE 1 END, idx`),
    ofRepo: db.prepare('SELECT * FROM probe_verdicts WHERE repo = ? ORDER BY case_id'),
  };
}

export class ProbeTables {
  private readonly s: ReturnType<typeof prepareProbeTables>;
  constructor(private readonly db: Database) {
    this.s = prepareProbeTables(db);
  }

  /** Replaces everything stored for the case (its verdict and all its runs). */
  replaceCase(verdict: ProbeVerdictRow, runs: readonly ProbeRunRow[]): void {
    this.db.transaction(() => {
      this.s.deleteRuns.run(verdict.caseId);
      this.s.deleteVerdict.run(verdict.caseId);
      this.s.insertVerdict.run({
        ...verdict, draft: b(verdict.draft), networkIsolated: b(verdict.networkIsolated),
        kind: verdict.kind ?? null, detail: verdict.detail ?? null, fixSha: verdict.fixSha ?? null, fixPull: verdict.fixPull ?? null,
        tests: verdict.tests ? JSON.stringify(verdict.tests) : null, proposedCommand: verdict.proposedCommand ?? null,
      });
      for (const r of runs) {
        this.s.insertRun.run({ ...r, caseId: verdict.caseId, executed: b(r.executed), timedOut: b(r.timedOut), networkIsolated: b(r.networkIsolated) });
      }
    })();
  }

  verdict(caseId: string): ProbeVerdictRow | undefined {
    const r = this.s.verdict.get(caseId) as Record<string, unknown> | undefined;
    return r ? toVerdict(r) : undefined;
  }

  runs(caseId: string): ProbeRunRow[] {
    return (this.s.runs.all(caseId) as Record<string, unknown>[]).map(toRun);
  }

  verdictsOfRepo(repo: string): ProbeVerdictRow[] {
    return (this.s.ofRepo.all(repo) as Record<string, unknown>[]).map(toVerdict);
  }

  /** For admission: null when the probe stage has not looked at the case. */
  verdictFor(caseId: string): ProbeVerdictSummary | null {
    const v = this.verdict(caseId);
    if (!v) return null;
    return {
      boundary: v.boundary, reason: v.reason, status: v.status, kind: v.kind, detail: v.detail,
      parent: v.parentVerdict, gold: v.goldVerdict, draft: v.draft, networkIsolated: v.networkIsolated,
    };
  }
}
