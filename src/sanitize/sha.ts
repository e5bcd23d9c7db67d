import type { Span } from '../model/deletions.js';
import { HEX_RUN, matchesOf } from './text.js';

export const SHA_DETECTOR = 'sha';

/**
 * Hex runs of 7–40 characters that name a commit of the repository (`isCommitPrefix`, computed by
 * the caller from the repository's objects), and every full 40-hex object name.
 */
export function detectShas(text: string, isCommitPrefix: (hex: string) => boolean): Span[] {
  return matchesOf(text, HEX_RUN)
    .filter((m) => m.text.length === 40 || isCommitPrefix(m.text.toLowerCase()))
    .map((m) => ({ start: m.start, end: m.end, detector: SHA_DETECTOR }));
}

export const CHANGE_ID_DETECTOR = 'change-id';

/** A Gerrit Change-Id ("I" and 40 hex), with its label when written ("Change-Id: I…", "changeid I…"). */
const CHANGE_ID = /(?:\bchange[- ]?id\s*[:=]?\s*)?(?<![\w])I[0-9a-f]{40}(?![0-9a-zA-Z])/gi;

/** Change-Ids name one change of a Gerrit-reviewed repository as surely as its SHA does. */
export function detectChangeIds(text: string): Span[] {
  return [...text.matchAll(CHANGE_ID)].map((m) => ({ start: m.index, end: m.index + m[0].length, detector: CHANGE_ID_DETECTOR }));
}
