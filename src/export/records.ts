/**
 * The admission gates and the manifest records of both tasks. Pure: everything read from the
 * store (and the tree digests read from git) is passed in.
 */
import type { Blocker, Gate, Task } from '../model/admission.js';
import type { Attribution, TextScreen } from '../model/backward.js';
import { CHECK_NAMES } from '../backward/validate.js';
import type { BackwardCaseRecord, CheckRow, ReportRow, ScreenRow } from '../store/tables/backward.js';
import type { ForwardCase } from '../store/tables/forward.js';
import type { ProbeVerdictSummary } from '../store/tables/probes.js';
import { forwardBaselines, type BackwardBaselines, type ForwardBaselines } from '../baselines/index.js';
import { forwardStaging, LABEL_RULES_VERSION, type Label, type Locality, type Staging } from '../labels/rules.js';
import { sha256 } from '../util/canonical.js';
import { caseId } from '../util/case-id.js';

/** Version of the record layout written to manifests. Bump on any field change. */
export const SCHEMA_VERSION = 4;

/**
 * The admission tier of a case under a selection: `admitted` cases go to the manifests,
 * `candidate` cases to candidates.jsonl (and the manifests with --include-candidates),
 * `rejected` cases to rejections.jsonl.
 */
export type Tier = 'admitted' | 'candidate' | 'rejected';

export interface Selection {
  readonly requireReview: boolean;
  /** Admit a Backward case only when its probe ran without network (`--require-isolation`). */
  readonly requireIsolation?: boolean;
}

/** What a human decided about a case, as far as admission can tell. */
export interface ReviewState {
  /** Whether a review ledger exists in this database at all. */
  readonly ledger: boolean;
  /** The ledger's standing for the case's current inputs (accepted, rejected, pending, needs-adjudication), `none` without a ledger. */
  readonly status: string;
  readonly accepted: boolean;
}

export const NO_LEDGER: ReviewState = { ledger: false, status: 'none', accepted: false };

/** A review state from the ledger's standing of a case. */
export function reviewState(status: string): ReviewState {
  return { ledger: true, status, accepted: status === 'accepted' };
}

/** The blockers that apply under a selection (every one keeps the case out of the admitted tier). */
export function applicableBlockers(blockers: readonly Blocker[], sel: Selection): Blocker[] {
  return blockers.filter(
    (b) => b.gate === 'always' || b.gate === 'candidate' || (b.gate === 'review' && sel.requireReview) || (b.gate === 'isolation' && sel.requireIsolation === true),
  );
}

/** Printed when an old script passes --require-probe (now the rule, not an option). */
export const REQUIRE_PROBE_NOTE = 'r2v: --require-probe is the rule now: a Backward case is admitted only with a verified probe (others are candidates)\n';

/** The tier of a case from its blockers under a selection. */
export function tierOf(blockers: readonly Blocker[], sel: Selection): Tier {
  const applicable = applicableBlockers(blockers, sel);
  if (applicable.length === 0) return 'admitted';
  return applicable.some((b) => b.gate === 'always') ? 'rejected' : 'candidate';
}

function reviewGate(review: ReviewState): Blocker[] {
  if (review.accepted) return [];
  if (review.status === 'rejected') return [{ gate: 'always', stage: 'review', code: 'review-rejected', evidence: 'a human reviewer rejected this case' }];
  const evidence = review.ledger
    ? `review status ${review.status}: no human accept for the case's current inputs`
    : 'no review ledger in this database: no case can carry a human accept';
  return [{ gate: 'review', stage: 'review', code: 'review-required', evidence }];
}

// --- Backward ----------------------------------------------------------------------------

/** Everything admission reads about one Backward thread. */
export interface BackwardInputs {
  readonly repo: string;
  readonly number: number;
  readonly issueUrl: string;
  readonly text: TextScreen | null;
  readonly attributions: readonly Attribution[];
  /** URL of each post of the thread (index 0 = issue body), null when unknown. */
  readonly postUrls: readonly (string | null)[];
  readonly record: BackwardCaseRecord | null;
  readonly checks: readonly CheckRow[];
  readonly report: ReportRow | null;
  readonly screen: ScreenRow | null;
  readonly probe: ProbeVerdictSummary | null;
  readonly review: ReviewState;
}

