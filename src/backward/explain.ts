/** A human-readable account of every commit reference in a thread: its evidence, score and decision. */
import { extractWithCandidates } from './attribute.js';
import { describeCandidates } from './candidates.js';
import type { Thread } from '../model/backward.js';

export function explainThread(thread: Thread): string {
  return describeCandidates(extractWithCandidates(thread).candidates);
}
