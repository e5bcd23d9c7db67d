import { describe, expect, it } from 'vitest';
import { buildReport, sanitizeReport } from '../../../src/sanitize/index.js';
import { detectTitlePrSuffix } from '../../../src/sanitize/pr-refs.js';
import type { Thread } from '../../../src/model/backward.js';

const post = (body: string) => ({ index: 0, id: null, author: 'dana', createdAt: '2024-03-01T00:00:00Z', body, url: null });
const thread = (title: string, body = 'The exporter writes empty files since 2.1 when the input has a header row.'): Thread => ({
  repo: 'acme/widget', number: 7, title, author: 'dana', createdAt: '2024-03-01T00:00:00Z', url: 'https://github.com/acme/widget/issues/7', posts: [post(body)],
});

describe('pull-request suffix of the title', () => {
  it.each([
    ['[2.1 backport] exporter: keep the header row (#812)', '[2.1 backport] exporter: keep the header row'],
    ['exporter: keep the header row (acme/widget#812)', 'exporter: keep the header row'],
  ])('deletes the suffix of %j', (title, kept) => {
    const out = sanitizeReport(thread(title), [], { repo: 'acme/widget', isCommitPrefix: () => false });
    expect(out.text.startsWith(`${kept}\n`)).toBe(true);
    expect(out.text).not.toContain('812');
    expect(out.deletions.some((d) => d.detector === 'title-pr-suffix')).toBe(true);
  });

  it('keeps a number that does not close the title, and numbers in the body', () => {
    const report = buildReport(thread('Exporter drops rows (see #812) on large files'), []);
    expect(detectTitlePrSuffix(report)).toEqual([]);
    const body = buildReport(thread('Exporter drops rows', 'Same as (#812)'), []);
    expect(detectTitlePrSuffix(body)).toEqual([]);
  });
});