export interface BackwardRecord {
  task: 'backward';
  case_id: string;
  repo: string;
  number: number;
  report: string;
  report_time: string;
  default_branch: string | null;
  cutoff: string | null;
  cutoff_rule: string;
  gold: string | null;
  parent: string | null;
  history_window: number | null;
  checks: Record<string, boolean>;
  probe: { boundary: string | null; parent: string | null; gold: string | null; reason: string; draft: boolean; kind: string | null } | null;
  labels: {
    cutoff_rule: string;
    history_window: number | null;
    tag: string | null;
    tag_window: number | null;
    attribution_kind: string | null;
    locality: Label<Locality> | null;
    staging: Label<Staging> | null;
    version: string;
  };
  /** Baselines over the visible history; null when the case has no resolved gold and cutoff. */
  baselines: BackwardBaselines | null;
  source: { issue_url: string; attribution_url: string | null; quote: string | null };
  digests: { report: string | null; original: string | null; cutoff_tree: string | null };
}

/** The case id of a Backward thread: the resolve stage's, or one derived from the thread alone when it never resolved. */
export function backwardCaseId(input: Pick<BackwardInputs, 'repo' | 'number' | 'record'>): string {
  return input.record?.caseId ?? caseId(input.repo, input.number, { repo: input.repo, number: input.number, gold: null });
}

export function backwardBlockers(input: BackwardInputs): Blocker[] {
  const out: Blocker[] = [];
  const add = (stage: string, code: string, evidence: string, gate: Gate = 'always'): void => void out.push({ gate, stage, code, evidence });
  const { screen, record, report } = input;
  if (!screen) {
    add('screen', 'not-screened', 'the screen stage has no decision for this thread');
  } else if (screen.decision === 'reject') {
    for (const r of screen.reasons) add(r.stage, r.code, r.evidence);
    if (screen.reasons.length === 0) add('screen', 'rejected', 'the screen stage rejected the thread without a reason');
  } else if (screen.decision === 'review' && !input.review.accepted) {
    const why = screen.reasons.map((r) => `${r.code}: ${r.evidence}`).join('; ');
    add('screen', 'review-pending', why || 'the screen sent this case to human review', 'candidate');
  }
  if (screen?.decision !== 'reject') {
    // Admission re-checks every gate on the stored rows, so a stale screen decision cannot admit.
    if (!record || record.status !== 'resolved' || !record.gold) add('resolve', 'unresolved', 'no single resolved gold commit');
    else {
      if (screen && screen.caseId !== record.caseId) add('screen', 'stale-screen', `screen decided ${screen.caseId ?? 'no case'}, resolve now gives ${record.caseId}`);
      const byName = new Map(input.checks.map((c) => [c.name, c]));
      for (const name of CHECK_NAMES) {
        const c = byName.get(name);
        if (!c) add('validate', 'check-missing', `structural check ${name} was not run`);
        else if (!c.pass) add('validate', 'structural-check-failed', `${name}: ${c.evidence}`);
      }
      if (!report) add('sanitize', 'not-sanitized', 'no sanitized report');
      else {
        if (!report.leakOk) add('sanitize', 'leak', report.leakFindings.map((f) => `${f.code}: ${f.text}`).join('; ') || 'leakage audit failed');
        if (!report.symptomOk) add('sanitize', 'insufficient-symptom', report.symptomWhy);
      }
    }
  }
  const p = input.probe;
  // Behavioural validation is part of admission: without a verified boundary the case stays a candidate.
  const transplanted = p?.kind === 'transplanted';
  const words = p?.detail ? `; ${p.detail}` : '';
  if (!p) add('probe', 'probe-missing', 'the probe stage has not looked at this case', 'candidate');
  else if (p.status === 'not-applicable') {
    add('probe', 'probe-not-applicable', `the fix's tests cannot be transplanted (${p.reason})${words}`, 'candidate');
  } else if (p.boundary === null && !p.draft) add('probe', 'probe-missing', `no probe spec for this case (${p.reason})${words}`, 'candidate');
  else if (p.draft) add('probe', 'probe-draft', `the probe spec is a draft: ${p.reason}`, 'candidate');
  else if (p.boundary === 'not-a-boundary' && !transplanted) {
    // The replay ran and contradicts the gold: evidence against the case, not a missing check.
    add('probe', 'probe-not-a-boundary', `the replay does not show a good parent and a bad gold: ${p.reason}${words}`);
  } else if (p.boundary === 'not-a-boundary') {
    // The fix's tests may check more than the regression: they weigh less than a written probe.
    add('probe', 'probe-not-a-boundary', `the fix's transplanted tests do not pass at the parent and fail at gold: ${p.reason}${words}`, 'candidate');
  } else if (p.boundary !== 'verified') {
    add('probe', `probe-${p.boundary ?? 'none'}`, `boundary ${p.boundary ?? 'none'}${transplanted ? ' (transplanted tests)' : ''}: ${p.reason}${words}`, 'candidate');
  } else if (p.networkIsolated === false) {
    add('probe', 'probe-not-isolated', 'the probe ran with network access (no network namespace on the machine that ran it)', 'isolation');
  }
  out.push(...reviewGate(input.review));
  return out;
}

