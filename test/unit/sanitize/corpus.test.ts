import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractAttributions } from '../../../src/backward/attribute.js';
import { threadFromImport } from '../../../src/backward/thread.js';
import { decideReport, reportDrafts, type SanitizeTarget, type ThreadSanitization } from '../../../src/backward/report.js';
import type { Attribution, Thread } from '../../../src/model/backward.js';

/** The report decision with no repository to ask: only the known SHAs count as commits. */
const reportWithoutRepository = (thread: Thread, attributions: readonly Attribution[], target: SanitizeTarget): ThreadSanitization =>
  decideReport(thread, attributions, target, reportDrafts(thread, attributions), new Set());

interface Expected {
  decision: string;
  culprits?: string[];
  mustSurvive?: string[];
  mustDelete?: string[];
  insufficientSymptom?: boolean;
}

const dir = new URL('../../fixtures/backward/', import.meta.url);
const threads = readFileSync(new URL('threads.jsonl', dir), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => threadFromImport(JSON.parse(l)));
const expected = JSON.parse(readFileSync(new URL('expected.json', dir), 'utf8')) as Record<string, Expected>;

/** The culprits' hex (a SHA, or the SHA inside a commit URL). */
const hexOf = (culprits: readonly string[]): string[] =>
  culprits.flatMap((c) => /(?<![0-9a-f])[0-9a-f]{7,40}(?![0-9a-f])/i.exec(c)?.[0].toLowerCase() ?? []);

describe('sanitization on the thread corpus', () => {
  it('has a corpus to check', () => {
    expect(threads.length).toBeGreaterThanOrEqual(40);
    expect(Object.keys(expected).length).toBe(threads.length);
  });

  it.each(threads.map((t) => [`${t.repo}#${t.number}`, t] as const))('%s keeps must-survive and drops must-delete spans', async (key, thread) => {
    const e = expected[key];
    expect(e, `${key} has an expected entry`).toBeDefined();
    const hex = hexOf(e!.culprits ?? []);
    const out = reportWithoutRepository(
      thread,
      extractAttributions(thread),
      { gold: hex[0] ?? null, goldSubject: null, prNumbers: [], knownShas: hex },
    );
    for (const s of e!.mustSurvive ?? []) {
      expect(out.report.original, `${key}: must-survive span is part of the report`).toContain(s);
      expect(out.report.text, `${key}: must-survive span kept`).toContain(s);
    }
    for (const s of e!.mustDelete ?? []) expect(out.report.text, `${key}: must-delete span removed`).not.toContain(s);
    if (e!.decision === 'candidate') expect(out.audit.findings, `${key}: audit of a candidate`).toEqual([]);
    if (e!.decision !== 'reject') {
      expect(out.symptom.ok, `${key}: observable symptom after sanitization (${out.symptom.why})`).toBe(e!.insufficientSymptom !== true);
      expect(out.reasons.map((r) => r.code), `${key}: sanitize reasons`).toEqual(e!.insufficientSymptom ? ['insufficient-symptom'] : []);
    }
  });
});
