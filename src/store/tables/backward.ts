import type { Database, Statement } from 'better-sqlite3';
import type { Attribution, AttributionKind, Decision, Reason, RefType, TextScreen } from '../../model/backward.js';
import type { Span } from '../../model/deletions.js';
import type { LeakFinding } from '../../model/deletions.js';

/** A resolved Backward case: what probe replay and export start from. */
export interface BackwardCaseRow {
  caseId: string;
  repo: string;
  number: number;
  gold: string;
  parent: string | null;
  cutoff: string | null;
  cutoffRule: string;
  historyWindow: number | null;
  reportTime: string;
  reportUrl: string;
}

/** Everything the resolve stage stored for a thread (resolved or rejected). */
export interface BackwardCaseRecord {
  repo: string;
  number: number;
  status: 'resolved' | 'rejected';
  /** The screen decision after resolution (screenResolved). */
  decision: Decision;
  caseId: string | null;
  gold: string | null;
  goldSubject: string | null;
  parent: string | null;
  defaultBranch: string | null;
  cutoff: string | null;
  cutoffRule: string;
  cutoffNotes: string[];
  historyWindow: number | null;
  tag: string | null;
  tagWindow: number | null;
  /** The culprit's and the fix's pull requests (deleted from the report). */
  prNumbers: number[];
  reportTime: string;
  reportUrl: string;
}

export interface ResolutionRow {
  /** Index into the thread's attribution list. */
  idx: number;
  input: string;
  status: string;
  sha: string | null;
  candidates: string[];
  via: string;
}

export interface CheckRow {
  name: string;
  pass: boolean;
  evidence: string;
}

export interface ReportRow {
  original: string;
  text: string;
  deletions: Span[];
  leakOk: boolean;
  leakFindings: LeakFinding[];
  symptomOk: boolean;
  symptomWhy: string;
}

/** A reason as stored: which stage gave it. */
export interface StageReason {
  stage: string;
  code: string;
  evidence: string;
  post: number | null;
}

export interface ScreenRow {
  repo: string;
  number: number;
  caseId: string | null;
  decision: Decision;
  reasons: StageReason[];
}

const j = (v: unknown): string => JSON.stringify(v);

