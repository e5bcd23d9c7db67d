/**
 * The agent-visible issue of a Forward case: title, body and the comments written before the
 * fixing pull request was opened, with every reference to that pull request and its commits
 * deleted (deletion only, through applyDeletions). Paths the issue names are left alone.
 */
import type { LoggedDeletion, Span } from '../model/deletions.js';
import { applyDeletions } from '../sanitize/delete.js';
import { sentenceAround } from '../sanitize/text.js';

export interface IssuePost {
  readonly author: string;
  readonly createdAt: string;
  readonly body: string;
  readonly id: number | null;
}

export interface FixingPull {
  /** owner/name */
  readonly repo: string;
  readonly number: number;
  readonly createdAt: string;
  /** SHAs of the PR's commits, its head and its merge commit (any may be absent). */
  readonly commitShas: readonly string[];
}

export interface IssueInput {
  readonly title: string;
  readonly body: string;
  readonly createdAt: string;
  /** Comments in time order. */
  readonly comments: readonly IssuePost[];
}

export interface IssueText {
  /** The composed original (title, body, kept comments with separators). */
  readonly original: string;
  /** `original` with `deletions` removed. */
  readonly text: string;
  readonly deletions: LoggedDeletion[];
  /** Comments left out because they were written when or after the fixing PR was opened. */
  readonly excludedComments: { readonly id: number | null; readonly createdAt: string }[];
}

/** Shortest hex prefix that counts as a commit reference (DESIGN.md §3: 7+ hex characters). */
export const MIN_SHA_PREFIX = 7;

/** Words that make a sentence around a reference a "fixed by …" statement (deleted whole). */
const FIX_WORDS =
  /\b(fix|fixes|fixed|fixing|resolve|resolves|resolved|close|closes|closed|address|addresses|addressed|land|landed|merge|merged|implement|implements|implemented|patch|patched|solve|solves|solved|pr|pull request)\b/i;

/**
 * Builds the agent-visible text. Only comments created strictly before `pull.createdAt` are kept.
 * Times are ISO-8601 strings; they are compared as instants.
 */
export function buildIssueText(issue: IssueInput, pull: FixingPull): IssueText {
  const cutoff = Date.parse(pull.createdAt);
  const kept = issue.comments.filter((c) => Date.parse(c.createdAt) < cutoff);
  const excludedComments = issue.comments
    .filter((c) => !(Date.parse(c.createdAt) < cutoff))
    .map((c) => ({ id: c.id, createdAt: c.createdAt }));

  // Compose the original with fixed separators; detectors run only inside the authored parts.
  const parts: { start: number; end: number }[] = [];
  let original = '';
  const add = (header: string, text: string): void => {
    original += header;
    parts.push({ start: original.length, end: original.length + text.length });
    original += text;
  };
  add('', issue.title);
  add('\n\n', issue.body);
  for (const c of kept) add(`\n\n--- comment by @${c.author} at ${c.createdAt} ---\n\n`, c.body);

  const spans: Span[] = [];
  for (const p of parts) {
    for (const s of referenceSpans(original.slice(p.start, p.end), pull)) {
      spans.push({ start: s.start + p.start, end: s.end + p.start, detector: s.detector });
    }
  }
  const result = applyDeletions(original, spans);
  return {
    original,
    text: result.text,
    deletions: result.deletions.map((d) => ({ ...d, text: original.slice(d.start, d.end) })),
    excludedComments,
  };
}

/**
 * Spans (in `text`) that refer to the fixing PR or its commits. A reference inside a "fixed by …"
 * clause takes the whole clause with it (a sentence, or its part between semicolons, or the
 * parenthesis holding the reference), except the paths the clause names.
 */
export function referenceSpans(text: string, pull: FixingPull): Span[] {
  const refs = findReferences(text, pull);
  const spans: Span[] = [];
  for (const r of refs) {
    const clause = clauseAround(text, r.start, r.end);
    const paren = text[clause.start] === '(' && text[clause.end - 1] === ')' ? 1 : 0;
    let rest = text.slice(clause.start + paren, r.start) + ' ' + text.slice(r.end, clause.end - paren);
    rest = rest.replace(/\([^()]*\)/g, ' ');
    if (!FIX_WORDS.test(rest)) {
      spans.push(r);
      continue;
    }
    let at = clause.start;
    for (const p of pathTokens(text, clause.start, clause.end)) {
      if (refs.some((x) => x.start < p.end && x.end > p.start)) continue;
      spans.push({ start: at, end: p.start, detector: 'fix-sentence' });
      at = p.end;
    }
    spans.push({ start: at, end: clause.end, detector: 'fix-sentence' });
  }
  return spans.filter((s) => s.end > s.start);
}

