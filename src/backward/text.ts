/**
 * Markdown-aware layout of one post body: lines (with their quote prefix and whether they sit in a
 * fenced code block) and sentence boundaries. Everything works on offsets into the original body,
 * so spans found here can be sliced out of it unchanged.
 */
import { CJK_SENTENCE_END } from './other-languages.js';

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

/** A run of prose lines read as one paragraph (hard-wrapped lines joined), with its sentence cuts. */
export interface Paragraph {
  readonly start: number;
  readonly end: number;
  /** Offsets just after each sentence end inside the paragraph, ascending. */
  readonly cuts: readonly number[];
}

export interface Layout {
  readonly body: string;
  readonly lines: readonly Line[];
  /** Paragraph index of each text line (-1 for code and fence lines). */
  readonly paragraphOfLine: readonly number[];
  readonly paragraphs: readonly Paragraph[];
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
  readMailedMessages(lines);
  const paragraphOfLine: number[] = [];
  const paragraphs: Paragraph[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (line.kind !== 'text') {
      paragraphOfLine.push(-1);
      continue;
    }
    if (i > 0 && continuesPrevious(lines, i)) {
      const last = paragraphs.length - 1;
      paragraphs[last] = { ...paragraphs[last]!, end: line.end };
    } else {
      paragraphs.push({ start: line.contentStart, end: line.end, cuts: [] });
    }
    paragraphOfLine.push(paragraphs.length - 1);
  }
  return { body, lines, paragraphOfLine, paragraphs: paragraphs.map((p) => ({ ...p, cuts: cutsOf(body, p.start, p.end) })) };
}

/** A trailer of a mailed patch, flush left ("Signed-off-by: A <a@b>"). */
const TRAILER = /^(?:Signed-off-by|Acked-by|Reviewed-by|Tested-by|Reported-by):\s+\S/;
/** The header of pasted `git log` or `git bisect` output: a tool's output, which stays code. */
const TOOL_OUTPUT = /^\s*(?:commit\s+[0-9a-fA-F]{40}\b|Author:|Date:|[0-9a-fA-F]{40}\s+is\s+the\s+first\s+bad\s+commit)/;

/**
 * A fenced block holding a mailed patch's message (its lines flush left, closed by trailers such
 * as "Signed-off-by:") is prose: "This reverts commit X. Commit X breaks …" in it reads as written.
 */
function readMailedMessages(lines: Line[]): void {
  for (let i = 0; i < lines.length; i += 1) {
    if (lines[i]!.kind !== 'fence') continue;
    let j = i + 1;
    while (j < lines.length && lines[j]!.kind === 'code') j += 1;
    const inner = lines.slice(i + 1, j);
    if (inner.some((l) => TRAILER.test(l.content)) && !inner.some((l) => TOOL_OUTPUT.test(l.content))) {
      for (let k = i + 1; k < j; k += 1) lines[k] = { ...lines[k]!, kind: 'text' };
    }
    i = j;
  }
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
function continuesPrevious(lines: readonly Line[], i: number): boolean {
  const line = lines[i]!;
  const prev = lines[i - 1];
  if (!prev || line.kind !== 'text' || prev.kind !== 'text') return false;
  if (line.quoteDepth !== prev.quoteDepth) return false;
  if (line.content.trim() === '' || prev.content.trim() === '') return false;
  if (BLOCK_START.test(line.content)) return false;
  if (/(?:[.!?]|[。！？])["')\]*_`」』）]*\s*$/.test(prev.content)) return false;
  // A line that ends with a link or a hash, followed by one that opens with a capital, starts a new sentence.
  if (/(?:https?:\/\/\S+|\b[0-9a-fA-F]{7,40})[`'")\]]*\s*$/.test(prev.content) && /^\s*[A-Z]/.test(line.content)) return false;
  return true;
}

/** Sentence ends inside a paragraph: `.`, `!` or `?` followed by whitespace, not after a common abbreviation. */
const SENTENCE_END = new RegExp(`[.!?]+["')\\]*_\`]*(?=\\s|$)|${CJK_SENTENCE_END}`, 'g');
const ABBREVIATION = /(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|Mr|Dr|No)|\.\.)$/i;

export interface Range {
  readonly start: number;
  readonly end: number;
}

function cutsOf(body: string, pStart: number, pEnd: number): number[] {
  const para = body.slice(pStart, pEnd);
  const cuts: number[] = [];
  const re = new RegExp(SENTENCE_END.source, 'g');
  for (let m = re.exec(para); m; m = re.exec(para)) {
    if (m[0].startsWith('.') && m[0].length === 1 && ABBREVIATION.test(para.slice(Math.max(0, m.index - 8), m.index))) continue;
    // A bracketed aside ("the offending (?) commit", "works (!) again") followed by a lower-case word goes on with the sentence.
    if (/[)\]]/.test(m[0]) && /[([][^()[\]\n]{0,30}$/.test(para.slice(Math.max(0, m.index - 31), m.index)) && /^\s+[a-z]/.test(para.slice(m.index + m[0].length))) continue;
    cuts.push(pStart + m.index + m[0].length);
  }
  return cuts;
}

/**
 * The sentence around `pos`: inside code, the line; in prose, the stretch between sentence ends
 * within the paragraph (hard-wrapped lines joined). Leading whitespace, quote markers and list
 * markers are left out.
 */
export function sentenceAt(layout: Layout, pos: number): Range {
  const li = lineIndexAt(layout, pos);
  const line = layout.lines[li]!;
  const pi = layout.paragraphOfLine[li]!;
  if (line.kind !== 'text' || pi < 0) return trimRange(layout.body, { start: line.contentStart, end: line.end });
  const para = layout.paragraphs[pi]!;
  // First cut strictly after pos.
  let lo = 0;
  let hi = para.cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (para.cuts[mid]! <= pos) lo = mid + 1;
    else hi = mid;
  }
  const start = lo > 0 ? para.cuts[lo - 1]! : para.start;
  const end = lo < para.cuts.length ? para.cuts[lo]! : para.end;
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

/** Every sentence of a body, in order (code and fence lines count as sentences); empty ones are left out. */
export function sentencesOf(layout: Layout): Range[] {
  const out: Range[] = [];
  const push = (r: Range): void => {
    if (r.end > r.start) out.push(r);
  };
  for (let i = 0; i < layout.lines.length; i += 1) {
    const line = layout.lines[i]!;
    const pi = layout.paragraphOfLine[i]!;
    if (pi < 0) {
      push(trimRange(layout.body, { start: line.contentStart, end: line.end }));
      continue;
    }
    if (i > 0 && layout.paragraphOfLine[i - 1] === pi) continue;
    const para = layout.paragraphs[pi]!;
    let start = para.start;
    for (const cut of para.cuts) {
      push(trimRange(layout.body, { start, end: cut }));
      start = cut;
    }
    push(trimRange(layout.body, { start, end: para.end }));
  }
  return out;
}
