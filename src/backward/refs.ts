import type { AttributionRef } from '../model/backward.js';

/**
 * Commit and pull-request references as they appear in thread text: abbreviated or full SHAs,
 * commit URLs (GitHub and GitHub Enterprise, GitLab, gitiles), `owner/name@sha`, pull request
 * URLs, `owner/name#N` and `#N`.
 */
export interface RefMatch {
  readonly ref: AttributionRef;
  readonly start: number;
  readonly end: number;
  /** Where the written form starts: before `[text](` for a markdown link, else `start`. */
  readonly outerStart: number;
}

const HEX = '[0-9a-fA-F]{7,40}';
const SEG = '[A-Za-z0-9_.-]+';
const HOST = '[A-Za-z0-9.-]+(?::\\d+)?';

/** Alternatives tried at each position; named groups tell which one matched. */
const REF_SOURCE = [
  // [text](commit url): the reference is the URL
  `\\[[^\\]\\n]{1,120}\\]\\((?<mdurl>https?://${HOST}/[^)\\s]+?/(?:-/)?(?:commit|commits)/${HEX}|https?://${HOST}/[^)\\s]+?/\\+/${HEX})[^)\\s]*\\)`,
  `(?<ghpull>https?://${HOST}/(?<gpo>${SEG})/(?<gpn>${SEG})/pull/(?<gpnum>\\d+)/commits/(?<gphex>${HEX}))(?![0-9a-fA-F])`,
  `(?<ghcommit>https?://${HOST}/(?<gco>${SEG})/(?<gcn>${SEG})/(?:commits?|tree)/(?<gchex>${HEX}))(?![0-9a-fA-F])`,
  `(?<glcommit>https?://${HOST}/(?<glpath>${SEG}(?:/${SEG})+)/-/commits?/(?<glhex>${HEX}))(?![0-9a-fA-F])`,
  `(?<gitiles>https?://(?<gthost>${HOST})/(?<gtpath>${SEG}(?:/${SEG})*)/\\+/(?<gthex>${HEX}))(?![0-9a-fA-F])`,
  `(?<prurl>https?://${HOST}/(?<pro>${SEG})/(?<prn>${SEG})/pull/(?<prnum>\\d+))(?![\\d/]*commits)(?![\\w/])`,
  `(?<![\\w/.@-])(?<atrepo>(?<ato>[A-Za-z0-9-]+)/(?<atn>[A-Za-z0-9_.-]+)@(?<athex>${HEX}))(?![0-9a-zA-Z])`,
  `(?<![\\w/.@-])(?<hashrepo>(?<hro>[A-Za-z0-9-]+)/(?<hrn>[A-Za-z0-9_.-]+)#(?<hrnum>\\d{1,7}))(?!\\w)`,
  `(?<![\\w&/#])(?<hash>#(?<hnum>\\d{1,7}))(?!\\w)`,
  `(?<![\\w/@#.-])(?<sha>[0-9a-fA-F]{6,40})(?![\\w-])`,
].join('|');

/** A fresh global regex over every reference form. */
export function refPattern(): RegExp {
  return new RegExp(REF_SOURCE, 'g');
}

/**
 * A hex run of digits only (one SHA prefix in ~40 of 7 characters has no letter) is a number unless
 * the words right before it call it a commit ("commit 7406870", "regression in 7406870", "Regressed in 9176408").
 */