/** The innermost parenthesis around [start, end) within its sentence, else its `;`-separated part. */
export function clauseAround(text: string, start: number, end: number): { start: number; end: number } {
  const sentence = sentenceAround(text, start, end);
  let open = -1;
  for (let i = start - 1, depth = 0; i >= sentence.start; i -= 1) {
    if (text[i] === ')') depth += 1;
    else if (text[i] === '(') {
      if (depth === 0) {
        open = i;
        break;
      }
      depth -= 1;
    }
  }
  if (open !== -1) {
    for (let i = end, depth = 0; i < sentence.end; i += 1) {
      if (text[i] === '(') depth += 1;
      else if (text[i] === ')') {
        if (depth === 0) return { start: open, end: i + 1 };
        depth -= 1;
      }
    }
  }
  const before = text.lastIndexOf(';', start - 1);
  let s = before >= sentence.start ? before + 1 : sentence.start;
  while (s < start && /\s/.test(text[s]!)) s += 1;
  const after = text.indexOf(';', end);
  const e = after !== -1 && after < sentence.end ? after + 1 : sentence.end;
  return { start: s, end: e };
}

const FILE_EXT = 'c|cc|cpp|cs|css|go|h|hpp|html|java|js|json|jsx|kt|md|mjs|cjs|py|rb|rs|scss|sh|sql|swift|toml|ts|tsx|txt|vue|xml|ya?ml';
const PATH_TOKEN = new RegExp(`(?<![\\w:/.@-])(?:(?:\\.?[\\w-]+/)+[\\w.-]*[\\w]|[\\w-]+(?:\\.[\\w-]+)*\\.(?:${FILE_EXT}))(?![\\w/])`, 'g');

/** File paths named in text[start, end): tokens with a `/` or a common file extension. */
export function pathTokens(text: string, start: number, end: number): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const m of text.slice(start, end).matchAll(PATH_TOKEN)) {
    out.push({ start: start + m.index, end: start + m.index + m[0].length });
  }
  return out;
}

/** Scheme (optional), host, and the API prefixes GitHub and GitHub Enterprise put before owner/name. */
const HOST = String.raw`(?:https?://)?(?<![\w.-])[\w-]+(?:\.[\w-]+)+(?::\d+)?/(?:api/v3/)?(?:repos/)?`;

/** Bare references: PR URLs and refs, commit URLs and SHAs of the PR's commits, markdown links to them. */
export function findReferences(text: string, pull: FixingPull): Span[] {
  const [owner, name] = pull.repo.split('/') as [string, string];
  const repoRe = `${escapeRe(owner)}/${escapeRe(name)}`;
  const n = pull.number;
  const shas = pull.commitShas.map((s) => s.toLowerCase()).filter((s) => /^[0-9a-f]{40}$/.test(s));
  const isFixSha = (hex: string): boolean => {
    const h = hex.toLowerCase();
    return h.length >= MIN_SHA_PREFIX && shas.some((s) => s.startsWith(h));
  };
  const spans: Span[] = [];
  const scan = (re: RegExp, detector: string, accept: (m: RegExpExecArray) => boolean = () => true): void => {
    for (const m of text.matchAll(re)) {
      if (accept(m)) spans.push({ start: m.index, end: m.index + m[0].length, detector });
    }
  };
  // https://host/owner/name/pull/N[/files|/commits[/sha]][#anchor] (also /pulls/ and api URLs)
  scan(
    new RegExp(`${HOST}${repoRe}/pulls?/${n}(?![0-9])(?:/[A-Za-z0-9._/-]*)?(?:[?#][^\\s)\\]>]*)?`, 'gi'),
    'pr-url',
  );
  // https://host/owner/name/commit/<sha>, only for the PR's commits
  scan(
    new RegExp(`${HOST}${repoRe}/commits?/([0-9a-fA-F]{7,40})(?![0-9A-Za-z])(?:[?#][^\\s)\\]>]*)?`, 'g'),
    'commit-url',
    (m) => isFixSha(m[1]!),
  );
  // owner/name#N, #N, GH-N, PR N
  scan(new RegExp(`(?<![\\w/])${repoRe}#${n}(?![0-9])`, 'gi'), 'pr-ref');
  scan(new RegExp(`(?<![\\w&/#])#${n}(?![0-9A-Za-z_])`, 'g'), 'pr-ref');
  scan(new RegExp(`(?<![\\w-])GH-${n}(?![0-9])`, 'gi'), 'pr-ref');
  // "PR 42", "pull request 42" (the number written without #)
  scan(new RegExp(`(?<![\\w-])(?:PR|pull request)\\s+${n}(?![0-9])`, 'gi'), 'pr-ref');
  // owner/name@sha and bare SHAs of the PR's commits
  scan(/(?<![0-9A-Za-z])[0-9a-fA-F]{7,40}(?![0-9A-Za-z])/g, 'sha', (m) => isFixSha(m[0]));
  // A markdown link whose target is one of the references goes as a whole.
  for (const m of text.matchAll(/!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+"[^"\n]*")?\)/g)) {
    const targetStart = m.index + m[0].indexOf('(') + 1;
    const targetEnd = targetStart + m[1]!.length;
    if (spans.some((s) => s.start < targetEnd && s.end > targetStart)) {
      spans.push({ start: m.index, end: m.index + m[0].length, detector: 'pr-link' });
    }
  }
  return spans;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
