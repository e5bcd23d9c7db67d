import type { Database } from 'better-sqlite3';
import { type Row, allRows, flag, getRow, json, jsonOrNull, num, str, strOrNull } from '../row.js';
import { canonicalJson } from '../../util/canonical.js';
import { forwardCaseId, type ReasonRow, type RouteContext } from '../../model/forward.js';
import type { LoggedDeletion } from '../../model/deletions.js';
import type { Stability } from '../../model/forward.js';
import type { Labels, Prior } from '../../model/forward.js';

/** Forward task rows (see migration 0004). */
export interface LinkRecord {
  repo: string;
  issue: number;
  pull: number;
  status: 'kept' | 'rejected';
  baseRef: string | null;
  branchRule: 'default' | 'release' | null;
  linkKinds: string[];
  links: { how: string; evidence: string }[];
  flags: ReasonRow[];
  reasons: ReasonRow[];
}

export interface WorkflowFile {
  path: string;
  text: string;
}

export interface RecoveryRecord {
  repo: string;
  issue: number;
  pull: number;
  status: 'done' | 'rejected';
  base: string | null;
  baseRule: string | null;
  head: string | null;
  baseRef: string;
  changedPaths: string[];
  workflows: WorkflowFile[];
  workflowsDigest: string;
  reasons: ReasonRow[];
}

export interface InvalidWorkflow {
  path: string;
  reason: string;
}

export interface GoldRecord {
  repo: string;
  issue: number;
  pull: number;
  status: 'done' | 'rejected';
  context: RouteContext;
  gold: string[];
  invalid: InvalidWorkflow[];
  explain: unknown;
  evaluator: string;
  limitApplied: boolean;
  /** Digests of the gold's inputs: workflows at base, Δ*, context. */
  inputDigests: { workflows: string; changed_paths: string; context: string };
  reasons: ReasonRow[];
}

export type CaseDecision = 'candidate' | 'review' | 'reject';

export interface CaseRecord {
  repo: string;
  issue: number;
  pull: number;
  caseId: string;
  issueText: string;
  deletions: LoggedDeletion[];
  excludedComments: { id: number | null; createdAt: string }[];
  stability: Stability | null;
  prior: (Prior & { equal: boolean }) | null;
  labels: Labels | null;
  flags: ReasonRow[];
  decision: CaseDecision;
  reasons: ReasonRow[];
}

/** One Forward record per issue–PR pair, as the export reads it (snake_case, JSON-ready). */
export interface ForwardCase {
  case_id: string;
  repo: string;
  issue: number;
  pull: number;
  /** Where the pair stands: the stage that decided it last. */
  stage: 'link' | 'recover' | 'route' | 'forward-screen';
  issue_text: string | null;
  deletions: LoggedDeletion[];
  base: string | null;
  base_rule: string | null;
  head: string | null;
  context: RouteContext | null;
  changed_paths: string[];
  gold: string[] | null;
  invalid: InvalidWorkflow[];
  evaluator: string | null;
  limit_applied: boolean | null;
  stability: Stability | null;
  prior: (Prior & { equal: boolean }) | null;
  labels: Labels | null;
  flags: ReasonRow[];
  /** `pending` while a later stage has not run for the pair yet. */
  decision: CaseDecision | 'pending';
  reasons: (ReasonRow & { stage: string })[];
  source: { issue_url: string | null; pr_url: string | null; link_kinds: string[] };
}

/** Rows read per query while streaming export records (bounded memory). */
const PAGE = 500;
const j = (v: unknown): string => canonicalJson(v);

