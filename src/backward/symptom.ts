/**
 * Whether a (sanitized) report still describes something observable: enough prose once version
 * lists, bisect logs, SHAs and links are set aside.
 */
const BISECT_LOG = /^\s*(?:\$\s*)?(?:git bisect\b|#\s*(?:good|bad|skip|first bad commit|status|possible first bad commit)\b|Bisecting:|bisect (?:run|found)\b|running\b|[0-9a-f]{7,40}\b)/i;
const VERSION_LINE =
  /^\s*(?:[-*+]\s+)?[`*]*(?:[\w.-]+\s+)?v?\d+(?:\.\d+)+[\w.+-]*[`*]*\s*(?:[:=\-—]|->|=>)?\s*(?:good|bad|ok|okay|works?|working|broken|fails?|failing|passes|pass|fine|✅|❌|✔|✘|yes|no)?\s*$/i;
const WORD = /\b[A-Za-z][A-Za-z'-]+\b/g;
const MIN_WORDS = 8;

export function hasObservableSymptom(text: string): { ok: boolean; why: string } {
  const lines = text.split('\n');
  let bisectLines = 0;
  let versionLines = 0;
  let words = 0;
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
    words += (prose.match(WORD) ?? []).length;
  }
  if (words >= MIN_WORDS) return { ok: true, why: `${words} words of description` };
  if (words === 0 && bisectLines === 0 && versionLines === 0) return { ok: false, why: 'empty report' };
  if (bisectLines > 0 && bisectLines >= versionLines) return { ok: false, why: `only a bisect log (${bisectLines} lines) and ${words} words` };
  if (versionLines > 0) return { ok: false, why: `only version lists (${versionLines} lines) and ${words} words` };
  return { ok: false, why: `too short (${words} words, need ${MIN_WORDS})` };
}
