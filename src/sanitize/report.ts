import type { Attribution, Thread } from '../backward/types.js';

/** Where one post (or the title) sits inside the report text. */
export interface Segment {
  /** Index into thread.posts, or null for the title. */
  readonly post: number | null;
  /** Offset of the segment in the report text. */
  readonly start: number;
  readonly length: number;
}

export interface Report {
  readonly text: string;
  readonly segments: readonly Segment[];
  /** Posts included (0 = body, k = k-th comment). */
  readonly posts: readonly number[];
}

export const SEGMENT_SEPARATOR = '\n\n';

/**
 * The report an agent would read: the title and body plus the comments posted before the first
 * attribution. When the first attribution is in the body, just the title and the body; with no
 * attribution at all, the whole thread. `withFirstAttributionPost` adds the post holding the first
 * attribution (the caller deletes its answer).
 */
export function buildReport(thread: Thread, attributions: readonly Attribution[], options: { withFirstAttributionPost?: boolean } = {}): Report {
  // An attribution in the title (post -1) does not cut the comments: only one in a post does.
  const inPosts = attributions.filter((a) => a.post >= 0);
  const first = inPosts.length > 0 ? Math.min(...inPosts.map((a) => a.post)) : thread.posts.length;
  const last = options.withFirstAttributionPost ? first + 1 : first;
  const included = thread.posts.filter((p, i) => i === 0 || i < last).map((p) => p.index);
  const segments: Segment[] = [{ post: null, start: 0, length: thread.title.length }];
  let text = thread.title;
  for (const index of included) {
    const body = thread.posts.find((p) => p.index === index)?.body ?? '';
    text += SEGMENT_SEPARATOR;
    segments.push({ post: index, start: text.length, length: body.length });
    text += body;
  }
  return { text, segments, posts: included };
}

/** Converts a span of `posts[post].body` (post -1: the title) into report offsets, or null when the post is not in the report. */
export function toReportSpan(report: Report, post: number, start: number, end: number): { start: number; end: number } | null {
  const seg = report.segments.find((s) => s.post === (post === -1 ? null : post));
  if (!seg) return null;
  const a = Math.max(0, Math.min(start, seg.length));
  const b = Math.max(a, Math.min(end, seg.length));
  return { start: seg.start + a, end: seg.start + b };
}
