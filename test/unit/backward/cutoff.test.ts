import { describe, expect, it } from 'vitest';
import { decideCutoff, foxtrotEvidence, NO_PULL_REFS, reportSeconds, type CommitFacts, type LineFacts, type PullRefs } from '../../../src/backward/cutoff.js';

const sha = (c: string): string => c.repeat(40);
const merge = (id: string, second: string, subject: string): CommitFacts => ({ sha: sha(id), parents: [sha('0'), sha(second)], subject });
const REPORT = new Date('2024-03-01T12:00:00Z');
const pulls = (heads: string[], tips: [number, string][] = []): PullRefs => ({ heads: new Set(heads.map(sha)), tips: new Map(tips.map(([n, c]) => [n, sha(c)])) });
const lines = (entries: Record<string, LineFacts>) => (start: string): LineFacts | undefined => entries[start];

describe('decideCutoff on hand-built facts', () => {
  it('takes the line cutoff when no merge above it is a foxtrot merge', () => {
    const facts = lines({ 'refs/heads/main': { cutoff: sha('c'), merges: [merge('m', 'f', 'merge topic'), merge('n', 'g', 'Merge pull request #4 from dev/x')] } });
    expect(decideCutoff('main', REPORT, pulls(['n']), facts)).toEqual({ sha: sha('c'), rule: 'first-parent-by-date', notes: [] });
  });

  it('says no commit is old enough, naming the line and the report time', () => {
    expect(decideCutoff('main', REPORT, NO_PULL_REFS, lines({ 'refs/heads/main': { cutoff: null, merges: [] } }))).toEqual({
      sha: null,
      rule: 'no-commit-before-report',
      notes: ['no commit on the line from refs/heads/main at or before 2024-03-01T12:00:00.000Z'],
    });
  });

  it('asks for the line it lacks: the tip first, then the second parent of a foxtrot merge', () => {
    expect(decideCutoff('main', REPORT, NO_PULL_REFS, lines({}))).toEqual({ missing: 'refs/heads/main' });
    const fox = merge('m', 's', "Merge branch 'main' into feature");
    const first = { 'refs/heads/main': { cutoff: sha('c'), merges: [fox] } };
    expect(decideCutoff('main', REPORT, NO_PULL_REFS, lines(first))).toEqual({ missing: sha('s') });
    const both = { ...first, [sha('s')]: { cutoff: sha('d'), merges: [] } };
    expect(decideCutoff('main', REPORT, NO_PULL_REFS, lines(both))).toEqual({
      sha: sha('d'),
      rule: 'foxtrot-corrected',
      notes: [`foxtrot merge ${sha('m')} (merge-message: "Merge branch 'main' into feature"): followed second parent ${sha('s')}`],
    });
  });

  it('follows the newest foxtrot merge, and every one after it, recording each', () => {
    const facts = lines({
      'refs/heads/main': { cutoff: sha('c'), merges: [merge('a', 'b', 'sync'), merge('m', 's', "Merge branch 'main' into x")] },
      [sha('b')]: { cutoff: sha('e'), merges: [merge('k', 'l', "Merge remote-tracking branch 'origin/main'")] },
      [sha('l')]: { cutoff: sha('g'), merges: [] },
    });
    const got = decideCutoff('main', REPORT, pulls(['a']), facts);
    expect(got).toMatchObject({ sha: sha('g'), rule: 'foxtrot-corrected' });
    const notes = 'notes' in got ? got.notes : [];
    expect(notes).toHaveLength(2);
    expect(notes[0]).toContain(`foxtrot merge ${sha('a')} (pull-request-head: "sync")`);
    expect(notes[1]).toContain(`foxtrot merge ${sha('k')} (merge-message`);
  });

  it('does not follow a second parent whose whole line is newer than the report (another history merged in): tries the next older one, else keeps the line', () => {
    const foreign = merge('a', 'b', "Merge remote-tracking branch 'plugin/main' into main");
    const older = merge('m', 's', "Merge branch 'main' of https://example.org/x into main");
    const facts = lines({
      'refs/heads/main': { cutoff: sha('c'), merges: [foreign, older] },
      [sha('b')]: { cutoff: null, merges: [merge('k', 'l', "Merge branch 'main' into main")] },
      [sha('l')]: { cutoff: null, merges: [] },
      [sha('s')]: { cutoff: sha('d'), merges: [] },
    });
    const got = decideCutoff('main', REPORT, NO_PULL_REFS, facts);
    expect(got).toMatchObject({ sha: sha('d'), rule: 'foxtrot-corrected' });
    const notes = 'notes' in got ? got.notes : [];
    expect(notes[0]).toBe(
      `foxtrot merge ${sha('a')} (merge-message: "Merge remote-tracking branch 'plugin/main' into main"): not followed, no commit on its second parent's line at or before 2024-03-01T12:00:00.000Z (another history merged in)`,
    );
    expect(notes[1]).toContain(`foxtrot merge ${sha('m')} (merge-message`);
    expect(notes[1]).toContain(`followed second parent ${sha('s')}`);
    // Without the older one, the line's own cutoff stands, the skipped merge said in the notes.
    const alone = lines({ 'refs/heads/main': { cutoff: sha('c'), merges: [foreign] }, [sha('b')]: { cutoff: null, merges: [] } });
    const kept = decideCutoff('main', REPORT, NO_PULL_REFS, alone);
    expect(kept).toMatchObject({ sha: sha('c'), rule: 'first-parent-by-date' });
    expect('notes' in kept ? kept.notes : []).toHaveLength(1);
    // No line old enough anywhere: still no cutoff.
    const none = lines({ 'refs/heads/main': { cutoff: null, merges: [foreign] }, [sha('b')]: { cutoff: null, merges: [] } });
    expect(decideCutoff('main', REPORT, NO_PULL_REFS, none)).toMatchObject({ sha: null, rule: 'no-commit-before-report' });
  });
});

