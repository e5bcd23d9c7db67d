import type { Span } from '../model/deletions.js';
import { HEX_RUN, matchesOf } from './text.js';

export const SHA_DETECTOR = 'sha';

/**
 * Hex runs of 7–40 characters that name a commit of the repository (`isCommitPrefix`, computed by
 * the caller from the repository's objects), and every full 40-hex object name.
 */
export function detectShas(text: string, isCommitPrefix: (hex: string) => boolean): Span[] {
  return [
    ...matchesOf(text, HEX_RUN).filter((m) => m.text.length === 40 || isCommitPrefix(m.text.toLowerCase())),
    // A full object name inside a file name ("1_working_<40 hex>.zip") names a commit as surely as one standing alone.
    ...matchesOf(text, FULL_SHA_IN_NAME),
  ].map((m) => ({ start: m.start, end: m.end, detector: SHA_DETECTOR }));
}

/** 40 hex between `_` or other word characters that are not letters or digits. */
const FULL_SHA_IN_NAME = /(?<![0-9A-Za-z])[0-9a-fA-F]{40}(?![0-9A-Za-z])/g;

export const CHANGE_ID_DETECTOR = 'change-id';

/** A Gerrit Change-Id ("I" and 40 hex), with its label when written ("Change-Id: I…", "changeid I…"). */
const CHANGE_ID = /(?:\bchange[- ]?id\s*[:=]?\s*)?(?<![\w])I[0-9a-f]{40}(?![0-9a-zA-Z])/gi;

/** Change-Ids name one change of a Gerrit-reviewed repository as surely as its SHA does. */
export function detectChangeIds(text: string): Span[] {
  return [...text.matchAll(CHANGE_ID)].map((m) => ({ start: m.index, end: m.index + m[0].length, detector: CHANGE_ID_DETECTOR }));
}

export const EMBEDDED_SHA_DETECTOR = 'embedded-sha';

/**
 * Prefixes (7+ hex) of known commit SHAs written inside a longer name, where word boundaries do not
 * fall ("log_b0268ab_bad.zip", "build-3f9a2c1d"): only the hex goes. A six-character prefix of a known
 * SHA written as a word of its own ("Revert 962f28") goes too, and so does the rest of a known SHA
 * after an ellipsis (a long title cut by the host in the middle of the SHA, continued in the body).
 */
export function detectEmbeddedShas(text: string, knownShas: readonly string[]): Span[] {
  const full = knownShas.filter((k) => /^[0-9a-f]{40}$/i.test(k)).map((k) => k.toLowerCase());
  if (full.length === 0) return [];
  const out: Span[] = [];
  for (const m of text.matchAll(/(?<![0-9a-fA-F])[0-9a-fA-F]{6,40}(?![0-9a-fA-F])/g)) {
    const hex = m[0].toLowerCase();
    // Six characters ("Revert 962f28") only with a letter and a digit, and only as a word of its own.
    if (hex.length === 6 && (!/[a-f]/.test(hex) || !/\d/.test(hex) || /[\w]/.test(text[m.index - 1] ?? '') || /[\w]/.test(text[m.index + 6] ?? ''))) continue;
    if (full.some((k) => k.startsWith(hex))) out.push({ start: m.index, end: m.index + m[0].length, detector: EMBEDDED_SHA_DETECTOR });
    // "…2f62340e…" opening a body: the rest of a SHA that a long title was cut in the middle of ("… commit fe25783ac734a3…").
    else if (hex.length >= 7 && text[m.index - 1] === '\u2026' && full.some((k) => k.endsWith(hex))) out.push({ start: m.index - 1, end: m.index + m[0].length, detector: EMBEDDED_SHA_DETECTOR });
  }
  // A known SHA typed with extra characters ("commit 901935fb…2877877810395715", 41+ hex): the whole garbled run goes.
  for (const m of text.matchAll(/(?<![0-9a-fA-F])[0-9a-fA-F]{41,200}(?![0-9a-fA-F])/g)) {
    const hex = m[0].toLowerCase();
    if (full.some((k) => hex.startsWith(k.slice(0, 7)))) out.push({ start: m.index, end: m.index + m[0].length, detector: EMBEDDED_SHA_DETECTOR });
  }
  // "Header gone since commit 5d414": a shorter prefix (4–5 hex) of a known SHA, called a commit right before it.
  for (const m of text.matchAll(/\b(?:commit|revision|rev|sha)\s*[:#]?\s*[`'"]?([0-9a-fA-F]{4,5})(?![0-9A-Za-z_])/gi)) {
    const hex = m[1]!.toLowerCase();
    if (/[a-f]/.test(hex) && /\d/.test(hex) && full.some((k) => k.startsWith(hex))) {
      const start = m.index + m[0].length - m[1]!.length;
      out.push({ start, end: start + m[1]!.length, detector: EMBEDDED_SHA_DETECTOR });
    }
  }
  return out;
}
