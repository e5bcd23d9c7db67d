import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors.js';
import { openStore, type Store } from '../../../src/store/db.js';
import { ReviewLedger, type ReviewEntry } from '../../../src/store/tables/review.js';
import { reviewStanding } from '../../../src/review/status.js';

const standing = (l: ReviewLedger, key: string, digest: string) => reviewStanding(l.entries(key), digest);
import { backwardDigestOfRows, backwardReviewDigest, forwardDigestOfCase, forwardReviewDigest } from '../../../src/review/digest.js';

const KEY = 'acme/widget#7';
const D1 = 'a'.repeat(64);
const D2 = 'b'.repeat(64);

function entry(over: Partial<Omit<ReviewEntry, 'id'>> = {}): Omit<ReviewEntry, 'id'> {
  return {
    caseKey: KEY,
    task: 'backward',
    reviewer: 'alice',
    decision: 'accept',
    reason: 'clear bisect',
    inputDigest: D1,
    recordedAt: '2024-06-01T00:00:00.000Z',
    source: 'human',
    ...over,
  };
}

function withLedger(fn: (ledger: ReviewLedger, store: Store) => void): void {
  const store = openStore(':memory:');
  try {
    fn(store.review, store);
  } finally {
    store.close();
  }
}

describe('review ledger status', () => {
  it('is pending with no entries', () => {
    withLedger((l) => expect(standing(l, KEY, D1)).toEqual({ status: 'pending', decisions: [] }));
  });

  it('is accepted by a human accept bound to the current digest', () => {
    withLedger((l) => {
      const id = l.append(entry());
      expect(standing(l, KEY, D1)).toEqual({ status: 'accepted', decisions: [{ ...entry(), id }] });
    });
  });

  it('is rejected by a human reject bound to the current digest', () => {
    withLedger((l) => {
      l.append(entry({ decision: 'reject', reason: 'wrong symptom' }));
      expect(standing(l, KEY, D1).status).toBe('rejected');
    });
  });

  it('drops back to pending when the digest changes: old decisions stay but no longer decide', () => {
    withLedger((l) => {
      l.append(entry());
      expect(standing(l, KEY, D2)).toEqual({ status: 'pending', decisions: [] });
      expect(l.entries(KEY)).toHaveLength(1);
    });
  });

  it('needs adjudication when two reviewers disagree', () => {
    withLedger((l) => {
      l.append(entry());
      l.append(entry({ reviewer: 'bob', decision: 'reject', reason: 'hedged' }));
      const s = standing(l, KEY, D1);
      expect(s.status).toBe('needs-adjudication');
      expect(s.decisions.map((d) => [d.reviewer, d.decision])).toEqual([['alice', 'accept'], ['bob', 'reject']]);
    });
  });

  it('lets a reviewer revise by appending: the latest entry of each reviewer counts', () => {
    withLedger((l) => {
      l.append(entry());
      l.append(entry({ reviewer: 'bob', decision: 'reject', reason: 'hedged' }));
      l.append(entry({ reviewer: 'bob', decision: 'accept', reason: 'on reflection, fine' }));
      expect(standing(l, KEY, D1).status).toBe('accepted');
      expect(l.entries(KEY)).toHaveLength(3);
    });
  });

  it('never lets a screener decide', () => {
    withLedger((l) => {
      l.append(entry({ reviewer: 'screener:llm', source: 'screener' }));
      expect(standing(l, KEY, D1).status).toBe('pending');
      l.append(entry({ reviewer: 'screener:llm', source: 'screener', decision: 'reject' }));
      l.append(entry());
      expect(standing(l, KEY, D1).status).toBe('accepted');
    });
  });

  it('treats uncertain alone as pending and uncertain beside a decision as needing adjudication', () => {
    withLedger((l) => {
      l.append(entry({ decision: 'uncertain', reason: 'cannot tell' }));
      expect(standing(l, KEY, D1).status).toBe('pending');
      l.append(entry({ reviewer: 'bob' }));
      expect(standing(l, KEY, D1).status).toBe('needs-adjudication');
    });
  });

  it('keeps cases apart', () => {
    withLedger((l) => {
      l.append(entry());
      expect(standing(l, 'acme/widget#8', D1).status).toBe('pending');
      expect(l.entries('acme/widget#8')).toEqual([]);
    });
  });
});

