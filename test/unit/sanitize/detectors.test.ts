import { describe, expect, it } from 'vitest';
import { applyDeletions } from '../../../src/sanitize/delete.js';
import { detectEmbeddedShas, detectShas } from '../../../src/sanitize/sha.js';
import { detectRepoUrls } from '../../../src/sanitize/repo-urls.js';
import { detectPrRefs } from '../../../src/sanitize/pr-refs.js';
import { detectBisectOutcome, detectBisectTranscript } from '../../../src/sanitize/bisect.js';
import { detectGoldSubject } from '../../../src/sanitize/gold-subject.js';
import { sentenceAround } from '../../../src/sanitize/text.js';

const GOLD = '3f9a2c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39';
const OTHER = 'b0b0b0b0c1c1c1c1d2d2d2d2e3e3e3e3f4f4f4f4';
const known = (hex: string): boolean => GOLD.startsWith(hex) || OTHER.startsWith(hex);
const cut = (text: string, spans: Parameters<typeof applyDeletions>[1]): string => applyDeletions(text, spans).text;

describe('detectEmbeddedShas', () => {
  it('deletes the rest of a known SHA continued after an ellipsis (a long title cut in the middle of it), not other hex', () => {
    const text = `Repair the linter, broken by ${GOLD.slice(0, 12)}\u2026\n\n\u2026${GOLD.slice(12)}\n\nAlso \u2026${OTHER.slice(20)} and \u2026deadbeef00.`;
    expect(cut(text, detectEmbeddedShas(text, [GOLD]))).toBe(`Repair the linter, broken by \u2026\n\n\n\nAlso \u2026${OTHER.slice(20)} and \u2026deadbeef00.`);
  });
});

describe('detectShas', () => {
  it('deletes abbreviations that name a commit and every 40-hex, keeps other hex', () => {
    const text = `Broken since 3f9a2c1 (also b0b0b0b0c1). Build id deadbee0 and ${'a'.repeat(40)}.`;
    expect(cut(text, detectShas(text, known))).toBe('Broken since  (also ). Build id deadbee0 and .');
  });
  it('ignores hex glued to other word characters, 0x addresses and runs over 40', () => {
    const text = `segfault at 0x3f9a2c1d8e, id=x3f9a2c1d, sum ${'3f9a2c1d'.repeat(8)}`;
    expect(detectShas(text, known)).toEqual([]);
  });
  it('deletes the abbreviation inside git-describe style versions but keeps the version', () => {
    const text = 'widget v2.4.0-12-g3f9a2c1d (also 1.0.dev3+g3f9a2c1.d20240101, tag-gdeadbee0)';
    expect(cut(text, detectShas(text, known))).toBe('widget v2.4.0-12-g (also 1.0.dev3+g.d20240101, tag-gdeadbee0)');
  });
  it('matches upper-case hex by its lower-case form and names the detector', () => {
    expect(detectShas('see 3F9A2C1D8E', known)).toEqual([{ start: 4, end: 14, detector: 'sha' }]);
  });
});

describe('detectRepoUrls', () => {
  it('deletes commit, compare and pull URLs of the repository, with Markdown link text', () => {
    const text = [
      'Caused by https://github.com/acme/widget/commit/3f9a2c1d8e.',
      'Range: https://github.com/Acme/Widget/compare/v1.0...v1.1',
      'See [this PR](https://github.com/acme/widget/pull/77/files) and <https://ghe.corp/api/v3/repos/acme/widget/commits/3f9a2c1>',
      'Docs: https://github.com/acme/widget/tree/main/docs and https://github.com/acme/widget/blob/3f9a2c1d8e/src/a.c#L3',
      'Upstream: https://github.com/other/lib/commit/3f9a2c1d8e',
    ].join('\n');
    expect(cut(text, detectRepoUrls(text, 'acme/widget'))).toBe(
      [
        'Caused by .',
        'Range: ',
        'See  and ',
        'Docs: https://github.com/acme/widget/tree/main/docs and ',
        'Upstream: https://github.com/other/lib/commit/3f9a2c1d8e',
      ].join('\n'),
    );
  });
  it('does not treat a name prefix as the repository', () => {
    const text = 'https://github.com/acme/widget-extras/commit/3f9a2c1';
    expect(detectRepoUrls(text, 'acme/widget')).toEqual([]);
  });
});

describe('detectPrRefs', () => {
  it('deletes only the given pull requests, in every reference form', () => {
    const text = 'Regressed in #77 (acme/widget#77, GH-77); see also #7, #770 and other/lib#77 and &#77;';
    expect(cut(text, detectPrRefs(text, 'acme/widget', [77]))).toBe(
      'Regressed in  (, ); see also #7, #770 and other/lib#77 and &#77;',
    );
  });
  it('deletes nothing without pull-request numbers', () => {
    expect(detectPrRefs('#77', 'acme/widget', [])).toEqual([]);
  });
});

