import { describe, expect, it } from 'vitest';
import { extractAttributions } from '../../../src/backward/attribute.js';
import { detectGoldSubject, findSubject } from '../../../src/sanitize/gold-subject.js';
import { decideReport, reportDrafts, subjectFromBisectOutput, subjectFromRevertTitle, type SanitizeTarget, type ThreadSanitization } from '../../../src/backward/report.js';
import type { Attribution, Thread } from '../../../src/model/backward.js';
import { aThread } from '../backward/build.js';

/** The report decision with no repository to ask: only the known SHAs count as commits. */
const reportWithoutRepository = (thread: Thread, attributions: readonly Attribution[], target: SanitizeTarget): ThreadSanitization =>
  decideReport(thread, attributions, target, reportDrafts(thread, attributions), new Set());

const FULL = '8f14e45fceea167a5a36dedd4bea2543a1b2c3d4';

describe('the culprit subject without the repository', () => {
  it('is read from a bisect log line and from the commit block after the first-bad line', () => {
    const log = aThread(['Loader fails on nested groups', `\`\`\`\ngit bisect log\n# first bad commit: [${FULL}] Rework group loading (#77)\n\`\`\``]);
    expect(subjectFromBisectOutput(extractAttributions(log))).toBe('Rework group loading (#77)');
    const block = aThread(['Loader fails on nested groups', `\`\`\`\n${FULL} is the first bad commit\ncommit ${FULL}\nAuthor: A <a@example.com>\nDate:   Mon Jan 8 10:00:00 2024 +0000\n\n    Rework group loading\n\`\`\``]);
    expect(subjectFromBisectOutput(extractAttributions(block))).toBe('Rework group loading');
  });

  it('a squash subject is found with and without its pull-request number', () => {
    expect(findSubject('Title: Rework group loading', 'Rework group loading (#77)')).toHaveLength(1);
    expect(findSubject('see Rework group loading (#77) here', 'Rework group loading (#77)')).toEqual([{ start: 4, end: 30, text: 'Rework group loading (#77)' }]);
  });
});

describe('decideReport: the attribution post as a last resort for the symptom', () => {
  it('a title that is the culprit subject is deleted, and the stack trace above the bisect log in the attribution post is kept', async () => {
    const trace = 'at org.example.groups.Loader.read(Loader.java:42) ~[main/:?]';
    const thread = {
      ...aThread(['', `The nested groups in the sample file trigger it:\n\n\`\`\`\n${trace}\n\`\`\`\n\n\`\`\`\ngit bisect log\n# first bad commit: [${FULL}] Rework group loading\n\`\`\``]),
      title: 'Rework group loading',
    };
    const attributions = extractAttributions(thread);
    const out = reportWithoutRepository(thread, attributions, { gold: null, goldSubject: null, prNumbers: [], knownShas: [] });
    expect(out.reasons).toEqual([]);
    expect(out.report.text).toContain(trace);
    expect(out.report.text).not.toContain('Rework group loading');
    expect(out.report.text).not.toContain(FULL.slice(0, 7));
  });
});

describe('the first line of a subject git joined from several lines', () => {
  const subject = 'Render: drop the slow texture path from the trace Measured slower on every card we have';

  it('goes when quoted on its own, also with the space left before the closing quote', () => {
    for (const text of ['**"Render: drop the slow texture path from the trace "**\n\nThis commit garbles the sky.', 'Reverting "Render: drop the slow texture path from the trace" fixes it.', 'Render: drop the slow texture path from the trace\nhttps://example.org']) {
      const spans = findSubject(text, subject);
      expect(spans.map((m) => text.slice(m.start, m.end))).toContain('Render: drop the slow texture path from the trace');
    }
  });

  it('does not go when the text goes on with other words, or when less than the first line is quoted', () => {
    expect(findSubject('Render: drop the slow texture path from the trace and more', subject)).toEqual([]);
    expect(findSubject('"Render: drop the slow"', subject)).toEqual([]);
  });
});

describe('a revert title cut short and its rest in the description', () => {
  it('the subject is the title\'s part and the description\'s rest, and both halves go', () => {
    const thread = { ...aThread([`\u2026ier, and count the pages twice."\n\nThis reverts commit ${FULL}.\n\nIt breaks the page count on every job.`]), title: 'Revert "Printer: move the spool step up, so that jobs start earl\u2026' };
    const attributions = extractAttributions(thread);
    const subject = subjectFromRevertTitle(thread, attributions);
    expect(subject).toBe('Printer: move the spool step up, so that jobs start earlier, and count the pages twice.');
    const body = thread.posts[0]!.body;
    expect(findSubject(body, subject).map((m) => body.slice(m.start, m.end))).toContain('\u2026ier, and count the pages twice.');
    expect(findSubject(thread.title, subject).map((m) => thread.title.slice(m.start, m.end))).toContain('Printer: move the spool step up, so that jobs start earl\u2026');
  });

  it('a description that does not go on with the subject keeps its text', () => {
    expect(findSubject('\u2026and the tray jams as well.', 'Printer: move the spool step up, so that jobs start earlier')).toEqual([]);
  });
});

