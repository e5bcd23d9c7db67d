import { findRefs, sameTarget } from '../backward/refs.js';
import { layoutOf } from '../backward/text.js';
import type { Attribution, Thread, ThreadPost } from '../model/backward.js';
import type { Span } from '../model/deletions.js';

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
  /** Posts included whole (0 = body, k = k-th comment). */
  readonly posts: readonly number[];
  /**
   * Later posts (after the attribution) included only for their reproduction blocks: everything
   * else of them is listed here, in report offsets, for deletion.
   */
  readonly trims: readonly Span[];
}

/** Bounds of the later reproduction blocks a report takes in (see reproductionBlocks). */
export const LATER_BLOCKS = {
  /** How many later posts may give blocks: the first few, before the talk turns to the fix. */
  maxPosts: 3,
  /** Longest block taken, in characters: a reproduction is short, a pasted log dump is not needed. */
  maxChars: 4_000,
  /** How far before the block (in the same post) the cue that introduces it may stand. */
  cueWindow: 300,
} as const;

export const LATER_POST_DETECTOR = 'later-post';

/** Words that introduce a reproduction or an observation of the symptom. */
const REPRO_CUE =
  /\b(?:reproduc\w*|repro|simplif\w*|minimi[sz]ed|minimal|smaller|MWE|MCVE|example|test\s*case|testcase|snippet|comes\s+from|triggers?|trigger(?:ed|s)\s+by|steps|still\s+(?:happens|fails|crashes|broken)|same\s+(?:error|crash|problem|failure|panic)|(?:error|crash|panic|stack\s*trace|backtrace|traceback)\s*(?:output|log)?\s*:)/i;

/** A post speaking of a fix, a patch or a revert: its code may be the answer's neighbourhood, never taken. */
const FIX_TALK = /\b(?:fix(?:es|ed|ing)?|patch(?:es|ed)?|revert\w*|workaround|pull\s+request|PR\b|merged|diff|bisect\w*|culprit|commit|changed?\s+(?:to|from))\b/i;

/** Code that names commits, links, or a diff: answer material, not a reproduction. */
const ANSWERISH = /\b[0-9a-f]{7,40}\b|https?:\/\/|^(?:diff --git|@@ |\+\+\+ |--- a\/|index [0-9a-f]+\.\.)/im;

/**
 * The fenced blocks of a later post that reproduce or show the symptom: a cue before the block
 * ("simplified", "reproducer", "same crash:"), no talk of fixes, commits or bisecting in the post,
 * and nothing in the block that names a commit, links anywhere or reads as a diff.
 */
export function reproductionBlocks(body: string): { start: number; end: number }[] {
  if (FIX_TALK.test(body)) return [];
  const layout = layoutOf(body);
  const out: { start: number; end: number }[] = [];
  let open: number | null = null;
  for (const line of layout.lines) {
    if (line.kind !== 'fence') continue;
    if (open === null) {
      open = line.start;
      continue;
    }
    const start = open;
    const end = line.end;
    open = null;
    const block = body.slice(start, end);
    if (block.length > LATER_BLOCKS.maxChars || ANSWERISH.test(block)) continue;
    if (!REPRO_CUE.test(body.slice(Math.max(0, start - LATER_BLOCKS.cueWindow), start))) continue;
    out.push({ start, end });
  }
  return out;
}

export const SEGMENT_SEPARATOR = '\n\n';

/** How many posts the reporter may add to the report before anyone else answers. */
const REPORTER_FOLLOW_UPS = 3;

/** A post that speaks of a fix, a revert, a commit or a bisect, or names a hash: answer talk. */
function speaksOfFix(p: ThreadPost): boolean {
  return FIX_TALK.test(p.body) || /\b[0-9a-f]{7,40}\b/i.test(p.body);
}

function sameWriter(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase() && a.toLowerCase() !== 'ghost';
}

