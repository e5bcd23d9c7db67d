import type { Span } from '../model/deletions.js';
import { escapeRegExp, matchesOf } from './text.js';

export const GOLD_SUBJECT_DETECTOR = 'gold-subject';

/** Subjects shorter than this are too generic ("Fix typo") to delete or flag on sight. */
export const MIN_SUBJECT_LENGTH = 10;

/** The normalised subject to look for, or null when it is too short to be distinctive. */
export function distinctiveSubject(subject: string | null | undefined): string | null {
  const s = (subject ?? '').trim();
  return s.length >= MIN_SUBJECT_LENGTH ? s : null;
}

/**
 * Places where the gold commit's subject line is quoted (case-insensitive), also without the
 * pull-request number a squash merge appends ("Fix parsing (#123)" is quoted as "Fix parsing"), and
 * without a closing full stop.
 */
export function findSubject(text: string, subject: string | null | undefined): { start: number; end: number }[] {
  const s = distinctiveSubject(subject);
  if (!s) return [];
  const bare = distinctiveSubject(s.replace(/\s*\(#\d+\)\s*$/, ''));
  // "Fix the crash in the pool. (#701)" is quoted as "Fix the crash in the pool" too: without the closing full stop.
  const unstopped = bare ? distinctiveSubject(bare.replace(/\.+$/, '')) : null;
  const forms = [...new Set([s, ...(bare ? [bare] : []), ...(unstopped ? [unstopped] : [])])].sort((a, b) => b.length - a.length);
  return [
    ...matchesOf(text, new RegExp(forms.map(escapeRegExp).join('|'), 'gi')),
    ...unscoped(text, unstopped ?? bare ?? s),
    ...truncatedSubjects(text, s),
    ...truncatedTails(text, s),
    ...firstLines(text, s),
  ].sort((a, b) => a.start - b.start);
}

/** Shortest scope-less subject found anywhere; a shorter one (still distinctive) only between quotes. */
const MIN_UNSCOPED = 20;

/**
 * A subject written without its area prefix ("use audren" for "switch-sdl2: use audren", "frr-reload.py
 * remove stderr redirects" for "tools: frr-reload.py remove …"): the rest after "area: ", wherever it
 * stands when long enough, and between quotes or backticks when shorter.
 */
function unscoped(text: string, subject: string): { start: number; end: number; text: string }[] {
  const m = /^[\w./+-]+(?:\([^)\n]{1,40}\))?!?:\s+(\S.*)$/.exec(subject);
  const rest = m ? distinctiveSubject(m[1]!) : null;
  if (!rest) return [];
  return matchesOf(text, new RegExp(escapeRegExp(rest), 'gi')).filter(
    (x) => rest.length >= MIN_UNSCOPED || (/["'`\u201c]$/.test(text.slice(Math.max(0, x.start - 1), x.start)) && /^["'`\u201d]/.test(text.slice(x.end, x.end + 1))),
  );
}

/** Shortest first line of a longer subject recognised when quoted on its own. */
const MIN_FIRST_LINE = 30;

/**
 * The first line of a subject that git joined from several lines (a message whose first paragraph
 * runs over lines: GitHub shows only the first as the title), quoted on its own: a prefix ending at a
 * word boundary of the subject, followed in the text by a closing quote, bracket or emphasis, or the
 * end of the line.
 */
function firstLines(text: string, subject: string): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  const lower = subject.toLowerCase();
  const low = text.toLowerCase();
  const head = lower.slice(0, MIN_FIRST_LINE);
  if (head.length < MIN_FIRST_LINE || lower.length <= MIN_FIRST_LINE) return out;
  for (let at = low.indexOf(head); at >= 0; at = low.indexOf(head, at + 1)) {
    let k = MIN_FIRST_LINE;
    while (k < lower.length && at + k < low.length && low[at + k] === lower[k]) k += 1;
    // The text may keep the space after the line ("…from the trace "): end the line before it.
    while (k > MIN_FIRST_LINE && lower[k - 1] === ' ') k -= 1;
    if (k >= lower.length || lower[k] !== ' ') continue;
    if (!/^[ \t]*(?:["\u201d'`*)\]]|\r?\n|$)/.test(text.slice(at + k, at + k + 4))) continue;
    out.push({ start: at, end: at + k, text: text.slice(at, at + k) });
  }
  return out;
}

/** Shortest subject prefix recognised before an ellipsis ("Revert \"Shader: Use the right sampler type in the TEX, TEXS and TLDS …\""). */
const MIN_TRUNCATED_PREFIX = 20;
/** Shortest subject tail recognised after an ellipsis that opens a line ("… protobuf)\"" under a cut revert title). */
const MIN_OPENING_TAIL = 4;

/** The subject cut short by an ellipsis (GitHub shortens long revert titles): the prefix and the ellipsis. */
function truncatedSubjects(text: string, subject: string): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  const lower = subject.toLowerCase();
  for (const m of text.matchAll(/\s?(?:…|\.\.\.)/g)) {
    const at = m.index;
    for (let k = Math.min(lower.length - 1, at); k >= MIN_TRUNCATED_PREFIX; k -= 1) {
      if (text.slice(at - k, at).toLowerCase() === lower.slice(0, k)) {
        out.push({ start: at - k, end: at + m[0].length, text: text.slice(at - k, at + m[0].length) });
        break;
      }
    }
  }
  return out;
}

/**
 * The rest of a subject after the ellipsis of a title cut short, where the description goes on with it
 * ("…ier, and count the pages twice."): the ellipsis and the tail.
 */
function truncatedTails(text: string, subject: string): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  const lower = subject.toLowerCase();
  for (const m of text.matchAll(/(?:…|\.\.\.)/g)) {
    const from = m.index + m[0].length;
    // An ellipsis opening a line (GitHub's continuation of a cut title at the top of the description) carries even a short
    // tail of the subject, up to the closing quote or the line's end.
    const opensLine = m.index === 0 || /\n[ \t]*$/.test(text.slice(Math.max(0, m.index - 10), m.index));
    const shortest = opensLine ? MIN_OPENING_TAIL : MIN_TRUNCATED_PREFIX;
    for (let k = Math.min(lower.length - 1, text.length - from); k >= shortest; k -= 1) {
      if (k < MIN_TRUNCATED_PREFIX && !/^["\u201d'`]?[ \t]*(?:\r?\n|$)/.test(text.slice(from + k, from + k + 4))) continue;
      if (text.slice(from, from + k).toLowerCase() === lower.slice(lower.length - k)) {
        out.push({ start: m.index, end: from + k, text: text.slice(m.index, from + k) });
        break;
      }
    }
  }
  return out;
}

/** A subject too short to delete on sight is still the answer where a revert quotes it whole (`Revert "fix #9"`). */
function revertQuoted(text: string, subject: string | null | undefined): { start: number; end: number }[] {
  const s = (subject ?? '').trim();
  if (s === '' || distinctiveSubject(s)) return [];
  const re = new RegExp(String.raw`\brevert\s+["“'\`](${escapeRegExp(s)})["”'\`]`, 'gi');
  return [...text.matchAll(re)].map((m) => {
    const start = m.index + m[0].length - 1 - m[1]!.length;
    return { start, end: start + m[1]!.length };
  });
}

/**
 * A cause named by the words of the gold commit's subject rather than its reference ("Breakage
 * introduced by dock hang fixes" for "Fix dock hangs when …"; "fails since the new lexer bump" for
 * "Bump the lexer"; "does not work because of the v3 ring support" for "Add the v3 ring support"): after a causal lead-in, a short phrase most of whose words are the
 * subject's (by stem) goes with its lead-in.
 */
const PARAPHRASE_LEAD = /\b(?:(?:introduced|caused|broken|broke|regressed|triggered)\s+(?:by|in|with|from)|(?:since|after)\s+(?:the\s+)?(?:recent|latest|last|new)|(?:since|after)(?=\s+(?:[\w-]+\s+){1,4}commit\b)|regression\s+from|because\s+of|due\s+to)\s+/gi;
/** Words that say nothing of which commit: not counted either way. */
const PARAPHRASE_FILLER = new Set(['the', 'a', 'an', 'this', 'that', 'recent', 'latest', 'last', 'new', 'commit', 'change', 'changes', 'patch', 'some', 'of', 'to', 'in', 'on', 'for', 'and', 'with', 'when', 'from']);
/** How many of the phrase's words must be the subject's, and at least what share. */
const PARAPHRASE = { minShared: 2, minShare: 0.6, maxWords: 8 } as const;

function stem(word: string): string {
  return word.toLowerCase().replace(/(?:ing|ed|es|s|d)$/, '').replace(/e$/, '');
}

function paraphrases(text: string, subject: string | null | undefined): { start: number; end: number }[] {
  const s = (subject ?? '').trim();
  if (s === '') return [];
  const subjectStems = new Set((s.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !PARAPHRASE_FILLER.has(w.toLowerCase())).map(stem));
  const out: { start: number; end: number }[] = [];
  for (const m of text.matchAll(PARAPHRASE_LEAD)) {
    const from = m.index + m[0].length;
    const phrase = /^[^,.;:()\n!?]{1,120}/.exec(text.slice(from))?.[0] ?? '';
    const words = (phrase.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !PARAPHRASE_FILLER.has(w.toLowerCase()));
    if (words.length === 0 || words.length > PARAPHRASE.maxWords) continue;
    const shared = words.filter((w) => subjectStems.has(stem(w))).length;
    if (shared >= PARAPHRASE.minShared && shared / words.length >= PARAPHRASE.minShare) out.push({ start: m.index, end: from + phrase.trimEnd().length });
  }
  // …or as the subject of the breaking verb, opening the line or sentence ("Vertex id emulation breaks the shading on …"):
  // the phrase goes, what it broke stays.
  for (const m of text.matchAll(PARAPHRASE_VERB)) {
    const before = text.slice(Math.max(0, m.index - 120), m.index);
    const open = Math.max(before.lastIndexOf('\n') + 1, ...['. ', '! ', '? ', ': '].map((p) => (before.includes(p) ? before.lastIndexOf(p) + p.length : 0)));
    // (Cut from a longer text at 120 characters back, the phrase has no known start: none.)
    if (open === 0 && m.index > 120) continue;
    const phrase = before.slice(open);
    const lead = /^\s*/.exec(phrase)![0].length;
    const words = (phrase.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !PARAPHRASE_FILLER.has(w.toLowerCase()));
    if (words.length === 0 || words.length > PARAPHRASE.maxWords || /[,;()]/.test(phrase)) continue;
    const shared = words.filter((w) => subjectStems.has(stem(w))).length;
    const start = m.index - phrase.length + lead;
    if (shared >= PARAPHRASE.minShared && shared / words.length >= PARAPHRASE.minShare && start < m.index) out.push({ start, end: m.index });
  }
  return out;
}

/** A breaking verb whose subject may be the commit's own words. */
const PARAPHRASE_VERB = /(?<=\s)(?:breaks|broke|has\s+broken|causes|caused|regressed|crashes)\b/gi;

export function detectGoldSubject(text: string, subject: string | null | undefined): Span[] {
  return [...findSubject(text, subject), ...revertQuoted(text, subject), ...paraphrases(text, subject)].map((m) => ({ start: m.start, end: m.end, detector: GOLD_SUBJECT_DETECTOR }));
}
