/**
 * Markdown-aware layout of one post body: lines (with their quote prefix and whether they sit in a
 * fenced code block) and sentence boundaries. Everything works on offsets into the original body,
 * so spans found here can be sliced out of it unchanged.
 */

export type LineKind = 'text' | 'code' | 'fence';

export interface Line {
  /** Offset of the first character of the line. */
  readonly start: number;
  /** Offset just past the last character (before the newline). */
  readonly end: number;
  /** Offset where the content starts, after `>` quote markers and their spaces. */
  readonly contentStart: number;
  readonly quoteDepth: number;
  readonly kind: LineKind;
  /** The line without its quote prefix. */
  readonly content: string;
}

export interface Layout {
  readonly body: string;
  readonly lines: readonly Line[];
}

const FENCE = /^\s{0,3}(```|~~~)/;
const QUOTE_PREFIX = /^(?:[ \t]{0,3}>[ \t]?)+/;

export function layoutOf(body: string): Layout {
  const lines: Line[] = [];
  let offset = 0;
  let inFence: string | null = null;
  for (const raw of body.split('\n')) {
    const start = offset;
    const end = start + raw.length;
    offset = end + 1;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const prefix = QUOTE_PREFIX.exec(text)?.[0] ?? '';
    const quoteDepth = (prefix.match(/>/g) ?? []).length;
    const content = text.slice(prefix.length);
    const fence = FENCE.exec(content);
    let kind: LineKind;
    if (inFence !== null) {
      kind = fence && fence[1] === inFence ? 'fence' : 'code';
      if (kind === 'fence') inFence = null;
    } else if (fence) {
      kind = 'fence';
      inFence = fence[1] ?? '```';
    } else {
      kind = 'text';
    }
    lines.push({ start, end: start + text.length, contentStart: start + prefix.length, quoteDepth, kind, content });
  }
  return { body, lines };
}

/** Index of the line containing offset `pos` (a newline belongs to the line it ends). */
export function lineIndexAt(layout: Layout, pos: number): number {
  let lo = 0;
  let hi = layout.lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (layout.lines[mid]!.start <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const BLOCK_START = /^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|\||<\w)/;

/** Whether text line i continues the sentence of line i-1 (a hard-wrapped paragraph). */
function continuesPrevious(layout: Layout, i: number): boolean {
  const line = layout.lines[i]!;
  const prev = layout.lines[i - 1];
  if (!prev || line.kind !== 'text' || prev.kind !== 'text') return false;
  if (line.quoteDepth !== prev.quoteDepth) return false;
  if (line.content.trim() === '' || prev.content.trim() === '') return false;
  if (BLOCK_START.test(line.content)) return false;
  if (/[.!?]["')\]*_`]*\s*$/.test(prev.content)) return false;
  return true;
}

/** Sentence ends inside a paragraph: `.`, `!` or `?` followed by whitespace, not after a common abbreviation. */
const SENTENCE_END = /[.!?]+["')\]*_`]*(?=\s|$)/g;
const ABBREVIATION = /(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|Mr|Dr|No)|\.\.)$/i;

export interface Range {
  readonly start: number;
  readonly end: number;
}

/**
 * The sentence around `pos`: inside code, the line; in prose, the stretch between sentence ends
 * within the paragraph (hard-wrapped lines joined). Leading whitespace, quote markers and list
 * markers are left out.
 */
export function sentenceAt(layout: Layout, pos: number): Range {
  const li = lineIndexAt(layout, pos);
  const line = layout.lines[li]!;
  if (line.kind !== 'text') return trimRange(layout.body, { start: line.contentStart, end: line.end });
  let first = li;
  while (first > 0 && continuesPrevious(layout, first)) first -= 1;
  let last = li;
  while (last + 1 < layout.lines.length && continuesPrevious(layout, last + 1)) last += 1;
  const pStart = layout.lines[first]!.contentStart;
  const pEnd = layout.lines[last]!.end;
  const para = layout.body.slice(pStart, pEnd);
  let start = pStart;
  let end = pEnd;
  SENTENCE_END.lastIndex = 0;
  for (let m = SENTENCE_END.exec(para); m; m = SENTENCE_END.exec(para)) {
    const before = para.slice(0, m.index);
    if (m[0].startsWith('.') && m[0].length === 1 && ABBREVIATION.test(before)) continue;
    const cut = pStart + m.index + m[0].length;
    if (cut <= pos) start = cut;
    else {
      end = cut;
      break;
    }
  }
  return trimRange(layout.body, { start, end });
}

/** Trims whitespace, quote markers and list markers from the left and whitespace from the right. */
export function trimRange(body: string, r: Range): Range {
  let { start, end } = r;
  for (;;) {
    const rest = body.slice(start, end);
    const m = /^(?:\s+|>|[-*+](?=\s)|\d+[.)](?=\s))/.exec(rest);
    if (!m || m[0].length === 0) break;
    start += m[0].length;
  }
  while (end > start && /\s/.test(body[end - 1]!)) end -= 1;
  return { start, end };
}

/** Whether the text between two offsets contains a blank line (a paragraph break). */
export function crossesParagraph(text: string): boolean {
  return /\n[ \t>]*\n/.test(text);
}

/** Every sentence of a body, in order (code lines count as sentences). */
export function sentencesOf(layout: Layout): Range[] {
  const out: Range[] = [];
  let pos = 0;
  const n = layout.body.length;
  while (pos < n) {
    if (/\s/.test(layout.body[pos]!)) {
      pos += 1;
      continue;
    }
    const s = sentenceAt(layout, pos);
    if (s.end > s.start && (out.length === 0 || out[out.length - 1]!.start !== s.start)) out.push(s);
    pos = Math.max(pos + 1, s.end);
  }
  return out;
}
