import type { Database } from 'better-sqlite3';
import { type Row, allRows, flag, getRow, json, num, numOrNull, str, strOrNull } from '../row.js';
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

function toVerdict(r: Row): ProbeVerdictRow {
  return {
    caseId: str(r, 'case_id'),
    repo: str(r, 'repo'),
    number: num(r, 'number'),
    status: r.status as ProbeVerdictRow['status'],
    kind: r.kind as ProbeVerdictRow['kind'],
    specPath: strOrNull(r, 'spec_path'),
    specDigest: strOrNull(r, 'spec_digest'),
    draft: flag(r, 'draft'),
    draftPath: strOrNull(r, 'draft_path'),
    draftKind: strOrNull(r, 'draft_kind'),
    goldSha: str(r, 'gold_sha'),
    parentSha: strOrNull(r, 'parent_sha'),
    parentVerdict: r.parent_verdict as Verdict | null,
    parentWhy: strOrNull(r, 'parent_why'),
    goldVerdict: r.gold_verdict as Verdict | null,
    goldWhy: strOrNull(r, 'gold_why'),
    boundary: r.boundary as Boundary | null,
    observed: r.observed as Boundary | null,
    reason: str(r, 'reason'),
    detail: strOrNull(r, 'detail'),
    fixSha: strOrNull(r, 'fix_sha'),
    fixPull: numOrNull(r, 'fix_pull'),
    tests: r.tests === null || r.tests === undefined ? null : (json<string[]>(r, 'tests')),
    proposedCommand: strOrNull(r, 'proposed_command'),
    repeats: numOrNull(r, 'repeats'),
    networkIsolated: bool(r.network_isolated),
    finishedAt: str(r, 'finished_at'),
  };
}

function toRun(r: Row): ProbeRunRow {
  return {
    caseId: str(r, 'case_id'),
    state: r.state as ProbeRunRow['state'],
    phase: r.phase as ProbeRunRow['phase'],
    idx: num(r, 'idx'),
    sha: str(r, 'sha'),
    command: str(r, 'command'),
    executed: flag(r, 'executed'),
    exitCode: numOrNull(r, 'exit_code'),
    signal: strOrNull(r, 'signal'),
    timedOut: flag(r, 'timed_out'),
    durationMs: num(r, 'duration_ms'),
    stdoutTail: str(r, 'stdout_tail'),
    stderrTail: str(r, 'stderr_tail'),
    stdoutDigest: str(r, 'stdout_digest'),
    stderrDigest: str(r, 'stderr_digest'),
    networkIsolated: flag(r, 'network_isolated'),
    classification: str(r, 'classification'),
    why: str(r, 'why'),
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
    const r = getRow(this.s.verdict, caseId);
    return r ? toVerdict(r) : undefined;
  }

  runs(caseId: string): ProbeRunRow[] {
    return allRows(this.s.runs, caseId).map(toRun);
  }

  verdictsOfRepo(repo: string): ProbeVerdictRow[] {
    return allRows(this.s.ofRepo, repo).map(toVerdict);
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
