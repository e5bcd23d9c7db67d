/**
 * Pure verdict rules: one run → a class, a state's runs → a verdict, two verdicts → a boundary.
 * A run that did not finish, or whose trigger did not really run, is never evidence of `bad`.
 */
import type { Boundary, Verdict } from '../model/probe.js';
import { constants } from 'node:os';
import type { Exercised, ProbeSpec, Symptom } from './spec.js';

export type RunClass = 'bad' | 'good' | 'not-exercised' | 'setup-failed' | 'timeout';

/** What a classification needs from one finished trigger run. */
export interface RunObservation {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly stdout: string;
  readonly stderr: string;
  /** Text of the JUnit report after the run, or null when it was not written. */
  readonly junitReport: string | null;
}

export interface Classified {
  readonly classification: RunClass;
  readonly why: string;
}

const quote = (s: string): string => JSON.stringify(s.length > 80 ? `${s.slice(0, 77)}...` : s);

/** Exit status a shell reports for a child killed by `signal` (128 + number), if known. */
function shellStatusOf(signal: string): number | null {
  const n = (constants.signals as Record<string, number | undefined>)[signal];
  return n === undefined ? null : 128 + n;
}

export interface JunitCase {
  readonly classname: string;
  readonly name: string;
  readonly failed: boolean;
}

function decodeXml(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos|#(\d+)|#x([0-9a-fA-F]+));/g, (m, name: string, dec?: string, hex?: string) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    return ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" } as Record<string, string>)[name] ?? m;
  });
}

/** The `<testcase>` elements of a JUnit XML report; failed when it holds `<failure>` or `<error>`. */
export function parseJunitCases(xml: string): JunitCase[] {
  const cases: JunitCase[] = [];
  const re = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase\s*>)/g;
  for (const m of xml.matchAll(re)) {
    const attrs: Record<string, string> = {};
    for (const a of m[1]!.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs[a[1]!] = decodeXml(a[2] ?? a[3] ?? '');
    cases.push({ classname: attrs.classname ?? '', name: attrs.name ?? '', failed: /<(failure|error)\b/.test(m[2] ?? '') });
  }
  return cases;
}

/** Whether `id` names this test case (`Class#method`, `Class.method`, `Class::method`, or the bare name). */
export function junitIdMatches(c: JunitCase, id: string): boolean {
  if (c.name === id) return true;
  if (!c.classname) return false;
  return [`${c.classname}#${c.name}`, `${c.classname}.${c.name}`, `${c.classname}::${c.name}`].includes(id);
}

/** The first symptom predicate that matches, described; null when none does. */
export function matchSymptom(symptom: Symptom, run: RunObservation): string | null {
  if (symptom.exit_code !== undefined && run.exitCode !== null) {
    const codes = Array.isArray(symptom.exit_code) ? symptom.exit_code : [symptom.exit_code];
    if (codes.includes(run.exitCode)) return `exit code ${run.exitCode} is a symptom exit code`;
  }
  if (symptom.signal !== undefined) {
    if (run.signal === symptom.signal) return `killed by ${symptom.signal}`;
    const status = shellStatusOf(symptom.signal);
    if (status !== null && run.exitCode === status) return `exit code ${status} (a child killed by ${symptom.signal})`;
  }
  if (symptom.stdout_contains !== undefined && run.stdout.includes(symptom.stdout_contains)) return `stdout contains ${quote(symptom.stdout_contains)}`;
  if (symptom.stderr_contains !== undefined && run.stderr.includes(symptom.stderr_contains)) return `stderr contains ${quote(symptom.stderr_contains)}`;
  if (symptom.stdout_regex !== undefined && new RegExp(symptom.stdout_regex, 'm').test(run.stdout)) return `stdout matches /${symptom.stdout_regex}/`;
  if (symptom.stderr_regex !== undefined && new RegExp(symptom.stderr_regex, 'm').test(run.stderr)) return `stderr matches /${symptom.stderr_regex}/`;
  if (symptom.junit !== undefined && run.junitReport !== null) {
    const hit = parseJunitCases(run.junitReport).find((c) => c.failed && junitIdMatches(c, symptom.junit!.failing_test));
    if (hit) return `test ${symptom.junit.failing_test} failed in ${symptom.junit.report}`;
  }
  return null;
}

/** Why the run does not count as exercised; null when it does. */
export function notExercised(exercised: Exercised, run: RunObservation): string | null {
  const explicit = exercised.exit_codes !== undefined || exercised.marker !== undefined;
  if (exercised.exit_codes !== undefined && (run.exitCode === null || !exercised.exit_codes.includes(run.exitCode))) {
    return `exit code ${run.exitCode ?? run.signal ?? 'none'} is not one of the exercised exit codes [${exercised.exit_codes.join(', ')}]`;
  }
  if (exercised.marker !== undefined && !run.stdout.includes(exercised.marker) && !run.stderr.includes(exercised.marker)) {
    return `marker ${quote(exercised.marker)} not in the output`;
  }
  if (!explicit && (run.exitCode === 126 || run.exitCode === 127)) return `the shell could not run the trigger (exit ${run.exitCode})`;
  return null;
}

