import { describe, expect, it } from 'vitest';
import { buildReport, sanitizeReport, toReportSpan, auditLeaks } from '../../../src/sanitize/index.js';
import { reproductionBlocks } from '../../../src/sanitize/report.js';
import { decideReport, reportDrafts, type SanitizeTarget, type ThreadSanitization } from '../../../src/backward/report.js';
import type { Attribution, Thread } from '../../../src/model/backward.js';
import { aThread, anAttribution } from './threads.js';

/** The report decision with no repository to ask: only the known SHAs count as commits. */
const reportWithoutRepository = (thread: Thread, attributions: readonly Attribution[], target: SanitizeTarget): ThreadSanitization =>
  decideReport(thread, attributions, target, reportDrafts(thread, attributions), new Set());

const GOLD = '3f9a2c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39';
const isCommitPrefix = (hex: string): boolean => GOLD.startsWith(hex);

describe('buildReport', () => {
  it('takes title, body and the comments before the first attribution', () => {
    const t = aThread('Crash on save', ['Saving crashes.', 'Same here on 2.1.', 'Bisected to 3f9a2c1.', 'Thanks, fixing.']);
    const r = buildReport(t, [anAttribution(t, 2, 'Bisected to 3f9a2c1.', '3f9a2c1')]);
    expect(r.text).toBe('Crash on save\n\nSaving crashes.\n\nSame here on 2.1.');
    expect(r.posts).toEqual([0, 1]);
    expect(toReportSpan(r, 1, 0, 4)).toEqual({ start: 32, end: 36 });
    expect(r.text.slice(32, 36)).toBe('Same');
    expect(toReportSpan(r, 2, 0, 4)).toBeNull();
  });
  it('takes only title and body when the attribution is in the body', () => {
    const t = aThread('Crash', ['Crashes. Bisected to 3f9a2c1.', 'me too']);
    expect(buildReport(t, [anAttribution(t, 0, 'Bisected to 3f9a2c1.', '3f9a2c1')]).text).toBe('Crash\n\nCrashes. Bisected to 3f9a2c1.');
  });
  it('keeps the reproduction blocks of a later post and deletes the rest of it', () => {
    const repro = 'I cut it down to a smaller reproducer:\n```c\nwidget_render(NULL, 0);\n```\nTakes 3s here, 1s before.';
    const t = aThread('Slow render', ['Rendering got slow.', 'Bisected to 3f9a2c1.', repro, 'Fixed by reverting it.']);
    const r = buildReport(t, [anAttribution(t, 1, 'Bisected to 3f9a2c1.', '3f9a2c1')]);
    expect(r.posts).toEqual([0]);
    const out = sanitizeReport(t, [anAttribution(t, 1, 'Bisected to 3f9a2c1.', '3f9a2c1')], { repo: 'acme/widget', isCommitPrefix });
    expect(out.text).toBe('Slow render\n\nRendering got slow.\n\n```c\nwidget_render(NULL, 0);\n```');
    expect(out.deletions.every((d) => d.detector === 'later-post')).toBe(true);
  });
  it('takes nothing from a later post that talks of a fix, names a commit in its block, or shows a diff', () => {
    const posts = [
      'Rendering got slow.',
      'Bisected to 3f9a2c1.',
      'This patch makes the reproducer fast again:\n```c\nwidget_render(buf, 0);\n```',
      'Smaller example:\n```\n$ widget --at 3f9a2c1d8e\n```',
      'Minimal example:\n```\n@@ -1,2 +1,2 @@\n-a\n+b\n```',
      'Here is a code sample:\n```\nwidget_render(buf, 1);\n```',
    ];
    const t = aThread('Slow render', posts);
    const a = anAttribution(t, 1, 'Bisected to 3f9a2c1.', '3f9a2c1');
    expect(reproductionBlocks(posts[2]!)).toEqual([]);
    expect(reproductionBlocks(posts[3]!)).toEqual([]);
    expect(reproductionBlocks(posts[4]!)).toEqual([]);
    expect(reproductionBlocks(posts[5]!)).toEqual([]);
    expect(buildReport(t, [a]).text).toBe('Slow render\n\nRendering got slow.');
  });
  it('takes no later blocks when there is no attribution (the whole thread is the report)', () => {
    const t = aThread('T', ['a', 'Smaller reproducer:\n```\nx()\n```']);
    const r = buildReport(t, []);
    expect(r.text).toBe('T\n\na\n\nSmaller reproducer:\n```\nx()\n```');
    expect(r.trims).toEqual([]);
  });
  it('takes the whole thread when there is no attribution', () => {
    expect(buildReport(aThread('T', ['a', 'b']), []).text).toBe('T\n\na\n\nb');
  });
});

