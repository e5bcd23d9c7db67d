/**
 * Reports are not all written in English. The words below let the extractor read the same
 * evidence in a few languages common on GitHub (Russian, Chinese, Japanese, Korean, Spanish,
 * Portuguese, German, French): causal words, hedges and negations. They complement the English
 * patterns and never replace them; a word is listed only when it says the same thing as an English
 * word the extractor already reads. JavaScript's `\b` knows only ASCII letters, so word edges are
 * written with Unicode lookarounds.
 */

/** Edges of a word in any script. */
const START = '(?<![\\p{L}\\p{N}])';
const END = '(?![\\p{L}\\p{N}])';

/** Causal words tying a reference to the regression (as CAUSAL does in English). */
export const CAUSAL_OTHER = new RegExp(
  [
    // Russian: broke, was broken, caused, introduced, led to, regression, bisect, after/since commit, the problematic commit
    `${START}(?:проблемн\\p{L}*\\s+коммит\\p{L}*|сломал\\p{L}*|поломал\\p{L}*|сломан\\p{L}*|ломает|вызвал\\p{L}*|внес(?:ён|ен|ла|ли)|внёс|привел\\p{L}*|привёл\\p{L}*|регресси\\p{L}*|бисект\\p{L}*|(?:после|начиная\\s+с|с)\\s+коммит\\p{L}*|из-за\\s+коммит\\p{L}*)`,
    // Chinese: introduced, caused, broke, regression, bisect, the culprit, started from
    '(?:引入|导致|造成|引起|破坏|回归|二分|罪魁祸首|之后(?:就)?(?:出现|开始))',
    // Japanese: introduced, cause, broke, regression ("degure"), bisect, since
    '(?:導入|原因|壊れ|壊し|デグレ|リグレッション|バイセクト|二分探索|以降)',
    // Korean: cause, introduced, since, regression, broke
    '(?:원인|도입|이후로|회귀|깨졌|깨뜨)',
    // Spanish and Portuguese: introduced, caused, broke, since the commit, regression, culprit
    `${START}(?:introducid[oa]s?|introdujo|introduzid[oa]s?|introduziu|causad[oa]s?|caus[óo]u?|rompi[óo]|quebr(?:ou|ad[oa]s?)|desde\\s+(?:el|o)\\s+commit|a\\s+partir\\s+d(?:el|o)\\s+commit|regresi[óo]n|regress[ãa]o|culpable)${END}`,
    // German: introduced, caused, broken, since the commit, through the commit, regression, culprit
    `${START}(?:eingef[üu]hrt|verursacht|kaputt\\p{L}*|seit\\s+(?:dem\\s+)?commit|durch\\s+(?:den\\s+)?commit|Schuldige\\p{L}*)${END}`,
    // French: introduced, caused, broke, since the commit, regression, culprit, because of
    `${START}(?:introduit\\p{L}*|caus[ée]\\p{L}*|cass[ée]\\p{L}*|depuis\\s+le\\s+commit|r[ée]gression|coupable|[àa]\\s+cause\\s+d[ue])${END}`,
  ].join('|'),
  'iu',
);

/** Hedges: words that turn an attribution into a guess (as HEDGES does in English). */
export const HEDGE_OTHER = new RegExp(
  [
    `${START}(?:возможно|наверное|вероятно|кажется|похоже|может\\s+быть|предполага\\p{L}*|теори\\p{L}*)${END}`,
    '(?:可能|也许|大概|似乎|好像|猜测|怀疑)',
    '(?:かもしれ|たぶん|多分|おそらく|らしい|ようです|みたい|疑い)',
    '(?:아마|것\\s*같|추측)',
    `${START}(?:quiz[áa]s?|tal\\s+vez|talvez|posiblemente|possivelmente|probablemente|provavelmente|parece|creo\\s+que|acho\\s+que|sospecho|suspeito)${END}`,
    `${START}(?:vielleicht|vermutlich|wahrscheinlich|scheint|ich\\s+glaube|m[öo]glicherweise|verdacht\\p{L}*)${END}`,
    `${START}(?:peut-[êe]tre|probablement|semble|je\\s+pense|je\\s+crois|il\\s+se\\s+peut|soup[çc]onne)${END}`,
  ].join('|'),
  'iu',
);

/** A negation in the words just before a reference (as NEGATION_BEFORE does in English). */
export const NEGATION_OTHER_BEFORE = new RegExp(
  `(?:${START}(?:не|нет|ни|nicht|kein\\p{L}*|pas|não|nunca|jamais)${END}|不是|并非|没有|ではな|じゃな|아니)[^.,;。，、\\n]{0,25}$`,
  'iu',
);

/** Sentence ends of Chinese and Japanese text, which need no space after them. */
export const CJK_SENTENCE_END = '[。！？]+[」』）"\']*';

/** Letters of scripts written without spaces between words (Han, kana). */
export const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;
