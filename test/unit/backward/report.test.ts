import { describe, expect, it } from 'vitest';
import { commitPrefixTest, decideReport, hexRunsOf, knownCommitShas, reportDrafts, type SanitizeTarget } from '../../../src/backward/report.js';
import { aThread, anAttribution } from '../sanitize/threads.js';

const GOLD = '3f9a2c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39';
const SYMPTOM = 'Rendering `in.svg` fails with TypeError: path is undefined since 2.4.0. Steps: run `widget render in.svg`.';
const target: SanitizeTarget = { gold: GOLD, goldSubject: null, prNumbers: [], knownShas: [GOLD] };

describe('the report decided from hex facts', () => {
  const thread = aThread('Render fails', [`${SYMPTOM} Seen on build 77aa01b, not on c0ffee12.`, 'Bisected to 3f9a2c1.']);
  const attributions = [anAttribution(thread, 1, 'Bisected to 3f9a2c1.', '3f9a2c1')];
  const drafts = reportDrafts(thread, attributions);

  it('asks about every hex run of both drafts, once', () => {
    expect(hexRunsOf(drafts).sort()).toEqual(['3f9a2c1', '77aa01b', 'c0ffee12']);
  });

  it('deletes exactly the runs the repository named as commits, besides the known SHAs', () => {
    const none = decideReport(thread, attributions, target, drafts, new Set());
    expect(none.report.text).toContain('77aa01b');
    expect(none.report.text).toContain('c0ffee12');
    const one = decideReport(thread, attributions, target, drafts, new Set(['77aa01b']));
    expect(one.report.text).not.toContain('77aa01b');
    expect(one.report.text).toContain('c0ffee12');
    expect(one.reasons).toEqual([]);
    expect(one.report.deletions.some((d) => d.detector === 'sha')).toBe(true);
  });

  it('rejects a report left without an observable symptom', () => {
    const bare = aThread('It broke', ['It broke.', 'Bisected to 3f9a2c1.']);
    const a = [anAttribution(bare, 1, 'Bisected to 3f9a2c1.', '3f9a2c1')];
    const out = decideReport(bare, a, target, reportDrafts(bare, a), new Set());
    expect(out.reasons.map((r) => r.code)).toEqual(['insufficient-symptom']);
  });
});

describe('which hex runs name commits', () => {
  it('prefixes of known SHAs and the runs the repository answered, only as runs of the text', () => {
    const test = commitPrefixTest('see 3F9A2C1 and abcdef0 and 1234567', [GOLD], new Set(['abcdef0']));
    expect(['3f9a2c1', 'abcdef0', '1234567', 'abcdef01'].map(test)).toEqual([true, true, false, false]);
  });

  it('knows the resolved SHAs, the attributed hex and the gold without asking', () => {
    const thread = aThread('Render fails', [SYMPTOM, 'Bisected to 3f9a2c1.']);
    const known = knownCommitShas([anAttribution(thread, 1, 'Bisected to 3f9a2c1.', '3f9a2c1')], { ...target, knownShas: ['e'.repeat(40)] });
    expect(known).toEqual(['e'.repeat(40), '3f9a2c1', GOLD]);
  });
});