describe('sanitizeReport', () => {
  it('removes the attribution sentence, SHAs, links and the transcript but keeps symptom, steps and versions', () => {
    const body = [
      'After upgrading widget from 2.3.0 to 2.4.0, `widget render in.svg` fails:',
      '```',
      'TypeError: Cannot read properties of undefined (reading "x")',
      '    at flatten (src/flatten.js:41:12)',
      '```',
      'Steps: 1. npm i widget@2.4.0 2. run the command above.',
      'git bisect says 3f9a2c1d8e is the first bad commit. It landed in #77 (https://github.com/acme/widget/pull/77).',
      'I also see the crash in my paste of HEAD~3f9a2c1d8e7b here.',
    ].join('\n');
    const t = aThread('render crashes with TypeError in 2.4.0', [body]);
    const a = anAttribution(t, 0, 'git bisect says 3f9a2c1d8e is the first bad commit.', '3f9a2c1d8e');
    const out = sanitizeReport(t, [a], { repo: 'acme/widget', isCommitPrefix, prNumbers: [77] });
    expect(out.text).toBe(
      [
        'render crashes with TypeError in 2.4.0',
        '',
        'After upgrading widget from 2.3.0 to 2.4.0, `widget render in.svg` fails:',
        '```',
        'TypeError: Cannot read properties of undefined (reading "x")',
        '    at flatten (src/flatten.js:41:12)',
        '```',
        'Steps: 1. npm i widget@2.4.0 2. run the command above.',
        ' It landed in  ().',
        'I also see the crash in my paste of HEAD~ here.',
      ].join('\n'),
    );
    expect(new Set(out.deletions.map((d) => d.detector))).toEqual(new Set(['attribution-sentence', 'pr-ref', 'repo-url', 'sha']));
    for (const d of out.deletions) expect(d.end).toBeGreaterThan(d.start);
    expect(auditLeaks(out.text, { gold: GOLD, repo: 'acme/widget' })).toEqual({ ok: true, findings: [] });
  });
  it('deletes the gold subject where the report quotes it', () => {
    const t = aThread('Paths broken', ['Paths broke after "Rework the path flattener" was merged.']);
    const out = sanitizeReport(t, [], { repo: 'acme/widget', isCommitPrefix, goldSubject: 'Rework the path flattener' });
    expect(out.text).toBe('Paths broken\n\nPaths broke after "" was merged.');
    expect(out.deletions).toEqual([{ start: 33, end: 58, detector: 'gold-subject' }]);
  });
});

describe('auditLeaks', () => {
  const target = { gold: GOLD, goldSubject: 'Rework the path flattener', repo: 'acme/widget' };
  it('finds a gold prefix anywhere, even glued to other characters', () => {
    const r = auditLeaks('build xx3f9a2c1d8yy and 3f9a2c is short', target);
    expect(r.ok).toBe(false);
    expect(r.findings).toEqual([{ code: 'gold-prefix', text: '3f9a2c1d8', start: 8, end: 17 }]);
  });
  it('finds repository commit and pull URLs, full SHAs, outcome phrasing and the subject', () => {
    const text = [
      'https://github.com/acme/widget/commit/abc1234',
      'https://github.com/acme/widget/pull/9',
      'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef',
      'abc1234 is the first bad commit',
      'Since rework the path flattener it fails',
    ].join('\n');
    expect(auditLeaks(text, target).findings.map((f) => f.code)).toEqual([
      'repo-commit-url',
      'repo-pull-url',
      'full-sha',
      'bisect-outcome',
      'bisect-outcome',
      'gold-subject',
    ]);
  });
  it('passes clean text and URLs of other repositories', () => {
    const text = 'Crash in https://github.com/other/lib/commit/3f9a2c0 since 2.4.0; trace 0xdeadbeef.';
    expect(auditLeaks(text, target)).toEqual({ ok: true, findings: [] });
  });
  it('checks only the repository-level rules when gold is unknown', () => {
    expect(auditLeaks('3f9a2c1d8e fails', { gold: null, repo: 'acme/widget' }).ok).toBe(true);
    expect(auditLeaks('bisected it to something', { gold: null, repo: 'acme/widget' }).ok).toBe(false);
  });
});

describe('decideReport leakage rejection', () => {
  it('rejects leak with the finding when a gold prefix survives the detectors, and passes the clean report', async () => {
    const body = 'Rendering `in.svg` fails with TypeError: path is undefined since 2.4.0. Steps: run `widget render in.svg`.';
    const target = { gold: GOLD, goldSubject: null, prNumbers: [], knownShas: [GOLD] };
    // Glued to a hex letter, no detector can tell where the hash starts; the audit still finds it.
    const leaky = aThread('Render fails', [`${body} Artifact: bundled3f9a2c1d8e.tar`, 'Bisected to 3f9a2c1.']);
    const out = reportWithoutRepository(leaky, [anAttribution(leaky, 1, 'Bisected to 3f9a2c1.', '3f9a2c1')], target);
    expect(out.report.text).toContain('bundled3f9a2c1d8e.tar');
    expect(out.audit.ok).toBe(false);
    expect(out.reasons).toEqual([{ code: 'leak', evidence: 'gold-prefix: 3f9a2c1d8e' }]);

    // Inside a name but set off by non-hex characters, the prefix is deleted and the name's rest stays.
    const named = aThread('Render fails', [`${body} Artifact: build_3f9a2c1d8e.tar`, 'Bisected to 3f9a2c1.']);
    const cut = reportWithoutRepository(named, [anAttribution(named, 1, 'Bisected to 3f9a2c1.', '3f9a2c1')], target);
    expect(cut.report.text).toContain('build_.tar');
    expect(cut.audit.ok).toBe(true);

    const clean = aThread('Render fails', [body, 'Bisected to 3f9a2c1.']);
    const ok = reportWithoutRepository(clean, [anAttribution(clean, 1, 'Bisected to 3f9a2c1.', '3f9a2c1')], target);
    expect(ok.audit).toEqual({ ok: true, findings: [] });
    expect(ok.reasons).toEqual([]);
  });
});