describe('review ledger is append-only', () => {
  it('has no UPDATE, DELETE or REPLACE statement in its modules', () => {
    for (const file of ['src/store/tables/review.ts', 'src/review/status.ts', 'src/review/import.ts', 'src/review/review-export.ts', 'src/commands/review.ts']) {
      const text = readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
      expect(text, file).not.toMatch(/\b(?:UPDATE|DELETE|REPLACE|UPSERT)\b|ON\s+CONFLICT/);
      expect(text, file).not.toMatch(/\b(?:update|delete\s+from|replace\s+into)\s+review_entries\b/i);
    }
  });

  it('refuses UPDATE and DELETE at the database level', () => {
    withLedger((l, store) => {
      l.append(entry());
      expect(() => store.db.prepare("UPDATE review_entries SET decision = 'reject'").run()).toThrow(/append-only/);
      expect(() => store.db.prepare('DELETE FROM review_entries').run()).toThrow(/append-only/);
      expect(() => store.db.prepare(`INSERT OR REPLACE INTO review_entries (id, case_key, task, reviewer, decision, reason, input_digest, recorded_at, source)
        VALUES (1, 'x#1', 'backward', 'eve', 'reject', '', 'd', '2024-01-01', 'human')`).run()).toThrow(/append-only/);
      expect(l.entries(KEY).map((e) => e.decision)).toEqual(['accept']);
    });
  });

  it('returns increasing ids and keeps identical entries findable', () => {
    withLedger((l) => {
      const a = l.append(entry());
      const b = l.append(entry({ reviewer: 'bob' }));
      expect(b).toBeGreaterThan(a);
      expect(l.findIdentical(entry())).toBe(a);
      expect(l.findIdentical(entry({ reason: 'other words' }))).toBeUndefined();
      expect(l.count()).toBe(2);
    });
  });

  it.each([
    ['an empty reviewer', entry({ reviewer: ' ' }), /reviewer is empty/],
    ['an unknown decision', entry({ decision: 'maybe' as 'accept' }), /decision "maybe"/],
    ['an empty digest', entry({ inputDigest: '' }), /input digest is empty/],
    ['a bad timestamp', entry({ recordedAt: 'yesterday' }), /recorded_at "yesterday"/],
    ['a human posing as a screener', entry({ reviewer: 'screener:llm' }), /reserved for screeners/],
    ['a screener without its prefix', entry({ source: 'screener' }), /must start with screener:/],
    ['an unknown task', entry({ task: 'pairs' as 'backward' }), /task "pairs"/],
  ])('refuses %s', (_what, bad, message) => {
    withLedger((l) => {
      expect(() => l.append(bad)).toThrow(ValidationError);
      expect(() => l.append(bad)).toThrow(message);
      expect(l.count()).toBe(0);
    });
  });
});

describe('review digests of stored rows', () => {
  it('computes digests from stored rows only when the case is complete', () => {
    const gold = '0123456789abcdef0123456789abcdef01234567';
    const rows = { report: { text: 'crash' }, record: { gold, status: 'resolved' }, attributions: [{ sentence: { text: 'Bisected to 0123456.' } }] };
    expect(backwardDigestOfRows(rows)).toBe(backwardReviewDigest({ report: 'crash', gold, quotes: ['Bisected to 0123456.'] }));
    expect(backwardDigestOfRows({ ...rows, report: undefined })).toBeNull();
    expect(backwardDigestOfRows({ ...rows, record: { gold: null, status: 'rejected' } })).toBeNull();
    const c = { issue_text: 'Margin', base: gold, changed_paths: ['a.css'], gold: ['.github/workflows/lint.yml'] };
    expect(forwardDigestOfCase(c)).toBe(forwardReviewDigest({ issueText: 'Margin', base: gold, changedPaths: ['a.css'], gold: c.gold }));
    expect(forwardDigestOfCase({ ...c, gold: null })).toBeNull();
    expect(forwardDigestOfCase({ ...c, issue_text: null })).toBeNull();
  });
});
