import type { LeakCode, LeakFinding } from '../model/deletions.js';
import { findSubject } from './gold-subject.js';
import { OUTCOME_PHRASES } from './bisect.js';
import { repoUrlPattern } from './repo-urls.js';
import { matchesOf } from './text.js';

export interface LeakAudit {
  readonly ok: boolean;
  readonly findings: LeakFinding[];
}

export interface AuditTarget {
  /** The gold SHA (40 hex), or null when it is not known (text-only inspection). */
  readonly gold: string | null;
  readonly goldSubject?: string | null;
  /** owner/name */
  readonly repo: string;
  /** Former owner/name spellings of the repository, audited like it. */
  readonly aliases?: readonly string[];
}

/**
 * Checks sanitized text for the answer: any 7+ hex run that is a prefix of gold (wherever it
 * sits, even glued to other characters), any full 40-hex SHA, commit/compare or pull URLs of the
 * repository, bisect outcome phrasing, and the gold subject line.
 */
export function auditLeaks(text: string, target: AuditTarget): LeakAudit {
  const findings: LeakFinding[] = [];
  const add = (code: LeakCode, m: { start: number; end: number }): void =>
    void findings.push({ code, text: text.slice(m.start, m.end), start: m.start, end: m.end });

  const gold = target.gold?.toLowerCase() ?? null;
  if (gold && /^[0-9a-f]{7,40}$/.test(gold)) {
    for (const m of matchesOf(text, /[0-9a-fA-F]{7,}/g)) {
      const run = m.text.toLowerCase();
      for (let i = 0; i + 7 <= run.length; i += 1) {
        let n = 0;
        while (i + n < run.length && n < gold.length && run[i + n] === gold[n]) n += 1;
        if (n >= 7) {
          add('gold-prefix', { start: m.start + i, end: m.start + i + n });
          i += n - 1;
        }
      }
    }
  }
  for (const m of matchesOf(text, /(?<![0-9A-Za-z])[0-9a-fA-F]{40}(?![0-9A-Za-z])/g)) {
    if (!findings.some((f) => f.start <= m.start && f.end >= m.end)) add('full-sha', m);
  }
  for (const repo of [target.repo, ...(target.aliases ?? [])]) {
    for (const m of matchesOf(text, repoUrlPattern(repo, 'commit|commits|compare'))) add('repo-commit-url', m);
    for (const m of matchesOf(text, repoUrlPattern(repo, 'pull|pulls'))) add('repo-pull-url', m);
  }
  for (const re of OUTCOME_PHRASES) for (const m of matchesOf(text, re)) add('bisect-outcome', m);
  for (const m of findSubject(text, target.goldSubject)) add('gold-subject', m);
  findings.sort((a, b) => a.start - b.start || a.code.localeCompare(b.code));
  return { ok: findings.length === 0, findings };
}
