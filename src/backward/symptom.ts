/**
 * Whether a (sanitized) report still describes something observable: enough prose once version
 * lists, bisect logs, SHAs and links are set aside.
 */
const BISECT_LOG = /^\s*(?:\$\s*)?(?:git bisect\b|#\s*(?:good|bad|skip|first bad commit|status|possible first bad commit)\b|Bisecting:|bisect (?:run|found)\b|running\b|[0-9a-f]{7,40}\b)/i;
const VERSION_LINE =
  /^\s*(?:[-*+]\s+)?[`*]*(?:[\w.-]+\s+)?v?\d+(?:\.\d+)+[\w.+-]*[`*]*\s*(?:[:=\-—]|->|=>)?\s*(?:good|bad|ok|okay|works?|working|broken|fails?|failing|passes|pass|fine|✅|❌|✔|✘|yes|no)?\s*$/i;
const WORD = /\b[A-Za-z][A-Za-z'-]+\b/g;
const MIN_WORDS = 8;
/** Fewer words still describe something when at least this many are specific (a short title such as "Empty stack trace on 24.1 builds"). */
const MIN_CONTENT_WORDS = 3;
/** Words that say nothing specific about a symptom. */
const GENERIC = new Set(
  (
    'the and for not now with this that since from are was were has have had but any all its into than then when after before also just still some more very our your their there here ' +
    'what which who why how does did done will would should can could may might must been being broken broke breaks bug bugs issue issues problem problems regression regressions ' +
    'fails failed fail failing works work working worked error errors wrong bad good fine fix fixed please thanks same again anymore version release commit update updated latest new old ' +
    'see seems like one two'
  ).split(' '),
);

export function hasObservableSymptom(text: string): { ok: boolean; why: string } {
  const lines = text.split('\n');
  let bisectLines = 0;
  let versionLines = 0;
  let words = 0;
  let content = 0;
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
    const prose = line.replace(/https?:\/\/\S+/g, ' ').replace(/\b[0-9a-f]{7,40}\b/gi, ' ');
    const found = prose.match(WORD) ?? [];
    words += found.length;
    content += found.filter((w) => w.length >= 3 && !GENERIC.has(w.toLowerCase())).length;
  }
  if (words >= MIN_WORDS) return { ok: true, why: `${words} words of description` };
  if (content >= MIN_CONTENT_WORDS) return { ok: true, why: `${words} words of description, ${content} of them specific` };
  if (words === 0 && bisectLines === 0 && versionLines === 0) return { ok: false, why: 'empty report' };
  if (bisectLines > 0 && bisectLines >= versionLines) return { ok: false, why: `only a bisect log (${bisectLines} lines) and ${words} words` };
  if (versionLines > 0) return { ok: false, why: `only version lists (${versionLines} lines) and ${words} words` };
  return { ok: false, why: `too short (${words} words, need ${MIN_WORDS})` };
}