describe('detectBisectTranscript', () => {
  it('deletes a full bisect run and the first-bad block, keeping the text around it', () => {
    const text = [
      'Steps: run `widget --render x.svg`; it crashes with SIGSEGV.',
      '```',
      '$ git bisect start',
      '$ git bisect bad v1.1',
      '$ git bisect good v1.0',
      'Bisecting: 12 revisions left to test after this (roughly 4 steps)',
      '[b0b0b0b0c1c1c1c1d2d2d2d2e3e3e3e3f4f4f4f4] Tidy parser',
      '3f9a2c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39 is the first bad commit',
      'commit 3f9a2c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39',
      'Author: Jane Doe <jane@example.com>',
      'Date:   Tue Jan 2 10:00:00 2024 +0000',
      '',
      '    Rework the path flattener',
      '',
      '    Longer explanation.',
      '',
      ' src/flatten.c | 12 ++++++------',
      ' 1 file changed, 6 insertions(+), 6 deletions(-)',
      '```',
      'Error: segmentation fault (core dumped)',
    ].join('\n');
    expect(cut(text, detectBisectTranscript(text))).toBe(
      ['Steps: run `widget --render x.svg`; it crashes with SIGSEGV.', '```', '```', 'Error: segmentation fault (core dumped)'].join('\n'),
    );
  });
  it('deletes bisect-log lines and the skipped-commits outcome with its candidates', () => {
    const text = [
      '> # bad: [3f9a2c1d8e] Rework the path flattener',
      '> # good: [b0b0b0b0c1] Tidy parser',
      "There are only 'skip'ped commits left to test.",
      'The first bad commit could be any of:',
      '3f9a2c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39',
      'b0b0b0b0c1c1c1c1d2d2d2d2e3e3e3e3f4f4f4f4',
      'We cannot bisect more!',
      'Still fails on 2.3.1.',
    ].join('\n');
    expect(cut(text, detectBisectTranscript(text))).toBe('Still fails on 2.3.1.');
  });
  it('stops the first-bad block at prose and keeps an indented stack trace after a paragraph', () => {
    const text = ['3f9a2c1d8e is the first bad commit', 'It only happens on ARM.', '', '    at render (flatten.c:10)'].join('\n');
    expect(cut(text, detectBisectTranscript(text))).toBe(['It only happens on ARM.', '', '    at render (flatten.c:10)'].join('\n'));
  });
  it('leaves text that only mentions bisect', () => {
    expect(detectBisectTranscript('I will try git-bisecting it tomorrow.\nThe bisect log is long.')).toEqual([]);
  });
});

describe('detectBisectOutcome', () => {
  it('deletes the sentence that states the outcome and nothing else', () => {
    const text = 'Rendering x.svg crashes in 1.1. I bisected it down to the flattener rework. Version 1.0 was fine.\nThe culprit is the new parser!';
    expect(cut(text, detectBisectOutcome(text))).toBe('Rendering x.svg crashes in 1.1.  Version 1.0 was fine.\n');
  });
  it('keeps intent to bisect', () => {
    expect(detectBisectOutcome('I could bisect to find the cause if needed. Bisecting now.')).toEqual([]);
  });
});

describe('detectGoldSubject', () => {
  it('deletes a quoted subject case-insensitively and ignores short generic subjects', () => {
    const text = 'Since "rework the path flattener" landed, paths break. Fix typo.';
    expect(cut(text, detectGoldSubject(text, 'Rework the path flattener'))).toBe('Since "" landed, paths break. Fix typo.');
    expect(detectGoldSubject(text, 'Fix typo')).toEqual([]);
  });
});

describe('sentenceAround', () => {
  it('does not split on version numbers or file extensions', () => {
    const text = 'Fine in 1.2.3. Broken in 1.3.0 with x.svg files! Next.';
    const at = text.indexOf('x.svg');
    expect(text.slice(sentenceAround(text, at, at + 5).start, sentenceAround(text, at, at + 5).end)).toBe('Broken in 1.3.0 with x.svg files!');
  });

  it('bounds a sentence by ". " and line breaks, not by dots inside tokens', () => {
    const text = 'First one. Version v1.2 is fixed in #42 here.\nNext line';
    const at = text.indexOf('#42');
    const s = sentenceAround(text, at, at + 3);
    expect(text.slice(s.start, s.end)).toBe('Version v1.2 is fixed in #42 here.');
  });

  it('leaves the line break out of a sentence, CRLF included', () => {
    const text = 'First line\r\nfixed in #42 without a stop\r\nNext line';
    const at = text.indexOf('#42');
    const s = sentenceAround(text, at, at + 3);
    expect(text.slice(s.start, s.end)).toBe('fixed in #42 without a stop');
  });

  it('ends a sentence at any white space after a stop, not only a blank', () => {
    const text = 'Fine before.\tBroken since abc1234 landed.';
    const at = text.indexOf('abc1234');
    const s = sentenceAround(text, at, at + 7);
    expect(text.slice(s.start, s.end)).toBe('Broken since abc1234 landed.');
  });
});