const DIGITS_NAMED_AS_COMMIT = /\b(?:commit|revision|sha|changeset|revert(?:s|ed|ing)?|regression\s+in|regressed\s+(?:in|by|with|since)|introduced\s+(?:by|in)|broken\s+(?:by|in|since)|broke\s+in|caused\s+by|(?:occurred|occurs|happens|happened|appears|appeared|shows(?:\s+up)?|showed(?:\s+up)?|reproduces)\s+(?:in|at|with|on|from)|(?:its|the)\s+parent)\s+[`'"]?$/i;

/** Right after a run of digits: the words call it a commit ("7310552 (the bad commit)", "7310552 is the offending commit"). */
const DIGITS_CALLED_COMMIT_AFTER = /^[`'"]?\s*(?:\(\s*)?(?:(?:is|was)\s+)?(?:the|this|that)\s+(?:(?:bad|first\s+bad|offending|breaking|culprit)\s+)?commit\b/i;

/** Words (and magic numbers) spelt with hex letters only: never a commit, whatever the words before them ("introduced by defaced assets"). */
const HEX_WORDS = new Set(['defaced', 'effaced', 'acceded', 'deadbeef', 'feedface', 'cafebabe', 'deadface', 'baddcafe', 'facade', 'decade']);

/**
 * A six-hex abbreviation (shorter than git's default) is a commit only as a bisect's outcome ("the
 * first bad commit is 5d4140") or right after the word commit ("commit 5d4140 breaks the export").
 */
const SIX_NAMED_AS_COMMIT = /\bfirst\s+bad\s+(?:commit|revision)(?:\s+is|\s*:)?\s+[`'"]?$|\bcommit\s+[`'"]?$/i;

/** A run of digits that reads as a date (20240105) stays a number whatever precedes it. */
const DATE_DIGITS = /^(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])$/;

/** A bare hex run is a SHA only when it has a letter (not a plain number) and a digit or full length (not an English word). */
export function looksLikeSha(hex: string): boolean {
  if (!/[a-fA-F]/.test(hex)) return false;
  return /\d/.test(hex) || hex.length === 40;
}

/** Converts one regex match of `refPattern()` into a reference, or null when it is not one. */
export function toRef(m: RegExpExecArray): RefMatch | null {
  const g = m.groups ?? {};
  const at = (text: string): { start: number; end: number; outerStart: number } => {
    const start = m.index + m[0].indexOf(text);
    return { start, end: start + text.length, outerStart: start };
  };
  if (g.mdurl) {
    const inner = refPattern();
    const sub = inner.exec(g.mdurl);
    if (!sub || sub.index !== 0) return null;
    const r = toRef(sub);
    if (!r) return null;
    const start = m.index + m[0].lastIndexOf(g.mdurl);
    return { ref: r.ref, start: start + r.start, end: start + r.end, outerStart: m.index };
  }
  if (g.ghpull) {
    return { ref: { type: 'commit-url', text: g.ghpull, value: g.gphex!.toLowerCase(), urlRepo: `${g.gpo}/${g.gpn}` }, ...at(g.ghpull) };
  }
  if (g.ghcommit) {
    return { ref: { type: 'commit-url', text: g.ghcommit, value: g.gchex!.toLowerCase(), urlRepo: `${g.gco}/${g.gcn}` }, ...at(g.ghcommit) };
  }
  if (g.glcommit) {
    return { ref: { type: 'commit-url', text: g.glcommit, value: g.glhex!.toLowerCase(), urlRepo: g.glpath! }, ...at(g.glcommit) };
  }
  if (g.gitiles) {
    return {
      ref: { type: 'commit-url', text: g.gitiles, value: g.gthex!.toLowerCase(), urlRepo: `${g.gthost}/${g.gtpath}` },
      ...at(g.gitiles),
    };
  }
  if (g.prurl) {
    return { ref: { type: 'pr', text: g.prurl, value: String(Number(g.prnum)), urlRepo: `${g.pro}/${g.prn}` }, ...at(g.prurl) };
  }
  if (g.atrepo) {
    return { ref: { type: 'sha', text: g.atrepo, value: g.athex!.toLowerCase(), urlRepo: `${g.ato}/${g.atn}` }, ...at(g.atrepo) };
  }
  if (g.hashrepo) {
    return { ref: { type: 'pr', text: g.hashrepo, value: String(Number(g.hrnum)), urlRepo: `${g.hro}/${g.hrn}` }, ...at(g.hashrepo) };
  }
  if (g.hash) {
    return { ref: { type: 'pr', text: g.hash, value: String(Number(g.hnum)), urlRepo: null }, ...at(g.hash) };
  }
  // A hex run inside some other link ("…/bug?id=02bde06…", a build URL) is that link's, not a commit reference.
  if (g.sha && /https?:\/\/\S*$/.test(m.input.slice(Math.max(0, m.index - 300), m.index))) return null;
  // (…unless it is the first half of a SHA cut by a shortened title, "since commit 5d4140…".)
  if (g.sha && g.sha.length === 6 && (!SIX_NAMED_AS_COMMIT.test(m.input.slice(Math.max(0, m.index - 40), m.index)) || /^(?:…|\.\.\.)/.test(m.input.slice(m.index + 6)))) return null;
  const digitsNamed = (): boolean =>
    !DATE_DIGITS.test(g.sha!) && (DIGITS_NAMED_AS_COMMIT.test(m.input.slice(Math.max(0, m.index - 40), m.index)) || DIGITS_CALLED_COMMIT_AFTER.test(m.input.slice(m.index + g.sha!.length, m.index + g.sha!.length + 40)));
  // (Likewise a run of letters only, "caused by cbcdecd", when the words before call it a commit.)
  const lettersOnly = /^[a-fA-F]+$/.test(g.sha ?? '') && !HEX_WORDS.has((g.sha ?? '').toLowerCase());
  if (g.sha && (looksLikeSha(g.sha) || ((/^\d+$/.test(g.sha) || lettersOnly) && g.sha.length >= 7 && digitsNamed()))) {
    return { ref: { type: 'sha', text: g.sha, value: g.sha.toLowerCase(), urlRepo: null }, ...at(g.sha) };
  }
  return null;
}

/** Every reference in `text`, in offset order. */
export function findRefs(text: string): RefMatch[] {
  const out: RefMatch[] = [];
  const re = refPattern();
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const r = toRef(m);
    if (r) out.push(r);
  }
  return out;
}