/**
 * One trigger run. A timed-out run is `timeout` whatever it printed (the kill is ours, and a
 * partial run proves nothing); then a matching symptom is `bad`; then an unexercised trigger is
 * `not-exercised`; else `good`.
 */
export function classifyRun(spec: Pick<ProbeSpec, 'symptom' | 'exercised'>, run: RunObservation): Classified {
  if (run.timedOut) return { classification: 'timeout', why: 'the trigger did not finish within the timeout' };
  const symptom = matchSymptom(spec.symptom, run);
  if (symptom) return { classification: 'bad', why: `symptom: ${symptom}` };
  const missing = notExercised(spec.exercised, run);
  if (missing) return { classification: 'not-exercised', why: missing };
  const status = run.exitCode !== null ? `exit code ${run.exitCode}` : `signal ${run.signal}`;
  return { classification: 'good', why: `exercised, no symptom (${status})` };
}

export interface StateVerdict {
  readonly verdict: Verdict;
  /** Machine-readable cause: all-bad, all-good, mixed, setup-failed, not-exercised, timeout, unstable. */
  readonly cause: string;
  readonly why: string;
}

/** A state's verdict from its runs' classes. */
export function stateVerdict(classes: readonly RunClass[]): StateVerdict {
  const n = (c: RunClass): number => classes.filter((x) => x === c).length;
  const counts = `${n('bad')} bad, ${n('good')} good, ${n('not-exercised')} not exercised, ${n('timeout')} timed out of ${classes.length}`;
  if (classes.length === 0) return { verdict: 'nonreproducible', cause: 'no-runs', why: 'no runs' };
  if (n('setup-failed') > 0) return { verdict: 'nonreproducible', cause: 'setup-failed', why: 'setup failed; the trigger was not run' };
  if (n('bad') > 0 && n('good') > 0) return { verdict: 'flaky', cause: 'mixed', why: `runs disagree: ${counts}` };
  if (n('bad') === classes.length) return { verdict: 'bad', cause: 'all-bad', why: `every run showed the symptom (${counts})` };
  if (n('good') === classes.length) return { verdict: 'good', cause: 'all-good', why: `every run was exercised without the symptom (${counts})` };
  const cause = n('timeout') > 0 ? 'timeout' : 'not-exercised';
  return { verdict: 'nonreproducible', cause, why: `not every run could be judged: ${counts}` };
}

export interface BoundaryDecision {
  readonly boundary: Boundary;
  /** Machine-readable reason code. */
  readonly reason: string;
}

/**
 * The boundary from the two verdicts: verified only when parent is good and gold is bad.
 * A state that could not be judged makes the boundary nonreproducible, disagreeing runs make it
 * flaky; otherwise the verdict pair names why it is not a boundary. A draft spec never verifies.
 */
export function decideBoundary(parent: StateVerdict, gold: StateVerdict, draft: boolean): BoundaryDecision & { observed: Boundary } {
  const observed = observeBoundary(parent, gold);
  if (!draft) return { ...observed, observed: observed.boundary };
  return { boundary: observed.boundary === 'verified' ? 'nonreproducible' : observed.boundary, reason: 'draft', observed: observed.boundary };
}

function observeBoundary(parent: StateVerdict, gold: StateVerdict): BoundaryDecision {
  if (parent.verdict === 'nonreproducible') return { boundary: 'nonreproducible', reason: `parent-${parent.cause}` };
  if (gold.verdict === 'nonreproducible') return { boundary: 'nonreproducible', reason: `gold-${gold.cause}` };
  if (parent.verdict === 'flaky' && gold.verdict === 'flaky') return { boundary: 'flaky', reason: 'flaky-both' };
  if (parent.verdict === 'flaky') return { boundary: 'flaky', reason: 'flaky-parent' };
  if (gold.verdict === 'flaky') return { boundary: 'flaky', reason: 'flaky-gold' };
  if (parent.verdict === 'good' && gold.verdict === 'bad') return { boundary: 'verified', reason: 'parent-good-gold-bad' };
  if (parent.verdict === 'bad' && gold.verdict === 'bad') return { boundary: 'not-a-boundary', reason: 'bad-at-both' };
  if (parent.verdict === 'good' && gold.verdict === 'good') return { boundary: 'not-a-boundary', reason: 'good-at-both' };
  return { boundary: 'not-a-boundary', reason: 'bad-at-parent-good-at-gold' };
}
