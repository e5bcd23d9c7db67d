import type { Span } from '../model/deletions.js';
import { linesOf, matchesOf, sentenceAround } from './text.js';

export const BISECT_TRANSCRIPT_DETECTOR = 'bisect-transcript';
export const BISECT_OUTCOME_DETECTOR = 'bisect-outcome';

/** Prompt and quote decorations in front of a pasted transcript line (`> `, `$ `, `% `). */
const PREFIX = /^\s*(?:>\s*)*(?:[$%]\s+)?/;
/** Quote markers only: inside a commit block the indentation is meaningful. */
const QUOTE = /^(?:> ?)*/;

/** Lines of a `git bisect` run, one pattern per line kind. */
const TRANSCRIPT_LINES: readonly RegExp[] = [
  /^git bisect (?:start|bad|good|new|old|skip|reset|run|log|replay|terms|visuali[sz]e|view|next)\b/i,
  /^Bisecting: \d+ revisions? left to test/i,
  /^\[[0-9a-f]{7,40}\] /i,
  /^#? ?(?:good|bad|skip|new|old|first bad commit|possible first bad commit|only skipped commits left to test): \[[0-9a-f]{7,40}\]/i,
  /^There are only 'skip'ped commits left to test/i,
  /^The first bad commit could be any of:?/i,
  /^We cannot bisect more!?/i,
  /^bisect (?:run )?(?:success|failed|found first bad commit)/i,
  /^bisect found first bad commit/i,
  /^Previous HEAD position was [0-9a-f]{7,40}\b/i,
  /^HEAD is now at [0-9a-f]{7,40}\b/i,
  /^status: waiting for (?:both good and bad|good|bad) commits?/i,
];