/**
 * A SHA that GitHub cut in two when it shortened a long title: the title ends "… commit ae9dde…" and
 * the body opens with "…ba66b477…", the rest of it. The reference sits in the title, its value is
 * the whole hex; `tailEnd` is where the rest ends in the body. Null when the title and body do not
 * show that cut.
 */
export function titleCutRef(title: string, body: string): { ref: RefMatch; tailEnd: number } | null {
  const head = /(?<![\w/@#.-])([0-9a-fA-F]{1,39})\u2026\s*$/.exec(title);
  const tail = /^\s*\u2026([0-9a-fA-F]{1,39})(?![\w-])/.exec(body);
  if (!head || !tail) return null;
  const hex = head[1]! + tail[1]!;
  if (hex.length < 7 || hex.length > 40 || !looksLikeSha(hex)) return null;
  const ref: RefMatch = { ref: { type: 'sha', text: head[1]!, value: hex.toLowerCase(), urlRepo: null }, start: head.index, end: head.index + head[1]!.length, outerStart: head.index };
  return { ref, tailEnd: tail[0].length };
}

/** Longest written form of a reference (a markdown link around a long URL), to bound searches. */
const MAX_REF_LENGTH = 600;

/** The first reference starting in [from, to), or null. Only looks at the text near that window. */
export function firstRefIn(text: string, from: number, to: number): RefMatch | null {
  if (to <= from) return null;
  const base = Math.max(0, from - 1);
  const slice = text.slice(base, to + MAX_REF_LENGTH);
  const re = refPattern();
  re.lastIndex = from - base;
  for (let m = re.exec(slice); m && base + m.index < to; m = re.exec(slice)) {
    const r = toRef(m);
    if (r) return { ref: r.ref, start: base + r.start, end: base + r.end, outerStart: base + r.outerStart };
  }
  return null;
}

export type RefFamily = 'commit' | 'pr';

export function familyOf(ref: AttributionRef): RefFamily {
  return ref.type === 'pr' ? 'pr' : 'commit';
}

/** Two references name the same thing: same PR number, or one commit hex a prefix of the other. */
/** Two hashes that name one commit: one a prefix of the other, case aside, seven hex digits at least. */
export function sameCommitHex(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x.length >= 7 && y.length >= 7 && (x.startsWith(y) || y.startsWith(x));
}

export function sameTarget(a: AttributionRef, b: AttributionRef): boolean {
  if (familyOf(a) !== familyOf(b)) return false;
  if (familyOf(a) === 'pr') return a.value === b.value && sameRepo(a.urlRepo, b.urlRepo);
  return (a.value.startsWith(b.value) || b.value.startsWith(a.value)) && sameRepo(a.urlRepo, b.urlRepo);
}

function sameRepo(a: string | null, b: string | null): boolean {
  return a === null || b === null || a.toLowerCase() === b.toLowerCase();
}

/** Whether `urlRepo` (owner/name of a URL) is `repo` or one of its former names. */
export function isSameRepository(urlRepo: string, repo: string, aliases: readonly string[] = []): boolean {
  const u = urlRepo.toLowerCase();
  return u === repo.toLowerCase() || aliases.some((a) => a.toLowerCase() === u);
}

/** Whether a reference points into another repository than `repo` (former names count as `repo`). */
export function isCrossRepository(ref: AttributionRef, repo: string, aliases: readonly string[] = []): boolean {
  return ref.urlRepo !== null && !isSameRepository(ref.urlRepo, repo, aliases);
}
