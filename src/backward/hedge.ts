import { HEDGE_OTHER } from './other-languages.js';

/** Hedging: words that turn an attribution into a guess. */
const HEDGES = [
  'maybe',
  'might',
  'perhaps',
  'possibly',
  'possible',
  'possibility',
  'probably',
  'likely',
  'presumably',
  'i think',
  'i believe',
  'i suspect',
  'suspect',
  'suspected',
  'suspicious',
  'could be',
  'could have',
  'to be verified',
  'unverified',
  'preliminary',
  'potential',
  'potentially',
  'could it be',
  'may be',
  'may have',
  'not sure',
  'unsure',
  'not certain',
  'not 100%',
  'seems like',
  'seems to be',
  'seems to me',
  // "plausible if caused by X", "the only thing I can think of": a candidate, not a finding.
  'plausible',
  'only thing i can think of',
  'only thing i can think about',
  'seem to',
  "i'd bet",
  'i would bet',
  'my bet',
  'looks like',
  'seemingly',
  'i guess',
  'i suppose',
  'i presume',
  'i assume',
  "i'd guess",
  'my guess',
  'guessing',
  'hypothesis',
  'suggests',
  'suggested',
  'if i had to guess',
  'afaict',
  // "After X, if not before": X is an upper bound, not the first bad commit.
  'if not before',
  'if not earlier',
  'or even before',
  'or earlier',
  'iiuc',
];

const HEDGE = new RegExp(`(?<![\\w'])(?:${HEDGES.map((h) => h.replace(/ /g, '\\s+')).join('|')})(?![\\w'])`, 'i');

/** The first hedge word in `text`, or null. A sentence that ends with a question mark is a hedge too. */
export function findHedge(text: string): string | null {
  // A long aside in parentheses is a remark of its own ("(note: please add the hash next time, and maybe revert first)").
  const spoken = text.replace(/\([^()]{40,}\)?/g, (w) => (/[0-9a-f]{7,40}|https?:\/\/|#\d/i.test(w) ? w : '_'.repeat(w.length)));
  // "not sure what/why/how …" doubts the mechanism and "not sure which part of it" the lines of the commit, not which
  // commit it is; "looks like a PHP error" describes the symptom.
  const m = HEDGE.exec(
    spoken
      .replace(/\bnot\s+(?:sure|certain)\s+(?:what|why|how|where|which\s+(?:part|parts|line|lines|bit|hunk|change)\s+of)\b/gi, (w) => '_'.repeat(w.length))
      .replace(/\blooks\s+like\s+an?\s+(?:[\w-]+\s+){0,2}?(?:error|crash|exception|segfault|panic|warning|assertion)\b/gi, (w) => '_'.repeat(w.length))
      // "what the problem could be" asks about the problem; "(and) probably a few more cases as well" hedges an addition, not the blame;
      // "to fix the potential deadlock" names a fix of a bug that might happen.
      .replace(/\b(?:what|where|which)\s+(?:the\s+)?(?:problem|issue|error|cause|reason)\s+(?:could|might|may)\s+be\b/gi, (w) => '_'.repeat(w.length))
      .replace(/\b(?:and|or)\s+(?:probably|possibly|maybe|perhaps|likely)\b[^.\n]{0,60}?\b(?:as\s+well|too)\b|\band\s+(?:probably|possibly|maybe|perhaps)\s+also\b/gi, (w) => '_'.repeat(w.length))
      .replace(/\b(?:fix(?:es|ed|ing)?|solv(?:e|es|ed|ing)|address(?:es|ed|ing)?)\s+(?:the\s+|a\s+)?potential\b/gi, (w) => '_'.repeat(w.length))
      // "publish a release as soon as possible", "where possible": haste or scope, not doubt.
      .replace(/\b(?:as\s+(?:soon|quickly|fast|much|little|early)\s+as|(?:if|where|when|whenever|wherever)|as\s+\w+\s+as)\s+possible\b/gi, (w) => '_'.repeat(w.length))
      // "X certainly looks like the one": the adverb takes the doubt out of the verb.
      .replace(/\b(?:certainly|definitely|clearly|surely|undoubtedly)\s+(?:seems?|looks?|appears?)\s+(?:to\s+be|like)\b/gi, (w) => '_'.repeat(w.length))
      // After a bisect told as done, "seems to be the commit" softens its outcome, it is no guess.
      .replace(/\bbisected\b[^.\n]{0,60}?\b(?:seems|appears)\s+to\s+be\b/gi, (w) => '_'.repeat(w.length)),
  );
  if (m) return m[0];
  const other = HEDGE_OTHER.exec(spoken);
  if (other) return other[0];
  if (/\?["')\]*_`]*\s*$/.test(text)) return '?';
  return null;
}