describe('the subject\'s words as what broke something', () => {
  const subject = 'Vertex id emulation by provoking vertex (#1237)';

  it('"Vertex id emulation breaks the shading on X" loses the phrase and keeps what broke', () => {
    const text = 'Vertex id emulation breaks the shading on the small laptop';
    const spans = detectGoldSubject(text, subject);
    expect(spans.map((m) => text.slice(m.start, m.end))).toEqual(['Vertex id emulation ']);
  });

  it('other words before the verb stay ("The new driver breaks rendering")', () => {
    expect(detectGoldSubject('The new driver breaks rendering on the small laptop', subject)).toEqual([]);
  });
});

describe('the subject without its area prefix', () => {
  it('goes wherever it stands when long, and only between quotes when short', () => {
    const long = 'tools: [2.1] revert loader.sh drop the log redirects"';
    expect(findSubject(long, 'tools: loader.sh drop the log redirects').map((m) => long.slice(m.start, m.end))).toEqual(['loader.sh drop the log redirects']);
    const quoted = 'The offending commit ("use ringbuf") makes the sound crackle.';
    expect(findSubject(quoted, 'mixer-lib: use ringbuf').map((m) => quoted.slice(m.start, m.end))).toEqual(['use ringbuf']);
    expect(findSubject('We use ringbuf in two places.', 'mixer-lib: use ringbuf')).toEqual([]);
  });

  it('a title that "Partly revert"s a subject gives the subject', () => {
    const thread = { ...aThread([`\u2026the frame, count the line height"\n\nThis reverts commit ${FULL}.\n\nIt breaks the placement of every caption.`]), title: 'Partly revert "captions: fix placement for text outside \u2026' };
    expect(subjectFromRevertTitle(thread, extractAttributions(thread))).toBe('captions: fix placement for text outside the frame, count the line height');
  });
});


describe('the pull request a revert names on a trailer line', () => {
  it('"Refs: #178" under "This reverts commit X" goes; an issue number in the prose stays', () => {
    const thread = { ...aThread([`This reverts commit ${FULL}.\n\nIt broke the multi-line prompt, see #179.\n\nRefs: #178`]), title: 'Revert "prompt: rework the line reader"' };
    const attributions = extractAttributions(thread);
    const out = reportWithoutRepository(thread, attributions, { gold: FULL, goldSubject: null, prNumbers: [], knownShas: [FULL] });
    expect(out.report.text).not.toContain('#178');
    expect(out.report.text).toContain('#179');
  });
});

describe('the pull request a revert pull request opens with', () => {
  it('"Reverts owner/name#63" opening a revert\'s description goes when a later post names the culprit; other numbers stay', () => {
    const thread = {
      ...aThread(['Reverts acme/widget#63', 'Tested it: the board freezes at boot with the governor change.', `The freeze comes from ${FULL}, which broke it. The rest of #63 is fine, see also #70.`], { authors: ['dev', 'tester', 'dev'] }),
      title: 'Revert "Governor tuning for the old board"',
    };
    const attributions = extractAttributions(thread);
    expect(attributions.map((a) => a.ref.value)).toContain(FULL);
    const out = reportWithoutRepository(thread, attributions, { gold: FULL, goldSubject: null, prNumbers: [], knownShas: [FULL] });
    expect(out.report.text).not.toContain('acme/widget#63');
    expect(out.report.text).toContain('board freezes at boot');
  });

  it('a description that only mentions reverting a pull request in passing keeps its number (guard: passes either way)', () => {
    const thread = { ...aThread(['The settings panel is blank. We should maybe revert acme/widget#63 later.', `It is blank since ${FULL}, which broke it.`], { authors: ['reporter', 'dev'] }), title: 'Blank panel' };
    const attributions = extractAttributions(thread);
    const out = reportWithoutRepository(thread, attributions, { gold: FULL, goldSubject: null, prNumbers: [], knownShas: [FULL] });
    expect(out.report.text).toContain('acme/widget#63');
  });
});

describe('the short tail of a cut revert title opening the description', () => {
  const subject = 'KAFKA-77: Let the reader pick the older wire format (no framing)';
  it('"… framing)\\"" opening a line is the subject\'s tail and goes; the same words inside a sentence stay', () => {
    const text = 'Revert "KAFKA-77: Let the reader pick the older wire format (no…\n\n… framing)"\n\nThis broke the nightly build.';
    const found = findSubject(text, subject).map((m) => text.slice(m.start, m.end));
    expect(found).toContain('… framing)');
    const prose = 'The reader now works… framing) is still odd.';
    expect(findSubject(prose, subject).map((m) => prose.slice(m.start, m.end))).not.toContain('… framing)');
  });
});

describe('the subject\'s words after "because of" or "due to"', () => {
  it('"does not capture because of the ring v3 support" goes for the subject "Added ring v3 support"; unrelated words after "because of" stay', () => {
    const title = 'capture lib 1.5 does not capture on old kernels because of ring v3 support';
    const found = detectGoldSubject(title, 'Added ring v3 support').map((m) => title.slice(m.start, m.end));
    expect(found).toEqual(['because of ring v3 support']);
    const other = 'capture fails on old kernels because of a missing socket option';
    expect(detectGoldSubject(other, 'Added ring v3 support')).toEqual([]);
  });
});
