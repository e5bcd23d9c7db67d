import type { Database, Statement } from 'better-sqlite3';
import { allRows, flag, getRow, json, num, numOrNull, type Row, str, strOrNull } from '../row.js';
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
    return allRows(this.s.attributions, repo, number).map((r) => ({
      ref: {
        type: r.ref_type as RefType,
        text: str(r, 'ref_text'),
        value: str(r, 'ref_value'),
        urlRepo: strOrNull(r, 'url_repo'),
      },
      kind: r.kind as AttributionKind,
      post: num(r, 'post'),
      start: num(r, 'ref_start'),
      end: num(r, 'ref_end'),
      sentence: { start: num(r, 'sentence_start'), end: num(r, 'sentence_end'), text: str(r, 'sentence') },
      author: str(r, 'author'),
      createdAt: str(r, 'created_at'),
      hedged: flag(r, 'hedged'),
    }));
  }

  /** The text-level screen of a thread (attribute stage), with its reasons. */
  textScreen(repo: string, number: number): TextScreen | undefined {
    const r = getRow(this.s.textScreen, repo, number);
    if (!r) return undefined;
    return {
      decision: r.decision as Decision,
      culprits: json<number[]>(r, 'culprits'),
      reasons: this.stageReasons('attribute', repo, number).map(toReason),
    };
  }

  /** Numbers of the threads of `repo` the attribute stage has looked at. */
  screenedThreads(repo: string): number[] {
    return allRows(this.s.screenedThreads, repo).map((r) => num(r, 'number'));
  }

  // --- reasons -----------------------------------------------------------------------------

  replaceReasons(stage: string, repo: string, number: number, reasons: readonly Reason[]): void {
    this.s.delReasons.run(stage, repo, number);
    for (const [seq, r] of reasons.entries()) this.s.insReason.run(stage, repo, number, seq, r.code, r.evidence, r.post ?? null);
  }

  stageReasons(stage: string, repo: string, number: number): StageReason[] {
    return allRows(this.s.reasonsOfStage, stage, repo, number).map(toStageReason);
  }

  /** Every stored reason of a thread, all stages. */
  reasons(repo: string, number: number): StageReason[] {
    return allRows(this.s.reasons, repo, number).map(toStageReason);
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
    return allRows(this.s.resolutions, repo, number).map((r) => ({
      idx: num(r, 'idx'),
      input: str(r, 'input'),
      status: str(r, 'status'),
      sha: strOrNull(r, 'sha'),
      candidates: json<string[]>(r, 'candidates'),
      via: str(r, 'via'),
    }));
  }

  caseOf(repo: string, number: number): BackwardCaseRecord | undefined {
    const r = getRow(this.s.caseOf, repo, number);
    return r ? toCase(r) : undefined;
  }

  cases(repo: string): BackwardCaseRecord[] {
    return allRows(this.s.casesOfRepo, repo).map(toCase);
  }

  /** Cases whose gold resolved (whatever later stages decided), sorted by repo and number. */
  resolvedCases(repos?: readonly string[]): BackwardCaseRow[] {
    const rows = repos
      ? repos.flatMap((repo) => allRows(this.s.casesOfRepo, repo))
      : allRows(this.s.allCases);
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
    return allRows(this.s.checks, repo, number).map((r) => ({
      name: str(r, 'name'),
      pass: flag(r, 'pass'),
      evidence: str(r, 'evidence'),
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
    const r = getRow(this.s.report, repo, number);
    if (!r) return undefined;
    return {
      original: str(r, 'original'),
      text: str(r, 'text'),
      deletions: json<Span[]>(r, 'deletions'),
      leakOk: flag(r, 'leak_ok'),
      leakFindings: json<LeakFinding[]>(r, 'leak_findings'),
      symptomOk: flag(r, 'symptom_ok'),
      symptomWhy: str(r, 'symptom_why'),
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
    const r = getRow(this.s.screen, repo, number);
    return r ? toScreen(r) : undefined;
  }

  /** Final decisions, optionally only of some repositories and one decision, sorted by repo and number. */
  screens(options: { repos?: readonly string[]; decision?: Decision } = {}): ScreenRow[] {
    const rows = options.repos
      ? options.repos.flatMap((repo) => allRows(this.s.screensOfRepo, repo))
      : allRows(this.s.allScreens);
    return rows.map(toScreen).filter((s) => !options.decision || s.decision === options.decision);
  }
}

function toStageReason(r: Row): StageReason {
  return { stage: str(r, 'stage'), code: str(r, 'code'), evidence: str(r, 'evidence'), post: numOrNull(r, 'post') };
}

function toReason(r: StageReason): Reason {
  return r.post === null
    ? { code: r.code as Reason['code'], evidence: r.evidence }
    : { code: r.code as Reason['code'], evidence: r.evidence, post: r.post };
}

function toCase(r: Row): BackwardCaseRecord {
  return {
    repo: str(r, 'repo'),
    number: num(r, 'number'),
    status: r.status as 'resolved' | 'rejected',
    decision: r.decision as Decision,
    caseId: strOrNull(r, 'case_id'),
    gold: strOrNull(r, 'gold'),
    goldSubject: strOrNull(r, 'gold_subject'),
    parent: strOrNull(r, 'parent'),
    defaultBranch: strOrNull(r, 'default_branch'),
    cutoff: strOrNull(r, 'cutoff'),
    cutoffRule: str(r, 'cutoff_rule'),
    cutoffNotes: json<string[]>(r, 'cutoff_notes'),
    historyWindow: numOrNull(r, 'history_window'),
    tag: strOrNull(r, 'tag'),
    tagWindow: numOrNull(r, 'tag_window'),
    prNumbers: json<number[]>(r, 'pr_numbers'),
    reportTime: str(r, 'report_time'),
    reportUrl: str(r, 'report_url'),
  };
}

function toScreen(r: Row): ScreenRow {
  return {
    repo: str(r, 'repo'),
    number: num(r, 'number'),
    caseId: strOrNull(r, 'case_id'),
    decision: r.decision as Decision,
    reasons: json<StageReason[]>(r, 'reasons'),
  };
}
