import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractAttributions } from '../../../src/backward/attribute.js';
import { hasObservableSymptom, screenThread } from '../../../src/backward/attribution-screen.js';
import { threadFromImport } from '../../../src/backward/thread.js';
import type { Thread } from '../../../src/model/backward.js';
// @ts-expect-error: plain .mjs module without type declarations
import { buildCorpus } from '../../fixtures/backward/build-corpus.mjs';

interface Expected {
  decision: string;
  reasons: string[];
  culprits: string[];
  attributions: { post: number; kind: string; ref: string; hedged: boolean }[];
  mustSurvive: string[];
  mustDelete: string[];
  insufficientSymptom?: boolean;
  gold?: string | null;
}

const dir = join(import.meta.dirname, '../../fixtures/backward');
const jsonl = readFileSync(join(dir, 'threads.jsonl'), 'utf8');
const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Record<string, Expected>;
const threads: Thread[] = jsonl
  .trim()
  .split('\n')
  .map((line) => threadFromImport(JSON.parse(line)));
const cases = threads.map((t) => ({ key: `${t.repo}#${t.number}`, thread: t }));

function fullText(t: Thread): string {
  return [t.title, ...t.posts.map((p) => p.body)].join('\n');
}

describe('the thread corpus', () => {
  it('is in sync with corpus-source.yaml', () => {
    const built = buildCorpus() as { jsonl: string; expected: string };
    expect(jsonl).toBe(built.jsonl);
    expect(readFileSync(join(dir, 'expected.json'), 'utf8')).toBe(built.expected);
  });

  it('has at least 45 threads from varied projects, each with an expectation', () => {
    expect(threads.length).toBeGreaterThanOrEqual(45);
    expect(new Set(threads.map((t) => t.repo)).size).toBeGreaterThanOrEqual(12);
    expect(Object.keys(expected).sort()).toEqual(cases.map((c) => c.key).sort());
  });

  it('covers every attribution kind and every text-level reason code', () => {
    const kinds = new Set(Object.values(expected).flatMap((e) => e.attributions.map((a) => a.kind)));
    expect([...kinds].sort()).toEqual(['bisect-output', 'commit-url', 'pr-ref', 'statement']);
    const codes = new Set(Object.values(expected).flatMap((e) => e.reasons));
    for (const code of ['no-attribution', 'range-only', 'hedged', 'bisect-skipped', 'competing', 'retracted', 'fix-not-culprit', 'cross-repository', 'symptom-mismatch']) {
      expect(codes, code).toContain(code);
    }
    const decisions = new Set(Object.values(expected).map((e) => e.decision));
    expect([...decisions].sort()).toEqual(['candidate', 'reject', 'review']);
    expect(Object.values(expected).some((e) => e.insufficientSymptom)).toBe(true);
  });

  it.each(cases)('$key: must-survive and must-delete spans are exact substrings of the thread', ({ key, thread }) => {
    const text = fullText(thread);
    for (const s of [...expected[key]!.mustSurvive, ...expected[key]!.mustDelete]) expect(text).toContain(s);
    expect(expected[key]!.mustSurvive.length).toBeGreaterThan(0);
  });
});

describe.each(cases)('$key', ({ key, thread }) => {
  const want = expected[key]!;
  const attributions = extractAttributions(thread);

  it('extracts the expected attributions (post, kind, reference text, hedging)', () => {
    expect(attributions.map((a) => ({ post: a.post, kind: a.kind, ref: a.ref.text, hedged: a.hedged }))).toEqual(want.attributions);
  });

  it('records exact spans for the reference and its sentence', () => {
    for (const a of attributions) {
      const body = thread.posts[a.post]!.body;
      expect(body.slice(a.start, a.end)).toBe(a.ref.text);
      expect(body.slice(a.sentence.start, a.sentence.end)).toBe(a.sentence.text);
      expect(a.sentence.start).toBeLessThanOrEqual(a.start);
      expect(a.sentence.end).toBeGreaterThanOrEqual(a.end);
      expect(a.author).toBe(thread.posts[a.post]!.author);
    }
  });

  it('describes an observable symptom once the body attributions are cut out, unless marked otherwise', () => {
    let body = thread.posts[0]!.body;
    for (const a of attributions.filter((x) => x.post === 0).reverse()) body = body.slice(0, a.sentence.start) + body.slice(a.sentence.end);
    expect(hasObservableSymptom(`${thread.title}\n\n${body}`).ok).toBe(!want.insufficientSymptom);
  });

  it('reaches the expected decision, reasons and culprits', () => {
    const screen = screenThread(thread, attributions);
    expect(screen.decision).toBe(want.decision);
    expect([...new Set(screen.reasons.map((r) => r.code))]).toEqual([...want.reasons].sort());
    expect([...new Set(screen.culprits.map((i) => attributions[i]!.ref.text))]).toEqual(want.culprits);
    if (want.decision !== 'reject') {
      expect(want.gold === null || /^[0-9a-f]{40}$/.test(want.gold!)).toBe(true);
      const commitCulprits = screen.culprits.map((i) => attributions[i]!.ref).filter((r) => r.type !== 'pr');
      expect(commitCulprits.length > 0).toBe(want.gold !== null);
      for (const r of commitCulprits) expect(want.gold!.startsWith(r.value)).toBe(true);
    }
    for (const r of screen.reasons) {
      if (r.post !== undefined) expect(thread.posts[r.post]!.body).toContain(r.evidence);
    }
  });
});