/** The culprit attribution: the first the text screen names, else the first found. */
function culprit(input: BackwardInputs): Attribution | null {
  const idx = input.text?.culprits[0];
  return (idx !== undefined ? input.attributions[idx] : undefined) ?? input.attributions[0] ?? null;
}

/** What admission computes from git for a Backward record: baselines and the git-based labels. */
export interface BackwardDerived {
  readonly baselines: BackwardBaselines | null;
  readonly locality: Label<Locality> | null;
  readonly staging: Label<Staging> | null;
}

export const NO_DERIVED: BackwardDerived = { baselines: null, locality: null, staging: null };

/** Review overrides of labels, by label name (see src/labels/override.ts). */
export type LabelOverrides = ReadonlyMap<string, { readonly value: string; readonly reviewer: string; readonly reason: string }>;

/** A rule's label, or the reviewer's value when one overrides it (the rule's proposal kept as evidence). */
export function withOverride<V extends string>(name: string, label: Label<V> | null, overrides: LabelOverrides): Label<V> | null {
  const o = overrides.get(name);
  if (!o) return label;
  const rule = label ? `; the rule proposed ${label.value}: ${label.evidence}` : '';
  return { value: o.value as V, proposed_by: 'review', evidence: `${o.reviewer}: ${o.reason}${rule}` };
}

export function backwardRecord(input: BackwardInputs, cutoffTree: string | null, derived: BackwardDerived = NO_DERIVED, overrides: LabelOverrides = new Map()): BackwardRecord {
  const r = input.record;
  const checks: Record<string, boolean> = {};
  for (const c of input.checks) checks[c.name] = c.pass;
  const a = culprit(input);
  const p = input.probe;
  return {
    task: 'backward',
    case_id: backwardCaseId(input),
    repo: input.repo,
    number: input.number,
    report: input.report?.text ?? '',
    report_time: r?.reportTime ?? '',
    default_branch: r?.defaultBranch ?? null,
    cutoff: r?.cutoff ?? null,
    cutoff_rule: r?.cutoffRule ?? 'none',
    gold: r?.gold ?? null,
    parent: r?.parent ?? null,
    history_window: r?.historyWindow ?? null,
    checks,
    probe: p ? { boundary: p.boundary, parent: p.parent, gold: p.gold, reason: p.reason, draft: p.draft, kind: p.kind ?? (p.boundary !== null ? 'command' : null) } : null,
    labels: {
      cutoff_rule: r?.cutoffRule ?? 'none',
      history_window: r?.historyWindow ?? null,
      tag: r?.tag ?? null,
      tag_window: r?.tagWindow ?? null,
      attribution_kind: a?.kind ?? null,
      locality: withOverride('locality', derived.locality, overrides),
      staging: withOverride('staging', derived.staging, overrides),
      version: LABEL_RULES_VERSION,
    },
    baselines: derived.baselines,
    source: {
      issue_url: input.issueUrl,
      attribution_url: a ? (input.postUrls[a.post] ?? input.issueUrl) : null,
      quote: a?.sentence.text ?? null,
    },
    digests: {
      report: input.report ? sha256(input.report.text) : null,
      original: input.report ? sha256(input.report.original) : null,
      cutoff_tree: cutoffTree,
    },
  };
}

// --- Forward -----------------------------------------------------------------------------

