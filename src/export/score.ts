/**
 * Scorers. Backward: exact match of a 40-char lowercase SHA. Forward: exact set equality of
 * workflow paths (a well-formed empty set is a valid answer). A prediction that cannot be scored
 * (malformed line, short or uppercase SHA, duplicate case id, missing case) scores 0 and every
 * case of the manifest stays in the denominator. Pure.
 */
import type { Task } from '../model/admission.js';

export interface GoldEntry {
  readonly caseId: string;
  readonly task: Task;
  /** A SHA (Backward) or a workflow path set (Forward). */
  readonly gold: string | readonly string[];
}

/** One line of a predictions file: parsed value, or the parse error. */
export interface PredictionLine {
  readonly lineNumber: number;
  readonly value?: unknown;
  readonly error?: string;
}

export type CaseStatus = 'correct' | 'wrong' | 'unscorable' | 'missing';

export interface CaseScore {
  readonly caseId: string;
  readonly score: 0 | 1;
  readonly status: CaseStatus;
  readonly why: string;
}

export interface ScoreReport {
  readonly cases: CaseScore[];
  readonly correct: number;
  readonly total: number;
  /** Lines that could not be tied to a case of the manifest. */
  readonly notes: string[];
}

const SHA = /^[0-9a-f]{40}$/;

/** Why a Backward answer is not a valid SHA, or null when it is one. */
export function shaProblem(value: unknown): string | null {
  if (typeof value !== 'string') return `sha must be a string, got ${value === null ? 'null' : typeof value}`;
  if (SHA.test(value)) return null;
  if (/^[0-9a-fA-F]{40}$/.test(value)) return 'sha has uppercase hex (must be 40 lowercase hex)';
  if (/^[0-9a-fA-F]+$/.test(value)) return `sha has ${value.length} hex characters (must be exactly 40)`;
  return 'sha is not hex (must be 40 lowercase hex)';
}

/** Why a Forward answer is not a well-formed workflow set, or null. */
export function workflowsProblem(value: unknown): string | null {
  if (!Array.isArray(value)) return `activated_workflows must be an array, got ${value === null ? 'null' : typeof value}`;
  if (!value.every((v) => typeof v === 'string')) return 'activated_workflows must hold only strings';
  if (new Set(value).size !== value.length) return 'activated_workflows lists a path twice';
  return null;
}

function answerOf(task: Task, v: Record<string, unknown>): { problem: string | null; answer: unknown } {
  if (task === 'backward') {
    if (!('sha' in v)) return { problem: 'no sha field', answer: null };
    return { problem: shaProblem(v.sha), answer: v.sha };
  }
  if (!('activated_workflows' in v)) return { problem: 'no activated_workflows field', answer: null };
  return { problem: workflowsProblem(v.activated_workflows), answer: v.activated_workflows };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const s = new Set(a);
  return a.length === b.length && s.size === new Set(b).size && b.every((x) => s.has(x));
}

export function scorePredictions(golds: readonly GoldEntry[], lines: Iterable<PredictionLine>): ScoreReport {
  const byCase = new Map(golds.map((g) => [g.caseId, g]));
  const seen = new Map<string, { lines: number[]; value: Record<string, unknown> }>();
  const notes: string[] = [];
  for (const l of lines) {
    if (l.error !== undefined) {
      notes.push(`line ${l.lineNumber}: ${l.error}`);
      continue;
    }
    const v = l.value;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      notes.push(`line ${l.lineNumber}: not a JSON object`);
      continue;
    }
    const id = (v as Record<string, unknown>).case_id;
    if (typeof id !== 'string') {
      notes.push(`line ${l.lineNumber}: no case_id string`);
      continue;
    }
    if (!byCase.has(id)) {
      notes.push(`line ${l.lineNumber}: case ${id} is not in the manifest`);
      continue;
    }
    const prior = seen.get(id);
    if (prior) prior.lines.push(l.lineNumber);
    else seen.set(id, { lines: [l.lineNumber], value: v as Record<string, unknown> });
  }
  const cases: CaseScore[] = [];
  let correct = 0;
  for (const g of [...golds].sort((a, b) => (a.caseId < b.caseId ? -1 : a.caseId > b.caseId ? 1 : 0))) {
    const p = seen.get(g.caseId);
    if (!p) {
      cases.push({ caseId: g.caseId, score: 0, status: 'missing', why: 'no prediction' });
      continue;
    }
    if (p.lines.length > 1) {
      cases.push({ caseId: g.caseId, score: 0, status: 'unscorable', why: `predicted more than once (lines ${p.lines.join(', ')})` });
      continue;
    }
    const { problem, answer } = answerOf(g.task, p.value);
    if (problem) {
      cases.push({ caseId: g.caseId, score: 0, status: 'unscorable', why: problem });
      continue;
    }
    const ok = g.task === 'backward' ? answer === g.gold : sameSet(answer as string[], g.gold as readonly string[]);
    if (ok) correct += 1;
    cases.push({ caseId: g.caseId, score: ok ? 1 : 0, status: ok ? 'correct' : 'wrong', why: ok ? '' : 'does not match the gold' });
  }
  return { cases, correct, total: golds.length, notes };
}