/**
 * The report an agent would read: the title and body plus the comments posted before the first
 * attribution. When the first attribution is in the body, just the title and the body; with no
 * attribution at all, the whole thread. The reporter's own follow-ups posted right after the body
 * (or after the added attribution post), before anyone else answers, come in too.
 * `withFirstAttributionPost` adds the post holding the first attribution (the caller deletes its
 * answer).
 */
export function buildReport(thread: Thread, attributions: readonly Attribution[], options: { withFirstAttributionPost?: boolean } = {}): Report {
  // An attribution in the title (post -1) does not cut the comments where they still tell the
  // symptom, only from the first that speaks of a fix, a revert or a commit ("I've reverted the
  // last commit"): that talk answers the title.
  const inPosts = attributions.filter((a) => a.post >= 0);
  // (A post naming the title's commit again confirms it, and its reference is deleted: no cut.)
  const titled = attributions.filter((a) => a.post === -1);
  const confirms = (p: ThreadPost): boolean => findRefs(p.body).some((r) => titled.some((a) => sameTarget(a.ref, r.ref)));
  const talk = titled.length > 0 ? thread.posts.findIndex((p, i) => i > 0 && speaksOfFix(p) && !confirms(p)) : -1;
  const first = inPosts.length > 0 ? Math.min(...inPosts.map((a) => a.post)) : talk > 0 ? talk : thread.posts.length;
  let last = options.withFirstAttributionPost ? first + 1 : first;
  // The reporter going on with the report before anyone else answers ("To be clear: it starts
  // but shows nothing") is still the report: those posts come in whole and are sanitized like it,
  // up to the first that speaks of a fix, a revert, a commit or a bisect.
  if (inPosts.length > 0 && (first === 0 || options.withFirstAttributionPost)) {
    const from = Math.max(1, last);
    const more = (p: ThreadPost): boolean => sameWriter(p.author, thread.author) && !speaksOfFix(p);
    let next = from;
    while (next < thread.posts.length && next - from < REPORTER_FOLLOW_UPS && more(thread.posts[next]!)) next += 1;
    last = next;
  }
  const included = thread.posts.filter((p, i) => i === 0 || i < last).map((p) => p.index);
  const segments: Segment[] = [{ post: null, start: 0, length: thread.title.length }];
  let text = thread.title;
  for (const index of included) {
    const body = thread.posts.find((p) => p.index === index)?.body ?? '';
    text += SEGMENT_SEPARATOR;
    segments.push({ post: index, start: text.length, length: body.length });
    text += body;
  }
  // After the attribution, a few later posts may still show the symptom better (a smaller
  // reproduction): their reproduction blocks stay, the rest of each such post is deleted.
  const trims: Span[] = [];
  if (inPosts.length > 0) {
    let taken = 0;
    for (const post of thread.posts.slice(Math.max(1, last))) {
      if (taken >= LATER_BLOCKS.maxPosts) break;
      const blocks = reproductionBlocks(post.body);
      if (blocks.length === 0) continue;
      taken += 1;
      text += SEGMENT_SEPARATOR;
      const start = text.length;
      segments.push({ post: post.index, start, length: post.body.length });
      text += post.body;
      let at = 0;
      for (const b of blocks) {
        if (b.start > at) trims.push({ start: start + at, end: start + b.start, detector: LATER_POST_DETECTOR });
        at = b.end;
      }
      if (at < post.body.length) trims.push({ start: start + at, end: start + post.body.length, detector: LATER_POST_DETECTOR });
    }
  }
  return { text, segments, posts: included, trims };
}

/** Converts a span of `posts[post].body` (post -1: the title) into report offsets, or null when the post is not in the report. */
export function toReportSpan(report: Report, post: number, start: number, end: number): { start: number; end: number } | null {
  const seg = report.segments.find((s) => s.post === (post === -1 ? null : post));
  if (!seg) return null;
  const a = Math.max(0, Math.min(start, seg.length));
  const b = Math.max(a, Math.min(end, seg.length));
  return { start: seg.start + a, end: seg.start + b };
}