describe('foxtrotEvidence', () => {
  it('names a merge whose subject merges the branch in, even when it is also a pull-request head', () => {
    expect(foxtrotEvidence(merge('m', 's', "Merge branch 'main' into feature"), 'main', pulls(['m']))).toBe('merge-message');
    expect(foxtrotEvidence(merge('m', 's', "Merge branch 'main' into feature"), 'trunk', NO_PULL_REFS)).toBeNull();
  });

  it('names a pull-request head with a neutral subject, not one without the ref', () => {
    expect(foxtrotEvidence(merge('m', 's', 'sync'), 'main', pulls(['m']))).toBe('pull-request-head');
    expect(foxtrotEvidence(merge('m', 's', 'sync'), 'main', pulls(['x']))).toBeNull();
  });

  it('never names a merge-button commit, nor the merge of the pull request its "(#N)" subject names', () => {
    expect(foxtrotEvidence(merge('m', 's', 'Merge pull request #9 from dev/feature'), 'main', pulls(['m']))).toBeNull();
    expect(foxtrotEvidence(merge('m', 's', 'Add feature (#7)'), 'main', pulls(['m', 's'], [[7, 's'], [8, 'm']]))).toBeNull();
    // The named pull request's head is another commit: the merge is not that PR's merge.
    expect(foxtrotEvidence(merge('m', 's', 'Add feature (#7)'), 'main', pulls(['m'], [[7, 't']]))).toBe('pull-request-head');
  });

  it('with the repository known, a branch merged "of" another repository is no evidence; "of" this one or a former name is', () => {
    const names = ['acme/widget', 'oldowner/widget'];
    const of = (url: string) => merge('m', 's', `Merge branch 'main' of ${url} into feature`);
    expect(foxtrotEvidence(of('https://github.com/someone/widget-fork'), 'main', NO_PULL_REFS, names)).toBeNull();
    expect(foxtrotEvidence(of('git@github.com:someone/widget-fork.git'), 'main', NO_PULL_REFS, names)).toBeNull();
    expect(foxtrotEvidence(of('https://github.com/Acme/Widget'), 'main', NO_PULL_REFS, names)).toBe('merge-message');
    expect(foxtrotEvidence(of('github.com:oldowner/widget.git'), 'main', NO_PULL_REFS, names)).toBe('merge-message');
    // Not a GitHub address, or no names known: the subject alone decides, as before.
    expect(foxtrotEvidence(of('https://git.example.org/widget'), 'main', NO_PULL_REFS, names)).toBe('merge-message');
    expect(foxtrotEvidence(of('https://github.com/someone/widget-fork'), 'main', NO_PULL_REFS)).toBe('merge-message');
  });

  it('never names a pull-request head that merged another line into the branch itself', () => {
    const head = (subject: string, branch = 'master') => foxtrotEvidence(merge('m', 's', subject), branch, pulls(['m']));
    // git subtree's merge of a squashed subproject: the second parent is the subproject's line.
    expect(head(`Merge commit '${'ab'.repeat(20)}' into update_vendored_lib`)).toBeNull();
    expect(head(`Merge commit '${'ab'.repeat(20)}' as 'vendor/lib'`)).toBeNull();
    // A release branch merged into the branch, said with or without "into <branch>" (git leaves it out on master).
    expect(head("Merge branch 'release-2.0' into master")).toBeNull();
    expect(head("Merge branch 'release-2.0' into main", 'main')).toBeNull();
    expect(head("Merge branch 'release-2.0'")).toBeNull();
    expect(head('Merge back Release 2.0.1')).toBeNull();
    // Names quoted, and the number of the pull request that carried the merge after them.
    expect(head("Merge 'widget-2.0.3' into 'master' (#812)")).toBeNull();
    expect(head("Merge 'widget-2.0.3' into 'topic' (#812)")).toBe('pull-request-head');
    // Into another branch, or without a branch named, the pull-request head still counts.
    expect(head("Merge branch 'release-2.0' into topic")).toBe('pull-request-head');
    expect(head("Merge branch 'release-2.0'", 'trunk')).toBe('pull-request-head');
  });

  it('with the repository known, a remote-tracking branch of a remote named after another project is no evidence', () => {
    const names = ['acme/widget-ng'];
    const tracking = (remote: string) => merge('m', 's', `Merge remote-tracking branch '${remote}/master'`);
    expect(foxtrotEvidence(tracking('refs/remotes/widget'), 'master', NO_PULL_REFS, names)).toBeNull();
    expect(foxtrotEvidence(tracking('parent'), 'master', NO_PULL_REFS, names)).toBeNull();
    for (const own of ['origin', 'upstream', 'refs/remotes/origin', 'acme', 'widget-ng']) expect(foxtrotEvidence(tracking(own), 'master', NO_PULL_REFS, names)).toBe('merge-message');
    expect(foxtrotEvidence(tracking('parent'), 'master', NO_PULL_REFS)).toBe('merge-message');
  });

  it('never names a commit with one parent', () => {
    expect(foxtrotEvidence({ sha: sha('m'), parents: [sha('0')], subject: "Merge branch 'main' into x" }, 'main', pulls(['m']))).toBeNull();
  });
});

describe('reportSeconds', () => {
  it('counts whole seconds and refuses a time that is no date', () => {
    expect(reportSeconds(new Date('2024-03-01T12:00:00.900Z'))).toBe(1709294400);
    expect(() => reportSeconds(new Date('not a date'))).toThrow(/report time Invalid Date is not a date/);
  });
});
