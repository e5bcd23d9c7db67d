import type { Attribution } from '../model/backward.js';
import type { Span } from '../model/deletions.js';
import { toReportSpan, type Report } from './report.js';

export const ATTRIBUTION_DETECTOR = 'attribution-sentence';

/** The sentences (or output blocks) that carry an attribution, and the reference itself, in report offsets. */
export function detectAttributionSentences(report: Report, attributions: readonly Attribution[]): Span[] {
  const out: Span[] = [];
  for (const a of attributions) {
    for (const [start, end] of [
      [a.sentence.start, a.sentence.end],
      [a.start, a.end],
    ] as const) {
      const s = toReportSpan(report, a.post, start, end);
      if (s && s.end > s.start) out.push({ ...s, detector: ATTRIBUTION_DETECTOR });
    }
  }
  return out;
}
