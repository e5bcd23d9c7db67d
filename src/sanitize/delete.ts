/**
 * Deletion-only editing. Every sanitizer in r2v goes through `applyDeletions`: the result is the
 * original text with exactly the logged spans removed, nothing rewritten or added.
 */
import type { Span } from '../model/deletions.js';

export interface Deleted {
  readonly text: string;
  /** Merged, sorted, non-overlapping spans in the ORIGINAL text's offsets. */
  readonly deletions: Span[];
}

/** Merges overlapping or touching spans (the first detector of a merged run names it). */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = spans
    .filter((s) => s.end > s.start)
    .slice()
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) {
      if (s.end > last.end) out[out.length - 1] = { start: last.start, end: s.end, detector: last.detector };
    } else {
      out.push({ start: s.start, end: s.end, detector: s.detector });
    }
  }
  return out;
}

export function applyDeletions(text: string, spans: readonly Span[]): Deleted {
  for (const s of spans) {
    if (s.start < 0 || s.end > text.length || s.start > s.end) {
      throw new RangeError(`deletion span ${s.start}..${s.end} outside text of length ${text.length}`);
    }
  }
  const deletions = mergeSpans(spans);
  let out = '';
  let at = 0;
  for (const d of deletions) {
    out += text.slice(at, d.start);
    at = d.end;
  }
  out += text.slice(at);
  return { text: out, deletions };
}

/** True when `sanitized` equals `original` with exactly `deletions` removed (the invariant). */
export function isDeletionOf(original: string, sanitized: string, deletions: readonly Span[]): boolean {
  return applyDeletions(original, deletions).text === sanitized;
}
