/**
 * Candidate-centric attribution: every commit reference of a thread (full or abbreviated hex,
 * commit URL, pull request number or URL, `git bisect` output) is a candidate, scored from
 * evidence that stays explainable: an attribution pattern naming it, causal words in its
 * sentence or list item, the title naming it, and the signs against it (the good side of a
 * range, the fix, the revision being run, a negation). A candidate whose score reaches the
 * threshold becomes an attribution; the screening rules then decide the thread with reason codes.
 *
 * The weights and thresholds are the table below, one comment each. No rule names a repository,
 * an author or a thread.
 */
import { findHedge } from './hedge.js';
import { BLAMING_VERB, FIX_AFTER, namedAsFixBefore, NEUTRAL_SUBJECT, REVERT_BEFORE, UNNAMED_COMMIT } from './phrases.js';
import { CAUSAL_OTHER, NEGATION_OTHER_BEFORE } from './other-languages.js';
import { findRefs, isCrossRepository, sameCommitHex, sameTarget, titleCutRef, type RefMatch } from './refs.js';
import { layoutOf, lineIndexAt, sentenceAt, type Layout, type Range } from './text.js';
import type { Attribution, AttributionKind, Thread } from '../model/backward.js';

/** Evidence weights and thresholds: the whole tuning of candidate scoring. */
export const SCORING = {
  /** A fixed attribution pattern names the reference (bisect output, "first bad commit is X", "X introduced this"). */
  pattern: 4,
  /** A causal word ("introduced", "caused", "broke", "offending", "culprit", "bisect", …) in the same sentence or list item. */
  causal: 3,
  /** "Reverting X fixes it" / "This reverts X" with a fix stated in the same post: evidence for X as the culprit. */
  reverted: 3,
  /**
   * The post is nothing but the reference, and an earlier post by someone else blamed a commit
   * without naming it ("my bisect ended on the change I take back here"): the reference names it.
   * Likewise the only commit a thread names, when someone else later owns up to "the change".
   */
  answers: 3,
  /** The same post says the commit's parent is good ("reverting back to the parent commit compiles fine"): the commit is the first bad one. */
  parentGood: 3,
  /** The same commit is named in the title, which speaks of a regression or a cause. */
  titled: 1,
  /** A later post by someone else confirms the reference (reverting it fixes it, dropping it helps, confirmed). */
  confirmed: 1,
  /** The reference is the good side: "last good", "works on", "previous commit", "before X". */
  goodSide: -6,
  /** The reference is named as the fix ("fixed by X", "X fixes it"). */
  fix: -6,
  /** The reference is the revision being run or tested ("as of X", "running X", "HEAD is now at X"). */
  tested: -4,
  /** A negation right before the reference ("not", "cannot be", "didn't"). */
  negated: -6,
  /** A pull request linked as where something is explained ("as explained in <PR review link>", "see <PR>"): a pointer, not a culprit. */
  pointer: -4,
  /** The reference sits in a code block and is not bisect output (pasted logs, hashes, paths). */
  inCode: -3,
  /** Said right after the reference: an end of the bisected range ("X as good", "Y: bad"), not its outcome. */
  endpoint: -6,
  /** A step line of a bisect run ("git bisect good X", "Bisecting: … [X]"), not its outcome. */
  transcript: -6,
  /** The same post sends the report to another project ("I recommend reporting to …"): the culprit is not here. */
  elsewhere: -4,
  /** Another project named right before the reference ("the libfoo.js commit X", "an upstream llvm commit X"): not this repository's commit. */
  otherProject: -6,
  /** The sentence names several possible commits ("any of", "one of", "either", "between"): not one culprit. */
  several: -6,
  /** The sentence states one outcome of a test still to be read ("RED = X is the introducer", "if X is the culprit", "whether X alone reproduces it"). */
  conditional: -6,
  /** The commit only brought an older bug to light ("revealed by X", "exposed by X"): the trigger, not the commit that introduced it. */
  revealer: -6,
  /** Score at which a candidate becomes an attribution. */
  accept: 3,
  /** How many candidates one thread may have; a thread with more is noise past that point. */
  maxCandidates: 400,
  /** How many characters of one post are scanned for candidates. */
  maxScan: 200_000,
  /** How far (characters) a sentence is read on each side of a reference: text without sentence ends (logs, noise) stays bounded. */
  sentenceReach: 400,
} as const;

export type EvidenceCode =
  | 'pattern'
  | 'causal'
  | 'reverted'
  | 'answers'
  | 'parentGood'
  | 'otherProject'
  | 'pointer'
  | 'titled'
  | 'confirmed'
  | 'goodSide'
  | 'fix'
  | 'tested'
  | 'negated'
  | 'inCode'
  | 'endpoint'
  | 'transcript'
  | 'elsewhere'
  | 'several'
  | 'conditional'
  | 'revealer';

export interface Evidence {
  readonly code: EvidenceCode;
  readonly weight: number;
  /** The words that triggered it. */
  readonly text: string;
}

export interface Candidate {
  readonly ref: RefMatch;
  /** Index into thread.posts, or -1 for the title. */
  readonly post: number;
  readonly author: string;
  readonly sentence: Range;
  readonly evidence: Evidence[];
  readonly score: number;
  readonly accepted: boolean;
  readonly crossRepository: boolean;
}

/** Causal words that tie a reference to the regression when they share its sentence or list item. */
const CAUSAL =
  /\b(?:(?:is|was)\s+at\s+fault|(?:the\s+|up\s+to\s+)?["'`]bad["'`]\s+commit|bisect(?!ab)\w*|first[- ]["'`]?(?:bad|broken|failing)["'`]?|introduc(?:e|ed|es|ing)|caus(?:e|ed|es|ing)|result(?:s|ed)?\s+in|due\s+to|fix(?:es|ed|ing)?\s+up|(?:missing|broken|wrong|forgotten|dropped|removed)\s+(?:in|by|with)\s+(?:this|that|the)\s+commit|broke|breaks|breaking|breakage|broken\s+(?:for\s+(?:me|us|everyone|\w+\s+users)\s+)?(?:by|in|since|after)|(?:has|have|had)\s+broken|(?:seems?|seemed|appears?|appeared)\s+to\s+break\b|offending|culprit|regress(?:ed|es|ing|ion|ions)|responsible|(?<!\b(?:maybe|perhaps|please|just|could|can|should|would|to|let's|I'd|we'd|you'd)\s+)start(?:s|ed)?\s+(?:with|at|from|after|since|in)|started(?!\s+(?:back|over|again|afresh|anew|from\s+scratch))|appeared|(?:happen|occur)(?:s|ed|red|ring|ing)?\s+(?:only\s+|right\s+)?(?:after|since|with|from)|(?:since|after)\s+(?:(?:the|that|this)\s+)?commit|(?:broken|failing|fails|crash\w*|hangs?)\s+(?:on|in|with)\s+[\w.-]+\s+since|(?:first|only)\s+(?:commit|revision|version|build)\s+(?:where|in\s+which|for\s+which|that|with)|(?:leads?|leading|led)\s+to\s+(?:a\s+|the\s+|some\s+|random\s+|frequent\s+)?(?:segfault|seg\s+fault|crash|hang|freez|regression|breakage|memory\s+leak|corrupt|deadlock|panic)\w*|beginning\s+(?:at|with|from)|begins\s+with|(?:that|which)\s+(?:break|cause|introduce|trigger)(?:s|d|ed)?\b|(?:sorry\s+for\s+)?(?:missing|forgetting|breaking)\s+(?:this|that|it)\s+(?:in|with)\b|(?:works?|worked|working)\b[^.\n]{0,30}\buntil\s+(?:this|that|the)\s+commit\b|slowed\s+down|began\s+(?:with|at|in|after|since)|narrow(?:ed|ing)?\s+(?:[\w-]+\s+){0,3}?down\s+to|(?:track(?:ed)?|trace[d]?|pinned|pinpoint(?:ed)?)\s+(?:[\w-]+\s+){0,5}?(?:down|back)?\s*to|(?:got|became|went)\s+(?:broken|bad|wrong)|introducer|(?:is|was)\s+the\s+(?:issue|problem|cause|culprit|source)\b|source\s+of\s+(?:the\s+)?(?:crash|bug|issue|problem|regression|breakage)\w*|guilty|faulty|fault\s+commit|mess(?:es|ed)\s+up|screw(?:s|ed)\s+up|the\s+bad\s+commit|(?:exact|specific|actual|breaking)\s+(?:commit|change|revision)\s+(?:(?:looks|seems|appears)\s+to\s+be|is|was)\b|(?:bugs?|errors?|failures?|problems?|issues?|crash(?:es)?)\s+(?:were|was|are|is|got|have\s+been|has\s+been)\s+(?:produced|created|triggered)\s+by|(?:problems?|issues?|bugs?|crash(?:es)?|failures?|breakage)\s+(?:first\s+)?(?:starts?|appears?|begins?|shows?\s+up)\b|murderer|to\s+blame|because\s+(?:of\s+)?(?:the\s+|this\s+|that\s+)?(?:commit|change|revision)\b|(?:typo|mistype|misspelling|mistake|thinko|oversight|copy[- ]paste\s+(?:error|mistake))\s+(?:from|in|made\s+in|introduced\s+in)\b|(?:is|was)\s+when\s+(?:it|this|the\s+(?:problem|issue|bug|noise|crash\w*))\s+(?:began|started|broke|appeared)|(?:arises?|arose|arisen)\s+(?:here|in|from|with|after|since)|accident(?:al|ial)?ly|by\s+(?:mistake|accident)|(?:removed|deleted|dropped|disabled|changed)\b[^.\n]{0,40}?\b(?:it|that|they)\s+should(?:n't|\s+not)\s+have\b|inadvertently|mistakenly|incorrectly|wrongly|erroneously|(?:where|when|since|after)\s+(?:it|this|things?|everything)\s+stopped\s+working|(?:fail(?:s|ed|ing)?|crash(?:es|ed|ing)?|hangs?|hanging|broken|slower)\s+(?:ever\s+)?since|(?:on|at|with|from|since|after)\s+[`'"]?[0-9a-fA-F]{7,40}[`'"]?\s+(?:[\w-]+\s+){0,3}?stopped\s+working)\b/i;

/** "Bad commit: X", "affected commit : X", "the problematic commit is this one X": the label of the one commit a post names (beside a good one it would be a range). */
const BAD_COMMIT_LABEL = /\b(?:bad|problematic|affected)\s+(?:commit|revision|changeset)\b[^.\n]{0,24}?[:=]?\s*[`'"(\[]*$/i;

/** Just before a noun of cause: it is denied ("no regression", "not a regression", "without any breakage"). */
const DENIED_CAUSE = /\b(?:no|not\s+an?|without(?:\s+any)?|never\s+an?|isn't\s+an?|is\s+not\s+an?|any)\s+(?:\w+\s+)?$/i;

/** After a blame in the same sentence: "but that was (only) because …" puts the trouble elsewhere. */
const EXPLAINED_AWAY = /\bbut\s+(?:that|this|it)\s+(?:was|is)\s+(?:only\s+|just\s+|simply\s+)?because\b/i;

/** "… which fixed a related use-after-free introduced in Y": what Y introduced is another bug. */
const OTHER_BUG_BEFORE = /\b(?:a|an|the)\s+(?:related|similar|different|separate|earlier|older|previous|other)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:(?:that\s+)?(?:was|were)\s+)?introduced\s+(?:in|by|with|at)\s+(?:commit\s+)?[`'"(\[]*$/i;

/** A revert's title quoting a merge's subject. */
const REVERTED_MERGE = /^\s*(?:\[[^\]]*\]\s*|[\w-]+:\s*)?revert\s+"merge\s+(?:pull\s+request|branch|remote-tracking|tag)\b/i;

/** A sentence cut by a blank line after the reference goes on with its verb ("I found that this [commit](URL)\n\nhas caused this issue"). */
const CONTINUED_VERB = /^(?:(?:has|had|have)\s+(?:caused|broken|introduced)|caused|broke|breaks|causes|introduced|is\s+causing|is\s+the\s+cause)\b/;