const FIRST_BAD = /^[0-9a-f]{7,40} is the first ['"]?bad['"]? commit\b/i;
const HEADER = /^(?:commit [0-9a-f]{7,40}\b|Merge: |Author: |AuthorDate: |Commit: |CommitDate: |Date: )/;
const DIFFSTAT = /^ (?:\S.* \| +(?:\d+ ?[+-]*|Bin .*)|\d+ files? changed\b.*)$/;
const RAW_DIFF = /^:\d{6} \d{6} [0-9a-f]{7,40} [0-9a-f]{7,40} [A-Z]\d*\t/;
const CANDIDATE_LIST = /^[0-9a-f]{7,40}\s*$/i;

/** Phrases that state a bisect outcome or a first-bad verdict. */
export const OUTCOME_PHRASES: readonly RegExp[] = [
  /\bis the first ['"]?bad['"]? commit\b/i,
  /\bfirst[- ]bad (?:commit|revision|change)\b/i,
  /\bbisected\s+(?:(?:it|this|that|the \w+)\s+)?(?:(?:down|back)\s+)?(?:to|at)\b/i,
  /\bbisect(?:ion|ing)?\s+(?:points?|pointed|lands?|landed|says|said|found|finds|identified|identifies|blames|blamed|shows|showed|leads|led)\b/i,
  /\bthe culprit (?:commit |change )?(?:is|was)\b/i,
  // A bisect mentioned in the same sentence as a commit or pull-request reference: the sentence reports its outcome.
  /\bbisect(?:ed|ing|ion)?\b[^.\n]{0,80}?(?:(?<![\w&/])#\d{1,7}\b|(?<![\w/])[0-9a-f]{7,40}(?![\w-])|\/commit\/[0-9a-f]{7,40})/i,
];

/**
 * Bisect transcripts, line by line: the `git bisect` commands, "Bisecting: N revisions left…",
 * the checked-out `[sha] subject` lines, bisect-log lines, the skip-only outcome with its
 * candidate list, and the "<sha> is the first bad commit" block with the commit header, message
 * and diffstat that git prints after it.
 */
export function detectBisectTranscript(text: string): Span[] {
  const lines = linesOf(text);
  const out: Span[] = [];
  const span = (i: number): void => void out.push({ start: lines[i]!.start, end: lines[i]!.end, detector: BISECT_TRANSCRIPT_DETECTOR });
  const bodies = lines.map((l) => l.content.replace(PREFIX, ''));
  const quoted = lines.map((l) => l.content.replace(QUOTE, ''));
  for (let i = 0; i < lines.length; i += 1) {
    const body = bodies[i]!;
    if (FIRST_BAD.test(body)) {
      span(i);
      i = firstBadBlockEnd(quoted, i + 1, span);
      continue;
    }
    if (/^The first bad commit could be any of/i.test(body)) {
      span(i);
      while (i + 1 < lines.length && CANDIDATE_LIST.test(bodies[i + 1]!)) span(++i);
      continue;
    }
    if (TRANSCRIPT_LINES.some((re) => re.test(body))) span(i);
  }
  return out;
}

/** Marks the commit block after a first-bad line; returns the index of its last line. */
function firstBadBlockEnd(bodies: string[], from: number, span: (i: number) => void): number {
  let i = from;
  let phase: 'header' | 'message' | 'stat' = 'header';
  let sawHeader = false;
  for (; i < bodies.length; i += 1) {
    const b = bodies[i]!;
    if (phase === 'header' && HEADER.test(b)) {
      sawHeader = true;
    } else if (b.trim() === '' && sawHeader) {
      // A blank line inside the block; keep going only if the block continues after it.
      const next = bodies[i + 1];
      if (next === undefined || !(next.startsWith('    ') || DIFFSTAT.test(next) || RAW_DIFF.test(next))) break;
      if (phase === 'header') phase = 'message';
      else if (phase === 'message' && !next.startsWith('    ')) phase = 'stat';
    } else if (phase === 'message' && b.startsWith('    ')) {
      // message line
    } else if (sawHeader && (DIFFSTAT.test(b) || RAW_DIFF.test(b))) {
      phase = 'stat';
    } else {
      break;
    }
    span(i);
  }
  return i - 1;
}

/** Where a sentence joins a second statement of the writer (", and I've checked …", "; we …"). */
const CLAUSE_JOIN = /,?\s+and\s+(?=(?:I|I've|I'm|I'd|we|we've)\b)|;\s+(?=(?:I|I've|I'm|we|we've)\b)/g;

/** A reference or another outcome in the second statement keeps it with the deletion. */
const ANSWER_IN_CLAUSE = /(?<![\w&/])#\d{1,7}\b|(?<![\w/])[0-9a-f]{7,40}(?![\w-])|https?:\/\/|\bbisect\w*|\bfirst[- ]bad\b|\bculprit\b/i;

/**
 * The end of the outcome clause: a sentence that goes on with a second statement of the writer
 * naming nothing ("my bisect ended on the change reverted here, and I've checked this fixes the
 * bug") loses only the outcome; the rest is symptom.
 */
function outcomeClauseEnd(text: string, matchEnd: number, sentenceEnd: number): number {
  const tail = text.slice(matchEnd, sentenceEnd);
  for (const j of tail.matchAll(CLAUSE_JOIN)) {
    const rest = tail.slice(j.index + j[0].length);
    if (!ANSWER_IN_CLAUSE.test(rest) && !OUTCOME_PHRASES.some((re) => re.test(rest))) return matchEnd + j.index + j[0].length;
  }
  return sentenceEnd;
}

/**
 * "the viewer crashes when I drag, first bad commit is X": a symptom clause before the outcome,
 * cut off by a comma and naming no commit or bisect, stays.
 */
function outcomeClauseStart(text: string, sentenceStart: number, phraseStart: number): number {
  const lead = text.slice(sentenceStart, phraseStart);
  const comma = /,\s+(?:the\s+)?$/.exec(lead);
  if (!comma || /\bbisect|[0-9a-f]{7,40}|#\d|https?:\/\//i.test(lead)) return sentenceStart;
  return (lead.slice(0, comma.index).match(/[A-Za-z]{2,}/g) ?? []).length >= 3 ? sentenceStart + comma.index : sentenceStart;
}

/** Sentences that state a bisect outcome ("bisected it to …", "… is the first bad commit"). */
export function detectBisectOutcome(text: string): Span[] {
  const out: Span[] = [];
  for (const re of OUTCOME_PHRASES) {
    for (const m of matchesOf(text, re)) {
      const s = sentenceAround(text, m.start, m.end);
      out.push({ start: outcomeClauseStart(text, s.start, m.start), end: outcomeClauseEnd(text, m.end, s.end), detector: BISECT_OUTCOME_DETECTOR });
    }
  }
  return out;
}
