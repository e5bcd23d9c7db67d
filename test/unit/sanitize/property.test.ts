import { describe, expect, it } from 'vitest';
import { sanitizeReport } from '../../../src/sanitize/index.js';
import type { Attribution } from '../../../src/model/backward.js';
import { seededRandom } from '../../../src/util/random.js';
import { aThread } from './threads.js';

const HEX = '0123456789abcdef';
const pieces = (rnd: () => number): string[] => {
  const hex = (n: number): string => Array.from({ length: n }, () => HEX[Math.floor(rnd() * 16)]).join('');
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  return [
    hex(7 + Math.floor(rnd() * 34)),
    hex(40),
    `https://github.com/acme/widget/${pick(['commit', 'pull', 'compare', 'tree', 'issues'])}/${hex(8)}`,
    `[${hex(7)}](https://github.com/acme/widget/commit/${hex(12)})`,
    `#${Math.floor(rnd() * 100)}`,
    'git bisect start',
    `Bisecting: ${Math.floor(rnd() * 50)} revisions left to test after this (roughly 3 steps)`,
    `${hex(40)} is the first bad commit`,
    `commit ${hex(40)}`,
    'Author: A <a@b.c>',
    '    Rework the path flattener',
    ' src/a.c | 2 +-',
    'bisected it to',
    'The culprit is',
    'Rework the path flattener',
    pick(['crash', 'TypeError: x is undefined', 'v2.4.0', '0xdeadbeef', '1.2.3.', 'é', '🙂', '`code`', '>', '$', '']),
    pick([' ', '\n', '\n\n', '. ', '! ', '\t', '\r\n']),
    pick([' ', '\n', '. ']),
    pick(['\n```\n', 'A smaller reproducer:\n```\nrender(0)\n```\n', 'Same crash:\n```\npanic at x.c:3\n```']),
  ];
};

function randomText(rnd: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i += 1) {
    const p = pieces(rnd);
    s += p[Math.floor(rnd() * p.length)]!;
  }
  return s;
}

/** Is `small` a subsequence of `big` (every character in order)? */
function isSubsequence(small: string, big: string): boolean {
  let j = 0;
  for (let i = 0; i < big.length && j < small.length; i += 1) if (big[i] === small[j]) j += 1;
  return j === small.length;
}

/** Rebuilds the output from the input and the log, independently of the code under test. */
function removeSpans(text: string, spans: readonly { start: number; end: number }[]): string {
  const drop = new Array<boolean>(text.length).fill(false);
  for (const s of spans) for (let i = s.start; i < s.end; i += 1) drop[i] = true;
  let out = '';
  for (let i = 0; i < text.length; i += 1) if (!drop[i]) out += text[i];
  return out;
}

describe('sanitizeReport (property, seeded)', () => {
  it('outputs the input with exactly the logged spans removed, in order, for 400 random reports', () => {
    for (let seed = 1; seed <= 400; seed += 1) {
      const rnd = seededRandom(seed);
      const bodies = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => randomText(rnd, 5 + Math.floor(rnd() * 40)));
      const thread = aThread(randomText(rnd, 3), bodies);
      const attributions: Attribution[] = [];
      if (rnd() < 0.7) {
        const post = Math.floor(rnd() * bodies.length);
        const body = bodies[post]!;
        const s = Math.floor(rnd() * body.length);
        const e = Math.min(body.length, s + Math.floor(rnd() * 30));
        attributions.push({
          ref: { type: 'sha', text: body.slice(s, e), value: 'abc1234', urlRepo: null },
          kind: 'statement',
          post,
          start: s,
          end: e,
          sentence: { start: s, end: e, text: body.slice(s, e) },
          author: 'x',
          createdAt: '2024-01-01T00:00:00Z',
          hedged: false,
        });
      }
      const known = new Set<string>();
      const isCommitPrefix = (hex: string): boolean => {
        if (!known.has(hex) && rnd() < 0.5) known.add(hex);
        return known.has(hex);
      };
      const out = sanitizeReport(thread, attributions, {
        repo: 'acme/widget',
        isCommitPrefix,
        prNumbers: [Math.floor(rnd() * 100)],
        goldSubject: rnd() < 0.5 ? 'Rework the path flattener' : null,
      });
      const ctx = `seed ${seed}`;
      expect(out.text, ctx).toBe(removeSpans(out.original, out.deletions));
      expect(isSubsequence(out.text, out.original), ctx).toBe(true);
      expect(out.original.length - out.text.length, ctx).toBe(out.deletions.reduce((n, d) => n + d.end - d.start, 0));
      for (const [i, d] of out.deletions.entries()) {
        expect(d.start, ctx).toBeGreaterThanOrEqual(i === 0 ? 0 : out.deletions[i - 1]!.end + 1);
        expect(d.end, ctx).toBeGreaterThan(d.start);
        expect(d.end, ctx).toBeLessThanOrEqual(out.original.length);
        expect(typeof d.detector, ctx).toBe('string');
      }
    }
  });
});
