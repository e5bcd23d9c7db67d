/**
 * The symptom-ablated report of the evaluation protocol: the sanitized report with every line
 * that describes the symptom deleted, keeping only version and environment context (version
 * numbers, `OS: …`-style facts, headings that introduce them). Deletion only, through
 * applyDeletions, and logged like sanitization: the result is the original with exactly the
 * logged spans removed.
 */
import { applyDeletions, type Deleted } from './delete.js';
import type { Span } from '../model/deletions.js';

export const SYMPTOM_DETECTOR = 'symptom';

/** Words naming an environment fact when they label a line (`OS: …`, `- Python version 3.12`). */
const ENV_WORDS =
  'version|versions|os|platform|environment|env|system|distro|distribution|kernel|arch|architecture|cpu|gpu|compiler|toolchain|runtime|' +
  'python|node|nodejs|npm|rustc|cargo|go|java|jdk|gcc|clang|msvc|cmake|ruby|php|perl|browser|chrome|firefox|safari|' +
  'windows|linux|macos|mac|ubuntu|debian|fedora|centos|alpine|arch linux|freebsd|openbsd|android|ios|docker|device|hardware|terminal|shell|locale';

/** `Key: value` where the key names an environment fact. */
const ENV_KEY = new RegExp(`^\\s*(?:[-*+]\\s+|\\d+[.)]\\s+)?[*_\`]*(?:[\\w-]+\\s+)?(?:${ENV_WORDS})(?:\\s+[\\w.-]+)?[*_\`]*\\s*[:=]\\s*\\S`, 'i');
/** A short line whose substance is a version number (`rustc 1.79.0`, `- foo v2.3.1`). */
const VERSION_ONLY = /^\s*(?:[-*+]\s+)?[*_`]*[\w .@/+-]{0,40}?\bv?\d+\.\d+(?:\.\d+)*[\w.+-]*[*_`]*\s*(?:\([^)]{0,40}\))?\s*$/i;
/** A heading or bold label introducing environment facts. */
const ENV_HEADING = new RegExp(`^\\s*(?:#{1,6}\\s+|\\*\\*)[^\\n]{0,40}\\b(?:${ENV_WORDS})\\b[^\\n]{0,40}$`, 'i');
const FENCE = /^\s*(?:```|~~~)/;

/** Whether a line is version or environment context (kept by the ablation). */
export function isContextLine(line: string): boolean {
  if (line.trim() === '') return false;
  if (line.length > 160) return false;
  return ENV_KEY.test(line) || VERSION_ONLY.test(line) || ENV_HEADING.test(line);
}

/**
 * Deletes every line of `text` that is not version/environment context, and every code block
 * (stack traces, reproductions and error output describe the symptom). Blank lines between kept
 * lines are kept, so the kept context keeps its shape.
 */
export function ablateSymptoms(text: string): Deleted {
  const spans: Span[] = [];
  let pos = 0;
  let inFence = false;
  for (const raw of text.split(/(?<=\n)/)) {
    const start = pos;
    pos += raw.length;
    const line = raw.replace(/\r?\n$/, '');
    if (FENCE.test(line)) {
      inFence = !inFence;
      spans.push({ start, end: pos, detector: SYMPTOM_DETECTOR });
      continue;
    }
    if (inFence || (line.trim() !== '' && !isContextLine(line))) spans.push({ start, end: pos, detector: SYMPTOM_DETECTOR });
  }
  return applyDeletions(text, spans);
}
