/**
 * Finds first-bad attributions in a thread: `git bisect` output and explicit statements
 * ("bisected to", "first bad commit is", "regression introduced by", "the culprit is", …) that
 * name a commit, a commit URL or a pull request. A bare SHA with no attribution verb is not one.
 */
import { candidateAttributions, caveatAfter, clauseSpan, SCORING, scoreCandidates, type Candidate } from './candidates.js';
import { linkNames } from './thread.js';
import { findHedge } from './hedge.js';
import { NEUTRAL_SUBJECT } from './phrases.js';
import { firstRefIn, findRefs, sameTarget, type RefMatch } from './refs.js';
import { crossesParagraph, layoutOf, lineIndexAt, sentenceAt, type Layout, type Range } from './text.js';
import type { Attribution, AttributionKind, Thread, ThreadPost } from '../model/backward.js';

/** A prefix trigger: the phrase, then (optionally) free words, a connective, filler words and the reference. */
interface PrefixTrigger {
  readonly name: string;
  readonly phrase: RegExp;
  /** Free text allowed between the phrase and the connective (characters); 0 = none. */
  readonly middle: number;
  /** Required connective before the reference, or null when the phrase ends with it. */
  readonly connective: RegExp | null;
  /** Whether the reference may sit in a code block after a prose phrase ("first bad commit:" + fence). */
  readonly crossFence: boolean;
}

const PREFIX_TRIGGERS: readonly PrefixTrigger[] = [
  {
    name: 'first-bad',
    phrase:
      /\bfirst[ -]bad[ -]commit\b\s*(?:(?:is|was|would be|seems to be|appears to be|looks to be|must be|might be|could be|is probably|is likely)\b|[:=]|->|→)/gi,
    middle: 0,
    connective: null,
    crossFence: true,
  },
  {
    name: 'bisected-to',
    phrase: /\bbisect(?:ed|ing|s)\b/gi,
    middle: 70,
    connective: /(?:\b(?:down to|to|onto|on|at)\b|:|->|→)/gi,
    crossFence: false,
  },
  {
    name: 'bisect-colon',
    phrase: /\bbisect\s*(?::|->|→)/gi,
    middle: 0,
    connective: null,
    crossFence: false,
  },
  {
    name: 'bisect-verb',
    phrase:
      // (A heading "Bisection Report:" is no verb.)
      /\bbisect(?:ion|ing)?(?:\s+(?:run|log|session|results?|again))?\s+(?!reports?\W*:)(?:points?|pointed|pointing|found|finds|says?|said|lands?|landed|landing|identifie[sd]|identify|blames?|blamed|shows?|showed|gives?|gave|reports?|reported|returns?|returned|ends?|ended|led|leads?|narrowed|narrows?|concluded|concludes|picked|picks|converged|converges|settled|settles|singled)\b/gi,
    middle: 45,
    connective: null,
    crossFence: true,
  },
  {
    name: 'bisect-result',
    phrase: /\bbisect(?:ion)?\s+results?\s*(?:(?:is|was)\b|[:=]|->|→)/gi,
    middle: 0,
    connective: null,
    crossFence: true,
  },
  {
    name: 'introduced-by',
    // (A bracketed aside may stand before the connective: "introduced (found with git bisect) on commit X".)
    phrase: /\b(?:introduced|caused|broken|regressed|broke|triggered)\s+(?:\([^()\n]{1,60}\)\s+)?(?:by|in|with|from|on(?=\s+(?:the\s+)?(?:commit|revision)\b))\b|\bregression\s+from\b/gi,
    middle: 0,
    connective: null,
    crossFence: false,
  },
  {
    name: 'culprit',
    phrase:
      /\bculprit(?:\s+(?:commit|change|PR|pull request))?\s*(?:(?:is|was|seems to be|appears to be|looks like|looks to be|might be|could be|would be|must be|is probably|is likely|is clearly|is definitely|here is|here)\b|[:=]|->|→)/gi,
    middle: 0,
    connective: null,
    crossFence: false,
  },
];

