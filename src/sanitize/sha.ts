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