/** The statements of BackwardTables, prepared once per instance. */
function prepareBackwardTables(db: Database) {
  const del = (table: string): Statement => db.prepare(`DELETE FROM ${table} WHERE repo = ? AND number = ?`);
  return {
    delAttributions: del('backward_attributions'),
    insAttribution: db.prepare(`INSERT INTO backward_attributions (repo, number, idx, kind, ref_type, ref_text, ref_value, url_repo, post,
        ref_start, ref_end, sentence_start, sentence_end, sentence, author, created_at, hedged)
      VALUES (@repo, @number, @idx, @kind, @refType, @refText, @refValue, @urlRepo, @post, @start, @end, @sentenceStart, @sentenceEnd,
        @sentence, @author, @createdAt, @hedged)`),
    attributions: db.prepare('SELECT * FROM backward_attributions WHERE repo = ? AND number = ? ORDER BY idx'),
    delTextScreen: del('backward_text_screens'),
    insTextScreen: db.prepare('INSERT INTO backward_text_screens (repo, number, decision, culprits) VALUES (?, ?, ?, ?)'),
    textScreen: db.prepare('SELECT * FROM backward_text_screens WHERE repo = ? AND number = ?'),
    screenedThreads: db.prepare('SELECT number FROM backward_text_screens WHERE repo = ? ORDER BY number'),
    delReasons: db.prepare('DELETE FROM backward_reasons WHERE stage = ? AND repo = ? AND number = ?'),
    insReason: db.prepare('INSERT INTO backward_reasons (stage, repo, number, seq, code, evidence, post) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    reasonsOfStage: db.prepare('SELECT * FROM backward_reasons WHERE stage = ? AND repo = ? AND number = ? ORDER BY seq'),
    reasons: db.prepare('SELECT * FROM backward_reasons WHERE repo = ? AND number = ? ORDER BY stage, seq'),
    delResolutions: del('backward_resolutions'),
    insResolution: db.prepare(`INSERT INTO backward_resolutions (repo, number, idx, input, status, sha, candidates, via)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    resolutions: db.prepare('SELECT * FROM backward_resolutions WHERE repo = ? AND number = ? ORDER BY idx'),
    delCase: del('backward_cases'),
    insCase: db.prepare(`INSERT INTO backward_cases (repo, number, status, decision, case_id, gold, gold_subject, parent, default_branch,
        cutoff, cutoff_rule, cutoff_notes, history_window, tag, tag_window, pr_numbers, report_time, report_url)
      VALUES (@repo, @number, @status, @decision, @caseId, @gold, @goldSubject, @parent, @defaultBranch, @cutoff, @cutoffRule,
        @cutoffNotes, @historyWindow, @tag, @tagWindow, @prNumbers, @reportTime, @reportUrl)`),
    caseOf: db.prepare('SELECT * FROM backward_cases WHERE repo = ? AND number = ?'),
    casesOfRepo: db.prepare('SELECT * FROM backward_cases WHERE repo = ? ORDER BY number'),
    allCases: db.prepare('SELECT * FROM backward_cases ORDER BY repo, number'),
    delChecks: del('backward_checks'),
    insCheck: db.prepare('INSERT INTO backward_checks (repo, number, name, pass, evidence) VALUES (?, ?, ?, ?, ?)'),
    checks: db.prepare('SELECT * FROM backward_checks WHERE repo = ? AND number = ? ORDER BY name'),
    delReport: del('backward_reports'),
    insReport: db.prepare(`INSERT INTO backward_reports (repo, number, original, text, deletions, leak_ok, leak_findings, symptom_ok, symptom_why)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    report: db.prepare('SELECT * FROM backward_reports WHERE repo = ? AND number = ?'),
    delScreen: del('backward_screens'),
    insScreen: db.prepare('INSERT INTO backward_screens (repo, number, case_id, decision, reasons) VALUES (?, ?, ?, ?, ?)'),
    screen: db.prepare('SELECT * FROM backward_screens WHERE repo = ? AND number = ?'),
    screensOfRepo: db.prepare('SELECT * FROM backward_screens WHERE repo = ? ORDER BY number'),
    allScreens: db.prepare('SELECT * FROM backward_screens ORDER BY repo, number'),
  };
}

export class BackwardTables {
  private readonly s: ReturnType<typeof prepareBackwardTables>;
  constructor(private readonly db: Database) {
    this.s = prepareBackwardTables(db);
  }

  // --- attribute ---------------------------------------------------------------------------

  /** Replaces a thread's attributions, text screen and attribute-stage reasons. */
  replaceAttributions(repo: string, number: number, attributions: readonly Attribution[], screen: TextScreen): void {
    this.s.delAttributions.run(repo, number);
    for (const [idx, a] of attributions.entries()) {
      this.s.insAttribution.run({
        repo,
        number,
        idx,
        kind: a.kind,
        refType: a.ref.type,
        refText: a.ref.text,
        refValue: a.ref.value,
        urlRepo: a.ref.urlRepo,
        post: a.post,
        start: a.start,
        end: a.end,
        sentenceStart: a.sentence.start,
        sentenceEnd: a.sentence.end,
        sentence: a.sentence.text,
        author: a.author,
        createdAt: a.createdAt,
        hedged: a.hedged ? 1 : 0,
      });
    }
    this.s.delTextScreen.run(repo, number);
    this.s.insTextScreen.run(repo, number, screen.decision, j(screen.culprits));
    this.replaceReasons('attribute', repo, number, screen.reasons);
  }

  attributions(repo: string, number: number): Attribution[] {
    return (this.s.attributions.all(repo, number) as Record<string, unknown>[]).map((r) => ({
      ref: {
        type: r.ref_type as RefType,
        text: r.ref_text as string,
        value: r.ref_value as string,
        urlRepo: (r.url_repo as string | null) ?? null,
      },
      kind: r.kind as AttributionKind,
      post: r.post as number,
      start: r.ref_start as number,
      end: r.ref_end as number,
      sentence: { start: r.sentence_start as number, end: r.sentence_end as number, text: r.sentence as string },
      author: r.author as string,
      createdAt: r.created_at as string,
      hedged: r.hedged === 1,
    }));
  }

  /** The text-level screen of a thread (attribute stage), with its reasons. */
  textScreen(repo: string, number: number): TextScreen | undefined {
    const r = this.s.textScreen.get(repo, number) as Record<string, unknown> | undefined;
    if (!r) return undefined;
    return {
      decision: r.decision as Decision,
      culprits: JSON.parse(r.culprits as string) as number[],
      reasons: this.stageReasons('attribute', repo, number).map(toReason),
    };
  }

  /** Numbers of the threads of `repo` the attribute stage has looked at. */
  screenedThreads(repo: string): number[] {
    return (this.s.screenedThreads.all(repo) as { number: number }[]).map((r) => r.number);
  }

  // --- reasons -----------------------------------------------------------------------------

  replaceReasons(stage: string, repo: string, number: number, reasons: readonly Reason[]): void {
    this.s.delReasons.run(stage, repo, number);
    for (const [seq, r] of reasons.entries()) this.s.insReason.run(stage, repo, number, seq, r.code, r.evidence, r.post ?? null);
  }

  stageReasons(stage: string, repo: string, number: number): StageReason[] {
    return (this.s.reasonsOfStage.all(stage, repo, number) as Record<string, unknown>[]).map(toStageReason);
  }

  /** Every stored reason of a thread, all stages. */
  reasons(repo: string, number: number): StageReason[] {
    return (this.s.reasons.all(repo, number) as Record<string, unknown>[]).map(toStageReason);
  }

  // --- resolve -----------------------------------------------------------------------------

  /** Replaces a thread's resolutions, case row and resolve-stage reasons. */
  replaceResolution(record: BackwardCaseRecord, resolutions: readonly ResolutionRow[], reasons: readonly Reason[]): void {
    const { repo, number } = record;
    this.s.delResolutions.run(repo, number);
    for (const r of resolutions) this.s.insResolution.run(repo, number, r.idx, r.input, r.status, r.sha, j(r.candidates), r.via);
    this.s.delCase.run(repo, number);
    this.s.insCase.run({ ...record, cutoffNotes: j(record.cutoffNotes), prNumbers: j(record.prNumbers) });
    this.replaceReasons('resolve', repo, number, reasons);
  }

  /** Removes what the resolve stage stored for a thread (it no longer reaches resolution). */
  clearResolution(repo: string, number: number): void {
    this.s.delResolutions.run(repo, number);
    this.s.delCase.run(repo, number);
    this.replaceReasons('resolve', repo, number, []);
  }

  resolutions(repo: string, number: number): ResolutionRow[] {
    return (this.s.resolutions.all(repo, number) as Record<string, unknown>[]).map((r) => ({
      idx: r.idx as number,
      input: r.input as string,
      status: r.status as string,
      sha: (r.sha as string | null) ?? null,
      candidates: JSON.parse(r.candidates as string) as string[],
      via: r.via as string,
    }));
  }

  caseOf(repo: string, number: number): BackwardCaseRecord | undefined {
    const r = this.s.caseOf.get(repo, number) as Record<string, unknown> | undefined;
    return r ? toCase(r) : undefined;
  }

  cases(repo: string): BackwardCaseRecord[] {
    return (this.s.casesOfRepo.all(repo) as Record<string, unknown>[]).map(toCase);
  }

  /** Cases whose gold resolved (whatever later stages decided), sorted by repo and number. */
  resolvedCases(repos?: readonly string[]): BackwardCaseRow[] {
    const rows = repos
      ? repos.flatMap((repo) => this.s.casesOfRepo.all(repo) as Record<string, unknown>[])
      : (this.s.allCases.all() as Record<string, unknown>[]);
    return rows
      .map(toCase)
      .filter((c) => c.status === 'resolved' && c.gold !== null && c.caseId !== null)
      .map((c) => ({
        caseId: c.caseId!,
        repo: c.repo,
        number: c.number,
        gold: c.gold!,
        parent: c.parent,
        cutoff: c.cutoff,
        cutoffRule: c.cutoffRule,
        historyWindow: c.historyWindow,
        reportTime: c.reportTime,
        reportUrl: c.reportUrl,
      }));
  }

  /** Resolved cases whose final decision (screen stage) is `decision` (default: candidate). */
  casesWithDecision(decision: Decision = 'candidate', repos?: readonly string[]): BackwardCaseRow[] {
    const keep = new Set(this.screens({ repos, decision }).map((s) => `${s.repo}#${s.number}`));
    return this.resolvedCases(repos).filter((c) => keep.has(`${c.repo}#${c.number}`));
  }

  // --- validate ----------------------------------------------------------------------------

  replaceChecks(repo: string, number: number, checks: readonly CheckRow[], reasons: readonly Reason[]): void {
    this.s.delChecks.run(repo, number);
    for (const c of checks) this.s.insCheck.run(repo, number, c.name, c.pass ? 1 : 0, c.evidence);
    this.replaceReasons('validate', repo, number, reasons);
  }

  checks(repo: string, number: number): CheckRow[] {
    return (this.s.checks.all(repo, number) as Record<string, unknown>[]).map((r) => ({
      name: r.name as string,
      pass: r.pass === 1,
      evidence: r.evidence as string,
    }));
  }

  // --- sanitize ----------------------------------------------------------------------------

  /** Replaces a thread's sanitized report (null: none, e.g. when resolve rejected it). */
  replaceReport(repo: string, number: number, report: ReportRow | null, reasons: readonly Reason[]): void {
    this.s.delReport.run(repo, number);
    if (report) {
      this.s.insReport.run(
        repo,
        number,
        report.original,
        report.text,
        j(report.deletions),
        report.leakOk ? 1 : 0,
        j(report.leakFindings),
        report.symptomOk ? 1 : 0,
        report.symptomWhy,
      );
    }
    this.replaceReasons('sanitize', repo, number, reasons);
  }

  report(repo: string, number: number): ReportRow | undefined {
    const r = this.s.report.get(repo, number) as Record<string, unknown> | undefined;
    if (!r) return undefined;
    return {
      original: r.original as string,
      text: r.text as string,
      deletions: JSON.parse(r.deletions as string) as Span[],
      leakOk: r.leak_ok === 1,
      leakFindings: JSON.parse(r.leak_findings as string) as LeakFinding[],
      symptomOk: r.symptom_ok === 1,
      symptomWhy: r.symptom_why as string,
    };
  }

  // --- screen ------------------------------------------------------------------------------

  replaceScreen(row: ScreenRow): void {
    this.s.delScreen.run(row.repo, row.number);
    this.s.insScreen.run(row.repo, row.number, row.caseId, row.decision, j(row.reasons));
  }

  clearScreen(repo: string, number: number): void {
    this.s.delScreen.run(repo, number);
  }

  screen(repo: string, number: number): ScreenRow | undefined {
    const r = this.s.screen.get(repo, number) as Record<string, unknown> | undefined;
    return r ? toScreen(r) : undefined;
  }

  /** Final decisions, optionally only of some repositories and one decision, sorted by repo and number. */
  screens(options: { repos?: readonly string[]; decision?: Decision } = {}): ScreenRow[] {
    const rows = options.repos
      ? options.repos.flatMap((repo) => this.s.screensOfRepo.all(repo) as Record<string, unknown>[])
      : (this.s.allScreens.all() as Record<string, unknown>[]);
    return rows.map(toScreen).filter((s) => !options.decision || s.decision === options.decision);
  }
}

function toStageReason(r: Record<string, unknown>): StageReason {
  return { stage: r.stage as string, code: r.code as string, evidence: r.evidence as string, post: (r.post as number | null) ?? null };
}

function toReason(r: StageReason): Reason {
  return r.post === null
    ? { code: r.code as Reason['code'], evidence: r.evidence }
    : { code: r.code as Reason['code'], evidence: r.evidence, post: r.post };
}

function toCase(r: Record<string, unknown>): BackwardCaseRecord {
  return {
    repo: r.repo as string,
    number: r.number as number,
    status: r.status as 'resolved' | 'rejected',
    decision: r.decision as Decision,
    caseId: (r.case_id as string | null) ?? null,
    gold: (r.gold as string | null) ?? null,
    goldSubject: (r.gold_subject as string | null) ?? null,
    parent: (r.parent as string | null) ?? null,
    defaultBranch: (r.default_branch as string | null) ?? null,
    cutoff: (r.cutoff as string | null) ?? null,
    cutoffRule: r.cutoff_rule as string,
    cutoffNotes: JSON.parse(r.cutoff_notes as string) as string[],
    historyWindow: (r.history_window as number | null) ?? null,
    tag: (r.tag as string | null) ?? null,
    tagWindow: (r.tag_window as number | null) ?? null,
    prNumbers: JSON.parse(r.pr_numbers as string) as number[],
    reportTime: r.report_time as string,
    reportUrl: r.report_url as string,
  };
}

function toScreen(r: Record<string, unknown>): ScreenRow {
  return {
    repo: r.repo as string,
    number: r.number as number,
    caseId: (r.case_id as string | null) ?? null,
    decision: r.decision as Decision,
    reasons: JSON.parse(r.reasons as string) as StageReason[],
  };
}