/** The statements of ForwardTables, prepared once per instance. */
function prepareForwardTables(db: Database) {
  return {
    putLink: db.prepare(`INSERT OR REPLACE INTO forward_links (repo, issue, pull, status, base_ref, branch_rule, link_kinds, links, flags, reasons)
      VALUES (@repo, @issue, @pull, @status, @baseRef, @branchRule, @linkKinds, @links, @flags, @reasons)`),
    link: db.prepare('SELECT * FROM forward_links WHERE repo = ? AND issue = ? AND pull = ?'),
    linksOfRepo: db.prepare('SELECT * FROM forward_links WHERE repo = ? ORDER BY issue, pull'),
    putRecovery: db.prepare(`INSERT OR REPLACE INTO forward_recoveries (repo, issue, pull, status, base, base_rule, head, base_ref, changed_paths,
        workflows, workflows_digest, reasons)
      VALUES (@repo, @issue, @pull, @status, @base, @baseRule, @head, @baseRef, @changedPaths, @workflows, @workflowsDigest, @reasons)`),
    recovery: db.prepare('SELECT * FROM forward_recoveries WHERE repo = ? AND issue = ? AND pull = ?'),
    recoveriesOfRepo: db.prepare('SELECT * FROM forward_recoveries WHERE repo = ? ORDER BY issue, pull'),
    putGold: db.prepare(`INSERT OR REPLACE INTO forward_golds (repo, issue, pull, status, context, gold, invalid, explain, evaluator, limit_applied,
        input_digests, reasons)
      VALUES (@repo, @issue, @pull, @status, @context, @gold, @invalid, @explain, @evaluator, @limitApplied, @inputDigests, @reasons)`),
    gold: db.prepare('SELECT * FROM forward_golds WHERE repo = ? AND issue = ? AND pull = ?'),
    goldsOfRepo: db.prepare('SELECT * FROM forward_golds WHERE repo = ? ORDER BY issue, pull'),
    deleteCase: db.prepare('DELETE FROM forward_cases WHERE repo = ? AND issue = ? AND pull = ?'),
    putCase: db.prepare(`INSERT INTO forward_cases (repo, issue, pull, case_id, issue_text, deletions, excluded_comments, stability, prior, labels,
        flags, decision, reasons)
      VALUES (@repo, @issue, @pull, @caseId, @issueText, @deletions, @excludedComments, @stability, @prior, @labels, @flags, @decision, @reasons)`),
    case: db.prepare('SELECT * FROM forward_cases WHERE repo = ? AND issue = ? AND pull = ?'),
    prior: db.prepare('SELECT prior FROM forward_priors WHERE repo = ? AND base = ? AND context_digest = ? AND evaluator = ?'),
    putPrior: db.prepare(`INSERT OR REPLACE INTO forward_priors (repo, base, context_digest, evaluator, prior)
      VALUES (?, ?, ?, ?, ?)`),
    pairs: db.prepare(`SELECT l.*, t.html_url AS issue_url, pr.html_url AS pr_url FROM forward_links l
      LEFT JOIN threads t ON t.repo = l.repo AND t.number = l.issue
      LEFT JOIN pulls pr ON pr.repo = l.repo AND pr.number = l.pull
      WHERE (l.repo, l.issue, l.pull) > (?, ?, ?)
        AND EXISTS (SELECT 1 FROM links x WHERE x.repo = l.repo AND x.issue = l.issue AND x.pull = l.pull)
      ORDER BY l.repo, l.issue, l.pull LIMIT ${PAGE}`),
  };
}

export class ForwardTables {
  private readonly s: ReturnType<typeof prepareForwardTables>;
  constructor(private readonly db: Database) {
    this.s = prepareForwardTables(db);
  }

  putLink(r: LinkRecord): void {
    this.s.putLink.run({ ...r, linkKinds: j(r.linkKinds), links: j(r.links), flags: j(r.flags), reasons: j(r.reasons) });
  }
  link(repo: string, issue: number, pull: number): LinkRecord | undefined {
    return this.ofPair('link', toLink, repo, issue, pull);
  }
  links(repo: string): LinkRecord[] {
    return this.ofRepo('linksOfRepo', toLink, repo);
  }

  putRecovery(r: RecoveryRecord): void {
    this.s.putRecovery.run({ ...r, changedPaths: j(r.changedPaths), workflows: j(r.workflows), reasons: j(r.reasons) });
  }
  recovery(repo: string, issue: number, pull: number): RecoveryRecord | undefined {
    return this.ofPair('recovery', toRecovery, repo, issue, pull);
  }
  recoveries(repo: string): RecoveryRecord[] {
    return this.ofRepo('recoveriesOfRepo', toRecovery, repo);
  }

