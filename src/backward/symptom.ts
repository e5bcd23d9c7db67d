/**
 * Whether a (sanitized) report still describes something observable: enough prose once version
 * lists, bisect logs, SHAs and links are set aside.
 */
import { UNSPACED } from './other-languages.js';
const BISECT_LOG = /^\s*(?:\$\s*)?(?:git bisect\b|#\s*(?:good|bad|skip|first bad commit|status|possible first bad commit)\b|Bisecting:|bisect (?:run|found)\b|running\b|[0-9a-f]{7,40}\b)/i;
const VERSION_LINE =
  /^\s*(?:[-*+]\s+)?[`*]*(?:[\w.-]+\s+)?v?\d+(?:\.\d+)+[\w.+-]*[`*]*\s*(?:[:=\-—]|->|=>)?\s*(?:good|bad|ok|okay|works?|working|broken|fails?|failing|passes|pass|fine|✅|❌|✔|✘|yes|no)?\s*$/i;
/** A word, or an identifier that starts with a letter ("cas2.w", "VFFA-1", "x86_64"), in any script written with spaces. */
const WORD = /(?<![\p{L}\p{N}_.'-])(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])\p{L}[\p{L}\p{N}_'.-]*[\p{L}\p{N}](?![\p{L}\p{N}_'-])/gu;
/** Characters of a script written without spaces (Chinese, Japanese) that count as one word. */
const UNSPACED_PER_WORD = 2;
/** The thresholds of the symptom check, one comment each (the counts are of the report's prose lines). */
export const SYMPTOM_THRESHOLDS = {
  /** Words that make a description on their own, when at least `specificWithWords` of them are specific. */
  words: 8,
  /** Enough words still say nothing when fewer than this many are specific ("Partial revert of … A regression was introduced in commit: PR:"). */
  specificWithWords: 2,
  /** Fewer words still describe something when at least this many are specific (a short title such as "Empty stack trace on 24.1 builds"). */
  specific: 3,
  /** Fewer still do when a word says what went wrong and at least this many specific words say where ("broke the rendering", "cas2.w broken"). */
  specificWithEffect: 1,
} as const;
const MIN_WORDS = SYMPTOM_THRESHOLDS.words;
const MIN_CONTENT_WITH_WORDS = SYMPTOM_THRESHOLDS.specificWithWords;
const MIN_CONTENT_WORDS = SYMPTOM_THRESHOLDS.specific;
const MIN_CONTENT_WITH_EFFECT = SYMPTOM_THRESHOLDS.specificWithEffect;
/** Words that say what went wrong: with a specific word beside them, a symptom. */
const EFFECT =
  /^(?:broke|broken|breaks|break|breaking|crash\w*|fail\w*|hang\w*|hung|freez\w*|froze\w*|leak\w*|slow\w*|error\w*|panic\w*|segfault\w*|abort\w*|wrong|missing|incorrect\w*|garbled|corrupt\w*|stuck|deadlock\w*|lost|losing|loses|unusable|unresponsive|glitch\w*|flicker\w*|blank|empty|timeouts?|exception\w*|assert\w*|overflow\w*|invalid|doesn't|don't|won't|can't|cannot|no\s+longer)$/i;
/** Words that say nothing specific about a symptom. */
const GENERIC = new Set(
  (
    'the and for not now with this that since from are was were has have had but any all its into than then when after before also just still some more very our your their there here ' +
    'what which who why how does did done will would should can could may might must been being broken broke breaks bug bugs issue issues problem problems regression regressions ' +
    'fails failed fail failing works work working worked error errors wrong bad good fine fix fixed please thanks same again anymore version release commit update updated latest new old ' +
    'see seems like one two recent recently introduced introduce introduces hotfix revert reverts reverted reverting reintroduce ' +
    'culprit bisect bisected bisecting merge merged pull request commits notice today cause caused causes causing previous pushing pushed push accidentally accidental mistakenly'
  ).split(' '),
);

export function hasObservableSymptom(text: string): { ok: boolean; why: string } {
  const lines = text.split('\n');
  let bisectLines = 0;
  let versionLines = 0;
  let words = 0;
  let content = 0;
  let effects = 0;
  let specific = 0;
  for (const raw of lines) {
    const line = raw.replace(/^[ \t]*(?:>[ \t]?)*/, '');
    if (line.trim() === '' || /^\s*(?:```|~~~)/.test(line)) continue;
    if (BISECT_LOG.test(line)) {
      bisectLines += 1;
      continue;
    }
    if (VERSION_LINE.test(line)) {
      versionLines += 1;
      continue;
    }
    // Emphasis marks are not part of words ("broke _normal_ committing").
    const prose = line
      .replace(/https?:\/\/\S+/g, ' ')
      .replace(/\b[0-9a-f]{7,40}\b/gi, ' ')
      .replace(/[_*~]+/g, ' ');
    // Chinese and Japanese runs have no spaces: every two characters count as one specific word.
    const unspaced = [...prose.matchAll(UNSPACED)].reduce((n, m) => n + Math.floor(m[0].length / UNSPACED_PER_WORD), 0);
    words += unspaced;
    content += unspaced;
    specific += unspaced;
    const found = prose.replace(UNSPACED, ' ').match(WORD) ?? [];
    words += found.length;
    content += found.filter((w) => w.length >= 3 && !GENERIC.has(w.toLowerCase())).length;
    effects += found.filter((w) => EFFECT.test(w)).length;
    specific += found.filter((w) => w.length >= 3 && !GENERIC.has(w.toLowerCase()) && !EFFECT.test(w)).length;
  }
  if (words >= MIN_WORDS && content >= MIN_CONTENT_WITH_WORDS) return { ok: true, why: `${words} words of description` };
  if (content >= MIN_CONTENT_WORDS) return { ok: true, why: `${words} words of description, ${content} of them specific` };
  if (effects > 0 && specific >= MIN_CONTENT_WITH_EFFECT) return { ok: true, why: `${words} words of description: what went wrong and ${specific} specific` };
  if (words === 0 && bisectLines === 0 && versionLines === 0) return { ok: false, why: 'empty report' };
  if (bisectLines > 0 && bisectLines >= versionLines) return { ok: false, why: `only a bisect log (${bisectLines} lines) and ${words} words` };
  if (versionLines > 0) return { ok: false, why: `only version lists (${versionLines} lines) and ${words} words` };
  return { ok: false, why: `too short (${words} words, need ${MIN_WORDS})` };
}
