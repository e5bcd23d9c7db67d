/**
 * The optional external screener: a configured program that reads one candidate case as JSON on
 * stdin and answers `{"decision", "reasons", "quotes"}` on stdout. Its answer is a proposal,
 * recorded in the ledger under `screener:<name>`, never a human decision. An answer is kept only
 * when every quote is an exact substring of the thread (Backward) or the issue text (Forward),
 * and a decisive answer (accept/reject) quotes at least once; otherwise it is `unsupported`.
 */
import { execa } from 'execa';
import { z } from 'zod';
import { canonicalJson } from '../util/canonical.js';
import type { ReviewCase } from './cases.js';

export const ScreenerAnswer = z.object({
  decision: z.enum(['accept', 'reject', 'uncertain']),
  reasons: z.array(z.string()),
  quotes: z.array(z.string()),
});
export type ScreenerAnswer = z.infer<typeof ScreenerAnswer>;

export type AnswerCheck =
  | { readonly kind: 'supported'; readonly answer: ScreenerAnswer }
  | { readonly kind: 'unsupported'; readonly answer: ScreenerAnswer; readonly detail: string }
  | { readonly kind: 'invalid'; readonly detail: string };

const clip = (s: string, n = 80): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/** Parses and checks a screener's stdout against the texts its quotes must come from. Pure. */
export function checkAnswer(stdout: string, quoteSources: readonly string[]): AnswerCheck {
  let raw: unknown;
  try {
    raw = JSON.parse(stdout);
  } catch (error) {
    return { kind: 'invalid', detail: `answer is not JSON (${(error as Error).message})` };
  }
  const parsed = ScreenerAnswer.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { kind: 'invalid', detail: `answer ${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}` };
  }
  const answer = parsed.data;
  const missing = answer.quotes.filter((q) => q.length === 0 || !quoteSources.some((t) => t.includes(q)));
  if (missing.length > 0) {
    return { kind: 'unsupported', answer, detail: `quotes not found in the text: ${missing.map((q) => JSON.stringify(clip(q))).join(', ')}` };
  }
  if (answer.decision !== 'uncertain' && answer.quotes.length === 0) {
    return { kind: 'unsupported', answer, detail: `decision ${answer.decision} quotes nothing from the text` };
  }
  return { kind: 'supported', answer };
}

/** The JSON a screener reads on stdin: the case as a reviewer sees it, plus the whole thread (Backward). */
export function candidateJson(c: ReviewCase): string {
  return canonicalJson({
    ...c.view,
    ...(c.thread ? { thread: c.thread } : {}),
    answer_format: {
      decision: 'accept | reject | uncertain',
      reasons: ['short reasons'],
      quotes: ['exact substrings of the thread (backward) or issue_text (forward) that support the decision'],
    },
  });
}

/** The ledger reason of a screener entry: its reasons and quotes, as canonical JSON. */
export function screenerReason(answer: ScreenerAnswer): string {
  return canonicalJson({ reasons: answer.reasons, quotes: answer.quotes });
}

export type ScreenerRun =
  | { readonly kind: 'answered'; readonly stdout: string }
  | { readonly kind: 'timeout'; readonly detail: string }
  | { readonly kind: 'failed'; readonly detail: string };

export interface ScreenerProcess {
  readonly command: readonly string[];
  readonly timeoutMs: number;
  readonly cwd: string;
  /** The environment the screener runs with (the GitHub token already removed). */
  readonly env: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
}

/** Largest answer read from a screener. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

const tail = (s: string): string => clip(s.trim().split('\n').slice(-3).join(' | '), 200);

/** Runs the screener once (argv array, no shell) with the candidate on stdin. */
export async function runScreener(p: ScreenerProcess, candidate: string): Promise<ScreenerRun> {
  const [file, ...args] = p.command;
  const r = await execa(file!, args, {
    input: candidate,
    cwd: p.cwd,
    env: p.env,
    extendEnv: false,
    timeout: p.timeoutMs,
    forceKillAfterDelay: 2000,
    maxBuffer: MAX_ANSWER_BYTES,
    reject: false,
    stripFinalNewline: false,
    ...(p.signal ? { cancelSignal: p.signal } : {}),
  });
  if (r.timedOut) return { kind: 'timeout', detail: `no answer within ${p.timeoutMs / 1000} s` };
  if (r.isCanceled) return { kind: 'failed', detail: 'interrupted' };
  if (r.failed) {
    const why = r.exitCode !== undefined ? `exit code ${r.exitCode}` : r.signal ? `killed by ${r.signal}` : r.shortMessage;
    const err = typeof r.stderr === 'string' && r.stderr.trim() ? `: ${tail(r.stderr)}` : '';
    return { kind: 'failed', detail: `${why}${err}` };
  }
  return { kind: 'answered', stdout: String(r.stdout) };
}