  putGold(r: GoldRecord): void {
    this.s.putGold.run({
      ...r,
      context: j(r.context),
      gold: j(r.gold),
      invalid: j(r.invalid),
      explain: j(r.explain ?? null),
      limitApplied: r.limitApplied ? 1 : 0,
      inputDigests: j(r.inputDigests),
      reasons: j(r.reasons),
    });
  }
  gold(repo: string, issue: number, pull: number): GoldRecord | undefined {
    return this.ofPair('gold', toGold, repo, issue, pull);
  }
  golds(repo: string): GoldRecord[] {
    return this.ofRepo('goldsOfRepo', toGold, repo);
  }

  /** Replaces the case row of a pair. */
  putCase(r: CaseRecord): void {
    this.s.deleteCase.run(r.repo, r.issue, r.pull);
    this.s.putCase.run({
      ...r,
      deletions: j(r.deletions),
      excludedComments: j(r.excludedComments),
      stability: r.stability === null ? null : j(r.stability),
      prior: r.prior === null ? null : j(r.prior),
      labels: r.labels === null ? null : j(r.labels),
      flags: j(r.flags),
      reasons: j(r.reasons),
    });
  }
  case(repo: string, issue: number, pull: number): CaseRecord | undefined {
    return this.ofPair('case', toCase, repo, issue, pull);
  }

  /** The row of one issue–PR pair from the statement `name`, mapped. */
  private ofPair<T>(name: 'link' | 'recovery' | 'gold' | 'case', map: (r: Row) => T, repo: string, issue: number, pull: number): T | undefined {
    const r = getRow(this.s[name], repo, issue, pull);
    return r ? map(r) : undefined;
  }
  /** Every row of a repository from the statement `name`, mapped. */
  private ofRepo<T>(name: 'linksOfRepo' | 'recoveriesOfRepo' | 'goldsOfRepo', map: (r: Row) => T, repo: string): T[] {
    return allRows(this.s[name], repo).map(map);
  }

  prior(repo: string, base: string, contextDigest: string, evaluator: string): Prior | undefined {
    const r = getRow(this.s.prior, repo, base, contextDigest, evaluator);
    return r ? json<Prior>(r, 'prior') : undefined;
  }
  putPrior(repo: string, base: string, contextDigest: string, evaluator: string, prior: Prior): void {
    this.s.putPrior.run(repo, base, contextDigest, evaluator, j(prior));
  }

  /**
   * Every pair still present in the links table, one export record each, sorted by repository,
   * issue and pull. Streams (bounded memory).
   */
  *iterateCases(repos?: readonly string[]): Generator<ForwardCase> {
    const wanted = repos ? new Set(repos.map((r) => r.toLowerCase())) : null;
    let after: [string, number, number] = ['', -1, -1];
    for (;;) {
      const page = allRows(this.s.pairs, ...after);
      for (const row of page) {
        if (wanted && !wanted.has(str(row, 'repo').toLowerCase())) continue;
        yield this.assemble(toLink(row), strOrNull(row, 'issue_url'), strOrNull(row, 'pr_url'));
      }
      if (page.length < PAGE) return;
      const last = page[page.length - 1]!;
      after = [str(last, 'repo'), num(last, 'issue'), num(last, 'pull')];
    }
  }

  /** Every pair as an export record (see iterateCases). */
  cases(repos?: readonly string[]): ForwardCase[] {
    return [...this.iterateCases(repos)];
  }