/** Words allowed between a connective and the reference ("to the commit `abc`"). */
const FILLER =
  /^[\s`'"*_([:]*(?:(?:the|a|an|commit|change|revision|rev|merge|merged|pr|pull request|pull|upstream|of|in|it's|it is|its|this|one)\b[\s`'"*_([:]*){0,4}$/i;

/** A gap that negates or widens the claim ("not", "one of", "between") is not an attribution. */
const NEGATING = /(?:\bnot\b|n't\b|\bnever\b|\bneither\b|\bnor\b|\bany of\b|\bone of\b|\beither\b|\bbetween\b|\bsomewhere\b|\bwhether\b|\bif\b)/i;

/**
 * "introduced in #N" also describes features; it attributes a regression only when what was
 * introduced is something bad or a pronoun for the reported problem.
 */
const BAD_SUBJECT =
  /\b(?:regress\w*|bug|issue|problem|breakage|crash\w*|error|failure|leak|slowdown|panic|hang|warning|broken|failing|faulty|incorrect|wrong|this|it|which|that)\b/i;

/** What comes before "introduced" names a problem, or is elliptic ("Possibly introduced in …"). */
function introducesProblem(before: string): boolean {
  // ("a broken test introduced by X": a thing called broken is a problem, whatever the thing.)
  if (NEUTRAL_SUBJECT.test(before)) return /\b(?:broken|failing|faulty|wrong|incorrect|bogus)\s+(?:[\w-]+\s+)?$/i.test(before.replace(NEUTRAL_SUBJECT, ''));
  return BAD_SUBJECT.test(before) || (before.match(/[A-Za-z]+/g) ?? []).length <= 2;
}

/** Postfix forms: "<ref> is the culprit", "<ref> introduced this". */
const POSTFIX =
  /^[`'"*_\])]*\s*(?:\([^)\n]{0,100}\)\s*)?(?:(?:is|was|seems to be|appears to be|looks like|must be|might be|may be|could be|is probably|is likely|is definitely|is indeed|is clearly|would be)\s+(?:the\s+)?(?:real\s+|actual\s+)?(?:culprit|(?:first[- ])?bad[- ]commit|offending\s+(?:commit|change)|cause|regressing\s+commit|breaking\s+(?:commit|change)|first\s+broken\s+commit)\b|(?:introduced|caused|broke)\s+(?:this|it|the|these|that)\b)/i;

const BISECT_OUTPUT_LINE = /^\s*(?:\$\s*)?([0-9a-fA-F]{7,40}) is the first ['"]?bad['"]? commit\s*$/;
const BISECT_LOG_LINE = /^\s*#\s*first bad commit:\s*\[([0-9a-fA-F]{7,40})\]/;
const COMMIT_BLOCK_LINE =
  /^(?:commit [0-9a-fA-F]{7,40}\b.*|(?:Author|AuthorDate|Commit|CommitDate|Date|Merge):.*|\s*|    .*|\t.*| \S.*\|\s+\d+.*| \d+ files? changed.*|:\d{6} \d{6} .*)$/;

/** Lines of a bisect run that may precede the outcome outside a code block. */
const BISECT_TRANSCRIPT = /^\s*(?:\$\s*)?(?:git bisect\b|Bisecting:|running\b|\[[0-9a-fA-F]{7,40}\]|bisect run\b)/;

interface Found {
  readonly ref: RefMatch;
  readonly kind: AttributionKind;
  readonly sentence: Range;
  readonly hedgeText: string;
}

/**
 * Every attribution in title, body and comments, in post order then offset order: the ones a
 * fixed pattern finds, and the candidates whose evidence reaches the threshold (candidates.ts).
 */
export function extractAttributions(thread: Thread): Attribution[] {
  return extractWithCandidates(thread).attributions;
}

/** extractAttributions plus the scored candidates behind it (for --explain). */
export function extractWithCandidates(thread: Thread): { attributions: Attribution[]; candidates: Candidate[] } {
  const patterns: Attribution[] = [];
  // Text past SCORING.maxScan characters of a post is not read (bounded time on pasted logs and noise).
  for (const post of thread.posts) patterns.push(...attributionsInPost(post.body.length > SCORING.maxScan ? { ...post, body: post.body.slice(0, SCORING.maxScan) } : post));
  const candidates = scoreCandidates(thread, patterns, linkNames(thread));
  // Candidates add the commits no pattern named; a pattern's target mentioned again is not a new attribution,
  // unless the pattern only guessed and another post blames the same commit plainly (a maintainer confirming it in own words).
  const fresh = candidateAttributions(thread, candidates).filter((c) => !patterns.some((p) => sameTarget(p.ref, c.ref) && !(p.hedged && !c.hedged && c.post > p.post)));
  // The title only counts when no post names its commit.
  // A plain title stays beside posts that only guess at the same commit.
  const extra = fresh.filter((c) => c.post !== -1 || !fresh.some((o) => o.post !== -1 && sameTarget(o.ref, c.ref) && (!o.hedged || c.hedged)));
  // A pattern whose reference is negated right before it ("was not caused by X") or put as a
  // condition ("if X is the culprit") is no attribution.
  const negated = (a: Attribution): boolean =>
    candidates.some((c) => c.post === a.post && c.ref.start === a.start && c.evidence.some((e) => e.code === 'negated' || e.code === 'conditional' || e.code === 'otherProject'));
  const attributions = [...patterns.filter((p) => !negated(p)), ...extra].sort((a, b) => a.post - b.post || a.start - b.start);
  return { attributions, candidates };
}

function attributionsInPost(post: ThreadPost): Attribution[] {
  const layout = layoutOf(post.body);
  const blocks = bisectBlocks(layout);
  const found: Found[] = [...blocks];
  const inBlock = (pos: number): boolean => blocks.some((b) => pos >= b.sentence.start && pos < b.sentence.end);
  for (const f of [...prefixAttributions(layout), ...postfixAttributions(layout)]) {
    if (!inBlock(f.ref.start)) found.push(f);
  }
  const byStart = new Map<number, Found>();
  for (const f of found) {
    const prev = byStart.get(f.ref.start);
    if (!prev) byStart.set(f.ref.start, f);
    else if (prev.kind !== 'bisect-output') {
      const merged = { start: Math.min(prev.sentence.start, f.sentence.start), end: Math.max(prev.sentence.end, f.sentence.end) };
      byStart.set(f.ref.start, { ...prev, kind: f.kind === 'bisect-output' ? f.kind : prev.kind, sentence: merged, hedgeText: `${prev.hedgeText} ${f.hedgeText}` });
    }
  }
  return [...byStart.values()]
    .sort((a, b) => a.ref.start - b.ref.start)
    // A statement's clause holding the reference carries the answer; the symptom told in the rest of the sentence stays.
    .map((f) => (f.kind === 'bisect-output' || f.ref.start < f.sentence.start || f.ref.end > f.sentence.end ? f : { ...f, sentence: clauseSpan(post.body, f.sentence, f.ref) }))
    .map((f) => ({
      ref: f.ref.ref,
      kind: f.kind,
      post: post.index,
      start: f.ref.start,
      end: f.ref.end,
      sentence: { start: f.sentence.start, end: f.sentence.end, text: post.body.slice(f.sentence.start, f.sentence.end) },
      author: post.author,
      createdAt: post.createdAt,
      hedged: findHedge(f.kind === 'bisect-output' ? withoutAppearance(f.hedgeText) : f.hedgeText) !== null || caveatAfter(post.body, f.sentence.end),
    }));
}

/**
 * The prose over a pasted bisect verdict, without the words that only restate it ("X seems to be the culprit", "looks like
 * X"): git's own verdict is no guess; doubt about it ("maybe", "not sure the bisect is right") still is.
 */
function withoutAppearance(text: string): string {
  return text.replace(/\b(?:seems?\s+(?:to\s+be|like|to)|looks?\s+like|appears?\s+to\s+be)\b/gi, ' ');
}

function kindOf(ref: RefMatch): AttributionKind {
  if (ref.ref.type === 'pr') return 'pr-ref';
  if (ref.ref.type === 'commit-url') return 'commit-url';
  return 'statement';
}

/** `<sha> is the first bad commit` with the commit block after it, and `# first bad commit: [<sha>]` log lines. */
function bisectBlocks(layout: Layout): Found[] {
  const out: Found[] = [];
  const { lines, body } = layout;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const outcome = BISECT_OUTPUT_LINE.exec(line.content);
    const logLine = outcome ? null : BISECT_LOG_LINE.exec(line.content);
    const hex = outcome?.[1] ?? logLine?.[1];
    if (!hex) continue;
    const hexStart = line.contentStart + line.content.indexOf(hex);
    const ref: RefMatch = { ref: { type: 'sha', text: hex, value: hex.toLowerCase(), urlRepo: null }, start: hexStart, end: hexStart + hex.length, outerStart: hexStart };
    let last = i;
    if (outcome) {
      for (let j = i + 1; j < lines.length; j += 1) {
        const next = lines[j]!;
        if (next.kind === 'fence' || next.quoteDepth !== line.quoteDepth || !COMMIT_BLOCK_LINE.test(next.content)) break;
        if (j === i + 1 && !/^commit /.test(next.content)) break;
        if (next.content.trim() !== '') last = j;
      }
    }
    const start = line.contentStart + (line.content.length - line.content.trimStart().length);
    out.push({ ref, kind: 'bisect-output', sentence: { start, end: lines[last]!.end }, hedgeText: introOf(layout, i) });
    i = last;
  }
  return out.filter((f) => body.slice(f.ref.start, f.ref.end) === f.ref.ref.text);
}

/** The prose sentence introducing the block that starts at line i (skipping the transcript above it, fences and blank lines). */
function introOf(layout: Layout, i: number): string {
  let fences = 0;
  for (let j = i - 1; j >= 0; j -= 1) {
    const line = layout.lines[j]!;
    if (line.kind === 'fence') fences += 1;
    // Past another code block (a pasted trace before the log), the prose introduces that block, not the bisect.
    if (fences > (layout.lines[i]!.kind === 'text' ? 0 : 1)) return '';
    if (line.kind !== 'text' || line.content.trim() === '' || BISECT_TRANSCRIPT.test(line.content)) continue;
    const s = sentenceAt(layout, line.end - 1);
    return layout.body.slice(s.start, s.end);
  }
  return '';
}

function prefixAttributions(layout: Layout): Found[] {
  const { body } = layout;
  const out: Found[] = [];
  for (const trigger of PREFIX_TRIGGERS) {
    const phrase = new RegExp(trigger.phrase.source, trigger.phrase.flags);
    for (let m = phrase.exec(body); m; m = phrase.exec(body)) {
      const ref = refAfter(layout, trigger, m.index, m.index + m[0].length);
      if (!ref) continue;
      const a = sentenceAt(layout, m.index);
      if (/^introduced/i.test(m[0]) && !introducesProblem(body.slice(a.start, m.index))) continue;
      const b = sentenceAt(layout, ref.start);
      const sentence = { start: Math.min(a.start, b.start), end: Math.max(a.end, b.end, ref.end) };
      // "bisected to X and Y": every listed reference is named.
      const listed = listedAfter(body, ref);
      for (const r of [ref, ...listed]) {
        const span = listed.length === 0 ? keepEffect(body, sentence, r) : sentence;
        out.push({ ref: r, kind: kindOf(r), sentence: span, hedgeText: body.slice(sentence.start, sentence.end) });
      }
    }
  }
  return out;
}

const LIST_JOINER = /^[`'")\]]*\s*(?:,\s*(?:and|or)?|and|or|\/|&|\+)\s*(?:(?:the\s+)?(?:commit|PR|pull request)\s+)?[`'"([]*/i;

/** References listed right after `first` ("X, Y and Z"). */
function listedAfter(body: string, first: RefMatch): RefMatch[] {
  const out: RefMatch[] = [];
  let last = first;
  for (;;) {
    const joiner = LIST_JOINER.exec(body.slice(last.end, last.end + 40));
    if (!joiner || joiner[0].includes('\n\n')) return out;
    const at = last.end + joiner[0].length;
    const next = firstRefIn(body, at, at + 1);
    if (!next) return out;
    out.push(next);
    last = next;
  }
}

function refAfter(layout: Layout, trigger: PrefixTrigger, phraseStart: number, phraseEnd: number): RefMatch | null {
  const { body } = layout;
  const phraseLine = layout.lines[lineIndexAt(layout, phraseStart)]!;
  const sentenceEnd = sentenceAt(layout, phraseStart).end;
  const windowEnd = Math.min(body.length, phraseEnd + trigger.middle + 60);
  const okGap = (from: number, to: number): boolean => {
    const gap = body.slice(from, to);
    if (crossesParagraph(gap) || NEGATING.test(gap)) return false;
    if (gap.includes('\n')) {
      const endLine = layout.lines[lineIndexAt(layout, to)]!;
      if (phraseLine.kind !== 'text') return false;
      if (endLine.kind !== 'text' && !trigger.crossFence) return false;
    }
    // A sentence end between phrase and reference breaks the link, except a fence hop ("is:" + code block).
    if (to > sentenceEnd && layout.lines[lineIndexAt(layout, to)]!.kind === 'text') return false;
    return true;
  };
  const refAt = (from: number): RefMatch | null => {
    const ref = firstRefIn(body, from, windowEnd);
    if (!ref) return null;
    const filler = body.slice(from, ref.outerStart);
    if (!FILLER.test(filler.replace(/\n[ \t>]*(?:```\w*|~~~\w*)?[ \t]*/g, ' ')) || !okGap(phraseStart, ref.start)) return null;
    return ref;
  };
  if (trigger.connective === null) {
    if (trigger.middle === 0) return refAt(phraseEnd);
    const ref = firstRefIn(body, phraseEnd, Math.min(windowEnd, phraseEnd + trigger.middle + 1));
    if (!ref || !okGap(phraseStart, ref.start)) return null;
    return ref;
  }
  const connective = new RegExp(trigger.connective.source, trigger.connective.flags);
  const base = Math.max(0, phraseEnd - 1);
  const near = body.slice(base, phraseEnd + trigger.middle + 12);
  connective.lastIndex = phraseEnd - base;
  for (let c = connective.exec(near); c && base + c.index <= phraseEnd + trigger.middle; c = connective.exec(near)) {
    const at = base + c.index;
    if (!okGap(phraseStart, at)) return null;
    // The first reference after the phrase must be the one after the connective.
    if (firstRefIn(body, phraseEnd, at)) return null;
    const ref = refAt(at + c[0].length);
    if (ref) return ref;
  }
  return null;
}

/** Right after a reference: the verb that says what it did ("commit causes", "which broke"). */
const EFFECT_VERB = /^[`'")\]]*\s*(?:\([^)\n]{0,60}\)\s*)?(?:commit\s+)?(?:(?:that|which)\s+)?(?:causes|caused|introduced|introduces|broke|breaks|makes|made|results\s+in|resulted\s+in|leads\s+to|led\s+to|meant\s+that|means\s+that)\b/i;

/**
 * "using the X commit causes <the game to freeze in some areas>": when the reference is followed
 * by the verb and then by what went wrong, the sentence up to the verb carries the answer and the
 * effect after it is the symptom, kept. Whole sentence otherwise, and whenever it speaks of a bisect
 * or its opening already tells a symptom.
 */
function keepEffect(body: string, whole: { start: number; end: number }, ref: RefMatch): { start: number; end: number } {
  const verb = EFFECT_VERB.exec(body.slice(ref.end, whole.end));
  if (!verb) return whole;
  const effectStart = ref.end + verb[0].length;
  // The verb stays with its effect; only closing marks and an aside right after the reference go with it.
  const end = ref.end + (/^[`'")\]]*(?:\s*\([^)\n]{0,60}\))?/.exec(body.slice(ref.end, whole.end))?.[0].length ?? 0);
  const lead = body.slice(whole.start, ref.outerStart);
  const effect = body.slice(effectStart, whole.end);
  const enough = (effect.match(/[A-Za-z]{2,}/g) ?? []).length >= 3 && !/^\s*(?:it|this|that|these|them)\b/i.test(effect);
  if (!enough || lead.length > 60 || /\bbisect|\b(?:crash|fail|hang|freez|leak|slow|error|panic|broken)\w*/i.test(lead)) return whole;
  return { start: whole.start, end };
}

function postfixAttributions(layout: Layout): Found[] {
  const { body } = layout;
  const out: Found[] = [];
  for (const ref of findRefs(body)) {
    const m = POSTFIX.exec(body.slice(ref.end, ref.end + 160));
    if (!m) continue;
    const phraseEnd = ref.end + m[0].length;
    if (crossesParagraph(body.slice(ref.end, phraseEnd))) continue;
    const a = sentenceAt(layout, ref.start);
    const b = sentenceAt(layout, phraseEnd - 1);
    const whole = { start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) };
    out.push({ ref, kind: kindOf(ref), sentence: keepEffect(body, whole, ref), hedgeText: body.slice(whole.start, whole.end) });
  }
  return out;
}