export interface ForwardInputs {
  readonly case: ForwardCase;
  /** Digests of the gold's inputs as the route stage stored them, null when not routed. */
  readonly goldDigests: { workflows: string; changed_paths: string; context: string } | null;
  readonly review: ReviewState;
}

export interface ForwardRecord {
  task: 'forward';
  case_id: string;
  repo: string;
  issue: number;
  pull: number;
  issue_text: string;
  base: string | null;
  base_rule: string | null;
  head: string | null;
  context: { event: string; action: string; base_branch: string } | null;
  changed_paths: string[];
  gold: string[] | null;
  evaluator: string | null;
  invalid: { path: string; reason: string }[];
  stability: unknown;
  labels: (Record<string, unknown> & { staging: Label<Staging> | null; version: string }) | null;
  /** The repository prior as a baseline; null before the case is screened. */
  baselines: ForwardBaselines | null;
  flags: { code: string; evidence: string }[];
  source: { issue_url: string | null; pr_url: string | null; link_kind: string; link_kinds: string[] };
  digests: { base_tree: string | null; workflows: string | null; changed_paths: string | null; context: string | null; issue_text: string | null };
}

export function forwardBlockers(input: ForwardInputs): Blocker[] {
  const c = input.case;
  const out: Blocker[] = [];
  const add = (stage: string, code: string, evidence: string, gate: Gate = 'always'): void => void out.push({ gate, stage, code, evidence });
  if (c.decision === 'pending') add(c.stage, 'incomplete', `the pair stopped after the ${c.stage} stage; a later stage has not run`);
  else if (c.decision === 'reject') {
    for (const r of c.reasons) add(r.stage, r.code, r.evidence);
    if (c.reasons.length === 0) add(c.stage, 'rejected', `the ${c.stage} stage rejected the pair without a reason`);
  } else {
    if (c.decision === 'review' && !input.review.accepted) {
      for (const f of c.flags) add('forward-screen', f.code, f.evidence, 'candidate');
      if (c.flags.length === 0) add('forward-screen', 'review-pending', 'the screen sent this case to human review', 'candidate');
    }
    if (c.gold === null || c.evaluator === null || c.context === null) add('route', 'gold-missing', 'no gold computed');
    if (c.base === null) add('recover', 'base-missing', 'no base commit recovered');
    if (c.issue_text === null) add('forward-screen', 'issue-text-missing', 'no agent-visible issue text');
  }
  out.push(...reviewGate(input.review));
  return out;
}

export function forwardRecord(input: ForwardInputs, baseTree: string | null, overrides: LabelOverrides = new Map()): ForwardRecord {
  const c = input.case;
  const staging = c.issue_text !== null && c.gold !== null
    ? forwardStaging({ issueText: c.issue_text, changedPaths: c.changed_paths, workflows: c.gold })
    : null;
  const d = input.goldDigests;
  const kinds = [...c.source.link_kinds].sort();
  return {
    task: 'forward',
    case_id: c.case_id,
    repo: c.repo,
    issue: c.issue,
    pull: c.pull,
    issue_text: c.issue_text ?? '',
    base: c.base,
    base_rule: c.base_rule,
    head: c.head,
    context: c.context ? { event: c.context.event, action: c.context.action, base_branch: c.context.base_branch } : null,
    changed_paths: [...c.changed_paths],
    gold: c.gold ? [...c.gold] : null,
    evaluator: c.evaluator,
    invalid: c.invalid.map((i) => ({ path: i.path, reason: i.reason })),
    stability: c.stability,
    labels: c.labels ? { ...c.labels, staging: withOverride('staging', staging, overrides), version: LABEL_RULES_VERSION } : null,
    baselines: forwardBaselines(c.prior, c.gold),
    flags: c.flags.map((f) => ({ code: f.code, evidence: f.evidence })),
    source: { issue_url: c.source.issue_url, pr_url: c.source.pr_url, link_kind: kinds[0] ?? 'unknown', link_kinds: kinds },
    digests: {
      base_tree: baseTree,
      workflows: d?.workflows ?? null,
      changed_paths: d?.changed_paths ?? null,
      context: d?.context ?? null,
      issue_text: c.issue_text === null ? null : sha256(c.issue_text),
    },
  };
}
