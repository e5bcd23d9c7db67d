/**
 * Case keys of the review ledger: the stable thread or pair key, which survives a change of gold
 * (case ids do not). Backward `owner/name#N`; Forward `owner/name#<issue><-<pull>` (the forward
 * stages' pair key).
 */
import { isRepoName } from '../config.js';
import { pairKey } from '../forward/link-rules.js';

export type ReviewTask = 'backward' | 'forward';

export type CaseRef =
  | { readonly task: 'backward'; readonly repo: string; readonly number: number }
  | { readonly task: 'forward'; readonly repo: string; readonly issue: number; readonly pull: number };

export function backwardCaseKey(repo: string, number: number): string {
  return `${repo}#${number}`;
}

export function forwardCaseKey(repo: string, issue: number, pull: number): string {
  return pairKey(repo, issue, pull);
}

export function caseKeyOf(ref: CaseRef): string {
  return ref.task === 'backward' ? backwardCaseKey(ref.repo, ref.number) : forwardCaseKey(ref.repo, ref.issue, ref.pull);
}

const KEY = /^([^#\s]+)#([1-9]\d{0,9})(?:<-([1-9]\d{0,9}))?$/;

/** Parses a case key, or returns null when it is not one. */
export function parseCaseKey(key: string): CaseRef | null {
  const m = KEY.exec(key);
  if (!m || !isRepoName(m[1]!)) return null;
  const repo = m[1]!;
  if (m[3] === undefined) return { task: 'backward', repo, number: Number(m[2]) };
  return { task: 'forward', repo, issue: Number(m[2]), pull: Number(m[3]) };
}