  private assemble(link: LinkRecord, issueUrl: string | null, prUrl: string | null): ForwardCase {
    const { repo, issue, pull } = link;
    const rec = link.status === 'kept' ? this.recovery(repo, issue, pull) : undefined;
    const gold = rec?.status === 'done' ? this.gold(repo, issue, pull) : undefined;
    const screened = gold?.status === 'done' ? this.case(repo, issue, pull) : undefined;
    const reasons: (ReasonRow & { stage: string })[] = [
      ...link.reasons.map((r) => ({ ...r, stage: 'link' })),
      ...(rec?.reasons ?? []).map((r) => ({ ...r, stage: 'recover' })),
      ...(gold?.reasons ?? []).map((r) => ({ ...r, stage: 'route' })),
      ...(screened?.reasons ?? []).map((r) => ({ ...r, stage: 'forward-screen' })),
    ];
    const stage = screened ? 'forward-screen' : gold ? 'route' : rec ? 'recover' : 'link';
    let decision: ForwardCase['decision'];
    if (link.status === 'rejected' || rec?.status === 'rejected' || gold?.status === 'rejected') decision = 'reject';
    else decision = screened ? screened.decision : 'pending';
    const flags = screened ? screened.flags : link.flags;
    return {
      case_id: screened?.caseId ?? forwardCaseId(repo, issue, pull, rec ? { base: rec.base, head: rec.head, baseRef: rec.baseRef } : null),
      repo,
      issue,
      pull,
      stage,
      issue_text: screened?.issueText ?? null,
      deletions: screened?.deletions ?? [],
      base: rec?.base ?? null,
      base_rule: rec?.baseRule ?? null,
      head: rec?.head ?? null,
      context: gold?.context ?? null,
      changed_paths: rec?.changedPaths ?? [],
      gold: gold?.gold ?? null,
      invalid: gold?.invalid ?? [],
      evaluator: gold?.evaluator ?? null,
      limit_applied: gold ? gold.limitApplied : null,
      stability: screened?.stability ?? null,
      prior: screened?.prior ?? null,
      labels: screened?.labels ?? null,
      flags,
      decision,
      reasons,
      source: { issue_url: issueUrl, pr_url: prUrl, link_kinds: link.linkKinds },
    };
  }
}

/** The issue–PR pair a row belongs to (the key columns of every forward table). */
function pairOf(r: Row): { repo: string; issue: number; pull: number } {
  return { repo: str(r, 'repo'), issue: num(r, 'issue'), pull: num(r, 'pull') };
}

function toLink(r: Row): LinkRecord {
  return {
    ...pairOf(r),
    status: r.status as LinkRecord['status'],
    baseRef: strOrNull(r, 'base_ref'),
    branchRule: (r.branch_rule as LinkRecord['branchRule']) ?? null,
    linkKinds: json(r, 'link_kinds'),
    links: json(r, 'links'),
    flags: json(r, 'flags'),
    reasons: json(r, 'reasons'),
  };
}
function toRecovery(r: Row): RecoveryRecord {
  return {
    ...pairOf(r),
    status: r.status as RecoveryRecord['status'],
    base: strOrNull(r, 'base'),
    baseRule: strOrNull(r, 'base_rule'),
    head: strOrNull(r, 'head'),
    baseRef: str(r, 'base_ref'),
    changedPaths: json(r, 'changed_paths'),
    workflows: json(r, 'workflows'),
    workflowsDigest: str(r, 'workflows_digest'),
    reasons: json(r, 'reasons'),
  };
}
function toGold(r: Row): GoldRecord {
  return {
    ...pairOf(r),
    status: r.status as GoldRecord['status'],
    context: json(r, 'context'),
    gold: json(r, 'gold'),
    invalid: json(r, 'invalid'),
    explain: json(r, 'explain'),
    evaluator: str(r, 'evaluator'),
    limitApplied: flag(r, 'limit_applied'),
    inputDigests: json(r, 'input_digests'),
    reasons: json(r, 'reasons'),
  };
}
function toCase(r: Row): CaseRecord {
  return {
    ...pairOf(r),
    caseId: str(r, 'case_id'),
    issueText: str(r, 'issue_text'),
    deletions: json(r, 'deletions'),
    excludedComments: json(r, 'excluded_comments'),
    stability: jsonOrNull(r, 'stability'),
    prior: jsonOrNull(r, 'prior'),
    labels: jsonOrNull(r, 'labels'),
    flags: json(r, 'flags'),
    decision: r.decision as CaseDecision,
    reasons: json(r, 'reasons'),
  };
}
