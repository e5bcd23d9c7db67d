/**
 * Running a repository's tests on a tree. The command template comes from the repository's
 * configuration: `{tests}` is replaced by the test ids, each as a separate single-quoted shell
 * word; an optional `{junit}` is replaced by a (quoted) report path, and when the template has
 * it, the JUnit XML written there is the result reader (finer ids: `<file>::<test name>`).
 * Without `{junit}`, each test id runs alone and its exit code is the verdict.
 */
import { readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ConfigError, MinerError } from '../errors.js';
import { runIsolated, type ExecResult } from '../probe/exec.js';
import { shellQuote } from '../util/shell-quote.js';

export type Outcome = 'pass' | 'fail' | 'error' | 'missing';

export interface TestRunRecord {
  readonly testId: string;
  readonly repeat: number;
  readonly outcome: Outcome;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  readonly stdoutDigest: string;
  readonly stderrDigest: string;
  readonly outputTail: string;
}

export function usesJunit(template: string): boolean {
  return template.includes('{junit}');
}

/** Checks a test command template; throws ConfigError naming the repository and the problem. */
export function checkTemplate(repo: string, template: string): void {
  if (!template.includes('{tests}')) {
    throw new ConfigError(`repos.${repo}.test_command: must contain {tests} (replaced by the test ids), got ${JSON.stringify(template)}`);
  }
}

export function buildCommand(template: string, ids: readonly string[], junitPath?: string): string {
  const tests = ids.map(shellQuote).join(' ');
  let out = template.split('{tests}').join(tests);
  if (junitPath !== undefined) out = out.split('{junit}').join(shellQuote(junitPath));
  return out;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function decodeXml(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
    e.startsWith('#x') ? String.fromCodePoint(parseInt(e.slice(2), 16)) : e.startsWith('#') ? String.fromCodePoint(Number(e.slice(1))) : ENTITIES[e]!,
  );
}

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:.-]+)\s*=\s*("([^"]*)"|'([^']*)')/g)) out[m[1]!] = decodeXml(m[3] ?? m[4] ?? '');
  return out;
}

/**
 * Test cases of a JUnit XML report: id `<file>::<name>` (file from the test case, else its suite,
 * else its classname); failure or error → fail, skipped → missing (not a pass), else pass.
 */
export function parseJunit(xml: string): { id: string; outcome: Outcome }[] {
  const body = xml.replace(/<!--[\s\S]*?-->/g, '').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
  const results = new Map<string, Outcome>();
  const rank: Record<Outcome, number> = { pass: 0, missing: 1, fail: 2, error: 2 };
  let suiteFile: string | undefined;
  const re = /<testsuite\b([^>]*)>|<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase\s*>)/g;
  for (const m of body.matchAll(re)) {
    if (m[1] !== undefined) {
      suiteFile = attributes(m[1]).file;
      continue;
    }
    const a = attributes(m[2]!);
    const file = a.file ?? suiteFile ?? a.classname ?? '';
    const id = `${file}::${a.name ?? ''}`;
    const inner = m[4] ?? '';
    const outcome: Outcome = /<(?:failure|error)\b/.test(inner) ? 'fail' : /<skipped\b/.test(inner) ? 'missing' : 'pass';
    const prev = results.get(id);
    if (prev === undefined || rank[outcome] > rank[prev]) results.set(id, outcome);
  }
  return [...results].map(([id, outcome]) => ({ id, outcome })).sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}

export interface RunConditionInput {
  /** Directory holding a fresh checkout for each repeat (created by `prepare`). */
  prepare(repeat: number): Promise<string>;
  readonly template: string;
  /** Test files passed to the command. */
  readonly files: readonly string[];
  readonly repeats: number;
  readonly timeoutMs: number;
  readonly logDir?: string;
  readonly signal?: AbortSignal;
}

export interface ConditionResult {
  /** Outcomes per test id, one per repeat. */
  readonly outcomes: ReadonlyMap<string, readonly Outcome[]>;
  readonly runs: readonly TestRunRecord[];
}

/** An interrupted run says nothing about the test: the item fails (and runs again later) instead. */
function checkNotAborted(r: ExecResult): ExecResult {
  if (r.aborted) throw new MinerError('transient', 'test run interrupted');
  return r;
}

function outcomeOf(r: ExecResult): Outcome {
  if (r.timedOut || r.aborted || r.signal !== null) return 'error';
  return r.exitCode === 0 ? 'pass' : 'fail';
}

function record(testId: string, repeat: number, outcome: Outcome, r: ExecResult): TestRunRecord {
  const tail = `${r.stdoutTail}${r.stderrTail}`;
  return {
    testId,
    repeat,
    outcome,
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    durationMs: r.durationMs,
    stdoutDigest: r.stdoutDigest,
    stderrDigest: r.stderrDigest,
    outputTail: tail.length > 2000 ? tail.slice(-2000) : tail,
  };
}

/** Runs the test files `repeats` times, each time in a fresh checkout. */
export async function runCondition(input: RunConditionInput): Promise<ConditionResult> {
  const outcomes = new Map<string, Outcome[]>();
  const runs: TestRunRecord[] = [];
  const junit = usesJunit(input.template);
  for (let repeat = 0; repeat < input.repeats; repeat += 1) {
    const dir = await input.prepare(repeat);
    try {
      if (junit) {
        const report = join(dirname(dir), `${basename(dir)}.junit.xml`);
        const r = checkNotAborted(
          await runIsolated({
            command: buildCommand(input.template, input.files, report),
            cwd: dir,
            timeoutMs: input.timeoutMs,
            logDir: input.logDir,
            signal: input.signal,
          }),
        );
        const xml = await readFile(report, 'utf8').catch(() => null);
        await rm(report, { force: true });
        const cases = xml === null ? [] : parseJunit(xml);
        const seen = new Set<string>();
        for (const c of cases) {
          seen.add(c.id);
          const list = outcomes.get(c.id) ?? Array<Outcome>(repeat).fill('missing');
          list.push(c.outcome);
          outcomes.set(c.id, list);
          runs.push(record(c.id, repeat, c.outcome, r));
        }
        if (cases.length === 0) runs.push(record('(report)', repeat, outcomeOf(r) === 'pass' ? 'missing' : outcomeOf(r), r));
        for (const [id, list] of outcomes) if (!seen.has(id)) list.push('missing');
      } else {
        for (const id of input.files) {
          const r = checkNotAborted(
            await runIsolated({
              command: buildCommand(input.template, [id]),
              cwd: dir,
              timeoutMs: input.timeoutMs,
              logDir: input.logDir,
              signal: input.signal,
            }),
          );
          const outcome = outcomeOf(r);
          const list = outcomes.get(id) ?? [];
          list.push(outcome);
          outcomes.set(id, list);
          runs.push(record(id, repeat, outcome, r));
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return { outcomes, runs };
}

/** Test ids whose repeats disagree. */
export function flakyIds(outcomes: ReadonlyMap<string, readonly Outcome[]>): string[] {
  return [...outcomes]
    .filter(([, list]) => new Set(list).size > 1)
    .map(([id]) => id)
    .sort();
}

/** The (stable) outcome of an id, or 'missing' when it never ran. */
export function stableOutcome(outcomes: ReadonlyMap<string, readonly Outcome[]>, id: string): Outcome {
  return outcomes.get(id)?.[0] ?? 'missing';
}