/** The text after a reference that ends its sentence, when it opens in lower case in the next paragraph (the sentence goes on). */
function continuation(body: string, s: Range, ref: RefMatch): string {
  if (!/^[`'")\]]*\s*$/.test(body.slice(ref.end, Math.max(ref.end, s.end)))) return '';
  const rest = body.slice(Math.max(ref.end, s.end), Math.max(ref.end, s.end) + 120);
  const m = /^[ \t]*\n[ \t]*\n?[ \t]*(?=[a-z])/.exec(rest);
  return m ? rest.slice(m[0].length) : '';
}

/** Words saying the commit shown next is the one found ("Found the commit.", "Here is the culprit:", "It builds if I go back to before this commit:"). */
const FOUND_COMMIT = /\b(?:found|here(?:'s|\s+is)|this\s+is)\s+(?:the|it|a)?\s*(?:bad|culprit|offending|guilty|breaking|first\s+bad)?\s*(?:commit|culprit)\b[^.\n]{0,20}[.:!]?\s*$|\b(?:works?|worked|builds?|built|fine)\s+(?:again\s+)?(?:if|when|after)\s+(?:I|we)\s+(?:roll(?:ed)?\s+back|revert(?:ed)?|go\s+back|went\s+back)\s+(?:to\s+)?(?:before|prior\s+to)\s+(?:this|the\s+following)\s+commit\s*:\s*$/i;

/** What follows "As of commit X" when the trouble dates from it ("the CI is no longer passing", "it stopped working"). */
const AS_OF_BREAKAGE =
  /^(?:[^.\n]|\.(?=\w)){0,60}?\b(?:no\s+longer|stopped|started\s+(?:to\s+)?(?:fail|crash|hang)\w*|(?:is|are)\s+(?:now\s+)?(?:(?:pretty\s+much|completely|totally|badly)\s+)?(?:broken|borked|busted|unusable)|breaks?|fails?\s+to|(?:does|do|did)\s*(?:not|n't)\s+(?:proceed|work|start|load|build|compile|run|complete|finish|boot|respond|render)|(?:I|we)\s+(?:now\s+)?(?:get|see)\s+(?:the\s+following|an?\s+(?:\w+\s+)?(?:error|crash|exception|failure)|(?:\w+\s+)?errors))\b/i;

/** A title speaks of a bisect in progress as often as of its outcome ("bisect round 3 (commit X)"): there the word alone is no cause. */
const TITLE_CAUSAL = new RegExp(CAUSAL.source.replace('bisect(?!ab)\\w*|', 'anymore|any\\s+more|no\\s+longer|break|cause|'), 'i');

/** "bisect" said of a search still to be run ("whenever someone gets around to bisecting it", "please bisect"): no outcome. */
const BISECT_TO_COME =
  /\bbisecting\s+(?:from|between|starting)\b|\bbisecting\b[^.\n]{0,80}\bnow\b|\b(?:(?:have|has|had|need|needs|want|wants|going|plan|planning|try|trying|able|around|time)\s+to|will|would|should|could|can|please|without|didn't|did\s+not|haven't|have\s+not|not)\s+(?:(?:go|git|run|do)\s+)?bisect\w*/i;

/** A sentence that only points at a reference ("Turns out it's X.", "It was X.", "Result: X"), or is nothing but the reference. */
const POINTER_SENTENCE = /^[\s>*_-]*(?:(?:(?:it\s+)?turn(?:s|ed)\s+out\s+(?:to\s+be|it(?:'s|\s+is|\s+was))|it(?:'s|’s|s|\s+is|\s+was)|that(?:'s|\s+is|\s+was)|the\s+answer\s+is|result\s*:|answer\s*:|here\s+it\s+is\s*:?)\s*(?:commit\s+)?)?[`'"(\[]*$/i;

/** A sentence that opens by blaming what the previous sentence named. */
const ANAPHORA = /^(?:(?:this|that|it|which|the\s+change|this\s+change|this\s+commit|that\s+commit)\s+(?:(?:then|also|apparently)\s+)?(?:(?:had|has)\s+(?:broken|introduced|caused)|introduced|introduces|caused|causes|broke|breaks|regressed|is\s+what\s+broke)\b|(?:this|that)\s+(?:commit|change)\s+(?:includes|contains|adds|has|added|made)\b[^.\n]{0,80}?,?\s+(?:that|which)\s+(?:causes|caused|breaks|broke)\b)/i;

/** "Reverting the change made the bug disappear": undoing the commit cures the trouble (no anchor; the callers add theirs). */
export const REVERTING_CURES = /reverting\s+(?:that|this|the|it)(?:\s+one|\s+commit|\s+change)?\s+(?:makes|made)\s+(?:the\s+)?(?:issue|problem|bug|crash|error|glitch)s?\s+(?:go\s+away|disappear)\b/i;

/** "It's X. If we revert that commit, we can start it.": the next sentence tests the commit by undoing it. */
const NEXT_REVERT_WORKS = new RegExp(
  String.raw`^if\s+(?:I|we|you)\s+revert\s+(?:that|this|it)(?:\s+one)?(?:\s+commit)?\s*,?\s*(?:(?:then\s+)?(?:I|we|you)\s+can\b|it\s+(?:works|boots|builds|runs|loads)\b|(?:the\s+)?(?:problem|issue|bug|crash)\s+(?:goes\s+away|disappears|is\s+gone)\b)|^` +
    REVERTING_CURES.source +
    String.raw`|^reverting\s+(?:that|this|the|it)(?:\s+one|\s+commit|\s+change)?\s+(?:fixes|fixed|solves|solved|resolves|resolved)\s+(?:it|the\s+(?:issue|problem|bug|crash))\b|^(?:I\s+|and\s+)?reverted\s+(?:that|this|the|it)(?:\s+one|\s+commit)?\s*(?:,|:|->|and)\s*(?:(?:it|the\s+\w+|\w+\s+usage|\w+\s+load)\s+)?(?:(?:is|was|are|were)\s+)?(?:back\s+to\s+)?(?:works?|worked|fixed|gone|fine|normal|0(?:\s?%)?)(?=[\s.,!]|$)`,
  'i',
);

/** "In this commit X\n\ncausing make to break.": the next sentence goes on with what the commit did. */
const NEXT_PARTICIPLE = /^(?:causing|breaking|introducing|which\s+(?:causes|caused|breaks|broke|introduced))\b|^(?:introduced|caused|introduces|causes|triggers|triggered)\s+(?:in\s+)?(?:a|an|the)\s+(?:[\w-]+\s+){0,2}?(?:bug|regression|crash|problem|leak|breakage|failure|error|hang)s?\b/i;

/** "commit X makes the game suffer …": the commit is the subject of a verb of effect, in a report that speaks of a regression. */
const SUBJECT_LEAD = /^[\s>*_-]*(?:(?:the\s+)?(?:changes?|code)\s+(?:in|from|of)\s+)?(?:(?:the\s+)?commit\s+)?[`'"(\[]*$/i;
/** …or "A [recent commit](URL) made …": an article before a link whose text is the commit. */
const LINKED_SUBJECT_LEAD = /^[\s>*_-]*(?:an?|the|this|that)\s*$/i;
const LINKED_SUBJECT = /^\[(?:(?:recent|latest|new|last)\s+)?(?:commit|change)\]\($/i;
/** Verbs of effect with a commit as their subject ("commit X makes …"). */
const EFFECT_VERBS = String.raw`makes|made|leads?\s+to|led\s+to|triggers|triggered|results\s+in|resulted\s+in`;
const EFFECT_VERB = new RegExp(String.raw`^[\`'")\]]*\s+(?:${EFFECT_VERBS})\b`, 'i');
function subjectVerb(body: string, s: Range, ref: RefMatch, context: string): RegExpExecArray | null {
  const linked = LINKED_SUBJECT_LEAD.test(body.slice(s.start, ref.outerStart)) && LINKED_SUBJECT.test(body.slice(ref.outerStart, ref.start));
  if (!linked && !SUBJECT_LEAD.test(body.slice(s.start, ref.outerStart))) return null;
  const verb = EFFECT_VERB.exec(body.slice(ref.end, ref.end + 40));
  // "Commit X makes the emulator crash": the effect named is a breakage itself.
  const broken = verb ? EFFECT_IS_BREAKAGE.test(body.slice(ref.end + verb[0].length, ref.end + verb[0].length + 50)) : false;
  return verb && (broken || TITLE_CAUSAL.test(context) || /\bregress/i.test(context)) ? verb : null;
}

/** What a verb of effect made happen, when it is a breakage ("makes the app crash", "made every build fail"). */
const EFFECT_IS_BREAKAGE = /^\s+(?:[^\s,;:!?]*[^\s.,;:!?]\s+){0,4}?(?:crash|fail|hang|freeze|segfault|panic|abort|break|stop\s+working|disappear|vanish|flicker|stutter|useless|unusable|unbootable|unresponsive|unreadable|corrupt)(?:es|s|ed)?\b/i;

/** "In commit X" as a line of its own: the sentence after it says what that commit did ("This line … breaks the rendering"). */
const FRAGMENT_LEAD = /^[\s>*_-]*(?:in|since|after|with|from)\s+(?:(?:the|this)\s+)?commit\s*:?\s*[`'"(\[]*$/i;
function fragmentBlame(body: string, s: Range, ref: RefMatch, next: string): RegExpExecArray | null {
  if (!FRAGMENT_LEAD.test(body.slice(s.start, ref.outerStart)) || !/^[`'")\]]*[.:]?\s*$/.test(body.slice(ref.end, Math.max(ref.end, s.end)))) return null;
  const sentence = /^[^\n]*(?:\n(?![ \t>]*\n)[^\n]*)?/.exec(next)![0];
  return CAUSAL.exec(sentence);
}

/** "It worked before X and is broken now": the state before the commit worked, and the sentence goes on to the breakage. */
const WORKED_BEFORE = /\b(?:works?|worked|working|fine|ok|okay)\s+(?:fine\s+)?(?:just\s+)?(?:before|until)\s+(?:commit\s+)?[`'"(\[]*$/i;
const BROKEN_NOW = /\b(?:now|broken|broke|breaks|fail(?:s|ed|ing)?|crash(?:es|ed|ing)?|no\s+longer|(?:does|do|did)\s*(?:not|n't)\s+work|stopped|errors?)\b/i;
function workedBefore(body: string, s: Range, ref: RefMatch): RegExpExecArray | null {
  const lead = WORKED_BEFORE.exec(body.slice(Math.max(s.start, ref.outerStart - 60), ref.outerStart));
  return lead && BROKEN_NOW.test(body.slice(ref.end, Math.max(ref.end, s.end))) ? lead : null;
}

/** A sentence opening "Before (this commit)" the reference, then "it worked (fine)": the trouble began with the commit. */
const WORKED_UNTIL_LEAD = /^[\s>*_-]*(?:(?:but|and|so)\s+)?(?:right\s+|just\s+)?(?:before|until|up\s+to)\s+(?:\[(?:this|that|the)\s+(?:commit|change)\]\(|(?:this|that|the)\s+(?:commit|change)\s*:?\s*|commit\s+)?[`'"(\[]*$/i;
const WORKED_UNTIL_AFTER = /^[`'")\]]*\s*(?:\([^)\n]{0,40}\)\s*)?,?\s*(?:it|everything|this|things|all|the\s+\w+)\s+(?:(?:had\s+)?worked|was\s+working|(?:was|were)\s+(?:fine|ok(?:ay)?|good)|ran\s+fine|built\s+fine)\b/i;
/** The other word order of workedBefore: "Before [this commit](X) it worked fine" (no breakage need be told after it). */
function workedUntil(body: string, s: Range, ref: RefMatch): RegExpExecArray | null {
  return WORKED_UNTIL_LEAD.test(body.slice(s.start, ref.outerStart)) ? WORKED_UNTIL_AFTER.exec(body.slice(ref.end, ref.end + 80)) : null;
}

/** "master broken here: X": the place it broke, pointed at with a colon right before the reference. */
const BROKEN_HERE = /\b(?:broken|broke|regressed|started\s+failing)\s+here\s*:\s*[`'"(\[]*$/i;
/** …or a sentence that opens with it ("Broken at X."); "the build is broken at X" tells the state at X, not where it broke. */
const BROKEN_AT_LEAD = /^[\s>*_-]*(?:broken|broke|regressed)\s+at\s*(?:commit\s+)?[`'"(\[]*$/i;

/** The good side of a range, said before the reference. */
const GOOD_BEFORE =
  /(?:\b(?:the\s+)?last\s+(?:[\w-]+\s+)?(?:commit|version|build|revision)\b[^.\n]{0,50}\b(?:fine|good|ok|okay|worked|working|works|loads|runs|boots|builds|compiles|passes|starts|renders|opens|plays|launches)\b[^.\n]{0,15}|\b(?:some\s*time|somewhere)\s+(?:after|before)\s+(?:commit\s+)?|\b(?:last|earliest|latest|previous)\s+(?:known[- ])?(?:good|working|ok)\b(?:(?![0-9a-fA-F]{7})[^.\n]){0,30}|\bgood\s*(?:commit|revision|build)?\s*(?:was|is|[:=])\s*|(?<!\b(?:no\s+longer|not|n't|never|stopped|stops)\s+)\b(?:works?|worked|working|fine)\s+(?:fine\s+)?(?:for\s+(?:me|us)\s+)?(?:on|at|with|in)\s+(?:commit\s+)?|\bprevious\s+(?:commit|version|revision|build)\b[^.\n]{0,20}|(?<!\b(?:works?|worked|working|fine|ok|okay)\s+(?:fine\s+)?(?:just\s+)?)\b(?:just\s+)?before\s+(?:commit\s+)?|\b(?:commits|revisions|builds|versions)\s+(?:after|since|following)\s+(?:commit\s+)?|\b(?:a|one|some)\s+(?:commit|revision|change)\s+(?:after|following)\s+(?:commit\s+)?|\bthe\s+one\s+(?:right\s+|just\s+|immediately\s+)?before\s+(?:that|it|this)(?:\s+one)?\s*,\s*|\b(?:can|could)\s+\w+[^.\n]{0,40}\bwhen\s+(?:I\s+|we\s+)?(?:use|using|run|build|check\s*out)\s+(?:this|that|the)?\s*(?:commit|revision|version|build)?\s*:?\s*|\broll(?:s|ing|ed)?[\s-]?back\s+(?:[\w-]+\s+){0,3}?to\s+(?:commit\s+)?|\b(?:go|goes|went|going|revert(?:s|ed|ing)?)\s+back\s+(?:(?:one|a|1|two|\d+)\s+commits?\s+)?to\s+(?:commit\s+)?|\b(?:revert(?:s|ed|ing)?|reset(?:s|ting)?|roll(?:s|ed|ing)?\s+back)\s+(?:my|our|the|his|her|their)\s+(?:[\w-]+\s+)?(?:branch|checkout|tree|fork|clone|copy)\s+to\s+(?:commit\s+)?|\bparent\s+(?:commit\s+)?|\b(?:updat|upgrad|migrat|mov|switch)(?:e|es|ed|ing)\s+(?:[\w.-]+\s+){0,3}?from\s+(?:version\s+|release\s+)?(?:[\w.~-]+\s*){0,2}\(?\s*(?:commit\s+)?|\bcompared\s+(?:to|with)\s+[^.\n]{0,30})[\s`'"([*_]*$/i;

/** The good side, said right after the reference ("X, which doesn't crash", "X where it still works", "X is the last working one"). */
const GOOD_AFTER =
  /^[`'")\]]*[ \t]*[-–:(]?[ \t]*(?:the\s+|is\s+the\s+)?(?:last|latest)\s+(?:known[- ])?(?:good|working)\s+(?:commit|revision|build|version)\b|^[`'")\]]*\s*(?:is|was)\s+(?:the\s+)?(?:last|latest|final)\s+(?:known[- ])?(?:good|working|ok|passing)\b|^[`'")\]]*\s*,?\s*(?:the|a)\s+commit\s+(?:right\s+|just\s+|immediately\s+)?before\b|^[`'")\]]*\s*(?:commit\s+)?(?:is|was|works|worked|builds|built|runs|ran)\s+(?:perfectly\s+|totally\s+|completely\s+|just\s+)?(?:fine|ok(?:ay)?|good|working)\b|^[`'")\]]*\s*,?\s*(?:that|which)\s+(?:came|comes|is|was)\s+(?:right\s+|just\s+|immediately\s+)?before\b|^[`'")\]]*\s*(?:\([^)\n]{0,80}\)\s*)?,?\s*(?:also\s+|still\s+|too\s+)?(?:does\s*(?:not|n't)|doesn't|didn't|did\s+not)\s+(?:\w+\s+)?(?:crash|fail|hang|crackle|stutter|leak|reproduce|show|happen|occur|freeze|have\s+(?:the|this|that)\s+(?:bug|issue|problem))\w*|^[`'")\]]*,?\s*(?:now,?\s*)?(?:which|that|where(?:\s+it)?|on\s+which)\s+(?:(?:still\s+)?(?:does|did|do)\s*(?:not|n't)|doesn't|didn't|won't|can't|cannot)\s+(?:\w+\s+)?(?:crash|fail|hang|break|leak|reproduce|show|happen|occur)\w*|^[`'")\]]*,?\s*(?:which|that|where(?:\s+it)?)\s+(?:still\s+)?(?:works|worked|is\s+fine|was\s+fine|passes|passed)\b|^[`'")\]]*\s+(?:still\s+)?(?:passes|passed)\s+(?:it|the\s+tests?|all\s+tests|fine)\b|^[`'")\]]*\s*,?\s*(?:when|where)\s+(?:it|this|everything|things)\s+(?:still\s+)?(?:worked|works|was\s+working|is\s+working|was\s+fine)\b/i;

/** The revision being run or tested, said before the reference ("building latest v7.1 X", "running the tests off of X"). */
const TESTED_BEFORE =
  /\b(?:as\s+of|running|built\s+from|HEAD\s+is\s+now\s+at|currently\s+(?:on|at)|(?:the\s+)?current\s+(?:HEAD|tip|master|main)\s*(?:is\s+|at\s+)?|checked\s+out|on\s+(?:current\s+)?(?:master|main|HEAD)\s+(?:at|@)?|version|latest\s+(?:master|main|commit)\s*(?:is|at|[:=])?|test(?:ed|ing)\s+(?:on|with|at)|using|updated?\s+to|(?:updating|upgrad(?:e|ed|ing))\s+to(?:\s+the)?\s+(?:latest|newest|current|new)\s+(?:revision|commit|version|master|main|git|HEAD)|git\s+(?:reset|checkout)(?:\s+--hard)?|(?:building|built|running|testing)\s+(?:the\s+)?latest\s+(?:v?\d[\w.-]*\s+)?|(?:running|ran|run|testing|tested)\s+(?:them|it|the\s+tests?)\s+(?:off\s+of|off|from|on|at))\s*(?:commit\s+)?[\s`'"([*_:]*$/i;

/** "X works, Y not": the first of a good/bad pair, the other reference named after the comma. */
const WORKS_OTHER_NOT = /^[`'"*_)\]]*\s*(?:still\s+)?(?:works|worked|is\s+fine|was\s+fine)\s*,\s*(?:and\s+|but\s+)?[^.,;\n]{0,40}?(?:[0-9a-fA-F]{7,40}|https?:\/\/\S+)[`'")\]]*\s+(?:does\s*(?:not|n't)|doesn't|did\s*(?:not|n't)|didn't|not|fails|failed|crashes|crashed|breaks|broke)\b/i;

/** Right before the reference: it is the subject of a condition or a question being tested. */
const CONDITIONAL_BEFORE = /\b(?:if|whether|assuming|suppose|supposing|in\s+case|(?:to|and)\s+(?:verify|check|test|see|validate)\s+that)\s+(?:(?:the\s+)?commit\s+)?[`'"(\[*_]*$/i;

/** A sentence that opens as one branch of an experiment's outcomes ("RED = …", "If it hangs, …"). */
const CONDITIONAL_SENTENCE = /^[\s>*_-]*(?:[A-Z]{2,}\s*(?:=|:)\s|if\b(?![^,]*\brevert)|(?:[Ll]et's|[Ll]et\s+us)\s+say\b|[Ss]ay\s*,|(?:[Ss]uppose|[Ii]magine|[Aa]ssume)\s+(?:that\s+)?\w)/;

/** Words that point the reader at a discussion ("as explained in", "see", "details in"). */
const POINTER_BEFORE = /\b(?:(?:as\s+)?(?:explained|described|discussed|reported|mentioned|noted|detailed|shown)\s+(?:in|at|here|on)|see(?:\s+also)?|details\s+(?:in|at))\s*:?\s*[`'"(\[]*$/i;

/** A negated verb that is itself the symptom, leading to the commit it started with ("no longer works after", "doesn't build since"). */
const BREAKAGE_NEGATION =
  /(?:(?:\bno\s+longer|\bnot|n't|\bcannot|\bcan't)\s+(?:\w+\s+)?(?:work|build|compil|run|start|load|boot|render|show|open|launch|function|link|install|display|respond|connect|read|writ|sav|pars|import|export|play|access|mount|detect|find|log\s*in|sign\s*in)\w*\s+(?:(?!after\b|since\b)[\w.-]+\s+){0,2}?(?:anymore\s+|any\s+more\s+)?(?:after|since|with|from|at|in|as\s+of)|\bno\s+longer\s+(?:[\w-]+able|working|functional|available|present|visible|valid|correct|possible|supported)\s+(?:since|after))\s+(?:the\s+)?(?:commit\s+)?[`'"(\[]*$/i;

/** A denial said right after the reference ("X did not cause this", "X isn't what broke it"). */
const NEGATION_AFTER =
  /^[`'")\]]*\s*(?:is|was)\s+(?:largely\s+|mostly\s+|fully\s+|now\s+)?(?:exonerated|cleared|innocent)\b|^[`'")\]]*\s*(?:\([^)\n]{0,80}\)\s*)?(?:(?:did|does|do|has|have|had|could|can|would)\s*(?:not|n't)|didn't|doesn't|hasn't|haven't|couldn't|can't|cannot|never)\s+(?:possibly\s+|actually\s+|have\s+)?(?:caus|introduc|break|broke|broken|regress|trigger)\w*|^[`'")\]]*\s*(?:is|was)\s*(?:not|n't)\s+(?:what|the\s+(?:one|commit|change)\s+that)\s+(?:caus|introduc|broke)\w*|^[`'")\]]*[\s,:;-]*(?:(?:it|this|that|which)\s+)?(?:(?:does|did)\s*(?:not|n't)|doesn't|didn't)\s+(?:look|seem|appear)\s+(?:like\s+(?:something|anything|it's|it\s+is)\s+|to\s+be\s+)?(?:\w+\s+)?(?:related|relevant|connected)\b/i;

/** A negation in the words just before the reference. */
const NEGATION_BEFORE = /(?:\bnot\b|n't\b|\bnever\b|\bcannot\b|\bno\s+longer\b)[^.,;\n]{0,25}$/i;

/** Right after the reference: it is an end of the bisected range. */
const ENDPOINT_AFTER = /^[`'"*_)\]]*(?:\s*(?:(?:as|is|was|=|:|->|→|-)\s*)?(?:the\s+)?(?:good|bad|ok|working|broken|fine)\b(?!\s+commit)|\s*(?:still\s+)?(?:worked|works|ran|runs|built|builds)\s+(?:fine|ok|okay|well|great)\b|\s*(?:still\s+)?(?:works|worked)\s*(?:[.;!)]|$)|\.\.\.?[\w`]|\s*(?:\.\.\.?|…)\s*[`]?[0-9a-fA-F]{7,40}\b)/i;

/** "A works, and B fails": the bad one of a good/bad pair, the good one named just before it. */
const PAIR_GOOD_BEFORE = /(?:\b[0-9a-fA-F]{7,40}|https?:\/\/\S+)[`'")\]]*\s+(?:still\s+)?(?:works|worked|is\s+(?:fine|good|ok)|was\s+(?:fine|good|ok)|passes|passed)\s*,?\s*(?:and|but|while|whereas)?\s*(?:commit\s+)?[`'"(\[]*$/i;
const PAIR_BAD_AFTER = /^[`'")\]]*\s+(?:(?:still\s+)?(?:fails|failed|crashes|crashed|breaks|hangs|segfaults)|is\s+broken|does\s*(?:not|n't)\s+work|doesn't\s+work|did\s*(?:not|n't)\s+work)\b/i;
function badOfPair(body: string, ref: RefMatch): RegExpExecArray | null {
  return PAIR_BAD_AFTER.test(body.slice(ref.end, ref.end + 40)) ? PAIR_GOOD_BEFORE.exec(body.slice(Math.max(0, ref.outerStart - 120), ref.outerStart)) : null;
}

/** Right before the reference: the far end of a range ("A..B", "A ... B" between two hashes, "up to and including HEAD (B)"). */
const RANGE_BEFORE = /[\w`]\.\.\.?[`]?$|\b[0-9a-fA-F]{7,40}[`]?\s*(?:\.\.\.?|…)\s*[`]?$|\bup\s+to\s+and\s+including\b[^.\n]{0,40}?[`'"(\[]*$/i;

/** The sentence names several possible commits, or a commit that bundles several (a rollup; git's revert of a merge says "reversing changes made to"). */
const SEVERAL = /\b(?:(?:any|one)\s+of(?=\s*(?::|$)|\s+[`'"(\[]*(?:[0-9a-fA-F]{7,40}|#\d|https?:))|(?:any|one)\s+of\s+(?:these|those|them|the\s+(?:following|two|three)|(?:the|my|your|our)\s+(?:(?:recent|last|latest|new|newer|previous|\d+)\s+)*(?:commits|changes|PRs|revisions|candidates|patches))|either|between(?=\s[^.\n]{0,60}?(?:[0-9a-fA-F]{7,40}|\d|#|https?:|\b(?:commits?|revisions?|versions?|releases?|tags?|builds?|them|these|those|two|then|now|today|yesterday)\b))|among|several\s+(?:(?:possible|candidate|suspect|suspicious)\s+)?(?:commits?|changes?|PRs?|revisions?|candidates?|patches)|candidates?|roll-?up|reversing\s+changes\s+made\s+to|merge\s+commit)\b|(?:^|\s)(?:-m\s*[12]|--mainline(?:=|\s+)[12])\b/i;

/** "between <versions>, and the first (bad) commit … was": a bisect's searched range, then its outcome ("between <compare link> and located the culprit, commit X" likewise). */
const BETWEEN_SEARCHED = /^between\s+[^,;\n]{1,60}?\s+and\s+[^,;\n]{1,40}?[,;]?\s+(?:and\s+)?(?:(?:identified|found|determined|got|landed\s+on|ended\s+(?:up\s+)?(?:on|at))\b[^,;\n]{0,40}?\s+)?(?:the\s+)?(?:first|only)\s+(?:bad\s+|broken\s+|failing\s+)?(?:commit|revision|one)\b|^between\s+\S{1,160}\s+and\s+(?:identified|found|determined|got|located|pinned(?:\s+down)?)\s+(?:the\s+)?(?:regression|culprit|cause|(?:bad|breaking|offending|guilty)\s+(?:commit|change))\b/i;

/** "between A and B, and … X is the first bad commit": the searched range, then the verdict told after the reference. */
const BETWEEN_THEN_VERDICT = /^between\s(?:[^.\n]|\.(?!\s)){1,200}?\b(?:is|was)\s+the\s+first\s+(?:bad|broken|failing)\s+(?:commit|revision)\b/i;

/** A step line of a bisect run. */
const TRANSCRIPT_LINE = /^\s*(?:[$>#]\s*)*(?:git\s+bisect\s+(?:good|bad|skip|start|new|old)\b|Bisecting:|(?:good|bad|skip):\s*\[)/i;

/** `git bisect`'s step line: the search is not over. */
const BISECT_UNDER_WAY = /\bBisecting:\s+\d+\s+revisions?\s+left\s+to\s+test\b/i;

/** Going back to the commit before the one named cures it ("went back to the prior commit Y and all is well": "worked"). */
const PREVIOUS_RESOLVES =
  /\b(?:roll(?:ing|ed)?|revert(?:ing|ed)?|go(?:ing)?|went|downgrad(?:e|ing|ed))\s+back\s+to\s+(?:the\s+)?(?:previous|prior|parent)\s+commit\b[^.\n]{0,80}?\b(?:resolved|fixed|solved|fixes|resolves|solves|cured|cures|works|worked)\b/i;

/** Right after the reference: it and every later commit are bad ("builds from X and all later commits fail"). */
const LATER_BAD_AFTER =
  /^[`'")\]]*\s*(?:\([^)\n]{0,60}\)\s*)?(?:by\s+@[\w-]+\s+)?and\s+(?:all\s+|every\s+)?(?:later|newer|subsequent|following)\s+(?:commits?|revisions?|versions?|builds?)\s+(?:do(?:es)?\s*(?:not|n't)\s+work|fail|(?:is|are)\s+broken|crash|break)\w*/i;

/** The post says the parent of the commit it names is good. */
const PARENT_GOOD =
  /\b(?:(?:its|the)\s+parent(?:\s+commit)?|(?:one|commit)\s+(?:right\s+|just\s+)?before\s+(?:it|that))\b[^.\n]{0,40}?\b(?:works|worked|compiles|compiled|builds|built|passes|passed|is\s+fine|was\s+fine|is\s+ok(?:ay)?|is\s+good|(?:with\s+)?no\s+(?:issues?|problems?|errors?|crash(?:es)?))\b/i;

/** The post sends the report to another project (or undoes a change because its counterpart elsewhere was undone). */
export const ELSEWHERE = /\b(?:counterpart|corresponding|matching)\s+(?:kernel\s+|upstream\s+|library\s+)?changes?\s+(?:have|has|had|were|was)\s+(?:been\s+)?reverted\b|\b(?:is|was)\s+(?:an?\s+|the\s+)?(?:update|sync|import|bump|upgrade|roll)\s+(?:of|to|from)\s+[^.\n]{0,40}\bupstream\b|\b(?:regression|bug|problem)\s+in\s+[\w.-]+\s+itself\b|\b(?:recommend|suggest|please|should|better)\s+(?:reporting|report(?:ing)?\s+(?:it|this))\s+(?:to|upstream|with|at)\b|\breport(?:ing)?\s+(?:it|this)\s+upstream\b|\bbug\s+in\s+(?:the\s+)?(?:upstream|dependency)\b/i;

/** Right before the reference: it is being reverted. */
const REVERTED_BEFORE = /\b(?:revert(?:s|ing|ed)?|back(?:s|ing|ed)?\s+out|roll(?:s|ing|ed)?[\s-]?back|undoing|dropping|removing)\s+(?:(?:a\s+)?(?:part|parts|some|half|most|much)\s+of\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|his\s+|her\s+|their\s+|our\s+)?(?:commit|change|patch|PR|pull\s+request)?\s*:?\s*[`'"([]*$/i;

/** The post says the revert fixes the problem. */
const REVERT_FIXES = /\b(?:(?:is|was|are)\s+(?:simply\s+|just\s+|too\s+|so\s+)*broken|breakage|(?:made|makes|making)\s+(?:[\w-]+\s+){0,4}?(?:fail|crash|hang|break|unstable|flaky|unreliable|unusable|slower)\w*|due\s+to\s+(?:a\s+|the\s+|some\s+)?(?:bugs?|problems?|issues?|crash\w*|regressions?)\b|(?:is|are|was|were)\s+getting\s+broken|gets\s+broken|got\s+broken|malfunction\w*|helped|back\s+to\s+working|no\s+longer\s+(?:works?|boots?|starts?|builds?|compiles?|runs?|loads?)|(?:can't|cannot|couldn't|could\s+not|can\s+not)\s+(?:[\w-]+\s+){1,2}?any\s*more|fail(?:s|ed|ing)?\s+(?:\w+ly\s+)?(?:from|since|after)\s+(?:this|that|the)\s+commit|address(?:es|ed|ing)?\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?(?:issues?|problems?|failures?|errors?|breakage)|result(?:s|ed|ing)?\s+in\s+(?:[\w-]+\s+){0,3}?(?:fail|crash|break|error|hang)\w*|unbreak\w*|crash(?:es|ed|ing)?|misbehav\w*|(?:applied|added|changed|merged)\s+(?:by\s+)?(?:mistake|mistakenly|accidentally|wrongly)|fix(?:es|ed)?|solves?|solved|resolves?|resolved|helps|restores?|restored|go(?:es)?\s+away|went\s+away|works\s+again)\b|\b(?:unexpected|unintended|undesired|unwanted)\s+side[- ]effects?\b|\b(?:it's|it\s+is|this\s+is|that's)\s+causing\s+(?:a\s+few\s+|some\s+|several\s+|many\s+|various\s+)?(?:issues|problems|bugs|crashes|failures|errors|regressions)\b|\b(?:caus|introduc)(?:ed|es|ing)\s+(?:(?:a|the|this)\s+)?(?:~?\d+(?:[.,]\d+)?\s*(?:%|x|×|percent)\s+)?(?:(?:new|more|much|far|serious|severe|significant|substantial|noticeable|huge|big|large|massive|costly|major|bad|worse|nasty|perf(?:ormance)?|speed|memory|size)\s+){0,3}(?:regression|bug|crash\w*|failures?|breakage|hang|leak)\b|\b(?:break|broke|breaks|breaking|brakes?|(?:had|has)\s+broken)(?!\s+(?:down|apart)\b)\s+(?:the\s+|in\s+)?\w+|\b(?:lead|leads|leading|led)\s+to\b[^.\n]{0,60}\b(?:not|disappear\w*|fail\w*|crash\w*|break\w*|errors?|wrong|missing)\b|\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:seeing|getting|hitting)\s+(?:(?:some|several|many|a\s+few|new)\s+)?regressions?\b|(?:^|\n)[ \t]*(?:(?:it|this|that|which)\s+)?(?:causes|caused)\s+(?:an?\s+|the\s+|some\s+)?[\w/-]+|\b(?:this|the|that)\s+(?:(?:aforementioned|above|reverted|original|said)\s+)?(?:commit|change|patch|PR)\s+(?:cause[sd]?|introduce[sd]?|result(?:s|ed)?\s+in)\s+(?:an?\s+|the\s+|some\s+)?\w+/i;

/** The thread calls the reverted commit the bad one ("Revert breaking commit", "found the breaking commit"). */
const BLAME_NOUN = /\b(?:breaking|bad|faulty|offending|culprit|regressing|broken)\s+(?:commit|change|patch|PR)s?\b/i;

/** A reverted workaround ('Revert "Avoid the stall on resume"'): no longer needed, unless the post says what users lost with it. */
const REVERTED_WORKAROUND = /^\s*Revert\s+"[^"\n]*\b(?:avoid|work\s*around|workaround|sidestep)\b/i;
/** What users lost with the reverted change ("some users couldn't draw any more", "no longer starts"). */
const LOST_WITH_IT = /\b(?:can't|cannot|couldn't|could\s+not|can\s+not)\s+(?:[\w-]+\s+){1,2}?any\s*more\b|\bno\s+longer\s+(?:works?|boots?|starts?|builds?|compiles?|runs?|loads?)\b/i;

/** The post reverts something no longer needed (a workaround): the revert blames nothing. */
const REVERT_CLEANUP = /\b(?:does|did|do)\s*(?:not|n't)\s+(?:fix|solve|help\s+with|resolve)\b|\b(?:got|been|was|is\s+now)\s+fixed\s+(?:in\s+the\s+meantime|meanwhile|upstream)\b|\b(?:just\s+)?in\s+case\s+(?:it|this|that|something)\b|\bno\s+longer\s+(?:required|needed|necessary)\b|\bnot\s+needed\s+any(?:more|\s+more)\b|\bupstreamed\b|\b(?:moved|merged|landed|applied)\s+upstream\b|\b(?:accidentally|mistakenly|wrongly|erroneously|inadvertently)\s+reverted\b|\b(?:released|shipped|published)\s+with\s+(?:a|the)\s+fix\b|\b(?:was|is)\s+not\s+a\s+good\s+idea\b/i;

/** A reference alone in its post (quotes, backticks, a link wrapper and a full stop aside). */
const BARE_POST = /^\s*(?:commit\s*:?\s*)?[`'"<(\[]*\s*$/i;
const BARE_POST_AFTER = /^(?:#[\w-]+)?[`'">)\]]*\.?\s*(?:\n\s*(?:#\d+|\(#\d+\))\s*)?$/;

/** A blame that points at a commit without naming it ("my bisect ended on the change", "the change that broke it"). */
const UNNAMED_BLAME =
  /\b(?:bisect\w*|first[- ]bad|culprit|introduc(?:ed|es)|caused|broke)\b[^.\n]{0,60}?\b(?:the|a|this|that|one)\s+(?:commit|change|revision|changeset)\b|\b(?:the|this|that)\s+(?:commit|change)\s+(?:that|which)\s+(?:introduced|caused|broke)\b/i;

/** A later post confirming a named commit. */
const CONFIRM = /\b(?:confirm(?:ed|s)?|revert(?:ing|ed)?\s+(?:it|that|this|the\s+commit)?\s*(?:fixes|fixed|solves|solved|helps|resolves)|dropping|good\s+catch)\b/i;

/** Candidates of every post and the title, with their evidence and scores. */
export function scoreCandidates(
  thread: Thread,
  patternHits: readonly { post: number; start: number }[],
  aliases: readonly string[] = [],
): Candidate[] {
  const out: Candidate[] = [];
  const sources = [
    { index: -1, author: thread.author, body: thread.title },
    ...thread.posts.map((p) => ({ index: p.index, author: p.author, body: p.body })),
  ];
  const titleRefs = findRefs(thread.title.slice(0, SCORING.maxScan));
  const titleCausal = TITLE_CAUSAL.test(thread.title);
  // The one commit (not pull request) the whole thread names, if it names exactly one.
  const commitsNamed = new Set(sources.flatMap((src) => findRefs(src.body.slice(0, SCORING.maxScan)).filter((r) => r.ref.type !== 'pr').map((r) => r.ref.value.slice(0, 7).toLowerCase())));
  const onlyCommit = commitsNamed.size === 1 ? [...commitsNamed][0]! : null;
  // A revert's reason may come in its writer's own first comments, before anyone else answers ("this change is causing failures in CI").
  const followUpReasons = REVERT_TITLE.test(thread.title) ? followUps(thread).flatMap((p) => p.body.slice(0, SCORING.maxScan).match(FOLLOW_UP_REASON) ?? []) : [];
  const revertContext = [thread.title, ...followUpReasons].join('\n');
  // A SHA cut in two by a shortened title: one reference in the title, the body's opening hex is its rest.
  const cut = titleCutRef(thread.title, thread.posts[0]?.body ?? '');
  for (const src of sources) {
    const body = src.body.length > SCORING.maxScan ? src.body.slice(0, SCORING.maxScan) : src.body;
    const layout = layoutOf(body);
    let count = 0;
    const refs = findRefs(body).filter((r) => !(cut && src.index === 0 && r.end <= cut.tailEnd));
    if (cut && src.index === -1 && !refs.some((r) => r.start <= cut.ref.start && r.end >= cut.ref.end)) refs.push(cut.ref);
    for (const ref of refs.sort((a, b) => a.start - b.start)) {
      if (out.length >= SCORING.maxCandidates) return out;
      count += 1;
      const evidence = evidenceOf(layout, ref, src.index, patternHits, src.index === -1 ? [(thread.posts[0]?.body ?? '').slice(0, SCORING.maxScan), ...followUpReasons].join('\n') : src.index === 0 ? revertContext : thread.title);
      if (src.index !== -1 && titleCausal && titleRefs.some((t) => sameCommitHex(t.ref.value, ref.ref.value))) {
        evidence.push({ code: 'titled', weight: SCORING.titled, text: thread.title });
      }
      const project = otherProjectBefore(body, ref, thread.repo, aliases);
      if (project) evidence.push({ code: 'otherProject', weight: SCORING.otherProject, text: project });
      // "I was glad to see X merged, but this broke right after in Y" over a bisect log marking X good: X is the good end.
      if (ref.ref.type !== 'pr' && !evidence.some((e) => e.code === 'goodSide' || e.code === 'transcript') && markedGoodInLog(body, ref.ref.value)) {
        evidence.push({ code: 'goodSide', weight: SCORING.goodSide, text: 'marked good in the bisect log' });
      }
      // "Introduced with commit X" under a feature request: what X introduced is the feature, when nothing is told broken.
      const causalEvidence = evidence.filter((e) => e.code === 'causal');
      const opening = `${thread.title}\n${(thread.posts[0]?.body ?? '').slice(0, SCORING.maxScan)}`;
      if (
        causalEvidence.length > 0 &&
        causalEvidence.every((e) => /^introduc/i.test(e.text)) &&
        FEATURE_REQUEST.test(opening) &&
        !BREAKAGE_REPORT.test(`${opening}\n${body}`) &&
        !/\b(?:bug\w*|regress\w*|issue|problem|slow\w*|lag\w*|leak\w*|fix\w*|typo\w*|mistake\w*|wrong\w*)\b/i.test(`${opening}\n${body}`)
      ) {
        evidence.push({ code: 'negated', weight: SCORING.negated, text: 'nothing told broken' });
      }
      const blame =
        (src.index > 0 && isBarePost(body, ref) ? unnamedBlameBefore(thread, src.index, src.author) : null) ??
        (src.index > 0 && ref.ref.type !== 'pr' && OPENING_POINTER.test(body.slice(0, ref.outerStart)) ? ownQuestionBefore(thread, src.index, src.author) : null) ??
        (ref.ref.type !== 'pr' && !evidence.some((e) => e.weight < 0) ? ownUnnamedBlame(body, ref) : null);
      // A post that is nothing but a commit link, under a title that blames the last commit ("Windows build issue with last commit").
      // …or nothing but a link to a comment on a commit ("…/commit/X#commitcomment-22"), under a title that tells a breakage.
      const commentLink = !blame && src.index === 0 && ref.ref.type !== 'pr' && isBarePost(body, ref) ? /^#commitcomment-\d+/.exec(body.slice(ref.end)) : null;
      const pointed = src.index === 0 && ref.ref.type !== 'pr' && pointedLine(body, ref) && commitsNamed.size === 1;
      const titleBlame = !blame && src.index === 0 && (isBarePost(body, ref) || pointed) ? (TITLE_LAST_COMMIT.exec(thread.title) ?? (commentLink && BREAKAGE_REPORT.test(thread.title) ? commentLink : null)) : null;
      if (blame) evidence.push({ code: 'answers', weight: SCORING.answers, text: blame });
      else if (titleBlame && (BREAKAGE_REPORT.test(thread.title) || TITLE_TROUBLE.test(thread.title))) evidence.push({ code: 'answers', weight: SCORING.answers, text: titleBlame[0] });
      // "Yes, it is 586af36." answering someone else who named the same commit: the answer to a guess.
      const affirmed = src.index > 0 ? AFFIRMED_REF.exec(body.slice(0, ref.outerStart)) : null;
      if (affirmed && evidence.every((e) => e.weight >= 0) && thread.posts.some((p) => p.index < src.index && p.author !== src.author && mentions(p.body, ref))) {
        evidence.push({ code: 'answers', weight: SCORING.answers, text: affirmed[0].trim() });
      }
      const later = thread.posts.filter((p) => p.index > src.index && p.author !== src.author);
      const confirm = later.map((p) => ({ p, m: CONFIRM.exec(p.body) })).find(({ p, m }) => m && mentions(p.body, ref));
      if (confirm) evidence.push({ code: 'confirmed', weight: SCORING.confirmed, text: confirm.m![0] });
      // The one commit the thread names, and someone else later owns up to the change ("Apologies, I introduced the changes you're referring to").
      else if (ref.ref.type !== 'pr' && onlyCommit !== null && sameCommitHex(onlyCommit, ref.ref.value) && evidence.every((e) => e.weight >= 0)) {
        const owned = later.map((p) => OWNED_UP.exec(p.body)).find((m) => m !== null);
        if (owned) evidence.push({ code: 'answers', weight: SCORING.answers, text: owned[0] });
      }
      const score = evidence.reduce((s, e) => s + e.weight, 0);
      const s = sentenceNear(layout, ref);
      out.push({
        ref,
        post: src.index,
        author: src.author,
        sentence: s,
        evidence,
        score,
        accepted: score >= SCORING.accept,
        crossRepository: isCrossRepository(ref.ref, thread.repo, aliases),
      });
    }
    void count;
  }
  return out;
}

/** A bracketed aside right after a reference, often the commit's subject ("X (Fix the grid. Issue 12.)"). */
const BRACKETED_ASIDE = /^[`'"\])]*\s*\([^)\n]{0,300}\)/;

/** A post opening with a yes that names the commit ("Yes, it is X", "Yep, that's X"). */
const AFFIRMED_REF = /^\s*(?:yes|yep|yeah|indeed|right|correct|confirmed)\b[,.!:]?\s+(?:it(?:'s|\s+is|\s+was)|that(?:'s|\s+is|\s+was)|this\s+is)\s+(?:indeed\s+)?(?:commit\s+)?[`'"(\[]*$/i;

/** Someone owning up to the change named ("I introduced the changes you're referring to", "sorry, I broke this with my commit"). */
const OWNED_UP =
  /\b(?:I|we)\s+(?:(?:must\s+have|accidentally|probably|apparently|indeed)\s+)?(?:introduced|broke|caused|pushed)\s+(?:the|this|that|these|those|my)\s+(?:changes?|commit|bug|regression|breakage|issue|problem)\b/i;

/** The cause named right before the reference ("Reason: X", "the root cause is X"). */
const CAUSE_NOUN_BEFORE = /\b(?:reason|cause|root\s+cause)\s*(?:is|was|[:=-])?\s*[`'"(\[]*$/i;

/**
 * The words between an opening "since"/"after" and the reference: "… in commit", "pulling the last
 * commit", "I pulled change" (empty for "Since X").
 */
const COMMIT_LEAD = String.raw`(?:[^,.;:\n]{0,80}?\b(?:in|with|by)\s+(?:the\s+)?(?:commit|revision|change)\s+|(?:(?:pulling|updating\s+to|upgrading\s+to|merging|applying|installing|building)\s+)?(?:(?:the|this|that|your|his|her|their)\s+)?(?:(?:last|latest|recent|newest)\s+)?(?:commit|revision)\s+|(?:I|we)\s+(?:pulled|updated\s+to|upgraded\s+to|merged|applied|installed|built)\s+(?:(?:the|this|that)\s+)?(?:change|commit|revision)?\s*)?`;
/** A sentence that opens with the commit the trouble dates from ("Since X, …", "After X the build fails"). */
const SINCE_OPENER = new RegExp(String.raw`^[\s>*_-]*(?:ever\s+)?(?:since|after|with(?=\s+(?:the\s+)?commit\b)|starting\s+(?:with|from|at))\s+${COMMIT_LEAD}[\`'"(\[]*$`, 'i');

/** A line of an issue form asking which revision is run ("### Revision hash", "**Commit:**"). */
const REVISION_FIELD = /^[ \t]*(?:#{1,6}[ \t]+|\*\*|__)?[^\n]{0,40}\b(?:hash|commit|revision|rev|sha|build|version)\b[^\n]{0,20}$/i;

/**
 * "After updating to commit X the daemon dies", where the form's revision field holds the same X:
 * the revision updated to and run, not where the trouble started.
 */
function updatedRunning(lead: string, body: string, ref: RefMatch): boolean {
  if (!/\b(?:updat|upgrad|pull)/i.test(lead)) return false;
  const lines = body.split('\n');
  for (let i = 1; i < lines.length; i += 1) {
    const refs = findRefs(lines[i]!);
    if (refs.length !== 1 || !sameTarget(refs[0]!.ref, ref.ref) || lines[i]!.replace(refs[0]!.ref.text, '').replace(/[\s`'"*_]/g, '') !== '') continue;
    let k = i - 1;
    while (k > 0 && lines[k]!.trim() === '') k -= 1;
    if (REVISION_FIELD.test(lines[k]!) && findRefs(lines[k]!).length === 0) return true;
  }
  return false;
}

/** A thread that asks for something new ("Implement a simulation for …", "Add support for …"). */
const FEATURE_REQUEST = /^[\s#*_>-]*(?:\[[^\]\n]*\]\s*)?(?:implement|add|support|allow|provide|create|enable|feature|enhancement|request)\w*\b/im;

/** A report that says something broke. */
const BREAKAGE_REPORT =
  /\b(?:(?:does|do|did|is|are|was|were)\s*(?:not|n't)|doesn't|don't|didn't|isn't|aren't|wasn't|no\s+longer|cannot|can't|won't)\s+(?:\w+\s+)?(?:work|build|compil|run|start|load|boot|render|show|open|launch|function|link|install|display|respond|connect|accept|echo|pass)\w*|\b(?:broken|broke|breaks|crash\w*|fail(?:s|ed|ure|ures|ing)?|segfault\w*|panic\w*|hangs?|freez\w*|invalid|wrong|regress\w*|stopped\s+working|errors?|undefined|segfaults?|missing|disappear\w*|vanish\w*)\b/i;

/** A title that puts the trouble on the last commit without naming it. */
const TITLE_LAST_COMMIT = /\b(?:with|in|since|after|by|from|due\s+to|caused\s+by)\s+(?:the\s+|a\s+|an\s+)?(?:last|latest|recent|newest|old|older|earlier)\s+commit\b/i;
/** A line that only points at the commit ("Edit: commit is this one: X"). */
const POINTED_LINE = /^[\s>*_-]*(?:(?:edit|update)\s*:\s*)?(?:the\s+)?(?:commit|change)\s+(?:is|was)\s+(?:this\s+one|this|here)\s*:?\s*[`'"(\[<]*$/i;
/** Trouble words of a title ("build issue", "problem"). */
const TITLE_TROUBLE = /\b(?:issue|problem|bug|error|failure)s?\b/i;

/** Projects often named as the home of a commit that is not the repository's own. */
export const UPSTREAMS: ReadonlySet<string> = new Set(['upstream', 'kernel', 'linux', 'llvm', 'clang', 'gcc', 'rustc', 'golang', 'chromium', 'webkit', 'mesa', 'glibc', 'cpython', 'nodejs', 'v8', 'qemu', 'wine', 'ffmpeg', 'openssl', 'nixpkgs', 'homebrew', 'julia', 'python', 'ruby', 'rust', 'swift', 'php', 'perl', 'emacs', 'vim', 'neovim', 'firefox', 'gecko', 'electron', 'qt', 'gtk', 'boost', 'numpy', 'cmake', 'binutils', 'musl', 'dotnet', 'mono', 'openjdk', 'jdk', 'ghc', 'ocaml', 'erlang', 'elixir', 'zig', 'deno', 'typescript', 'babel', 'webpack', 'react', 'django', 'rails']);

/** The project named right before "commit <ref>" when it is not this repository ("The libfoo.js commit X"), or null. */
function otherProjectBefore(body: string, ref: RefMatch, repo: string, aliases: readonly string[]): string | null {
  if (ref.ref.type === 'pr') return null;
  // "New player 20dfca59 broke the extractor", "container image 3f9a1c2 …": a bare hex naming another kind of thing.
  if (ref.ref.type === 'sha') {
    const thing = NAMED_THING_BEFORE.exec(body.slice(Math.max(0, ref.outerStart - 40), ref.outerStart));
    if (thing) return thing[0].trim();
  }
  const m = /\b([A-Za-z][\w.-]*[A-Za-z0-9])\s+(?:commit|revision|change)\s*[`'"(\[]*$/i.exec(body.slice(Math.max(0, ref.outerStart - 60), ref.outerStart));
  if (!m) return null;
  const word = m[1]!.toLowerCase();
  const own = [repo, ...aliases].flatMap((r) => r.toLowerCase().split('/'));
  if (own.some((o) => o === word || o.replace(/[-_.]/g, '') === word.replace(/[-_.]/g, ''))) return null;
  return /\./.test(word) || UPSTREAMS.has(word) ? m[0].trim() : null;
}

/** Whether a bisect log or transcript in `body` marks `hex` good ("# good: [X] …", "git bisect good X"). */
function markedGoodInLog(body: string, hex: string): boolean {
  return [...body.matchAll(/^[ \t>]*(?:#\s*good:\s*\[|(?:\$\s*)?git\s+bisect\s+good\s+)([0-9a-fA-F]{7,40})\b/gim)].some((m) => sameCommitHex(m[1]!, hex));
}

/** Right before a bare hex: the thing it names is no commit (a web player's version, an image, a file's checksum, a uuid). */
const NAMED_THING_BEFORE = /\b(?:player|(?:container|docker|disk|vm)\s+image|checksum|md5(?:sum)?|sha-?256|uuid|guid|device\s+id|build\s+id|session\s+id)\s*(?:version\s+|id\s+)?[:=#]?\s*[`'"(\[]*$/i;

/** Whether the post holds only this reference. */
/** A revert's writer saying in a comment what the reverted change does ("this change is causing failures in CI"). */
const FOLLOW_UP_REASON =
  /\b(?:(?:this|that|the)\s+(?:change|commit|patch|PR)|it)\s+(?:is\s+|was\s+)?(?:resulting\s+in|causing|caused|causes|breaking|broke|breaks)\b[^.\n]*|\b(?:problems?|issues?|bugs?)\s+with\s+(?:this|that|the)\s+(?:change|commit|patch|PR)\s+(?:that|which)\s+(?:break|breaks|broke|cause|causes|caused)\b[^.\n]*/gi;

/** The thread writer's own comments right after the body, before anyone else answers. */
function followUps(thread: Thread): readonly { body: string }[] {
  const out: { body: string }[] = [];
  for (const p of thread.posts.slice(1)) {
    if (p.author !== thread.author || !thread.author) break;
    out.push(p);
  }
  return out;
}

/** Whether the reference's line is only a pointer at it ("Edit: commit is this one: X"). */
function pointedLine(body: string, ref: RefMatch): boolean {
  const lineStart = body.lastIndexOf('\n', ref.outerStart - 1) + 1;
  const lineEnd = body.indexOf('\n', ref.end);
  return POINTED_LINE.test(body.slice(lineStart, ref.outerStart)) && /^[`'")\]>]*[.]?\s*$/.test(body.slice(ref.end, lineEnd === -1 ? body.length : lineEnd));
}

function isBarePost(body: string, ref: RefMatch): boolean {
  return ref.ref.type !== 'pr' && BARE_POST.test(body.slice(0, ref.outerStart)) && BARE_POST_AFTER.test(body.slice(ref.end));
}

/**
 * "your last commit broke the layout … <commit URL>": a post that blames a commit without naming
 * it and names exactly one commit elsewhere; the words of the blame, or null.
 */
function ownUnnamedBlame(body: string, ref: RefMatch): string | null {
  // "I am not claiming that this commit caused it": a blame denied is none.
  // ("to find out whether this commit brought it in": a question, not a blame.)
  const m = [...body.matchAll(new RegExp(OWN_UNNAMED_BLAME.source, 'gi'))].find((x) => !/(?:\bnot\b|n't\b|\bnever\b|\bno\s+idea\s+if\b|\bwhether\b)[^.!?\n]{0,30}$/i.test(body.slice(Math.max(0, x.index - 40), x.index)));
  if (!m) return null;
  const commits = new Set(findRefs(body).filter((r) => r.ref.type !== 'pr').map((r) => r.ref.value.slice(0, 7)));
  return commits.size === 1 && commits.has(ref.ref.value.slice(0, 7)) ? m[0] : null;
}

/** A blame of a commit the sentence does not name ("your last commit broke", "that commit introduced"). */
const OWN_UNNAMED_BLAME = new RegExp(UNNAMED_COMMIT + BLAMING_VERB, 'i');

/** The words of an earlier post by someone else that blame a commit without naming any reference, or null. */
function unnamedBlameBefore(thread: Thread, post: number, author: string): string | null {
  for (const p of thread.posts) {
    if (p.index >= post || p.author === author) continue;
    const body = p.body.slice(0, SCORING.maxScan);
    const m = UNNAMED_BLAME.exec(body);
    if (m && findRefs(body).length === 0) return m[0];
  }
  return null;
}

/** A post opening by pointing at a commit ("Ok, it's this commit X", "So it was X"). */
const OPENING_POINTER = /^[\s>*_-]*(?:(?:ok(?:ay)?|so|well|alright|right|update|edit)\s*[,.:!]?\s+)?(?:it(?:'s|\s+is|\s+was)|that(?:'s|\s+is|\s+was))\s+(?:actually\s+|really\s+)?(?:this|that|the)\s+(?:commit|change|one)\s*:?\s*[`'"(\[]*$/i;

/** The writer's own post right before, asking or doubting which commit caused the trouble ("maybe I got wrong which commit caused this"). */
const WHICH_COMMIT = /\bwhich\s+(?:commit|change|revision)\s+(?:(?:actually|really)\s+)?(?:caused|causes|introduced|broke|breaks)\b/i;

/**
 * "Ok, it's this commit X" opening a post right after the same writer's post wondering which commit
 * caused the trouble: the answer to their own question. Its words, or null.
 */
function ownQuestionBefore(thread: Thread, post: number, author: string): string | null {
  const previous = thread.posts.filter((p) => p.index < post).at(-1);
  if (!previous || previous.author !== author) return null;
  return WHICH_COMMIT.exec(previous.body.slice(0, SCORING.maxScan))?.[0] ?? null;
}

/** Whether a post names the reference again (the hex prefix, or the PR number). */
function mentions(body: string, ref: RefMatch): boolean {
  if (ref.ref.type === 'pr') return body.includes(`#${ref.ref.value}`);
  return body.toLowerCase().includes(ref.ref.value.slice(0, 7));
}

function evidenceOf(
  layout: Layout,
  ref: RefMatch,
  post: number,
  patternHits: readonly { post: number; start: number }[],
  /** The title (for a post) or the body (for the title): where a revert may say why. */
  context = '',
): Evidence[] {
  const { body } = layout;
  const ev: Evidence[] = [];
  const add = (code: EvidenceCode, text: string): void => void ev.push({ code, weight: SCORING[code], text });
  if (patternHits.some((h) => h.post === post && h.start === ref.start)) add('pattern', 'attribution pattern');
  const line = layout.lines[lineIndexAt(layout, ref.start)]!;
  const patterned = ev.some((e) => e.code === 'pattern');
  // "Found the commit.\n```\ncommit X\nAuthor: …": `git log` output pasted under words that say it is the one found.
  const foundLog = line.kind !== 'text' && !patterned && /^\s*commit\s+[0-9a-fA-F]{7,40}\s*$/.test(line.content) ? logLeadIn(body, line.start, ref) : null;
  const inCode = line.kind !== 'text' && !foundLog;
  if (inCode && !patterned) add('inCode', 'code block');
  if (foundLog) add('causal', foundLog[0].trim());
  if (!patterned && TRANSCRIPT_LINE.test(line.content)) add('transcript', line.content.trim().slice(0, 60));
  // A post pasting a bisect still under way (git's step line, "Bisecting: N revisions left …") and no verdict: its commits are steps, not culprits.
  // (A verdict told in the prose over the log, "I bisected this, commit X is at fault", is no step.)
  else if (!patterned && BISECT_UNDER_WAY.test(body) && !/\bfirst\s+bad\s+commit\b/i.test(body) && (line.kind !== 'text' || /^\s*\[[0-9a-fA-F]{7,40}\]/.test(line.content) || !CAUSAL.test(body.slice(sentenceAt(layout, ref.start).start, sentenceAt(layout, ref.start).end)))) add('transcript', BISECT_UNDER_WAY.exec(body)![0]);
  const facts = postFacts(body, context);
  const endpointAfter = patterned ? null : (ENDPOINT_AFTER.exec(body.slice(ref.end, ref.end + 40)) ?? WORKS_OTHER_NOT.exec(body.slice(ref.end, ref.end + 240)));
  // "commit X is broken, as …" in a post that names no other commit and speaks of no bisect: a blame, not an end of a range.
  const brokenCommit =
    endpointAfter && /^[`'"*_)\]]*\s*(?:is|was)\s+broken\b/i.test(endpointAfter[0]) && facts.commitRefs === 1 && !/\bbisect/i.test(body) && /\bcommit\s*(?:["“][^"”\n]{1,120}["”]\s*)?[`'"(\[]*$/i.test(body.slice(Math.max(0, ref.outerStart - 140), ref.outerStart));
  // (…likewise "X is broken and …" opening the sentence, the post's only commit.)
  // "X is broken and doesn't pass CI", the reference opening the sentence in a post naming no other commit: the commit itself
  // is called broken (a blame, below), not the bad end of a range.
  const calledBroken =
    facts.commitRefs === 1 && /^[\s>*_-]*(?:commit\s+)?[`'"(\[]*$/i.test(body.slice(sentenceAt(layout, ref.start).start, ref.outerStart))
      ? /^[`'")\]]*\s+(?:is|was)\s+(?:(?:simply|just|clearly)\s+)?(?:broken|buggy|faulty)\b/i.exec(body.slice(ref.end, ref.end + 40))
      : null;
  // "a bisect from X to Y": the two ends of the range searched.
  const bisectEnds = /\bbisect\w*\s+(?:from|between)\s+(?:commit\s+)?[`'"(\[]*$|\bbisect\w*\s+(?:from|between)\s+[`'"(\[]*[0-9a-fA-F]{7,40}[`'")\]]*\s+(?:to|and)\s+(?:commit\s+)?[`'"(\[]*$/i.exec(body.slice(Math.max(0, ref.outerStart - 80), ref.outerStart));
  const endpoint = patterned ? null : bisectEnds ?? (brokenCommit || (calledBroken && !/\bbisect/i.test(body) && endpointAfter && /^[`'"*_)\]]*\s*(?:is|was)\s+broken\b/i.test(endpointAfter[0])) ? null : (endpointAfter ?? RANGE_BEFORE.exec(body.slice(Math.max(0, ref.outerStart - 60), ref.outerStart)) ?? badOfPair(body, ref)));
  if (endpoint) add('endpoint', endpoint[0].trim());
  if (facts.elsewhere) add('elsewhere', facts.elsewhere);
  const s = sentenceNear(layout, ref);
  const sentence = body.slice(s.start, Math.max(s.end, ref.end));
  // A bare `#N` may be an issue as well as a pull request: only a fixed pattern makes it an attribution.
  const bareNumber = ref.ref.type === 'pr' && !/\/pull\//.test(ref.ref.text);
  // "X. This introduced …": the next sentence blames the commit of this one.
  const next = body.slice(s.end, s.end + 200).replace(/^[\s>]+/, '');
  const causalWords = post === -1 ? TITLE_CAUSAL : CAUSAL;
  // "X (Introduce the volume knob, #842) …": a subject pasted after the reference is no causal word.
  const subjectAfter = BRACKETED_ASIDE.exec(body.slice(ref.end, ref.end + 310));
  const spoken = subjectAfter ? sentence.replace(subjectAfter[0], (w) => '_'.repeat(w.length)) : sentence;
  const ownMatch = causalWords.exec(spoken) ?? CAUSAL_OTHER.exec(spoken);
  // "the test introduced in X fails": what X introduced is a thing, not the regression.
  const own0 = ownMatch && /^introduc/i.test(ownMatch[0]) && NEUTRAL_SUBJECT.test(sentence.slice(0, ownMatch.index)) ? null : ownMatch;
  // "whether there is no regression after X", "without any breakage": a cause denied or asked about is no cause.
  const own = own0 && /^(?:regress|breakage|culprit)/i.test(own0[0]) && DENIED_CAUSE.test(spoken.slice(Math.max(0, own0.index - 30), own0.index)) ? null : own0;
  // "whenever someone gets around to bisecting it": the search is still to come.
  const ownCausal = own && /^bisect/i.test(own[0]) && BISECT_TO_COME.test(sentence) ? null : own;
  const causal = inCode || bareNumber ? null : (ownCausal ?? (ANAPHORA.test(next) ? ANAPHORA.exec(next) : null) ?? NEXT_PARTICIPLE.exec(next) ?? (POINTER_SENTENCE.test(body.slice(s.start, ref.outerStart).replace(/^[\s>*_-]*(?:yes|yep|yeah|indeed)\s*,?\s*/i, '')) ? NEXT_REVERT_WORKS.exec(next) : /^reverting\b/i.test(next) ? NEXT_REVERT_WORKS.exec(next) : null) ?? CONTINUED_VERB.exec(continuation(body, s, ref)) ?? subjectVerb(body, s, ref, context) ?? blameBefore(layout, s, ref) ?? fragmentBlame(body, s, ref, next) ?? workedBefore(body, s, ref) ?? BROKEN_HERE.exec(body.slice(Math.max(s.start, ref.outerStart - 40), ref.outerStart)) ?? (post === -1 ? null : BROKEN_AT_LEAD.exec(body.slice(s.start, ref.outerStart))) ?? (brokenCommit ? endpointAfter : null) ?? (facts.commitRefs === 1 ? BAD_COMMIT_LABEL.exec(body.slice(Math.max(s.start, ref.outerStart - 40), ref.outerStart)) : null));
  const opener = causal || inCode || bareNumber ? null : (SINCE_OPENER.exec(body.slice(s.start + headingLength(body.slice(s.start, ref.outerStart)), ref.outerStart)) ?? CAUSE_NOUN_BEFORE.exec(body.slice(Math.max(s.start, ref.outerStart - 40), ref.outerStart)));
  // A title "Errors in the unit tests since 04c2d34": a symptom, then "since" right before the reference.
  // (…or "fails to launch after the console update in commit X": the update the trouble came after.)
  const titleSince =
    !causal && !bareNumber && !inCode && post === -1
      ? (/\b(?:since|after|as\s+of)\s+(?:commit\s+)?[`'"(\[]*$/i.exec(body.slice(Math.max(0, ref.outerStart - 20), ref.outerStart)) ?? /\b(?:since|after)\b(?:[^.\n]|\.(?=\S)){0,60}?\bin\s+commit\s+[`'"(\[]*$/i.exec(body.slice(0, ref.outerStart)))
      : null;
  // "The app crashes on start since <URL>", "Use-after-free following the latest <URL>": a sentence telling a breakage, ending on "since" and the reference.
  const sinceBroken =
    !causal && !bareNumber && !inCode && post !== -1 && !titleSince && SINCE_LEAD.test(body.slice(Math.max(s.start, ref.outerStart - 50), ref.outerStart))
      ? BROKEN_BEFORE_SINCE.exec(body.slice(s.start, ref.outerStart))
      : null;
  // "… connections fail after <URL>": likewise with "after", unless the trouble went on after it ("still crashes after X": a fix that did not help).
  const afterBroken =
    !causal && !bareNumber && !inCode && post !== -1 && !titleSince && !sinceBroken && AFTER_LEAD.test(body.slice(Math.max(s.start, ref.outerStart - 30), ref.outerStart)) && !/\b(?:still|even|again|also)\b/i.test(body.slice(s.start, ref.outerStart))
      ? BROKEN_BEFORE_SINCE.exec(body.slice(s.start, ref.outerStart))
      : null;
  if (sinceBroken) add('causal', sinceBroken[0].trim());
  if (afterBroken) add('causal', afterBroken[0].trim());
  if (titleSince && (EFFECT_WORD.test(body.slice(0, ref.outerStart)) || /\b(?:errors?|broken|breaks|regress\w*|fail(?:s|ed|ing)?|crash(?:es|ed|ing)?|no\s+longer)\b/i.test(body.slice(0, ref.outerStart)))) add('causal', titleSince[0].trim());
  // A fix's title naming what it repairs ("Build fixes after X", "Fix the second mistake in commit X"), when it names one commit only.
  // ("Add back the bug fix in commit X" brings the fix of X back: X is no culprit.)
  // '"Sort the list" in commit X also deleted the last entry': what the commit took away besides its purpose.
  const alsoRemoved = !causal && !inCode && !bareNumber ? ALSO_REMOVED_AFTER.exec(body.slice(ref.end, ref.end + 60)) : null;
  if (alsoRemoved) add('causal', alsoRemoved[0].trim());
  // "Adds an include left out of commit X", "Header missing from commit X": what the commit forgot.
  const omitted = !causal && !inCode && !bareNumber && !alsoRemoved ? OMITTED_FROM.exec(body.slice(Math.max(0, ref.outerStart - 40), ref.outerStart)) : null;
  if (omitted) add('causal', omitted[0].trim());
  const titleFix =
    !causal && !bareNumber && !inCode && post === -1 && !ev.some((e) => e.code === 'causal') && findRefs(body).length === 1 && !FIX_BROUGHT_BACK.test(body)
      ? (FIX_TITLE_BEFORE.exec(body.slice(0, ref.outerStart)) ?? TITLE_FIXUP.exec(body.slice(0, ref.outerStart)))
      : null;
  if (titleFix) add('causal', titleFix[0].trim());
  if (causal) add('causal', causal[0]);
  else if (opener && updatedRunning(opener[0], body, ref)) add('tested', opener[0].trim());
  else if (opener && BREAKAGE_REPORT.test(`${context}\n${sentence}\n${body.slice(0, 2000)}`)) add('causal', opener[0]);
  if (!causal && !inCode && !bareNumber && facts.parentGood && facts.commitRefs === 1) add('parentGood', facts.parentGood);
  else if (!causal && !inCode && !bareNumber && facts.parentPair?.child === ref.ref.value.slice(0, 7).toLowerCase()) add('parentGood', `${facts.parentPair.words} ${facts.parentPair.parent}`);
  const reverted = causal ? null : REVERTED_BEFORE.exec(body.slice(Math.max(s.start, ref.outerStart - 40), ref.outerStart));
  if (reverted && !inCode && facts.revertBlames) add('reverted', reverted[0].trim());
  // 'Revert "Merge pull request #8897 from …"': the commit reverted is a merge, which no single-commit culprit can be.
  if (REVERTED_MERGE.test(post === -1 ? body : context) && REVERTED_BEFORE.test(body.slice(Math.max(s.start, ref.outerStart - 40), ref.outerStart))) add('several', 'reverted commit is a merge');
  const severalAt = patterned ? null : SEVERAL.exec(sentence);
  // "I bisected between v4.2 and v4.4, and the first bad commit was X": the range searched is not a list of suspects.
  // ("bisecting between tag v2 and main, X looks to be the first bad commit": likewise.)
  const several =
    severalAt && /^between$/i.test(severalAt[0]) && (BETWEEN_SEARCHED.test(sentence.slice(severalAt.index, ref.outerStart - s.start)) || BETWEEN_THEN_VERDICT.test(sentence.slice(severalAt.index))) ? null : severalAt;
  if (several) add('several', several[0]);
  // "X also needs to be reverted", "also revert X": one more of several commits taken back together.
  else {
    const also = ALSO_REVERTED_AFTER.exec(body.slice(ref.end, ref.end + 60)) ?? ALSO_REVERTED_BEFORE.exec(body.slice(Math.max(s.start, ref.outerStart - 40), ref.outerStart)) ?? AND_OTHERS_AFTER.exec(body.slice(ref.end, ref.end + 60));
    if (also) add('several', also[0].trim());
  }
  const before = body.slice(Math.max(s.start, ref.outerStart - 80), ref.outerStart);
  const after = body.slice(ref.end, ref.end + 140);
  // ("… regression compared with X": X is the baseline the trouble is measured against.)
  // "Before [this commit](X) it worked fine": the commit the trouble began with, not the good side.
  const workedTill = !inCode && !bareNumber ? workedUntil(body, s, ref) : null;
  if (workedTill && !ev.some((e) => e.code === 'causal')) add('causal', workedTill[0].trim());
  const good = workedTill ? null : (GOOD_BEFORE.exec(before) ?? GOOD_AFTER.exec(after) ?? /\b(?:compared?|comparing|relative)\s+(?:with|to)\s+(?:commit\s+)?[`'"(\[]*$/i.exec(before));
  if (good) add('goodSide', good[0].trim());
  const fullBefore = body.slice(Math.max(0, ref.outerStart - 80), ref.outerStart);
  if (namedAsFixBefore(fullBefore) || (FIX_AFTER.test(after) && !REVERT_BEFORE.test(fullBefore))) add('fix', 'named as the fix');
  // "We reverted it on main so the suite passes again (X).": the commit in brackets is the revert itself.
  else if (/\b(?:I|we)(?:'ve|\s+have)?\s+reverted\b[^.\n]{0,100}\(\s*(?:commit\s+|in\s+)?[`'"]*$/i.test(body.slice(Math.max(s.start, ref.outerStart - 140), ref.outerStart))) add('fix', 'the revert itself');
  // "As of commit X the CI no longer passes": the revision the trouble dates from, not one merely being run.
  // ("From commit X (May 19), the import does not proceed …": likewise, when "from" opens the sentence.)
  const asOfBreakage =
    (/\bas\s+of\s+(?:the\s+)?(?:commit\s+)?[`'"(\[]*$/i.test(before) || /^[\s>*_-]*(?:starting\s+)?(?:from|with)\s+(?:the\s+)?commit\s+[`'"(\[]*$/i.test(body.slice(s.start, ref.outerStart))) &&
    AS_OF_BREAKAGE.test(body.slice(ref.end, Math.max(ref.end, s.end)).replace(/^[`'")\]]*\s*\([^)\n]{0,40}\)/, ''));
  // "I've got it: it's X!": the writer announcing the commit they were hunting.
  const foundIt = !inCode && post !== -1 && !ev.some((e) => e.code === 'causal') ? /^[\s>*_-]*(?:ok(?:ay)?\s*,?\s+)?(?:I(?:'ve|\s+have)?\s+)?(?:got|found)\s+it\s*[:!.]\s*(?:it(?:'s|\s+is|\s+was)\s+)?(?:commit\s+)?[`'"(\[]*$/i.exec(body.slice(s.start, ref.outerStart)) : null;
  if (foundIt) add('causal', foundIt[0].trim());
  // "The new <URL> update makes the runner crash": the commit named as a change that broke something.
  const changeBlamed = !inCode && !ev.some((e) => e.code === 'causal') ? /^[`'")\]]*\s+(?:update|change|commit|patch|refactor(?:ing)?|rewrite)\s+(?:makes|made|breaks|broke|causes|caused|introduced|introduces)\b/i.exec(body.slice(ref.end, ref.end + 60)) : null;
  if (changeBlamed) add('causal', changeBlamed[0].trim());
  if (calledBroken && !inCode && !ev.some((e) => e.code === 'causal')) add('causal', calledBroken[0].trim());
  // "Latest commit (X) broke PAL games": the revision is the subject of the blame, not one merely run.
  const blamedAfter = /^[`'")\]]*\s*(?:\([^)\n]{0,60}\)\s*)?(?:has\s+|have\s+|had\s+)?(?:broke|breaks|broken|caused|causes|introduced|introduces)\b/i.test(body.slice(ref.end, ref.end + 80));
  // ("Running the tests off of X caused them to fail": the subject of the blame is the run, not X.)
  const testedLead = TESTED_BEFORE.exec(before);
  // "Since I moved to the latest commit X the daemon leaks. Going back to the prior commit fixed it": the
  // revision updated to is the first bad one, its predecessor being good.
  const firstAfterGood = testedLead !== null && /\b(?:latest\s+commit|updat(?:e|ed|ing)\s+to)\b/i.test(testedLead[0]) && PREVIOUS_RESOLVES.test(body);
  const tested = ((asOfBreakage || blamedAfter) && !(testedLead && /\b(?:running|ran|run|testing|tested)\s+(?:them|it|the\s+tests?)\s+(?:off|from|on|at)\b/i.test(testedLead[0]))) || firstAfterGood ? null : testedLead;
  // ("… no longer work as of X" in a title: the revision the trouble dates from, not one merely run.)
  if (tested && !(post === -1 && /\bas\s+of\s+(?:commit\s+)?[`'"(\[]*$/i.test(before) && /\b(?:no\s+longer|broken|breaks|fails?|crash\w*|regress\w*)\b/i.test(body.slice(0, ref.outerStart)))) add('tested', tested[0].trim());
  if (asOfBreakage && !ev.some((e) => e.code === 'causal')) add('causal', 'as of');
  // "Images flashed from X and every later commit fail; from its parent and older they run": X is where it starts.
  const laterBad = inCode ? null : LATER_BAD_AFTER.exec(body.slice(ref.end, ref.end + 160));
  if (laterBad && !ev.some((e) => e.code === 'causal')) add('causal', laterBad[0].trim());
  // "… and was only revealed by X": the commit that brought an older bug to light.
  const revealer = /\b(?:revealed|exposed|uncovered|unmasked|surfaced)\s+(?:only\s+)?(?:by|in|with)\s+(?:the\s+)?(?:commit\s+)?[`'"(\[]*$/i.exec(before);
  if (revealer) add('revealer', revealer[0].trim());
  // "The first bisect step was at X, which did not build": a step of a bisect under way, not its outcome.
  const bisectStep = patterned ? null : /\b(?:first|next|second|third|last|latest|current)\s+bisect(?:ion)?(?:\s+(?:step|point|commit|revision))?\s*(?:(?:was|is|went|landed)\s+(?:at|on|to)\s+|[-–:]\s*)(?:commit\s+)?[`'"(\[]*$/i.exec(before);
  if (bisectStep && !ev.some((e) => e.code === 'transcript')) add('transcript', bisectStep[0].trim());
  const conditional = CONDITIONAL_BEFORE.exec(before) ?? CONDITIONAL_SENTENCE.exec(body.slice(s.start, ref.outerStart));
  if (conditional) add('conditional', conditional[0].trim());
  const pointer = ref.ref.type === 'pr' ? POINTER_BEFORE.exec(body.slice(Math.max(0, ref.outerStart - 60), ref.outerStart)) : null;
  if (pointer) add('pointer', pointer[0].trim());
  // "… with X cherry-picked onto each step so that it builds": a helper commit applied on top, not the culprit.
  const helper = /\bcherry[- ]?pick(?:ing|ed|s)?\s+(?:commit\s+)?[`'"(\[]*$/i.exec(body.slice(Math.max(s.start, ref.outerStart - 30), ref.outerStart));
  if (helper && !inCode) add('negated', helper[0].trim());
  const otherBug = OTHER_BUG_BEFORE.exec(body.slice(Math.max(0, ref.outerStart - 80), ref.outerStart));
  if (otherBug) add('negated', otherBug[0].trim());
  // "X was causing test failures, but that was because the other half had not landed": the blame explained away.
  const explained = EXPLAINED_AWAY.exec(body.slice(ref.end, Math.max(ref.end, s.end)));
  if (explained) add('negated', explained[0].trim());
  // "~~[this commit](URL)~~ EDIT: [this commit](URL2)": a reference struck through is withdrawn.
  const lineText = body.slice(line.start, line.end);
  const struck = /(?:^|[\s(>*_])(~~?)(?!\s)[^~\n]+?(?<!\s)\1(?=$|[\s.,;:!?)*_])/g;
  for (let m = struck.exec(lineText); m; m = struck.exec(lineText)) {
    if (line.start + m.index <= ref.outerStart && ref.end <= line.start + m.index + m[0].length) {
      add('negated', 'struck through');
      break;
    }
  }
  // A link to a comment or review in a pull request ("…/pull/94617#issuecomment-2247868580") cites a discussion, it does not blame the pull request.
  const discussion = ref.ref.type === 'pr' ? /^#(?:issuecomment|discussion_r|pullrequestreview)-?\w*/.exec(body.slice(ref.end, ref.end + 40)) : null;
  if (discussion) add('pointer', discussion[0]);
  // 'Revert "Revert commit X"': a reference inside the quoted subject of the reverted commit belongs to that subject.
  const quoted = post === -1 ? /^\s*(?:\[[^\]]*\]\s*)?revert\s+"/i.exec(body) : null;
  if (quoted && ref.outerStart >= quoted[0].length && body.indexOf('"', quoted[0].length) >= ref.end) add('pointer', 'inside the reverted subject');
  const nearBefore = body.slice(Math.max(s.start, ref.outerStart - 40), ref.outerStart);
  const negBefore = NEGATION_BEFORE.exec(nearBefore) ?? NEGATION_OTHER_BEFORE.exec(nearBefore);
  // "no longer works after X", "doesn't build since X": the negation is the breakage, said of the symptom.
  // "The shortcuts were removed in commit X … This PR undoes the regression": what the commit took away, in a post calling it a regression.
  const removedIn = !inCode && !bareNumber && !ev.some((e) => e.code === 'causal' || e.weight < 0) ? REMOVED_IN.exec(body.slice(Math.max(s.start, ref.outerStart - 40), ref.outerStart)) : null;
  if (removedIn && /\b(?:this|the)\s+regression\b/i.test(body) && !DENIED_REGRESSION.test(body)) add('causal', removedIn[0].trim());
  // "src/rules.mk was not updated in commit X": a file the commit left behind, the omission that broke it.
  const omission = negBefore && !inCode ? FILE_LEFT_BEHIND.exec(body.slice(Math.max(s.start, ref.outerStart - 160), ref.outerStart)) : null;
  if (omission && !ev.some((e) => e.code === 'causal')) add('causal', omission[0].trim());
  const brokeBefore = negBefore && (BREAKAGE_NEGATION.test(negBefore[0]) || omission) ? null : negBefore;
  const neg = brokeBefore ?? NEGATION_AFTER.exec(after);
  if (neg) add('negated', neg[0].trim());
  // "Can't read the config file after X": the breakage dates from the commit.
  else if (negBefore && !inCode && !bareNumber && /\b(?:after|since)\s+(?:the\s+)?(?:commit\s+)?[`'"(\[]*$/i.test(negBefore[0]) && !ev.some((e) => e.code === 'causal')) add('causal', negBefore[0].trim());
  return ev;
}

/** A lead-in that announces the commit shown next ("… ends at the following commit:"). */
const NEXT_COMMIT_LEAD = /\b(?:the\s+)?following\s+(?:commit|change|revision)\s*:?\s*$|\bthis\s+(?:commit|change|revision)\s*:\s*$/i;

/**
 * "Found the commit.\n```\ncommit X\nAuthor: …", or "My bisect ends at the following commit:" over
 * the same: `git log` output pasted under words that say it is the commit found. The words, or null.
 */
function logLeadIn(body: string, lineStart: number, ref: RefMatch): RegExpExecArray | null {
  const before = body.slice(Math.max(0, lineStart - 160), lineStart).replace(/\s*(?:```|~~~)[\w-]*\s*$/, '');
  const found = FOUND_COMMIT.exec(before);
  if (found || !NEXT_COMMIT_LEAD.test(before) || !GIT_LOG_HEADER.test(body.slice(ref.end, ref.end + 400))) return found;
  const lead = before.slice(Math.max(before.lastIndexOf('. '), before.lastIndexOf('\n\n')) + 1);
  const m = CAUSAL.exec(lead);
  return m && !BISECT_TO_COME.test(lead) && !NEGATION_BEFORE.test(lead.slice(0, m.index)) ? m : null;
}

/** The header lines that follow "commit X" in `git log` output. */
const GIT_LOG_HEADER = /^(?:[ \t]*\n[ \t]*(?:Merge|Author|AuthorDate|Commit|CommitDate|Date):[^\n]*)+[\s\S]*$/;

/**
 * "I bisected which commit slows it down. Turns out it's X." / "The following commit broke the
 * tests:\n\nX": a sentence that only points at the reference, right after a sentence with a
 * causal word, takes that word as its own.
 */
function blameBefore(layout: Layout, s: Range, ref: RefMatch): RegExpExecArray | null {
  const { body } = layout;
  // After the reference: nothing, "from #N", or a subject pasted after a wide gap ("It's `X`    Add the bus driver.").
  // …or the header lines of `git log` output ("commit X\nAuthor: …\nDate: …").
  const gitLog = GIT_LOG_HEADER.test(body.slice(ref.end, ref.end + 400));
  const lead = body.slice(s.start, ref.outerStart);
  if (!POINTER_SENTENCE.test(lead) && !(gitLog && /^[\s>]*commit\s+$/.test(lead))) return null;
  // (After a lead-in ending on "commit" across a blank line, the commit's subject may follow on the same line after one space.)
  const leadEndsCommit = /\b(?:commit|revision)\s*:?$/i.test(body.slice(Math.max(0, s.start - 300), s.start).trimEnd()) && /\n[ \t]*\n[ \t]*$/.test(body.slice(Math.max(0, s.start - 300), s.start));
  const tail = body
    .slice(ref.end, Math.max(ref.end, s.end))
    .replace(/\s*from\s+#\d+\.?$/, '')
    .replace(GIT_LOG_HEADER, '')
    .replace(leadEndsCommit ? /^(?:#[\w-]+)?[`'")\]]*\s+[A-Z][^\n]{0,160}$/ : /(?!)/, '');
  // …or a relative clause saying what the commit holds ("It was X which includes the upgrades"), never one of a fix or a good state.
  const relative = /^[`'")\]]*\s*,?\s+(?:which|that)\s+(?:includes|included|contains|contained|adds|added|has|had|holds|bumps|bumped|updates|updated|upgrades|upgraded|changes|changed|touches|touched)\b[^\n]{0,150}$/i.test(tail) && !/\b(?:fix\w*|solv\w*|resolv\w*|works?|worked|good|fine)\b/i.test(tail);
  // (A link's anchor to a file of the commit, "…/commit/X#diff-…", is part of the link.)
  // (…or the commit's subject in backticks after it: "X `Fix the guest time`".)
  if (!relative && !/^(?:#[\w-]+)?[`'")\]]*[.!]?\s*(?:\(?from\s+#\d+\)?\.?|(?:\t|\s{2,}|\s+[-–—]\s+)[^\n]{1,100}|\s+`[^`\n]{1,100}`\.?)?$/i.test(tail)) return null;
  const raw = body.slice(Math.max(0, s.start - 300), s.start);
  const before = raw.replace(/\s+$/, '');
  // Across a blank line only a lead-in ending in a colon points at what follows.
  // (…or one that announces "the following commit", or "the commit that introduced the crash".)
  if (
    /\n[ \t>]*\n/.test(raw.slice(before.length)) &&
    !/(?::-?|\b(?:commit|revision|changeset))$/i.test(before) &&
    !/\b(?:the\s+)?following\s+(?:commit|change|revision)\b[^\n]{0,60}$/i.test(before) &&
    !/\bthe\s+(?:commit|change|revision)\s+(?:that|which)\s+(?:introduc|caus|br[eo]k)\w*\b[^.\n]{0,60}$/i.test(before) &&
    !(gitLog && FOUND_COMMIT.test(before))
  )
    return null;
  const cut = Math.max(before.lastIndexOf('. '), before.lastIndexOf('.\n'), before.lastIndexOf('\n\n'));
  const previous = before.slice(cut + 1);
  const m = CAUSAL.exec(previous) ?? CAUSAL_OTHER.exec(previous);
  if (!m || BISECT_TO_COME.test(previous) || NEGATION_BEFORE.test(previous.slice(0, m.index))) return null;
  // "the last good commit before the breakage is:\n\nX": the lead-in names the good side, whatever it says broke after it.
  if (LAST_GOOD_LEAD.test(previous)) return null;
  return m;
}

/** A lead-in announcing the last good commit. */
const LAST_GOOD_LEAD = /\b(?:last|latest|newest)\s+(?:known[- ])?(?:good|working|ok)\s+(?:commit|revision|build|version|hash)\b/i;

/** The sentence around a reference, read at most SCORING.sentenceReach characters on each side. */
function sentenceNear(layout: Layout, ref: RefMatch): Range {
  let s = sentenceAt(layout, ref.start);
  // 'commit X ("Fix the grid. Issue 1829.") introduced …': a subject in brackets after the reference
  // does not end the sentence, and the reach is counted from its end.
  const aside = BRACKETED_ASIDE.exec(layout.body.slice(ref.end, ref.end + 310));
  let end = ref.end;
  if (aside && ref.end + aside[0].length >= s.end && ref.end + aside[0].length < layout.body.length) {
    end = ref.end + aside[0].length;
    s = { start: s.start, end: Math.max(s.end, sentenceAt(layout, end).end) };
  }
  return { start: Math.max(s.start, ref.outerStart - SCORING.sentenceReach), end: Math.min(s.end, Math.max(end, s.start) + SCORING.sentenceReach) };
}

/** What one post says as a whole, computed once per post rather than once per reference. */
interface PostFacts {
  readonly elsewhere: string | null;
  /** The words saying the parent of the commit named is good, or null. */
  readonly parentGood: string | null;
  /** How many distinct commits (not pull requests) the post names. */
  readonly commitRefs: number;
  /**
   * "I built the parent commit X: fine. Then the same for Y: broken again.": the commit named as the
   * parent (its 7-character prefix) when the post names exactly one other commit outside code blocks,
   * and that other commit's prefix; null otherwise. The pair is one commit apart: the other is pinned.
   */
  readonly parentPair: { readonly parent: string; readonly child: string; readonly words: string } | null;
  /** The post (or the title) says why it reverts: a fix stated, or the reverted commit called the bad one, and no cleanup. */
  readonly revertBlames: boolean;
}
/** A title that reverts or rolls back a change: the post under it says why. */
const REVERT_TITLE = /^\s*(?:[\w-]+(?:\([^)\n]*\))?!?:\s*)?(?:revert|roll[\s-]?back)\b/i;
let lastFacts: { body: string; context: string; facts: PostFacts } | null = null;
/** Text without the quoted subject of a revert title ('Revert "Fix the crash in the pool"'). */
function withoutRevertedSubject(text: string): string {
  return text.replace(/\b(revert\s+)["“][^\n]*["”]/gi, '$1');
}

/** Right before a reference: it is named as the parent of the commit under test ("compiled the parent commit X"). */
const NAMED_PARENT_BEFORE = /\b(?:the|its)\s+parent(?:\s+commit)?\s*(?:\(|,)?\s*[`'"(\[]*$/i;

function parentPair(body: string): PostFacts['parentPair'] {
  const prose = body.replace(/```[\s\S]*?(?:```|$)/g, (m) => ' '.repeat(m.length));
  const refs = findRefs(prose).filter((r) => r.ref.type !== 'pr');
  const parents = refs.filter((r) => NAMED_PARENT_BEFORE.test(prose.slice(Math.max(0, r.outerStart - 30), r.outerStart)));
  if (parents.length === 0) return null;
  // "It shows in X and not in its parent Y": the pair in one sentence, whatever else the post names…
  const at = parents[0]!;
  const from = Math.max(prose.lastIndexOf('\n', at.start), ...['. ', '! ', '? '].map((p) => prose.lastIndexOf(p, at.start)));
  const ends = ['\n', '. ', '! ', '? '].map((p) => prose.indexOf(p, at.end)).filter((i) => i >= 0);
  const sentence = refs.filter((r) => r.start > from && r.end <= (ends.length > 0 ? Math.min(...ends) : prose.length));
  const inSentence = new Set(sentence.map((r) => r.ref.value.slice(0, 7).toLowerCase()));
  // …or the post's only other commit.
  const distinct = inSentence.size === 2 ? inSentence : new Set(refs.map((r) => r.ref.value.slice(0, 7).toLowerCase()));
  if (distinct.size !== 2) return null;
  // "the parent commit X fails too": a parent that is bad as well pins nothing.
  if (/\b(?:also|still|too|as\s+well|same)\b[^.\n]{0,40}\b(?:fail\w*|crash\w*|broken|errors?|problems?|issues?|bug)\b|\b(?:fail\w*|crash\w*|broken)\s+(?:too|as\s+well)\b/i.test(prose.slice(parents[0]!.end, parents[0]!.end + 200).split(/[.!?](?:\s|$)/)[0]!)) return null;
  const parent = parents[0]!.ref.value.slice(0, 7).toLowerCase();
  const child = [...distinct].find((v) => v !== parent);
  if (!child) return null;
  const words = NAMED_PARENT_BEFORE.exec(prose.slice(Math.max(0, parents[0]!.outerStart - 30), parents[0]!.outerStart))![0].trim();
  return { parent, child, words };
}

/** Text without its purpose clauses ("so that we can fix the author"). */
function withoutPurpose(text: string): string {
  return text.replace(/\bso\s+(?:that\s+)?(?:we|I|you|they|he|she|one)\s+can\s+[^.\n]*/gi, ' ');
}

function postFacts(body: string, context: string): PostFacts {
  if (lastFacts && lastFacts.body === body && lastFacts.context === context) return lastFacts.facts;
  const both = `${body}\n${context}`;
  const facts = {
    elsewhere: ELSEWHERE.exec(body)?.[0] ?? null,
    parentGood: PARENT_GOOD.exec(body)?.[0] ?? null,
    parentPair: parentPair(body),
    commitRefs: new Set(findRefs(body).filter((r) => r.ref.type !== 'pr').map((r) => r.ref.value.slice(0, 7))).size,
    // A revert's own title may say why ("Revert \"X\" — breaks the icons"); another title's words are not about the revert.
    // The words of the reverted subject ('Revert "Fix the crash in …"') are not the revert's reason.
    // ("… so we can fix the author and amend it": what the revert makes possible is no reason it was made.)
    revertBlames: (REVERT_FIXES.test(withoutPurpose(REVERT_TITLE.test(context) || REVERT_TITLE.test(body) ? withoutRevertedSubject(both) : body)) || BLAME_NOUN.test(both)) && !REVERT_CLEANUP.test(body) && !REVERT_CLEANUP.test(context) && (!(REVERTED_WORKAROUND.test(body) || REVERTED_WORKAROUND.test(context)) || LOST_WITH_IT.test(body)),
  };
  lastFacts = { body, context, facts };
  return facts;
}

function kindOf(ref: RefMatch): AttributionKind {
  if (ref.ref.type === 'pr') return 'pr-ref';
  if (ref.ref.type === 'commit-url') return 'commit-url';
  return 'statement';
}

/** Attributions for accepted candidates that no pattern found (the pattern ones are already attributions). */
export function candidateAttributions(thread: Thread, candidates: readonly Candidate[]): Attribution[] {
  const out: Attribution[] = [];
  for (const c of candidates) {
    if (!c.accepted || c.evidence.some((e) => e.code === 'pattern')) continue;
    const post = c.post === -1 ? null : thread.posts.find((p) => p.index === c.post)!;
    const body = post ? post.body : thread.title;
    const text = body.slice(c.sentence.start, c.sentence.end);
    // In the title the symptom shares the line with the reference: only the reference and its lead-in words carry the answer.
    const clause = c.post === -1 ? titleSpan(body, c.ref) : clauseSpan(body, c.sentence, c.ref);
    // "X.\n\nThis commit broke the build as …": the next sentence's blaming words go with the reference.
    const sentence0 = c.post === -1 ? clause : withAnaphora(body, clause, c.sentence);
    // Pasted `git log` output ("commit X\nAuthor: …\nDate: …\n\n    subject"): the whole block is the answer.
    const logBlock = c.evidence.some((e) => e.code === 'causal') && /^\s*commit\s+[0-9a-fA-F]{7,40}\s*$/.test(body.slice(body.lastIndexOf('\n', c.ref.start - 1) + 1, body.indexOf('\n', c.ref.end) < 0 ? body.length : body.indexOf('\n', c.ref.end)))
      ? /^[^\n]*(?:\n(?!\s*(?:```|~~~))[^\n]*){0,40}/.exec(body.slice(c.ref.start))
      : null;
    const sentence = logBlock ? logBlockSpan(body, sentence0, c.ref.start + logBlock[0].length) : sentence0;
    out.push({
      ref: c.ref.ref,
      kind: kindOf(c.ref),
      post: c.post,
      start: c.ref.start,
      end: c.ref.end,
      sentence: { ...sentence, text: body.slice(sentence.start, sentence.end) },
      author: post ? post.author : thread.author,
      createdAt: post ? post.createdAt : thread.createdAt,
      hedged:
        findHedge(text) !== null ||
        blameHedged(body, c) ||
        (c.evidence.some((e) => e.code === 'reverted') &&
          (revertReasonHedged(c.post === -1 ? `${body}\n${thread.posts[0]?.body ?? ''}` : body) ||
            // "This pull request exists just to isolate the cause", said later by the one who reverted: an experiment.
            thread.posts.some((p) => p.index > Math.max(c.post, 0) && p.author === (post ? post.author : thread.author) && REVERT_DIAGNOSTIC.test(p.body.slice(0, SCORING.maxScan))))) ||
        caveatAfter(body, c.sentence.end),
    });
  }
  return out;
}

/**
 * The span of a pasted `git log` header and its message: the message fenced right under the header
 * goes with it, and so does a sentence right above that only says this is the commit found
 * ("The bisect shows this is the commit that broke it.\n\ncommit X\nAuthor: …").
 */
function logBlockSpan(body: string, sentence: Range, blockEnd: number): Range {
  let end = Math.max(sentence.end, blockEnd);
  const fenced = /^\s*\n[ \t]*(```|~~~)[^\n]*\n[\s\S]*?\n[ \t]*\1[ \t]*(?=\n|$)/.exec(body.slice(end));
  if (fenced && fenced[0].length <= 4000) end += fenced[0].length;
  // (The fence opening the pasted header sits between them.)
  const before = body.slice(0, sentence.start).trimEnd().replace(/\s*(?:```|~~~)[\w-]*$/, '');
  let start = sentence.start;
  if (FOUND_COMMIT.test(before)) {
    const cut = Math.max(before.lastIndexOf('. '), before.lastIndexOf('.\n'), before.lastIndexOf('\n'));
    start = cut + 1 + (/^\s*/.exec(before.slice(cut + 1))?.[0].length ?? 0);
    // The header was fenced: its closing fence goes with the opening one.
    const close = /(?:```|~~~)[\w-]*\s*$/.test(body.slice(start, sentence.start)) ? /^\s*\n[ \t]*(?:```|~~~)[ \t]*(?=\n|$)/.exec(body.slice(end)) : null;
    if (close) end += close[0].length;
  }
  return { start, end };
}

/** The subject of an anaphoric blame ("This commit" of "This commit had broken rendering"): it goes, the verb and what it broke stay. */
const ANAPHORA_SUBJECT = /^(?:the\s+change|this\s+change|this\s+commit|that\s+commit|that\s+change|this|that)\b/i;

/** Extends a clause over the opening words of the next sentence when they blame what the clause named ("This commit broke"). */
function withAnaphora(body: string, clause: Range, sentence: Range): Range {
  if (clause.end < sentence.end) return clause;
  const rest = body.slice(sentence.end, sentence.end + 200);
  const lead = /^[\s>]+/.exec(rest)?.[0].length ?? 0;
  if (/\n[ \t>]*\n[\s\S]*\n[ \t>]*\n/.test(rest.slice(0, lead))) return clause;
  const m = ANAPHORA_SUBJECT.exec(rest.slice(lead));
  return m && ANAPHORA.test(rest.slice(lead)) ? { start: clause.start, end: sentence.end + lead + m[0].length } : clause;
}

/**
 * "This commit seemingly broke the site:\n\n<URL>": when the causal word came from the sentence
 * before (or after) the reference, a hedge there hedges the blame too.
 */
function blameHedged(body: string, c: Candidate): boolean {
  const causal = c.evidence.find((e) => e.code === 'causal');
  if (!causal || body.slice(c.sentence.start, c.sentence.end).includes(causal.text)) return false;
  // (The sentence before ends in its own full stop and blank line: look for the one before that.)
  const before = body.slice(Math.max(0, c.sentence.start - 300), c.sentence.start).trimEnd().replace(/[.:!]$/, '');
  const cut = Math.max(before.lastIndexOf('. '), before.lastIndexOf('.\n'), before.lastIndexOf('\n\n'));
  const previous = before.slice(cut + 1);
  if (previous.includes(causal.text) && findHedge(previous) !== null) return true;
  // "… cherry-picking X breaks it again. So I guess that commit is the one causing it.": the blaming sentence after.
  const after = body.slice(c.sentence.end, c.sentence.end + 250).replace(/^[\s>]+/, '');
  const next = after.slice(0, after.search(/[.!?](?:\s|$)|\n[ \t>]*\n/) + 1 || after.length);
  return next.includes(causal.text) && findHedge(next) !== null;
}

/** A caveat that more than one commit may be to blame ("it's possible that there's really more than one commit causing this"). */
const MANY_CULPRITS_CAVEAT =
  /\b(?:more\s+than\s+one|several|multiple|other|another)\s+(?:commits?|changes?|culprits?|causes?)\s+(?:(?:causing|behind|involved|responsible|to\s+blame)\b|(?:(?:are|is|were|was|may\s+be|might\s+be|could\s+be)\s+(?:also\s+)?(?:involved|responsible|to\s+blame|at\s+fault|causing)))/i;

/** The writer doubting the commit they found ("but it is hard to say if this really is the bug we see"). */
const SELF_DOUBT =
  /\b(?:hard|difficult|impossible)\s+to\s+(?:tell|say|know)\s+(?:whether|if)\s+(?:this|it|that|the\s+(?:commit|change))\s+(?:actually\s+|really\s+)?(?:contains|is|has|causes|introduced|introduces)\b|\bnot\s+(?:at\s+all\s+)?sure\s+(?:whether|if)\s+(?:this|it|that|the\s+(?:commit|change))\s+(?:is\s+)?(?:actually|really)\b|\bneed\s+(?:a\s+(?:few|couple)\s+)?(?:more\s+)?(?:time|minutes?|hours?|days?)?\s*(?:of\s+)?to\s+(?:affirm|confirm|verify|double[- ]check)\b/i;

/** The rest of the paragraph after an attribution says other commits may share the blame, or doubts the commit found, or the next lines ask whether it is to blame: the attribution is a guess. */
export function caveatAfter(body: string, end: number): boolean {
  const para = body.slice(end, end + 800).split(/\n[ \t>]*\n/)[0]!;
  return MANY_CULPRITS_CAVEAT.test(para.slice(0, 400)) || SELF_DOUBT.test(para) || COMMIT_QUESTIONED.test(body.slice(end, end + 400)) || OTHER_COMMIT_MAYBE.test(body.slice(end, end + 600));
}

/** The writer allowing, soon after, that the blame may lie in another commit or in two together ("so the bug may also be in that other commit, or in both"). */
const OTHER_COMMIT_MAYBE =
  /\b(?:can|could|may|might)\s+(?:also\s+)?(?:be\s+)?(?:in|from|due\s+to)\s+(?:that|the|this)\s+other\s+(?:commit|change)\b|\b(?:a\s+)?combination\s+of\s+(?:these|those|the|both)\s+(?:two|twos|commits|changes)\b/i;

/** The writer asking, right after, whether the commit is to blame at all ("Could that change be the cause?"). */
const COMMIT_QUESTIONED =
  /\b(?:does|did|could|can|might|would)\s+(?:this|that|the)\s+(?:commit|change)\s+(?:have\s+(?:anything|something)\s+to\s+do\s+with|be\s+(?:related|responsible|the\s+(?:cause|culprit)))\b[^?\n]{0,60}\?/i;

/** A revert made to find out, not to repair ("opened just to isolate the cause", "just to test whether …"). */
const REVERT_DIAGNOSTIC =
  /\b(?:(?:made|opened|created|meant|done|is|was)\s+(?:only|just|purely|mainly|simply)|(?:only|just|purely|simply)\s+(?:made|opened|created))\s+(?:to|for)\s+(?:run\w*\s+(?:a\s+|some\s+)?(?:[\w-]+\s+){0,2}?(?:and|to)\s+)?(?:identify|identifying|test|testing|diagnos\w*|debug\w*|check|checking|find|finding|narrow\w*|isolat\w*|confirm\w*|verify\w*|validat\w*|run\w*\s+(?:a\s+|some\s+)?(?:benchmarks?|tests?|experiments?|CI))\b|\b(?:intent(?:ion)?\s+is\s+not|not\s+(?:intended|meant))\s+to\s+(?:be\s+)?merg\w*|\bdo\s*(?:not|n't)\s+merge\b/i;

/** A revert whose stated reason is a guess ("Revert the commit that I believe is causing the failures"). */
function revertReasonHedged(body: string): boolean {
  return body
    // "The names should perhaps change, but that commit breaks things": a hedge in another clause is not about the blame.
    .split(/(?<=[.!?])\s+|\n+|,\s*but\s+|;\s+|:\s+/)
    .some(
      (sentence) =>
        // ("… should probably be opt-in, so we do not regress other setups": a breakage wished away is no blame.)
        (/(?<!(?:n't|\bnot|\bnever)\s+(?:\w+\s+)?)\b(?:caus\w*|broke\w*|break\w*|fail\w*|crash\w*|regress\w*|introduc\w*|suspect\w*)\b/i.test(sentence) && (findHedge(sentence) !== null || /\bseems?\s+to\b|\bit\s+seems\b/i.test(sentence))) ||
        /\bno\s+evidence\s+that\b/i.test(sentence) ||
        // "we will see whether undoing it helps", "Attempts to fix the login": the revert is an experiment, its outcome not known yet.
        /\bto\s+(?:test|check|verify|see|find\s+out)\s+(?:whether|if)\b|\b(?:attempt(?:s|ing)?|tr(?:y|ies|ying))\s+to\s+fix\b|\b(?:let's|let\s+us|to|we'll|I'll|will)\s+see\s+(?:if|whether)\b|\bcheck(?:ing)?\s+(?:if|whether)\s+(?:reverting|the\s+revert|this)\b/i.test(sentence) ||
        // "It is hard to see how this is related": the relation itself is in doubt.
        /\b(?:hard|difficult)\s+to\s+see\s+how\b|\bhow\s+(?:this|it|that)\s+(?:is|could\s+be|would\s+be)\s+related\b/i.test(sentence) ||
        REVERT_DIAGNOSTIC.test(sentence),
    );
}

/** Where a sentence joins two statements of one writer ("…, and I found X caused it"; "…; X broke it"; "…, first bad commit is X"). */
const CLAUSE_JOIN = /(?:,?\s+and\s+(?=(?:I|we|then|it|this)\b)|;\s+|,\s+(?=(?:I|we)\s)|,?\s+but\s+(?=(?:found|noticed|saw|I|we|then|it|this)\b)|,\s+(?=(?:the\s+)?(?:first[- ]bad|culprit\b|bisect))|,\s+(?=with\s+(?:a|an)\s))/g;

/** A clause that only points at the reference ("it was this:", "which is"). */
const POINTER = /^(?:it|this|that|which)\s+(?:was|is|turned\s+out\s+to\s+be)\s+(?:this|that|the\s+commit|commit)?\s*:?\s*[`'"(\[]*$/i;

/** The clause of the sentence holding the reference, so the symptom told in the other clause stays in the report. */
export function clauseSpan(body: string, s: Range, ref: RefMatch): Range {
  const text = body.slice(s.start, Math.max(s.end, ref.end));
  const at = ref.outerStart - s.start;
  let start = 0;
  let end = text.length;
  const re = new RegExp(CLAUSE_JOIN.source, 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index + m[0].length <= at) start = m.index + m[0].length;
    else if (m.index >= ref.end - s.start) {
      end = m.index;
      break;
    }
  }
  // "…bisect…, and it was this: X": the pointer clause and the reference go, the story of the search stays.
  if (start > 0 && POINTER.test(text.slice(start, at)) && CAUSAL.test(text.slice(0, start))) return { start: s.start + start, end: s.start + end };
  // "**Describe the bug**\nSince commit X …": a heading or label line above the sentence is not part of its lead-in.
  start += headingLength(text.slice(start, at));
  const leadIn = text.slice(start, at);
  // A Markdown link around the reference ("Since [commit X](URL) …") is one reference.
  const linkLead = leadIn.replace(/\[[^\]\n]{0,80}\]\($/, '');
  // "commit X is broken, as the config template is gone …": the verdict goes, the reason told after it stays.
  const verdict = /^[`'")\]]*\s+(?:is|was|has\s+been)\s+(?:broken|buggy|faulty|bad|wrong)\s*,?\s*(?:as|because|since|so\s+that|:)\s+/i.exec(text.slice(ref.end - s.start, end));
  if (verdict && (text.slice(ref.end - s.start + verdict[0].length, end).match(/[A-Za-z]{2,}/g) ?? []).length >= 3 && !/\bbisect/i.test(text.slice(start, end))) {
    return { start: s.start + start, end: ref.end + verdict[0].length };
  }
  // "This reverts commit X, for introducing scroll jumps in …": the revert goes, the reason it gives stays.
  const revertReason = /\breverts?\s+(?:commit\s+)?[`'"(\[]*$/i.test(leadIn) ? /^[`'")\]]*\s*[,;]\s*(?=(?:for|because|since|as)\s)/i.exec(text.slice(ref.end - s.start, end)) : null;
  if (revertReason && (text.slice(ref.end - s.start + revertReason[0].length, end).match(/[A-Za-z]{2,}/g) ?? []).length >= 4) {
    return { start: s.start + start, end: ref.end + revertReason[0].length };
  }
  // "Multiple plays worked before X and now are broken": only "before X" goes, what worked and what broke stay.
  const workedLead = WORKED_BEFORE.exec(linkLead);
  if (workedLead && !/\bbisect/i.test(text.slice(start, end))) {
    const word = /\b(?:before|until)\b/i.exec(workedLead[0])!;
    return { start: s.start + start + workedLead.index + word.index, end: ref.end };
  }
  // A clause without the causal word would leave the cause behind: keep the whole sentence then.
  // ("commit X makes the demo stutter": the verb of effect right after the reference is the cause.)
  // ("Since [commit X](URL) some tests fail": an opening "since" or "after" ties the reference to what follows.)
  // ("… are no longer displayed following this commit: X": a breakage the sentence ends on "since" or "following" the reference is the cause too.)
  const brokeSince = SINCE_LEAD.test(linkLead.slice(-50)) && BROKEN_BEFORE_SINCE.test(linkLead);
  if (!CAUSAL.test(text.slice(start, end)) && !EFFECT_AFTER_REF.test(text.slice(ref.end - s.start, end)) && !DATING_OPENER.test(linkLead) && !brokeSince) return { start: s.start, end: s.start + text.length };
  // "X seems to have slowed down <symptom>", "using the X commit causes <symptom>": the lead-in, the
  // reference and the verb go, the symptom after them stays.
  // (An opening "Since upgrading to commit X the daemon started …" leaves that to the opener below: the verb is the symptom's own.)
  const opensClause = OPENER.test(linkLead) && OPENER_CLAUSE_BREAK.test(text.slice(ref.end - s.start, end));
  if (!opensClause && /^[\s`'"(\[*_]*(?:(?:the|this|that)?\s*(?:commit|PR|pull\s+request|change|patch)\s*:?\s+)?$/i.test(leadIn) || (!opensClause && leadIn.length <= 60 && !CAUSAL.test(leadIn) && !EFFECT_WORD.test(leadIn) && /\b(?:commit|using|with|for|by|in)(?:\s+(?:the|this|that))?\s*[`'"(\[]*$/i.test(leadIn))) {
    const verb = CAUSAL.exec(text.slice(ref.end - s.start, Math.min(end, ref.end - s.start + 60))) ?? EFFECT_VERB_AT.exec(text.slice(ref.end - s.start, Math.min(end, ref.end - s.start + 12)));
    if (verb && !/\bbisect/i.test(text.slice(start, end))) {
      // The verb stays with what it broke ("Commit X breaks saving games"), unless nothing follows it.
      const rest = text.slice(ref.end - s.start + verb.index + verb[0].length, end);
      const keepsVerb = (rest.match(/[A-Za-z]{2,}/g) ?? []).length >= 2 && (verb.index <= 3 || /^[\s`'")\]]*(?:re-?|by\s+@[\w-]+\s+|(?:also\s+|really\s+|just\s+|now\s+|somehow\s+)?(?:\w+ly\s+)?)$/i.test(text.slice(ref.end - s.start, ref.end - s.start + verb.index))) && !/^(?:bisect|first|the\s+bad)/i.test(verb[0]);
      return { start: s.start + start, end: keepsVerb ? ref.end : ref.end + verb.index + verb[0].length };
    }
  }
  // "After commit X, the tests hang": the opening phrase and the reference go, the clause after the comma stays.
  if (OPENER.test(linkLead)) {
    // Without a comma, a clause that opens like one ("After commit X there are test failures").
    const linkTail = /^[`'"]*\]\([^)\s]{1,300}\)/.exec(text.slice(ref.end - s.start, end))?.[0].length ?? 0;
    const comma = OPENER_CLAUSE_BREAK.exec(text.slice(ref.end - s.start + linkTail, end));
    if (comma && (text.slice(ref.end - s.start + linkTail + comma[0].length, end).match(/[A-Za-z]{2,}/g) ?? []).length >= 3) {
      return { start: s.start + start, end: ref.end + linkTail + comma[0].length };
    }
  }
  // "The leak fix from X resulted in 30% more memory": a lead-in that tells a symptom of its own
  // stays too; the reference and the verb go, the effect after them stays.
  if (leadIn.length <= 80 && EFFECT_WORD.test(leadIn) && !CAUSAL.test(leadIn) && /\b(?:from|in|by|with|of)\s*[`'"(\[]*$/i.test(leadIn)) {
    const verb = /^[^.\n]{0,40}?\b(?:result(?:s|ed)?\s+in|caus(?:e|es|ed)|introduc(?:e|es|ed)|broke|breaks|led\s+to|leads\s+to)\b/i.exec(text.slice(ref.end - s.start, end));
    const effect = verb ? text.slice(ref.end - s.start + verb[0].length, end) : '';
    if (verb && (effect.match(/[A-Za-z]{2,}/g) ?? []).length >= 3 && !/\bbisect/i.test(text.slice(start, end))) {
      return { start: ref.outerStart, end: ref.end + verb[0].length };
    }
  }
  // "…running a build after commit X causes windows to pile up": the words tying the reference in,
  // the reference and the verb go; the long lead-in and the effect stay.
  const tie = /\b(?:after|since|with|from|in|by)\s+(?:(?:the|this)\s+)?(?:commit\s+)?[`'"(\[]*$/i.exec(leadIn);
  if (tie && !/\bbisect/i.test(text.slice(start, end))) {
    const verb = /^[`'")\]]*,?\s*(?:(?:which|that)\s+)?(?:causes|caused|breaks|broke|makes|made|results\s+in|resulted\s+in|leads\s+to|led\s+to|meant\s+that|means\s+that)\b/i.exec(text.slice(ref.end - s.start, end));
    const effect = verb ? text.slice(ref.end - s.start + verb[0].length, end) : '';
    if (verb && (effect.match(/[A-Za-z]{2,}/g) ?? []).length >= 3) return { start: s.start + start + tie.index, end: ref.end };
  }
  // "<symptom statement with a causal verb>: X": only the colon and the reference go.
  // "… narrowed it down to a commit X that has caused the linter to take 30 s longer": the relative clause after the reference is the symptom.
  const relative = /^[`'")\]]*\s*,?\s*(?:that|which)\s+(?:has\s+|had\s+)?(?:caused|causes|broke|breaks|made|makes|introduced|introduces|led\s+to|leads\s+to|results?\s+in|resulted\s+in)\b/i.exec(text.slice(ref.end - s.start, end));
  if (relative && (text.slice(ref.end - s.start + relative[0].length, end).match(/[A-Za-z]{2,}/g) ?? []).length >= 3) return { start: s.start + start, end: ref.end };
  // "The build is broken for me by undefined erf in X.": a symptom that ends on the reference keeps all but the words tying it in.
  // ("Travis has been failing for months since commit `X (alpha)`.", "… was broken due to commit X .")
  // ("Nightly runs fail since March (commit X).": a parenthesis holding only the reference.)
  const tail = /(?:\s+(?:in|by|with|since|after|from|following|due\s+to|because\s+of|as\s+of)\s+(?:(?:the|this|that)\s+)?(?:(?:specific|particular|last|latest|recent)\s+)?(?:commit\s*:?\s*)?|\s*\((?:commit|revision|rev\.?)\s+)[`'"(\[]*$/i.exec(text.slice(start, at));
  if (
    tail &&
    /^(?:#[\w-]*)?[`'")\]]*(?:\s*\([^)\n]{0,40}\))?[`'")\]]*\s*[.!]?\s*$/.test(text.slice(ref.end - s.start, end)) &&
    (EFFECT_WORD.test(text.slice(start, tail.index)) || STOPPED_WORKING.test(text.slice(start, tail.index))) &&
    !/\bbisect/i.test(text.slice(start, end))
  ) {
    return { start: s.start + start + tail.index, end: s.start + end };
  }
  const colon = /\s*:\s*[`'"(\[]*$/.exec(text.slice(start, at));
  // (Not when the lead-in speaks of the commit itself: "This seems to be the commit where it stopped working: X".)
  if (colon && CAUSAL.test(text.slice(start, colon.index)) && !/\bbisect/i.test(text.slice(start, end)) && !/\b(?:the|this|that)\s+(?:commit|change|revision)\b/i.test(text.slice(start, colon.index))) {
    return { start: s.start + start + colon.index, end: s.start + end };
  }
  // "<symptom> introduced at X": the symptom before the verb stays, the verb and the reference go.
  const lead = PASSIVE_LEAD.exec(text.slice(start, at));
  // "… broken since this commit X making the build fail": what follows the reference is the symptom.
  const goesOn = /^[`'")\]]*,?\s+(?:making|causing|leading\s+to|so\s+that|resulting\s+in)\b/i.test(text.slice(ref.end - s.start, end));
  if (lead && !/\bbisect/i.test(text.slice(start, end))) return { start: s.start + start + lead.index, end: goesOn ? ref.end : s.start + end };
  return { start: s.start + start, end: s.start + end };
}

/**
 * After "After commit X" with no comma, where the clause of the symptom starts: a pronoun or
 * article ("… X there are test failures"), or any one-word subject followed by a verb of state or
 * a modal ("… X xenia will always crash", "… X qiv does not start").
 */
const OPENER_CLAUSE_BREAK =
  /^[`'")\]]*\s*(?:\([^)\n]{0,80}\)\s*)?(?:\s*(?:from|by)\s+@[\w-]+\s*)?(?:,\s*|\s+(?=(?:there|it|the|this|these|we|I|all|some|several|many|most|no|none|every|each|my|our|your|tests?|builds?)\s)|\s+(?=[\w.-]+\s+(?:(?:will|would|can|cannot|can't|could|does|doesn't|did|didn't|do|don't|is|isn't|are|aren't|was|wasn't|were|has|hasn't|have|had|no\s+longer|now|always|never|still|fails?|failed|crash(?:es|ed)?|hangs?|stopped|refuses?|throws?|shows?)\b)))/;

/** A lead-in that opens the sentence with the reference ("After commit", "Since [", "With the commit", "Starting from"). */
const OPENER = new RegExp(String.raw`^[\s\`'"(\[*_]*(?:after|since|with|from|in|as\s+of|starting\s+(?:with|from|at)|beginning\s+(?:with|at))\s+\[?(?:${COMMIT_LEAD}|(?:the\s+)?(?:commit\s+)?)[\`'"(\[]*$`, 'i');
/** …of those, the ones that date the trouble from the reference even without a causal word ("Since [commit X](URL) some tests fail"). */
const DATING_OPENER = new RegExp(String.raw`^[\s\`'"(\[*_]*(?:after|since|as\s+of|starting\s+(?:with|from|at))\s+\[?(?:${COMMIT_LEAD}|(?:the\s+)?(?:commit\s+)?)[\`'"(\[]*$`, 'i');

/** A title of a fix that names the commit it repairs: "Build fixes after X", "Fix the error in commit X" (never "fixed in X"). */
/** Around the reference: it is reverted together with others ("X also needs to be reverted", "also revert X"). */
/** "X and a few other, older commits broke …": X is one of several commits blamed together. */
const AND_OTHERS_AFTER = /^[`'")\]]*,?\s+and\s+(?:some\s+|several\s+|a\s+few\s+|many\s+)?(?:other|more)\b[^.\n]{0,30}?\b(?:commits|changes|PRs|patches)\b/i;
const ALSO_REVERTED_AFTER = /^[`'")\]>]*\s+(?:also|too|as\s+well)\s+(?:needs?|has|have|had)\s+to\s+be\s+reverted\b/i;
const ALSO_REVERTED_BEFORE = /\b(?:also|additionally)\s+revert(?:ing)?\s+(?:commit\s+)?[`'"(\[<]*$/i;
/** A file named, then "was not added/updated in commit": what the commit forgot (a path with a slash or an extension, or a build file). */
const FILE_LEFT_BEHIND =
  /(?:[\w.-]+\/[\w./-]+|[\w-]+\.[A-Za-z]{1,4}|Makefile|CMakeLists\.txt|Dockerfile)[`'"]?\s+(?:was|were|has|have)\s*(?:not|n't)\s+(?:been\s+)?(?:also\s+)?(?:added|updated|included|committed|changed|adjusted|renamed)\s+(?:in|with|by)\s+(?:the\s+)?commit\s*:?\s*[`'"(\[]*$/i;
/** A breakage told before "since <reference>", with no word of a fix or of something working. */
const BROKEN_BEFORE_SINCE = /^(?![^\n]*\b(?:fix\w*|solv\w*|resolv\w*|works?|worked|working|fine|better|faster|added|supports?)\b)[^\n]*?\b(?:crash\w*|fail\w*|segfault\w*|freez\w*|hang(?:s|ing)?|broken|errors?|double[- ]free|use[- ]after[- ]free|panic\w*|abort\w*|no\s+longer\s+(?:\w+ed|shown|drawn|works?|working|loads?|starts?))\b/i;
/** Right before the reference, ending a sentence that tells a breakage: "since", or "following" the (last) commit (not "the following"). */
const SINCE_LEAD = /(?:\b(?:since|ever\s+since)|(?<!\bthe\s+)\bfollowing(?:\s+(?:the|this|that)(?:\s+(?:last|latest|recent|newest|specific|particular))?)?)\s+(?:commit\s*:?\s*)?[`'"(\[]*$/i;
/** Right before the reference, ending a sentence: "after" the commit (not "even after", "right after"). */
const AFTER_LEAD = /(?<!\b(?:even|only|just|right|shortly)\s+)\bafter\s+(?:commit\s+)?[`'"(\[]*$/i;
/** Right before the reference: something the commit left out. */
const OMITTED_FROM = /\b(?:left\s+out\s+(?:of|from|in)|missing\s+from|forgotten\s+in|omitted\s+(?:from|in))\s+(?:the\s+)?commit\s*:?\s*[`'"(\[]*$/i;
/** Right after the reference: it also, or by accident, took something away ("X also deleted …", "X accidentally removed …"). */
const ALSO_REMOVED_AFTER = /^[`'")\]]*\s+(?:also|accidentally|mistakenly|inadvertently)\s+(?:removed|deleted|dropped|disabled|broke)\b/i;
/** Right before the reference: what the commit took away ("were removed in commit X"). */
const REMOVED_IN = /\b(?:removed|dropped|deleted|lost)\s+(?:in|by|with)\s+(?:commit\s+)?[`'"(\[]*$/i;
/** "not a regression", "no regression": the word denied. */
const DENIED_REGRESSION = /\b(?:not|no|isn't|wasn't)\s+(?:a\s+|this\s+)?regression\b/i;
/** A title that is a fix-up of one commit ("Fixup 1a2b3c4", "Follow-up fix for X"). */
const TITLE_FIXUP = /^\s*(?:\[[^\]]*\]\s*|[\w/-]+:\s*)?(?:fix-?ups?|follow-?up\s+fix(?:es)?)\s*(?:for|of|to)?\s*(?:commit\s+)?[`'"(\[]*$/i;
/** A title bringing an earlier fix back ("Add back bug fix in commit X", "Restore the fix from X"). */
const FIX_BROUGHT_BACK = /\b(?:add(?:s|ed|ing)?\s+back|re-?add\w*|restor\w*|re-?appl\w*|bring(?:s|ing)?\s+back|brought\s+back)\b/i;
const FIX_TITLE_BEFORE = /\(\s*fix(?:es|up)?\s+(?:commit\s+)?[`'"]*$|(?<!\b(?:bug|a|the|this|that|my|your|lost|missing|earlier|previous)\s+)\bfix(?:es)?\b(?:\s+(?!in\b|after\b|since\b)[\w`'".:-]+){0,5}\s+(?:after|since|in\s+commit|from\s+commit|introduced\s+(?:in|by))(?:\s+|(?<=commit)\s*#\s*)[`'"(\[]*$/i;

/** A verb of effect right after the reference, closing marks aside ("X\" makes …", "X now breaks …"). */
const EFFECT_AFTER_REF = new RegExp(String.raw`^[\s\`'")\]]*(?:(?:also|now|really|just|\w+ly)\s+)?(?:${EFFECT_VERBS})\b`, 'i');

/** A verb of effect right after the reference ("commit X makes the game stutter"). */
const EFFECT_VERB_AT = new RegExp(String.raw`\b(?:${EFFECT_VERBS})\b`, 'i');

/** Lines of a heading or a label ("## Bug", "**Describe the bug**", "Steps:") opening a sentence span. */
const HEADING_LINES = /^(?:[ \t]*(?:#{1,6}\s[^\n]*|\*\*[^\n*]{1,60}\*\*:?|__[^\n_]{1,60}__:?|[^\n]{1,60}:)[ \t]*\n+)+/;

/** The length of the heading or label lines opening a lead-in ("**Describe the bug**\nAfter X"), 0 when they hold the cause. */
function headingLength(lead: string): number {
  const heading = HEADING_LINES.exec(lead);
  return heading && !CAUSAL.test(heading[0]) ? heading[0].length : 0;
}

/** A feature that stopped working ("qiv does not start anymore", "no longer builds"). */
const STOPPED_WORKING = /\b(?:anymore|any\s+more|no\s+longer|(?:(?:does|do|did|will|would|can|could)(?:\s+not|n't)|can't|cannot|won't)\s+\w+)\b/i;

/** Words of a symptom: a lead-in holding one is kept, not deleted with the reference. */
const EFFECT_WORD = /\b(?:crash\w*|fail\w*|hang\w*|freez\w*|leak\w*|slow\w*|error\w*|panic\w*|broken|wrong|missing|stutter\w*|flicker\w*)\b/i;

/** A passive causal verb leading straight to the reference ("… introduced at", "… started with commit"). */
const PASSIVE_LEAD = /\b(?:introduced|caused|started|appeared|regressed|broken)\s+(?:(?:at|in|by|with|on|since|from|after|commit|the|this|revision|changes?|patch(?:es)?)\s+){1,5}[`'"([]*$/i;

// ("Regression in X" loses "Regression in"; "Memory regression caused by X" keeps "Memory regression".)
const TITLE_LEAD = /(?:\b(?:introduced|caused|broken|regressed|regression(?=\s+(?:in|since|at|from|with|after|on)\b)|since|after|at|in|by|on|with|from|this|the|commit|revision)\b[\s`'"(\[]*)+$/i;
/** After the reference in a title: closing marks and a colon go; a verb stays with what it broke ("X breaks configure on FreeBSD"). */
const TITLE_TAIL = /^[`'")\]]*[,:]?\s?/i;

/** The part of a title that names the commit: the reference with the words leading to it ("introduced in commit X"). */
function titleSpan(title: string, ref: RefMatch): Range {
  const lead = TITLE_LEAD.exec(title.slice(0, ref.outerStart));
  const tail = TITLE_TAIL.exec(title.slice(ref.end));
  return { start: lead ? lead.index : ref.outerStart, end: ref.end + (tail ? tail[0].length : 0) };
}

/** One line per candidate: where, the reference, the score, the decision and the evidence. */
export function describeCandidates(candidates: readonly Candidate[]): string {
  let out = '';
  for (const c of candidates) {
    const where = c.post === -1 ? 'title' : c.post === 0 ? 'body' : `comment ${c.post}`;
    const ev = c.evidence.map((e) => `${e.code}${e.weight >= 0 ? '+' : ''}${e.weight} "${e.text.slice(0, 60)}"`).join(', ') || 'no evidence';
    out += `  ${where} (${c.author}) ${c.ref.ref.text}: score ${c.score} → ${c.accepted ? 'attribution' : 'not an attribution'}${c.crossRepository ? ' [other repository]' : ''}; ${ev}\n`;
  }
  return out;
}
