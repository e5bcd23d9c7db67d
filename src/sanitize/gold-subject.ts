import type { Span } from '../model/deletions.js';
import { escapeRegExp, matchesOf } from './text.js';

export const GOLD_SUBJECT_DETECTOR = 'gold-subject';

/** Subjects shorter than this are too generic ("Fix typo") to delete or flag on sight. */
export const MIN_SUBJECT_LENGTH = 10;

/** The normalised subject to look for, or null when it is too short to be distinctive. */
export function distinctiveSubject(subject: string | null | undefined): string | null {
  const s = (subject ?? '').trim();
  return s.length >= MIN_SUBJECT_LENGTH ? s : null;
}

/**
 * Places where the gold commit's subject line is quoted (case-insensitive), also without the
 * pull-request number a squash merge appends ("Fix parsing (#123)" is quoted as "Fix parsing"), and
 * without a closing full stop.
 */
export function findSubject(text: string, subject: string | null | undefined): { start: number; end: number }[] {
  const s = distinctiveSubject(subject);
  if (!s) return [];
  const bare = distinctiveSubject(s.replace(/\s*\(#\d+\)\s*$/, ''));
  // "Fix the crash in the pool. (#701)" is quoted as "Fix the crash in the pool" too: without the closing full stop.
  const unstopped = bare ? distinctiveSubject(bare.replace(/\.+$/, '')) : null;
  const forms = [...new Set([s, ...(bare ? [bare] : []), ...(unstopped ? [unstopped] : [])])].sort((a, b) => b.length - a.length);
  return [...matchesOf(text, new RegExp(forms.map(escapeRegExp).join('|'), 'gi')), ...truncatedSubjects(text, s)].sort((a, b) => a.start - b.start);
}

/** Shortest subject prefix recognised before an ellipsis ("Revert \"Shader: Use the right sampler type in the TEX, TEXS and TLDS …\""). */
const MIN_TRUNCATED_PREFIX = 20;

/** The subject cut short by an ellipsis (GitHub shortens long revert titles): the prefix and the ellipsis. */
function truncatedSubjects(text: string, subject: string): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  const lower = subject.toLowerCase();
  for (const m of text.matchAll(/\s?(?:…|\.\.\.)/g)) {
    const at = m.index;
    for (let k = Math.min(lower.length - 1, at); k >= MIN_TRUNCATED_PREFIX; k -= 1) {
      if (text.slice(at - k, at).toLowerCase() === lower.slice(0, k)) {
        out.push({ start: at - k, end: at + m[0].length, text: text.slice(at - k, at + m[0].length) });
        break;
      }
    }
  }
  return out;
}

export function detectGoldSubject(text: string, subject: string | null | undefined): Span[] {
  return findSubject(text, subject).map((m) => ({ start: m.start, end: m.end, detector: GOLD_SUBJECT_DETECTOR }));
}