/** `Overall: 3/4 = 75.0%` (0/0 prints 0.0%). */
export function overallLine(r: ScoreReport): string {
  const pct = r.total === 0 ? 0 : (100 * r.correct) / r.total;
  return `Overall: ${r.correct}/${r.total} = ${pct.toFixed(1)}%`;
}

/** Text lines of a score report: one per case, the notes, then Overall. */
export function formatScore(r: ScoreReport): string[] {
  return [
    ...r.cases.map((c) => `${c.caseId}\t${c.score}\t${c.status}${c.why ? `\t${c.why}` : ''}`),
    ...r.notes.map((n) => `note\t${n}`),
    overallLine(r),
  ];
}

// --- preflight ---------------------------------------------------------------------------

export interface PreflightCheck {
  readonly name: string;
  readonly expected: number;
  readonly got: number;
  readonly ok: boolean;
}

const line = (n: number, value: unknown): PredictionLine => ({ lineNumber: n, value });

/** The SHA in uppercase (a SHA without letters gets a trailing space instead, still not valid). */
function upper(sha: string): string {
  const up = sha.toUpperCase();
  return up === sha ? `${sha} ` : up;
}

/** A valid answer that differs from the gold. */
function wrongAnswer(g: GoldEntry): unknown {
  if (g.task === 'backward') {
    const s = g.gold as string;
    return s.slice(0, 39) + (s[39] === '0' ? '1' : '0');
  }
  const set = g.gold as readonly string[];
  return set.length === 0 ? ['.github/workflows/preflight-not-the-gold.yml'] : set.slice(0, -1);
}

/** Prediction sets built from the manifest, each with the score it must get (fraction). */
export function preflightSets(golds: readonly GoldEntry[]): { name: string; expected: number; lines: PredictionLine[] }[] {
  const each = (f: (g: GoldEntry) => unknown): PredictionLine[] => golds.map((g, i) => line(i + 1, f(g)));
  const oracle = (g: GoldEntry): Record<string, unknown> =>
    g.task === 'backward' ? { case_id: g.caseId, sha: g.gold } : { case_id: g.caseId, activated_workflows: [...(g.gold as string[])] };
  const withAnswer = (g: GoldEntry, answer: unknown): Record<string, unknown> =>
    g.task === 'backward' ? { case_id: g.caseId, sha: answer } : { case_id: g.caseId, activated_workflows: answer };
  const sha = (g: GoldEntry): string => (g.task === 'backward' ? (g.gold as string) : '');
  const paths = (g: GoldEntry): string[] => (g.task === 'forward' ? [...(g.gold as string[])] : []);
  return [
    { name: 'oracle', expected: 1, lines: each(oracle) },
    { name: 'wrong-but-valid', expected: 0, lines: each((g) => withAnswer(g, wrongAnswer(g))) },
    { name: 'missing', expected: 0, lines: [] },
    {
      name: 'malformed-json',
      expected: 0,
      lines: golds.map((g, i) => ({ lineNumber: i + 1, error: `malformed JSON (${JSON.stringify(oracle(g)).slice(0, -1)})` })),
    },
    { name: 'duplicate', expected: 0, lines: golds.flatMap((g, i) => [line(2 * i + 1, oracle(g)), line(2 * i + 2, oracle(g))]) },
    { name: 'no-answer-field', expected: 0, lines: each((g) => ({ case_id: g.caseId })) },
    {
      name: 'wrong-type',
      expected: 0,
      lines: each((g) => withAnswer(g, g.task === 'backward' ? 42 : paths(g).join(','))),
    },
    {
      name: 'uppercase-or-duplicate-path',
      expected: 0,
      lines: each((g) => withAnswer(g, g.task === 'backward' ? upper(sha(g)) : [...paths(g), paths(g)[0] ?? 7])),
    },
    {
      name: 'short-or-non-string-path',
      expected: 0,
      lines: each((g) => withAnswer(g, g.task === 'backward' ? sha(g).slice(0, 12) : [...paths(g), null])),
    },
    {
      name: 'not-hex',
      expected: 0,
      lines: each((g) => withAnswer(g, g.task === 'backward' ? `g${sha(g).slice(1)}` : { paths: paths(g) })),
    },
  ];
}

/** Runs the scorer on every preflight set; ok only when each scores exactly as expected. */
export function preflight(golds: readonly GoldEntry[]): PreflightCheck[] {
  return preflightSets(golds).map((s) => {
    const r = scorePredictions(golds, s.lines);
    const got = r.total === 0 ? 0 : r.correct / r.total;
    return { name: s.name, expected: s.expected, got, ok: r.total > 0 && got === s.expected };
  });
}
