/**
 * Short real-world report shapes: a one-line blame whose symptom shares the attribution's
 * sentence, a pull request named beside its commit, a hypothesis under test, and a commit
 * abbreviation made only of digits. Threads written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { extractAttributions, extractWithCandidates } from '../../../src/backward/attribute.js';
import { screenResolved, screenThread } from '../../../src/backward/attribution-screen.js';
import { sanitizeThread } from '../../../src/backward/chain.js';
import { decideReport, narrowAttributions, reportDrafts, type SanitizeTarget } from '../../../src/backward/report.js';
import { hasObservableSymptom } from '../../../src/backward/symptom.js';
import { detectEmbeddedShas } from '../../../src/sanitize/sha.js';
import type { Thread } from '../../../src/model/backward.js';
import { aThread } from './build.js';

const FULL = '5d41402abc4b2a76b9719d911017c592e1f0b7c3';

function titled(title: string, bodies: readonly string[], authors?: readonly string[]): Thread {
  return { ...aThread(bodies, authors ? { authors } : {}), title };
}

function decide(thread: Thread) {
  const attributions = extractAttributions(thread);
  const target: SanitizeTarget = { gold: FULL, goldSubject: null, prNumbers: [], knownShas: [FULL] };
  return { attributions, out: decideReport(thread, attributions, target, reportDrafts(thread, attributions), new Set()) };
}

/** The screen's reason codes for a thread. */
const codesOf = (thread: Thread) => screenThread(thread, extractAttributions(thread)).reasons.map((r) => r.code);
/** The references a thread attributes. */
const found = (thread: Thread) => extractAttributions(thread).map((a) => a.ref.value);

describe('observable symptom of a short report', () => {
  it.each([
    ['an effect and what it hit', 'Regression\n\nThis update broke the tooltips'],
    ['an identifier with digits', 'arm64.s broken by commit'],
    ['a named test that fails', 'SPARC-7 test fails since commit'],
    ['emphasis around a word', 'Hotfix\n\nbroke _interactive_ staging.'],
  ])('%s: enough', (_name, text) => {
    expect(hasObservableSymptom(text).ok).toBe(true);
  });

  it.each([
    ['a fix title alone', 'Fix recent regression'],
    ['a revert title alone', 'Revert breaking commit\n\nThis reverts commit'],
    ['an effect with nothing it hit', 'Hotfix broken commit'],
    ['a regression reintroduced', 'Fix regression that was introduced in commit'],
  ])('%s: not enough', (_name, text) => {
    expect(hasObservableSymptom(text).ok).toBe(false);
  });
});

describe('a symptom told in the attribution sentence itself', () => {
  it('keeps the effect and deletes the reference when the sentence is all the report has', () => {
    const thread = titled('Undo history regression', [
      `Follow-up to the review comment on https://github.com/acme/widget/commit/${FULL}\nThat commit caused losing every undo step taken after a save`,
    ]);
    const { out } = decide(thread);
    expect(out.reasons).toEqual([]);
    expect(out.report.text).toContain('losing every undo step taken after a save');
    expect(out.report.text).not.toContain(FULL.slice(0, 7));
    expect(out.audit.ok).toBe(true);
  });

  it('still refuses a blame with nothing observable around it', () => {
    const thread = titled('Fix regression', [`Fix regression that was introduced in commit ${FULL}`]);
    expect(decide(thread).out.reasons.map((r) => r.code)).toEqual(['insufficient-symptom']);
  });

  it('deletes the whole sentence when the report says enough without it', () => {
    const thread = titled('Saving a file twice drops the undo history', [
      'Steps: open any file, edit it, save, edit again and save. Undo is greyed out afterwards on 4.2.',
      `That commit caused it: ${FULL}`,
    ]);
    const { out } = decide(thread);
    expect(out.reasons).toEqual([]);
    expect(out.report.text).not.toContain('That commit caused it');
  });

  it('narrows only prose attributions, never pasted bisect output', () => {
    const thread = titled('Crash on start', [`\`\`\`\n${FULL} is the first bad commit\n\`\`\``]);
    const attributions = extractAttributions(thread);
    expect(attributions.length).toBeGreaterThan(0);
    const narrowed = narrowAttributions(attributions);
    attributions.forEach((a, i) => {
      if (a.kind === 'bisect-output') expect(narrowed[i]!.sentence).toEqual(a.sentence);
      else expect(narrowed[i]!.sentence.end - narrowed[i]!.sentence.start).toBeLessThanOrEqual(a.sentence.end - a.sentence.start);
    });
  });
});

describe('the pull request a culprit came from', () => {
  it('is not another issue the attribution might answer', () => {
    const thread = titled('Index build 3x slower', [
      `I bisected which commit makes the index build go from 20s to 65s. Turns out it's ${FULL} from #412.`,
    ]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.reasons.map((r) => r.code)).not.toContain('symptom-mismatch');
    expect(screen.decision).toBe('candidate');
  });

  it('another issue named in the same sentence still sends the thread to review', () => {
    const thread = titled('Index build 3x slower', [
      `I bisected the slowdown reported in #377. Turns out it's ${FULL}.`,
    ]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.reasons.map((r) => r.code)).toContain('symptom-mismatch');
  });
});

describe('a hypothesis still under test', () => {
  it.each([
    ['one outcome of a probe', `Probe build: cumulative HEAD = 1a2b3c4d. Tests whether 1a2b3c4d alone reproduces the hang. RED = 1a2b3c4d is the introducer. GREEN = the bug is elsewhere.`],
    ['a condition', `If 1a2b3c4d is the culprit, reverting it on top of main should make the hang go away.`],
  ])('%s is no attribution', (_name, body) => {
    const thread = titled('Hang when closing the second window', [body]);
    expect(extractAttributions(thread)).toEqual([]);
    const { candidates } = extractWithCandidates(thread);
    expect(candidates.some((c) => c.evidence.some((e) => e.code === 'conditional'))).toBe(true);
  });

  it('a revert tried under a condition still counts for the reverted commit', () => {
    const thread = titled('Hang when closing the second window', ['The hang started with 1a2b3c4d: if I revert 1a2b3c4d on main, closing works again.']);
    expect(extractAttributions(thread).map((a) => a.ref.text)).toContain('1a2b3c4d');
  });
});

describe('a commit abbreviation of digits only', () => {
  it('is a candidate when the words before call it a commit', () => {
    const thread = titled('Fix regression in 7406870', ['Fix regression in 7406870: the export dialog no longer lists PDF.']);
    expect(extractAttributions(thread).map((a) => a.ref.value)).toContain('7406870');
  });

  it.each([
    ['a date', 'It was introduced by 20240105 nightly.'],
    ['a plain number', 'It fails on 1234567 rows.'],
  ])('%s stays a number', (_name, body) => {
    expect(extractAttributions(aThread([body])).filter((a) => a.ref.type === 'sha')).toEqual([]);
  });
});

function names(thread: Thread): string[] {
  return extractAttributions(thread).map((a) => a.ref.text);
}

describe('more ways people name the first bad commit', () => {
  it.each([
    ['the first commit where it shows', `I learned to bisect. The first commit where the error comes up is ${FULL}.`],
    ['a slowdown beginning at a commit', `Startup takes 50 seconds beginning at this commit ${FULL}; a test run used to take 9.`],
    ['it happens after a commit', `issue happen after commit https://github.com/acme/widget/commit/${FULL}`],
    ['a problem that starts with a commit', `problem starts with commit ${FULL}`],
    ['the commit that break it', `I tried to find which commit. Here is the commit that break the sound: ${FULL}.`],
  ])('%s', (_name, body) => {
    expect(names(titled('Sound crackles in the menu', [body]))).toContain(body.includes('https://') ? `https://github.com/acme/widget/commit/${FULL}` : FULL);
  });

  it('a commit whose parent is said to work is the first bad one', () => {
    const thread = titled('Commit 9c8b7a6 does not link', [
      'Commit 9c8b7a6 gives this error when linking the server:\n\nundefined reference to `font_open`\n\nReverting back to the parent commit links with no issue.',
    ]);
    const { candidates } = extractWithCandidates(thread);
    expect(candidates.find((c) => c.post === 0)?.evidence.map((e) => e.code)).toContain('parentGood');
    expect(names(thread)).toContain('9c8b7a6');
  });

  it('a title that says it stopped working with a commit', () => {
    const thread = titled('With commit a1b2c3d, the image is not building anymore', ['The build stops at step 12: /etc/cron.d/cleanup does not exist.']);
    expect(names(thread)).toContain('a1b2c3d');
  });
});

describe('more look-alikes', () => {
  it.each([
    ['the start of a bisect still running', 'Bisecting from 9060f2a now, which does not crash.'],
    ['the good side said after the reference', 'My build on ab9bbce31 worked fine, the crash is from the last three hours.'],
    ['a commit that does not crash', 'I can run 1a2b3c4d, which does not crash at all.'],
  ])('%s', (_name, body) => {
    expect(extractAttributions(titled('Crash in level 2', ['Crash when entering level 2.', body]))).toEqual([]);
  });

  it.each([
    ['a bet', `I'd bet the regression was caused by ${FULL} and not by the other change.`],
    ['an impression', `It seems to me that the faulty change is ${FULL}.`],
  ])('%s hedges the attribution', (_name, body) => {
    const thread = titled('Crash in level 2', ['Crash when entering level 2.', body]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.reasons.map((r) => r.code)).toContain('hedged');
  });

  it('a long aside in parentheses does not hedge the statement it follows', () => {
    const thread = titled('Sidebar misaligned', [
      'The sidebar sections overlap when vertical alignment is on.',
      `It's a regression coming from the following commit ${FULL} (note for next time: please add the hash of the culprit, and maybe revert it first).`,
    ]);
    const [a] = extractAttributions(thread);
    expect(a?.hedged).toBe(false);
  });

  it('a reporter who finds the problem was on his end retracts', () => {
    const thread = titled(`Build failure after commit ${FULL.slice(0, 10)}`, [
      `The build stopped completing after commit https://github.com/acme/widget/commit/${FULL}\n\nundefined reference to \`window_close_cb\``,
      'You seem to have an older copy of one file.',
      'Right, I had only updated one of the three files. Closing, the problem was on my end.',
    ]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.reasons.map((r) => r.code)).toContain('retracted');
  });

  it('many generic words without anything specific are no symptom', () => {
    expect(hasObservableSymptom('Partial revert of \n\nA regression was introduced in commit: \nPR: #1009').ok).toBe(false);
  });
});

describe('deleting the blame, keeping the effect', () => {
  it('the blaming words of the next sentence go with a bare link', () => {
    const thread = titled('Build is broken', [`https://github.com/acme/widget/commit/${FULL}\n\nThis commit broke the build as the log import is not used.`]);
    const { out } = decide(thread);
    expect(out.report.text).not.toContain('This commit broke');
    expect(out.report.text).toContain('as the log import is not used');
  });

  it('the effect after "commit X causes" stays', () => {
    const thread = titled('Game freezes', [`I found that using the ${FULL.slice(0, 7)} commit causes the game to freeze in the forest, blocking any progress. Please remove it.`]);
    const { out } = decide(thread);
    expect(out.report.text).toContain('the game to freeze in the forest');
    expect(out.report.text).not.toContain('using the');
    expect(out.report.text).not.toContain(FULL.slice(0, 7));
  });
});

describe('a Gerrit Change-Id', () => {
  it('is deleted like a SHA, with its label', () => {
    const thread = titled('Build fails: undefined symbol', [
      `Building master fails with: undefined: todoImp\n\nLooks like commit ${FULL} caused the issue.\nSee also changeid I${'ab12'.repeat(10)}\n\nBuilding from the commit before works.`,
    ]);
    const { out } = decide(thread);
    expect(out.report.text).not.toMatch(/I(?:ab12){10}/);
    expect(out.report.text).not.toMatch(/changeid/i);
    expect(out.report.deletions.some((d) => d.detector === 'change-id')).toBe(true);
  });
});

describe('a hedge that someone else confirms', () => {
  it('is no longer a guess when the author of the change owns up', () => {
    const thread = titled('Build fails: undefined symbol', [
      `Building master fails with: undefined: todoImp\n\nLooks like commit ${FULL} caused the issue. Building from the commit before works.`,
      'Not your environment: I broke it. I just fixed it in 0f1e2d3c4b5a.',
    ], );
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.reasons.map((r) => r.code)).not.toContain('hedged');
  });

  it('stays a guess when the reply names another commit as the cause', () => {
    const thread = titled('Build fails: undefined symbol', [
      `Building master fails with: undefined: todoImp\n\nLooks like commit ${FULL} caused the issue.`,
      'Confirmed that it fails, but the cause is 0f1e2d3c4b5a.',
    ]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.decision).not.toBe('candidate');
  });
});

describe('owning up versus taking back', () => {
  it('"my bad" from the author of the change is an admission, not a retraction', () => {
    const thread = titled('Token check fails again', [
      `The check fails again when the base ref is missing. This line regressed in https://github.com/acme/widget/commit/${FULL}, which brought the bug back.`,
      'Oh no, my bad - no idea why I restored it.',
    ]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.reasons.map((r) => r.code)).not.toContain('retracted');
  });

  it('"my mistake" over a testing mix-up still takes the result back', () => {
    const thread = titled('Token check fails again', [
      'The check fails again when the base ref is missing.',
      `Bisected to ${FULL.slice(0, 8)}.`,
      'My mistake, I mixed up the builds.',
    ]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.reasons.map((r) => r.code)).toContain('retracted');
  });

  it('"some time after X" and "the last commit where it was fine was X" are the good side', () => {
    const thread = titled('Audio stutters', [
      'Audio stutters in the intro of every level. The last commit that I tried where the audio was fine was 4c5d6e7f8a9b. Some time after commit 4c5d6e7f8a9b it started.',
    ]);
    expect(extractAttributions(thread)).toEqual([]);
  });
});

describe('what a commit introduced, where a hash sits, who still asks', () => {
  it('a test introduced by a commit is no regression it introduced', () => {
    const thread = titled('CI failing with an odd traceback', [`The test introduced in this commit ${FULL} fails on CI in a weird way; need to investigate.`]);
    expect(extractAttributions(thread)).toEqual([]);
  });

  it('a hash inside another kind of link is no commit reference', () => {
    const thread = titled('Fix bisection failed', [`Regression bisection of https://dashboard.example.org/bug?id=${FULL} failed with an error.`]);
    expect(extractAttributions(thread)).toEqual([]);
  });

  it('a bisection of the fix is no culprit', () => {
    const thread = titled('Fix bisection failed', ['Fix bisection of this bug failed.', `bisecting fixing commit since ${FULL}, first bad commit ${FULL}`]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.decision).not.toBe('candidate');
  });

  it('"my bad" quoted back by the one who named the commit retracts nothing', () => {
    const thread = titled('Build fails after 46dee26719', [
      'Builds fine at 4e38301. Most likely the offending commit is 46dee26719. Build log attached: missing file x11-helper.c.',
      'My bad, fixed in 0f1e2d3c4b5a6978.',
      '> My bad, fixed in 0f1e2d3c4b5a6978.\n\nI can confirm that fixes it.',
    ]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.reasons.map((r) => r.code)).not.toContain('retracted');
  });

  it('someone else still asking for a proper bisect unsettles the attribution', () => {
    const thread = titled('Meter not drawn', [
      'The special meter is not drawn any more in level 1.',
      `Still fine on 1a2b3c4d5e6f; it broke with ${FULL.slice(0, 7)}.`,
      'Could you do a proper bisect? Guessing from two builds is not enough.',
    ]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.reasons.map((r) => r.code)).toContain('hedged');
  });

  it('a revert that says the commit introduced a regression names it', () => {
    const thread = titled('Revert "Use explicit imports"', [
      `This reverts commit ${FULL}.\n\nThe reason for the revert is that the commit in question introduced a regression where names exported before are no longer exported.`,
    ]);
    expect(names(thread)).toContain(FULL);
  });
});

describe('revert pull requests, subjects and embedded hashes', () => {
  it('a revert title quoting the reverted subject, cut short, is deleted with the answer', () => {
    const thread = titled('Revert "Renderer: pick the sampler from the texture type in TEX and …"', [
      `This reverts commit ${FULL}. This commit had broken rendering in most 3D scenes (the castle, the forest, the menus).`,
    ]);
    const { out } = decide(thread);
    expect(out.reasons).toEqual([]);
    expect(out.report.text).not.toContain('pick the sampler');
    expect(out.report.text).toContain('broken rendering in most 3D scenes');
    expect(out.report.text).not.toContain('This commit had');
  });

  it('a prefix of the culprit inside a file name goes, the rest of the name stays', () => {
    const thread = titled('Hang at the copyright screen', [
      `A commit https://github.com/acme/widget/commit/${FULL} cause the game hanging during loading, at the copyright screen.\n\n[game_log_${FULL.slice(0, 7)}_bad.zip](https://example.org/files/1/log.zip)`,
    ]);
    const { out } = decide(thread);
    expect(out.report.text).not.toContain(FULL.slice(0, 7));
    expect(out.report.text).toContain('game_log__bad.zip');
  });

  it('the effect of a commit named after a symptom of its own stays', () => {
    const thread = titled('Memory usage regression', [
      `The memory leak "fix" from [${FULL.slice(0, 7)}](https://github.com/acme/widget/commit/${FULL}) resulted in 30% to 50% higher memory usage on Chrome in my tests.`,
    ]);
    const { out } = decide(thread);
    expect(out.reasons).toEqual([]);
    expect(out.report.text).toContain('30% to 50% higher memory usage on Chrome');
    expect(out.report.text).not.toContain(FULL.slice(0, 7));
  });

  it('a denial after the reference is no attribution', () => {
    const thread = titled('Configure stops with a dependency error', [`My commit ${FULL} did not cause this. The package list is misspelled.`]);
    expect(extractAttributions(thread)).toEqual([]);
  });

  it('a problem that went away by itself retracts the revert experiment', () => {
    const thread = titled(`Revert "batched cleanups"`, [
      `This reverts commit ${FULL}.\n\nThe dashboard claims this broke the Windows build, so let's see what happens when we revert it.`,
      'The error... went away by itself. Weird.',
    ]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.decision).not.toBe('candidate');
  });

  it('a commit subject pasted in parentheses after a reference is no causal word', () => {
    const thread = titled('Crackling sound', ['The main branch crackles.', `${FULL} (Introduce the master volume, #842) also doesn't crackle.`]);
    expect(extractAttributions(thread)).toEqual([]);
  });
});

describe('a reference corrected as a typo', () => {
  it('is set aside; the corrected commit is the culprit', () => {
    const thread = titled('Simulator does not boot', [
      'Booting the image stops with: bad memory read at 0x7f0012.',
      'I think the regression came in with commit d4fe7c1. Checking out the previous version, 3b1c0de, it builds and runs.',
      'Sorry, typo: it came in with d4f67c1.',
      `Broken by d4f67c1a0b1c2d3e4f5061728394a5b6c7d8e9f0`,
    ], ['reporter', 'dev', 'dev', 'dev']);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.reasons.map((r) => r.code)).not.toContain('competing');
    expect(screen.decision).toBe('candidate');
  });

  it('a second commit named without any correction still competes', () => {
    const thread = titled('Simulator does not boot', [
      'Booting the image stops with: bad memory read at 0x7f0012.',
      'The regression came in with commit d4fe7c1.',
      'Broken by d4f67c1a0b1c2d3e4f5061728394a5b6c7d8e9f0',
    ]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.reasons.map((r) => r.code)).toContain('competing');
  });
});

describe('titles', () => {
  it('a title about a bisect in progress blames nothing', () => {
    expect(extractAttributions(titled('[bisect probe 3] cumulative through 1a2b3c4d', ['Probe build for the hang. Do not merge.']))).toEqual([]);
  });

  it('a title blaming a commit keeps what it broke', () => {
    const thread = titled('Commit 4fb3a95 breaks configure on FreeBSD', ['configure stops with: syntax error near unexpected token on FreeBSD 13.']);
    const { out } = decide(thread);
    expect(out.report.text).toContain('breaks configure on FreeBSD');
    expect(out.report.text).not.toContain('4fb3a95');
  });
});

describe('more of set-aside wordings', () => {
  it('another project named before "commit X" keeps X out', () => {
    const thread = titled(`[Bug] The libfoo.js commit ${FULL} caused a bug`, ['Popups render empty since updating.']);
    expect(extractAttributions(thread)).toEqual([]);
  });

  it('the repository itself named before "commit X" does not', () => {
    const thread = { ...titled('Popups render empty', [`The widget commit ${FULL} caused popups to render empty.`]), repo: 'acme/widget' };
    expect(names(thread)).toContain(FULL);
  });

  it('a pull request linked as where the crash is explained is a pointer, the reverted commit the culprit', () => {
    const thread = titled('Revert "Hardpoint UI fixes (#416)"', [
      `This reverts commit ${FULL} from #416\n\nAs it causes crash as explained in https://github.com/acme/widget/pull/416#pullrequestreview-1`,
    ]);
    expect(names(thread)).toEqual([FULL]);
  });

  it('"bisectability" is no bisect', () => {
    const thread = titled('Build broken', ['The stack.yaml was correctly updated in c5287e9. For future bisectability, bump bounds in the same commit.']);
    expect(extractAttributions(thread)).toEqual([]);
  });

  it('"build is broken on master since X" blames X', () => {
    expect(names(titled('Build is broken in master', [`As CI shows, build is broken on master since ${FULL}`]))).toContain(FULL);
  });

  it('"It\'s X" with the subject pasted after it answers the sentence before', () => {
    const thread = titled('/bin/mandelbrot SIGSEGV', [`Thanks to git bisect I have located the first commit with broken mandelbrot. It's \`${FULL}\`    MIPS platform root bus driver.`]);
    expect(names(thread)).toContain(`${FULL}`);
  });

  it('a long lead-in and the effect stay; the tie, the reference and nothing else go', () => {
    const thread = titled('Windows pile up', [
      `On my laptop, a fully updated system with the intel drivers, running a build after commit ${FULL.slice(0, 7)} causes windows to show up on top of each other at small sizes.`,
    ]);
    const { out } = decide(thread);
    expect(out.report.text).toContain('causes windows to show up on top of each other');
    expect(out.report.text).not.toContain(FULL.slice(0, 7));
  });
});

describe('sentences that localise the culprit by its good neighbour', () => {
  it('"the parent commit compiles" and "downgrading to X fixes it" go with the answer', () => {
    const thread = titled('Commit 9c8b7a6 does not link', [
      'Commit 9c8b7a6 gives this error when linking the server:\n\nundefined reference to `font_open`\n\nReverting back to the parent commit compiles with no issue.',
    ]);
    const { out } = decide(thread);
    expect(out.report.text).toContain('undefined reference to `font_open`');
    expect(out.report.text).not.toContain('parent commit compiles');

    const later = titled('Linking fails', ['undefined reference to `font_open` when linking the server. Downgrading to 1a2b3c4 fixes the issue.', `Bisected to ${FULL}.`]);
    const second = decide(later).out;
    expect(second.report.text).toContain('undefined reference to `font_open`');
    expect(second.report.text).not.toContain('Downgrading to');
  });

  it('stay when nothing is attributed', () => {
    const thread = titled('Linking fails', ['undefined reference to `font_open`. Downgrading to 2.3 fixes the issue.']);
    const { out } = decide(thread);
    expect(out.report.text).toContain('Downgrading to 2.3 fixes the issue');
  });
});

describe('set-9 shapes, in other words', () => {
  it('"bisects to commit" with the hash after a blank line', () => {
    expect(names(titled('Benchmark tool fails', ['- Open Tools > Benchmark\n- Press Run\n- Observe the failure message\n\nProblem bisects to commit\n\n' + FULL]))).toContain(FULL);
  });

  it('a title that speaks of breakage on a commit', () => {
    expect(names(titled('Game breakage on commit 15da0af', ['Kart racing shows garbage textures since that commit.']))).toContain('15da0af');
  });

  it('"the commit that came right before" is the good side', () => {
    const thread = titled('Perf regression', [
      `A perf regression happened at commit ${FULL.slice(0, 7)}. At the commit acf0718b that came right before the regression, counting took 3 seconds; now it takes 9.`,
    ]);
    expect(names(thread)).toEqual([FULL.slice(0, 7)]);
  });

  it('a revert whose title says what the commit broke blames it, with the quoted subject deleted', () => {
    const thread = titled('Revert "Speed up startup" — breaks desktop icons and the close button', [`This reverts commit ${FULL.slice(0, 7)} ("Speed up startup").\n\nVerified: reverting this commit restores the icons.`]);
    const { attributions, out } = decide(thread);
    expect(attributions.map((a) => a.ref.text)).toContain(FULL.slice(0, 7));
    expect(out.report.text).toContain('breaks desktop icons and the close button');
    expect(out.report.text).not.toContain('Speed up startup');
    expect(out.report.text).not.toContain('reverting this commit restores');
  });

  it('a revert with -m 1 reverts a merge', () => {
    const thread = titled('Revert commit 359248829c using -m 1 to work around issue 383', ['Pre-revert the avatar freezes; post-revert it moves.']);
    expect(extractAttributions(thread)).toEqual([]);
  });

  it('"just in case it breaks again" blames nothing', () => {
    expect(extractAttributions(titled('Just in case it breaks again', [`This reverts commit ${FULL}.`]))).toEqual([]);
  });

  it('"After commit X, the tests hang" keeps the clause after the comma', () => {
    const { out } = decide(titled('Tests hang', [`After commit ${FULL}, the workflow tests (make test) hang.`]));
    expect(out.report.text).toContain('the workflow tests (make test) hang');
    expect(out.report.text).not.toContain('After commit');
  });

  it('a longer hash starting with the attributed abbreviation is deleted too', () => {
    const thread = titled('Perf regression', [`A perf regression happened at commit ${FULL.slice(0, 7)}: counting went from 3 s to 9 s.\n\nAt commit ${FULL.slice(0, 8)}, it takes 9 seconds.`]);
    const { out } = decide(thread);
    expect(out.report.text).not.toContain(FULL.slice(0, 7));
  });
});

describe('a revert reason read from the title only for a revert', () => {
  it('a confirmation under a blaming title does not cut the later reproduction off', () => {
    const thread = titled(`linker: change \`${FULL.slice(0, 7)}\` causing regression`, [
      '',
      `Confirmed: dropping \`${FULL.slice(0, 7)}\` lets the link step finish.`,
      'It also shows up with the unit tests, steps to trigger:\n\n```\n$ make unit\nrelocate.c:88: relocation out of range: R_X86_64_PC32\n```',
    ]);
    const { out } = decide(thread);
    expect(out.report.text).toContain('relocation out of range');
    // The reply is no attribution of its own, so the later post is part of the report, not only its block.
    expect(out.report.text).toContain('It also shows up with the unit tests');
    expect(out.report.text).not.toContain(FULL.slice(0, 7));
  });
});

describe('set-10 shapes, in other words', () => {
  it('"no longer works after X" in a title blames X', () => {
    expect(names(titled('`app.prompt` no longer works after b37be05', ['The prompt closes at once.']))).toContain('b37be05');
  });

  it('"no longer happens after X" still reads X as the fix', () => {
    expect(names(titled('Crash on exit', ['Crash on exit when a tab is pinned.', 'The crash no longer happens after 7c6d5e4f.']))).toEqual([]);
  });

  it('a post blaming "your last commit" and linking one commit names it; the blaming words go', () => {
    const thread = titled('Styles missing on master', [`your last commit broke the layout, no stylesheet is served any more: https://github.com/acme/widget/commit/${FULL}\n\nWas that on purpose?`]);
    const { attributions, out } = decide(thread);
    expect(attributions.map((a) => a.ref.value)).toContain(FULL);
    expect(out.report.text).not.toContain('your last commit broke');
    expect(out.report.text).toContain('the layout');
  });

  it('"fixing up commit X" blames X', () => {
    expect(names(titled('Fix start-up crash', ['It crashed at start-up on my machine. Effectively fixing up commit f0c1023.']))).toContain('f0c1023');
  });

  it('a revert whose reason is a belief is hedged', () => {
    const thread = titled('Revert "remove the reporting flag"', [`This reverts commit ${FULL}.\n\nTests fail in CI since this merged. Revert the commit that I believe is causing the failures.`]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.reasons.map((r) => r.code)).toContain('hedged');
  });

  it('a commit that is an update of a dependency from upstream blames the dependency', () => {
    const thread = titled('Renderer crash', ['Segfault in the renderer.', `The regression started with ${FULL}.`, `${FULL} is an update to the render library from upstream. If it started then, it is a regression in that library itself.`]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.decision).not.toBe('candidate');
  });
});

describe('set-11 shapes, in other words', () => {
  it('lower-case and "Reverted:" revert titles quote the reverted subject, which goes', () => {
    for (const title of ['revert "ui: share the header with the landing pages (#4957)"', '[Mobile] Reverted: Moved the toolbar patches into the bytecode step']) {
      const thread = titled(title, [`This reverts commit ${FULL}.\n\nReverting as it breaks the sidebar spacing and the tabs on narrow screens.`]);
      const { out } = decide(thread);
      expect(out.report.text).not.toMatch(/share the header|Moved the toolbar patches/);
      expect(out.report.text).toContain('breaks the sidebar spacing');
    }
  });

  it('"it was caused by the changes in this commit" goes with the answer; "It causes crashes" keeps its subject', () => {
    const thread = titled('Revert "Storage: new folder picker"', [
      `This reverts commit ${FULL}.\n\nThe folder button started crashing after a recent change; reverting fixes it, and I found that it was caused by the changes in this commit.`,
    ]);
    const { out } = decide(thread);
    expect(out.report.text).not.toContain('caused by the changes in this commit');
    expect(out.report.text).toContain('The folder button started crashing');

    const second = decide(titled('Crash on old phones', [`This commit reverts these changes https://github.com/acme/widget/commit/${FULL}\n\nIt causes crashes on older phones.`])).out;
    expect(second.report.text).toContain('It causes crashes on older phones');
  });

  it('a revert whose reason "seems to" or is only a suspect is hedged; the author saying sorry for the break clears it', () => {
    for (const reason of ['This commit seems to break the build everywhere.', 'There is no evidence yet that it broke the nightly build; it was named as a possible suspect.']) {
      const thread = titled('Revert "pool the connections"', [`This reverts commit ${FULL}.\n\n${reason}`]);
      expect(screenThread(thread, extractAttributions(thread)).reasons.map((r) => r.code)).toContain('hedged');
    }
    const owned = titled('Revert "pool the connections"', [`This reverts commit ${FULL}.\n\nSeems to break the Windows build.`, 'Sorry for the break, and thanks for the revert.']);
    expect(screenThread(owned, extractAttributions(owned)).reasons.map((r) => r.code)).not.toContain('hedged');
  });
});

describe('a report that opens with the commit its trouble dates from', () => {
  it('"Since <commit URL>" under a title saying what stopped working is the attribution', () => {
    const thread = titled('Tab completion of branch names does not work', [`Since https://github.com/acme/widget/commit/${FULL}\n\nTyping \`:Br ma<TAB>\` leaves the line as it is instead of completing it to \`:Br main\`.`]);
    const { attributions, out } = decide(thread);
    expect(attributions.map((a) => a.ref.value)).toEqual([FULL]);
    expect(out.reasons).toEqual([]);
    expect(out.report.text).not.toContain(FULL.slice(0, 7));
    expect(out.report.text).toContain('instead of completing it');
  });

  it('"After X …" in a report that says nothing broke is no attribution', () => {
    const thread = titled('Question about the plugin API', [`After ${FULL.slice(0, 9)} the hooks are registered in a different file. Where should new hooks go now?`]);
    expect(extractAttributions(thread)).toEqual([]);
  });
});

describe('set-12 and set-13 shapes, in other words', () => {

  it.each([
    ['"this began with commit X"', `The nightly tests are red. This began with commit ${FULL.slice(0, 12)}, see the CI log.`],
    ['"narrowed it down to X"', `After updating, the Windows build stopped compiling. I narrowed it down to ${FULL}.`],
    ['"X is where the margins got broken"', `The settings page lost its margins.\n\n${FULL} is where the margins got broken.`],
    ['"tracked the crash down to X"', `Opening an empty project crashes at start. I tracked the crash down to ${FULL.slice(0, 10)}.`],
  ])('%s is an attribution', (_name, body) => {
    expect(found(aThread([body]))).toEqual([body.includes(FULL) ? FULL : expect.stringMatching(/^5d41402abc/)]);
  });

  it('"X is the first bad commit; Y works." names one culprit: Y is the good side', () => {
    const thread = aThread(['The importer stopped reading gzip files.', `I bisected it: ${FULL} is the first bad commit; 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b works.`]);
    expect(codesOf(thread)).not.toContain('competing');
    expect(found(thread)).toEqual([FULL]);
  });

  it('"After X, if not before" is an upper bound, not a first bad commit', () => {
    const thread = titled('Tests fail on the old runtime', [`Starting from commit ${FULL}, if not earlier, the parser tests fail on the old runtime.`]);
    expect(codesOf(thread)).toContain('hedged');
  });

  it('"Since your change to the grammar in commit X, …" dates the breakage from X', () => {
    const thread = titled('Highlighting broken in the last update', [`Since your change to the grammar file in commit ${FULL}, the string colours are all wrong in every theme.`]);
    expect(found(thread)).toEqual([FULL]);
  });

  it('the reporter calling the failure temporary retracts the blame', () => {
    const thread = titled('Download error 502', [`Error 502 while downloading the release archive.\n\nCause: commit https://github.com/acme/widget/commit/${FULL}`, 'Can you try again? Maybe the server had a hiccup.', 'Right, it was a temporary error on the server side; it works now. Closing.']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('someone else who does not have the problem at all sends the thread to review, unless it is settled later', () => {
    const body = `Pasting a table freezes the editor. It started with https://github.com/acme/widget/commit/${FULL}`;
    const disputed = titled('Editor freezes on paste', [body, 'Please reinstall your dependencies. We do not see this freeze on any of our machines.'], ['reporter', 'maintainer']);
    expect(screenThread(disputed, extractAttributions(disputed)).decision).toBe('review');
    const settled = titled('Editor freezes on paste', [body, 'I cannot reproduce this with the sample file.', 'Now I can reproduce it with a larger table, and reverting that commit fixes it.'], ['reporter', 'maintainer', 'maintainer']);
    expect(screenThread(settled, extractAttributions(settled)).decision).toBe('candidate');
    const gone = titled('Editor freezes on paste', [body, 'I cannot see the freeze on the current master build.'], ['reporter', 'maintainer']);
    expect(screenThread(gone, extractAttributions(gone)).decision).toBe('candidate');
  });

  it('a tree URL at a commit is a reference: "the only commit that shows the crash is <tree URL>"', () => {
    const thread = titled('Crash when loading the second level', [
      'The game crashes when loading the second level.',
      `I tried the three commits of that day, and of those the only commit that shows the crash is this one:\n\nhttps://github.com/acme/widget/tree/${FULL}\n\nThe level loads when I use this commit:\n\nhttps://github.com/acme/widget/tree/1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b`,
    ]);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).toEqual([]);
  });

  it('"Rollback commit X" with a stated malfunction blames X; "Roll back to X" names the good side', () => {
    const rollback = titled(`Rollback commit ${FULL}`, ['Malfunction occurred because the old rewrite rules were applied by mistake']);
    expect(found(rollback)).toEqual([FULL]);
    const target = titled(`Rollback to ${FULL.slice(0, 7)}`, [`Roll back the main line to commit ${FULL.slice(0, 7)} to mitigate the current regression.`]);
    expect(found(target)).toEqual([]);
  });

  it('a revert of a workaround whose cause got fixed elsewhere blames nothing', () => {
    const thread = titled('Revert "Tweak the spec to avoid a bug in the lexer gem"', [`This reverts commit ${FULL}.\n\nThe lexer gem got fixed in the meantime.`]);
    expect(found(thread)).toEqual([]);
  });

  it('the answer goes, the symptom stays: "re-introduced …", "hangs caused by the changes in commit X from owner/name#73", a ticket-prefixed revert title', () => {
    const reintroduced = decide(titled('Fixes undone', [`Commit ${FULL} re-introduced many bugs that were fixed before.`])).out;
    expect(reintroduced.report.text).toContain('re-introduced many bugs');
    expect(reintroduced.report.text).not.toContain(FULL.slice(0, 7));

    const passive = decide(titled('Fix hangs introduced in acme/widget#73', [`This fixes the hangs caused by the changes in commit ${FULL.slice(0, 8)} from acme/widget#73`])).out;
    expect(passive.report.text).toContain('This fixes the hangs');
    expect(passive.report.text).not.toMatch(/#73|5d41402a/);

    const prefixed = decide(titled('#0: Revert "Rename the queue workers (#2164)"', [`This reverts commit ${FULL}.\n\nThis commit broke the profiler job.\n\nThe profiler job broke.`])).out;
    expect(prefixed.report.text).not.toContain('Rename the queue workers');
    expect(prefixed.report.text).toContain('The profiler job broke');
  });

  it('"broken by Pull 412" in an attributed thread: the pull request goes, the verb stays', () => {
    const { out } = decide(titled('Fix the Windows project files broken by Pull 412', [`Breaking commit: ${FULL}\n\nThe unittest target no longer links on Windows.`]));
    expect(out.report.text).not.toMatch(/Pull 412/);
    expect(out.report.text).toContain('project files broken');
  });
});

describe('set-14 and set-15 shapes, in other words', () => {

  it('"several times" in a symptom is no list of suspects; "one of the recent commits" still is', () => {
    expect(found(titled('Idempotent init', [`Commit ${FULL} introduced a bug where init can run several times in one process.`]))).toEqual([FULL]);
    expect(codesOf(titled('Build failure', [`I think one of the recent commits broke linking on macOS (head: ${FULL}).`]))).not.toEqual([]);
  });

  it('"`git revert X` helped", "In this commit X\\n\\ncausing …", "fails after that commit\\n\\n(X)" and "commit X makes …" name the culprit', () => {
    expect(found(titled('Module does not build', ['`make install` stops with no targets.', `\`git revert ${FULL}\` helped to build the module again.`]))).toEqual([FULL]);
    expect(found(titled('No rule to make target', [`In this commit ${FULL}\n\ncausing the install step to break.`]))).toEqual([FULL]);
    expect(found(titled('Two plotting tests fail', [`The two polar plotting tests fail after that commit\n\n(${FULL})`]))).toEqual([FULL]);
    expect(found(titled('Regression: menu colours', [`commit ${FULL.slice(0, 8)} makes the pause menu show wrong colours`]))).toEqual([FULL.slice(0, 8)]);
  });

  it('a revert title that names a crash blames the reverted commit', () => {
    expect(found(titled(`Current main crashes at start - need to revert commit ${FULL}`, ['(template left empty)']))).toEqual([FULL]);
  });

  it('"the build from X is perfectly fine" is the good side', () => {
    expect(found(titled('Missing header', ['The build stops: header not found.', `The build from ${FULL} commit is perfectly fine (I rebuilt it to check the toolchain did not get broken).`]))).toEqual([]);
  });

  it('a hedge in another clause of a revert reason does not hedge the blame; one in the blaming sentence before a link does', () => {
    const revert = titled('Revert "Rename the images"', [`This reverts commit ${FULL}.\n\nThe image names should maybe change, but that commit renames only half of them and breaks the build: I checked with a clean cache that might otherwise hide it.`]);
    expect(codesOf(revert)).not.toContain('hedged');
    const seemingly = titled('Site down', [`This commit seemingly broke the site:\n\nhttps://github.com/acme/widget/commit/${FULL}`]);
    expect(codesOf(seemingly)).toContain('hedged');
  });

  it('a bisect hedged in parentheses that name another suspect stays hedged, and thanks for it back nothing', () => {
    const thread = titled('Wrong colours with the GL backend', [
      'The GL backend shows wrong colours.',
      `A bisect points to ${FULL} being the source (or at least #4512, I may have botched the bisect).`,
      'Thanks for the bisect! Pinging the author.',
    ]);
    expect(codesOf(thread)).toContain('hedged');
  });

  it('a plain title stays the attribution when a later post only guesses at the same commit', () => {
    const thread = titled(`installer installs nothing since commit ${FULL.slice(0, 7)}`, [
      'The installer copies nothing now; the category list is empty.',
      `Perhaps earlier releases had a bug that caused this, near the commit you name (\`${FULL.slice(0, 7)}\`).`,
    ]);
    expect(codesOf(thread)).not.toContain('hedged');
  });

  it('a confirmation that also has the problem, and not with an older compiler, is no dispute', () => {
    const thread = titled('compile fix', [`commit ${FULL} breaks my compile with the new compiler. Fixed here.`, "Confirmed: the 2024 toolchain shows it here too, and I don't have it with the 2022 one."], ['dev', 'user']);
    expect(screenThread(thread, extractAttributions(thread)).decision).toBe('candidate');
  });

  it('the answer goes and the symptom stays: a quoted subject after "Commit", "After commit X there are …", "this commit: X\\ncauses …", a link line then a new sentence', () => {
    const quoted = decide(titled('Commit "Set the default port (#875)" breaks tests', [`Two socket tests now fail after that commit\n\n(${FULL})`])).out;
    expect(quoted.report.text).not.toContain('Set the default port');
    const noComma = decide(titled('Fix failing tests', [`After commit ${FULL} there are three red tests in the storage module. This PR fixes them.`])).out;
    expect(noComma.report.text).toContain('there are three red tests');
    const colon = decide(titled('Latest commit introduces errors', [`this commit: ${FULL.slice(0, 7)}\ncauses many errors when opening a file`])).out;
    expect(colon.report.text).toContain('causes many errors');
    const linked = titled('Rendering broken on Linux', [`From commit https://github.com/acme/widget/commit/${FULL}\nThis line forcing the GL driver breaks the rendering on Linux.`]);
    expect(found(linked)).toEqual([FULL]);
    const lines = decide(linked).out;
    expect(lines.report.text).toContain('breaks the rendering on Linux');
    for (const r of [quoted, noComma, colon, lines]) expect(r.report.text).not.toContain(FULL.slice(0, 7));
  });
});

describe('links to issues of other repositories', () => {
  it('a blame that links a downstream report of the breakage is no other bug of this repository', () => {
    const thread = titled('tab-width option missing on the old editor', [
      `[This recent commit](https://github.com/acme/widget/commit/${FULL}) calls \`tab-width-set\`, which only the new editor has, [breaking everyone on the old one](https://github.com/other/distro/issues/9254#issuecomment-1).`,
    ]);
    expect(screenThread(thread, extractAttributions(thread)).decision).toBe('candidate');
  });

  it('an issue of this repository linked beside the blame still asks for review', () => {
    const thread = titled('tab-width option missing on the old editor', [
      `[This recent commit](https://github.com/acme/widget/commit/${FULL}) calls \`tab-width-set\`, which only the new editor has, [breaking everyone on the old one](https://github.com/acme/widget/issues/77).`,
    ]);
    expect(screenThread(thread, extractAttributions(thread)).decision).toBe('review');
  });
});

describe('set-16 and set-17 shapes, in other words', () => {

  it('"Reason <URL>", "X is the issue", "the source of the hangs" and "after pulling your commit X" name the culprit', () => {
    expect(found(titled('Windows: unit tests red', [`The last few commits broke the Windows job. The unit tests fail there. Reason https://github.com/acme/widget/commit/${FULL}, which dropped the Windows skip.`]))).toEqual([FULL]);
    expect(found(titled(`Found the source of the hangs: commit ${FULL} is the issue`, ['The viewer hangs on every large file since the last update.']))).toEqual([FULL]);
    expect(found(titled('Build error', [`After pulling your commit ${FULL}, the build stops with an error: the module Foo_Pkg is undefined.`]))).toEqual([FULL]);
  });

  it('"Since [Commit X](URL) some tests no longer pass" is an attribution', () => {
    expect(found(titled('Tests fail on one platform', [`Since [Commit ${FULL.slice(0, 7)}](https://github.com/acme/widget/commit/${FULL}) the socket tests no longer pass on the old platform.`]))).toEqual([FULL]);
  });

  it('the revision being tested is no culprit ("testing at X produces …"), so a later bisect does not compete', () => {
    const thread = titled('Crashes at head', [`I can't tell where the problem came in, but testing at ${FULL.slice(0, 7)} produces crashes in half the samples.`, 'A `git bisect` run ends on 1a2b3c4 as the first bad commit.']);
    expect(codesOf(thread)).not.toContain('competing');
  });

  it('a gold subject quoted without its closing full stop and pull-request number goes', () => {
    const thread = titled('Revert "Fix the race in the socket pool"', ['That change brought a regression; the race is rare anyway.\n\nThis reverts commit 5d41402.']);
    const attributions = extractAttributions(thread);
    const target: SanitizeTarget = { gold: FULL, goldSubject: 'Fix the race in the socket pool. (#701)', prNumbers: [], knownShas: [FULL] };
    const out = decideReport(thread, attributions, target, reportDrafts(thread, attributions), new Set());
    expect(out.report.text).not.toContain('Fix the race in the socket pool');
  });

  it('the symptom after the reference stays: "broken since this commit X making the build fail", "In commit X, these lines … are not compatible"', () => {
    const making = decide(titled('Old runtime support', [`The old runtime is supported on paper but broken since this commit https://github.com/acme/widget/commit/${FULL} making the install step fail.`])).out;
    expect(making.report.text).toContain('making the install step fail');
    const inCommit = decide(titled('Syntax errors on the old runtime', [`In commit ${FULL}, these new lines in the graph module are not compatible with the old runtime and raise syntax errors.`])).out;
    expect(inCommit.report.text).toContain('these new lines in the graph module are not compatible');
    for (const r of [making, inCommit]) expect(r.report.text).not.toContain(FULL.slice(0, 7));
  });
});

describe('set-18 and set-19 shapes, in other words', () => {
  const GOOD = '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b';

  it('"stepping back to Y, the commit just before it" is the good side, not a competitor', () => {
    const thread = titled('Linting got slower', [`After a long search I narrowed it down to https://github.com/acme/widget/commit/${FULL} which made the run take a minute longer. Stepping back to https://github.com/acme/widget/commit/${GOOD}, the commit just before it, the run is fast again.`]);
    expect(codesOf(thread)).not.toContain('competing');
    expect(found(thread)).toEqual([FULL]);
  });

  it('"could have broken" and "potential regression" hedge; a revert of a fix that did not fix blames nothing', () => {
    const could = titled('Revert "bump the runner images"', [`This reverts commit ${FULL}.\n\nIt could have broken our nightly packaging, so let us revert it and watch.`]);
    expect(screenThread(could, extractAttributions(could)).decision).not.toBe('candidate');
    expect(codesOf(titled('Release job red', [`Commit ${FULL} could have broken our nightly packaging.`]))).toContain('hedged');
    expect(codesOf(titled(`Potential slowdown caused by commit ${FULL.slice(0, 7)}`, ['The nightly timing job flagged the parser benchmarks.']))).toContain('hedged');
    expect(found(titled('Revert "retry the upload on the main branch (#1810)"', [`This reverts commit ${FULL}.\nIt does not fix the uploads to staging, so I am reverting and looking further.`]))).toEqual([]);
  });

  it('"too broken to patch" is a revert reason; "broken for me by … in X" is a blame', () => {
    expect(found(titled('Revert "Fail the build on any generator error (#1183)"', [`It is just too broken to mend in place. Starting over.\n\nThis reverts commit ${FULL}.`]))).toEqual([FULL]);
    expect(found(titled('Build broken', [`Our build is broken for us by an undefined \`lgamma\` in https://github.com/acme/widget/commit/${FULL}`]))).toEqual([FULL]);
  });

  it('the symptom stays: "X by @someone introduced …", "a commit X that has caused …", "<symptom> in X", and a six-character prefix of the gold goes', () => {
    const byUser = decide(titled('Old bugs back', [`Commit ${FULL} by @someone introduced three bugs that were fixed before.`])).out;
    expect(byUser.report.text).toContain('introduced three bugs');
    const relative = decide(titled('Slower runs', [`I narrowed it down to a commit ${FULL} that has caused the linter to take twenty seconds longer.`])).out;
    expect(relative.report.text).toContain('that has caused the linter to take twenty seconds longer');
    const tail = decide(titled('Build broken', [`Our build is broken for us by an undefined \`lgamma\` in https://github.com/acme/widget/commit/${FULL}`])).out;
    expect(tail.report.text).toContain('Our build is broken for us by an undefined');
    const six = decide(titled(`Revert ${FULL.slice(0, 6)}, as it is causing a crash at start`, [`This reverts ${FULL}`])).out;
    for (const r of [byUser, relative, tail, six]) expect(r.report.text).not.toContain(FULL.slice(0, 6));
  });
});

describe('set-20 and set-21 shapes, in other words', () => {

  it('a post that is only a commit link (with a comment anchor) under "… issue with last commit" names it', () => {
    const thread = titled('Linux link issue with last commit', [`https://github.com/acme/widget/commit/${FULL}#r1234567`, 'Backed out for now.']);
    expect(found(thread)).toEqual([FULL]);
  });

  it('"With commit X compiling fails" blames X; "A crash got fixed in this commit\\nX" names the fix', () => {
    expect(found(titled('Compile issue', [`With commit ${FULL} compiling fails with an unknown type error.`]))).toEqual([FULL]);
    expect(found(titled('Add a test for the empty query', [`A crash got fixed in this commit\n${FULL}\nbut no test covered it.`]))).toEqual([]);
  });

  it('bisect output whose first bad commit is a merge is a range, and "to be verified" hedges it', () => {
    const thread = titled('Resume fails on 6.2', [
      'Resume from suspend fails.',
      `Early bisect result, to be verified\n\n\`\`\`\n${FULL} is the first bad commit\ncommit ${FULL}\nMerge: 1a2b3c4d5e6f 7a8b9c0d1e2f\nAuthor: Someone <someone@example.org>\n\n    Merge tag 'timers-2024'\n\`\`\``,
    ]);
    expect(codesOf(thread)).toContain('range-only');
  });

  it('the answer goes: "Reverting only that commit restores …", a title "Revert 226" when the culprit came from PR #226', () => {
    const localised = decide(titled('Demo never exits', [`After pulling commit ${FULL}, the demo program hangs after it finishes. Reverting only that commit restores a clean exit.`])).out;
    expect(localised.report.text).not.toContain('Reverting only that commit');
    const revert = decide(titled('Revert 226', [`This reverts commit ${FULL} (from PR #226): it broke the index merge.`])).out;
    expect(revert.report.text).not.toMatch(/\b226\b/);
  });
});

describe('"commit X is broken"', () => {
  it('in a post naming no other commit and no bisect, blames X', () => {
    expect(found(titled('configure warns about a missing Makefile.am', [`commit ${FULL} is broken, as the Makefile.am of the sample config is missing and configure stops with an error.`]))).toEqual([FULL]);
  });

  it('beside another commit that works, is an end of the range', () => {
    expect(found(titled('Tiles vanish', [`commit ${FULL} is broken, commit 1a2b3c4d5e6f works; I have not looked further.`]))).toEqual([]);
  });
});

describe('a lead-in sentence and pasted `git log` output under it', () => {
  it('"The slowdown was introduced by the change below:" then a git log header blames the commit', () => {
    const thread = titled('Search box loses focus', [
      'Typing in the search box drops focus after the first letter.',
      `The slowdown was introduced by the change below:\n\ncommit ${FULL}\nAuthor: Some One <one@example.org>\nDate:   Mon May 4 10:00:00 2020 +0200\n\n    Debounce the input handler`,
    ]);
    expect(found(thread)).toEqual([FULL]);
  });

  it('"I was looking at this commit:" then a git log header names no culprit', () => {
    const thread = titled('Search box loses focus', [
      'Typing in the search box drops focus after the first letter.',
      `I was reading the history around this commit:\n\ncommit ${FULL}\nAuthor: Some One <one@example.org>\nDate:   Mon May 4 10:00:00 2020 +0200\n\n    Debounce the input handler`,
    ]);
    expect(found(thread)).toEqual([]);
  });
});

describe('"bad commit" as a label', () => {
  it('of the one commit a post names blames it', () => {
    expect(found(titled('Linker error on mingw', ['The mingw build stopped linking three days ago.', `bad commit (by the log): ${FULL.slice(0, 9)}`]))).toEqual([FULL.slice(0, 9)]);
  });

  it('beside a good commit is an end of the range', () => {
    expect(found(titled('Linker error on mingw', ['The mingw build stopped linking three days ago.', `good commit: 1a2b3c4d5e6f\nbad commit: ${FULL.slice(0, 9)}`]))).toEqual([]);
  });
});

describe('what a commit introduced is a thing', () => {
  it('"worked around with a newer parser version introduced in X" names no culprit', () => {
    const thread = titled('Shader validation warning', ['The validation layer warns at every frame on the new drivers.', `Worked around now with a newer parser version introduced in commit ${FULL}, so I am closing this.`]);
    expect(found(thread)).toEqual([]);
  });
});

describe('a guess that is acted on', () => {
  const guess = `I believe the blurry labels were introduced by commit ${FULL}.`;

  it('a later revert of it, with nothing said against the revert, confirms it', () => {
    const thread = titled('Labels are blurry', ['All labels in the side panel render blurry since yesterday.', guess, 'Thanks, reverted it for now; the labels look sharp again.']);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).toEqual([]);
  });

  it('a revert that did not help leaves it a guess', () => {
    const thread = titled('Labels are blurry', ['All labels in the side panel render blurry since yesterday.', guess, 'I reverted it locally but it did not help, same result.']);
    expect(codesOf(thread)).toContain('hedged');
  });

  it('"the problematic commit is X, probably …" followed by "closed by reverting the patch" is an attribution', () => {
    const thread = titled('Icons blurry on the nightly', [
      'The icons of the nightly build look very blurry.',
      `The problematic commit is ${FULL}, probably the scaling code differs on this platform. Looking into it.`,
      'Closed by reverting the patch; the icons were blurry on the other platforms too.',
    ]);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).toEqual([]);
  });
});

describe('a guess quoted back in an e-mailed reply', () => {
  it('stays a guess: the quote is the guesser\'s words split by the quote\'s line breaks', () => {
    const thread = titled('Import fails', [
      'Importing the old database fails on the new release.',
      `I spotted this commit that looks related, https://github.com/acme/widget/commit/${FULL} so I tried the previous release and the import works, so it looks like a new regression.`,
      `Will look at it.\n\nOn Mon, Someone wrote:\n\n> I spotted this commit that looks related,\n> https://github.com/acme/widget/commit/${FULL}\n> so I tried the previous release and the import works,\n> so it is a new regression.`,
    ]);
    expect(codesOf(thread)).toContain('hedged');
  });
});

describe('a revert that makes way for the change redone', () => {
  it('does not confirm a guess about the change', () => {
    const thread = titled('Pasted rows lose their order', [
      'Pasting rows into the grid puts them in reverse order.',
      `The rework for this is big, https://github.com/acme/widget/commit/${FULL} so I think it may have regressions.`,
      'I reverted the big commit and redid only the small part this issue needs.',
    ]);
    expect(codesOf(thread)).toContain('hedged');
  });
});

describe('more revert and retraction shapes', () => {
  it('"Revert patch X" with "It broke the build." blames X; a revert because the change went upstream does not', () => {
    expect(found(titled(`Revert patch ${FULL}`, ['It broke the build on the old compilers.']))).toEqual([FULL]);
    expect(found(titled('Revert "work around the flaky socket test"', [`The workaround has been upstreamed to the socket library.\n\nThis reverts commit ${FULL}.`]))).toEqual([]);
  });

  it('the one who bisected finds the cause in their own files and apologises: retracted', () => {
    const thread = titled('Server answers 500 on login', [
      'Logging in answers with a 500 error since the update.',
      `Bisect done: the commit that breaks login is \`${FULL.slice(0, 7)}\`. Reading its diff now.`,
      'Found what the problem was: my old launcher script from a blog post. With the bundled one it works. Sorry for the noise.',
    ], ['reporter', 'helper', 'helper']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('the one who bisected explains the cause in the commit: no retraction', () => {
    const thread = titled('Server answers 500 on login', [
      'Logging in answers with a 500 error since the update.',
      `Bisect done: the commit that breaks login is \`${FULL.slice(0, 7)}\`. Reading its diff now.`,
      `I found what the problem was: ${FULL.slice(0, 7)} drops the session key when the cookie is empty.`,
    ], ['reporter', 'helper', 'helper']);
    expect(codesOf(thread)).not.toContain('retracted');
  });

  it('"the part introduced by X … seems fine" beside "caused by Y" names one culprit', () => {
    const other = '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567';
    const thread = titled('Fix recent commit that broke solving', [
      `The wrong answers were caused by commit ${FULL}\nIt dropped some messages.\n\nAlso commented the part introduced by commit ${other}, which tests show to be fine.`,
    ]);
    expect(found(thread)).toEqual([FULL]);
  });
});

describe('a cause denied or asked about', () => {
  it('"checks needed whether there is no regression after X" names no culprit', () => {
    expect(found(titled('Check for regression', [`More checks needed whether there is no regression after ${FULL}`]))).toEqual([]);
  });
});

describe('the symptom told beside the reference stays in the report', () => {
  const kept = (title: string, body: string) => decide(titled(title, [body])).out.report.text;

  it.each([
    ['an adverb before the verb', 'Shortcuts lost', `Commit ${FULL} completely breaks every shortcut bound to the function keys.`, 'completely breaks every shortcut bound to the function keys'],
    ['a verb of effect in lines without full stops', 'Regression: demo level', `commit ${FULL.slice(0, 8)} makes the second level flicker with grey blocks\nreverting one line of it fixes this on both renderers\nscreenshots below`, 'makes the second level flicker with grey blocks'],
    ['"Since X some tests …"', 'Tests fail on ARM', `Since [commit ${FULL.slice(0, 7)}](https://github.com/acme/widget/commit/${FULL}) some tests no longer pass on ARM boards.`, 'some tests no longer pass on ARM boards'],
    ['"Since X from @user , …"', 'Settings lost on upgrade', `Since commit ${FULL} from @someone , upgrading the settings file seems to drop every custom colour.`, 'upgrading the settings file seems to drop every custom colour'],
    ['"…, but found commit \\"X\\" broke …"', 'Clang build fails', `Wanted to try whether #12 is gone in the new parser but found commit "${FULL}" broke the build on clang 15.`, 'broke the build on clang 15'],
  ])('%s', (_name, title, body, symptom) => {
    const text = kept(title, body);
    expect(text).toContain(symptom);
    expect(text).not.toContain(FULL.slice(0, 7));
  });
});

describe('more ways of naming the first bad commit', () => {
  it('"the failures were produced by #12 (specifically commit X)" blames X', () => {
    expect(found(titled('fix failing package check', ['The package check fails again after the last change.', `the failures were produced by #12 (specifically commit ${FULL.slice(0, 7)}). the faster solver is more brittle than the old one`]))).toContain(FULL.slice(0, 7));
  });

  it('"the commit where the crashes first appear:" above the SHA blames it', () => {
    expect(found(titled('Intro plays but menu is black', ['The intro plays, then the menu stays black.', `Here it is, the commit where the crashes first appear:\n\n${FULL}`]))).toEqual([FULL]);
  });

  it('a revert "to unbreak the build" blames the reverted commit', () => {
    expect(found(titled('Revert "Bump the compiler to 2.3"', [`This reverts commit ${FULL} to unbreak the build.`]))).toEqual([FULL]);
  });

  it('"Looks like this broke in X; in the previous commit it still loads" is not a guess', () => {
    const thread = titled('Popup is empty', ['Opening the popup shows an empty window.', `Looks like this broke in commit ${FULL} (bundle from the app dir). In the previous commit the popup was still able to load.`]);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).toEqual([]);
  });

  it('"Looks like this broke in X" alone stays a guess', () => {
    const thread = titled('Popup is empty', ['Opening the popup shows an empty window.', `Looks like this broke in commit ${FULL} (bundle from the app dir).`]);
    expect(codesOf(thread)).toContain('hedged');
  });

  it('"reverting this commit resolves the failures" goes with the answer', () => {
    const out = decide(titled('Check error on Windows', [`The check errors on Windows are caused by the commit ${FULL.slice(0, 7)}, meant to work around an old compiler.\n\nReverting this commit resolves those errors (the remote checks passed).`])).out;
    expect(out.report.text).not.toContain('Reverting this commit resolves');
  });
});

describe('a test without the commit is answer', () => {
  it('"after removing only this commit the game works" and "without this commit it works" go', () => {
    const out = decide(titled('Regression: racing game', [`The racing game now crashes after loading the update. This is caused by commit ${FULL}.\n\nIn my own build, after removing only this commit, the game works fine again.\n\nA master build without this commit works too.`])).out;
    expect(out.report.text).toContain('now crashes after loading the update');
    expect(out.report.text).not.toMatch(/remove only this commit|without this commit/);
  });
});

describe('a caveat that other commits may share the blame', () => {
  it('hedges a bisect result', () => {
    const thread = titled('Crash while linking', [
      `The linker crashes on some projects.\n\nAfter running git bisect, the offending commit is ${FULL}. One caveat: the flags that trigger it differ between commits, so there may be more than one commit causing this. I will dig further.`,
    ]);
    expect(codesOf(thread)).toContain('hedged');
  });

  it('said of another paragraph, does not', () => {
    const thread = titled('Crash while linking', [
      `The linker crashes on some projects.\n\nAfter running git bisect, the offending commit is ${FULL}.\n\nUnrelated: the docs build has several changes involved in its slowness.`,
    ]);
    expect(codesOf(thread)).not.toContain('hedged');
  });
});

describe('a bisect range searched, then its outcome', () => {
  it('"I ran a bisect between v4.2 and v4.4, and the first commit where it fails was X" blames X', () => {
    const thread = titled('Board does not reboot', [`The board no longer reboots after a reset.\n\nI ran a bisect between v4.2.0 and v4.4.0, and the first commit that shows the hang is [this commit](https://github.com/acme/widget/commit/${FULL}).`]);
    expect(found(thread)).toEqual([FULL]);
  });

  it('"the regression is between X and Y" stays a range', () => {
    const thread = titled('Board does not reboot', [`The board no longer reboots after a reset. The regression is between ${FULL} and 1a2b3c4d5e6f.`]);
    expect(found(thread)).toEqual([]);
  });
});

describe('the same problem reported elsewhere', () => {
  it('"something similar was reported in another issue" is no different symptom', () => {
    const thread = titled('Colour blotches in the menu', ['Blotches of colour appear all over the menu.', `Update: it's caused by commit ${FULL}`, 'Which GPU do you use?', 'An older one. A similar problem was also reported in another issue.']);
    expect(codesOf(thread)).not.toContain('symptom-mismatch');
  });
});

describe('revert pull requests, their links and titles', () => {
  it('"Some icons are getting broken with the above commit" gives the revert its reason', () => {
    expect(found(titled('Revert "Site tweaks (#28)"', [`This reverts commit ${FULL}.\n\nSome icons are getting broken with the above commit. I'll revert for now and look later.`]))).toEqual([FULL]);
  });

  it('a link to a comment in a pull request cites a discussion, it names no second culprit', () => {
    const thread = titled('Revert "Parser: fix external errors"', [`This reverts commit ${FULL}.\n\nThis caused a crash for several users: https://github.com/acme/widget/pull/940#issuecomment-123456\n\n- Reverts #938`]);
    expect(codesOf(thread)).not.toContain('competing');
    expect(found(thread)).toContain(FULL);
  });

  it('a reference inside the quoted subject of the reverted commit is no culprit', () => {
    const thread = titled('Revert "This reverts commit 1a2b3c4."', [`${FULL} broke our image builds. Let's revert until we understand why.\n\nThis reverts commit ${FULL}.`]);
    expect(codesOf(thread)).not.toContain('competing');
    expect(new Set(found(thread))).toEqual(new Set([FULL]));
  });

  it('"#190 Breaks loading the game" loses the number, keeps the symptom', () => {
    const out = decide(titled('Revert "Update the parser" due to broken saves', [`#190 Breaks loading saved games, reverting for now.\n\nThis reverts commit ${FULL}.`])).out;
    expect(out.report.text).not.toContain('#190');
    expect(out.report.text).toContain('Breaks loading saved games');
  });
});

describe('negations and hedges around a blame', () => {
  it('"no longer executable since X" is the breakage', () => {
    expect(found(titled('Make the test script executable', [`Half the regression suite fails: the runner is no longer executable since ${FULL}.`]))).toEqual([FULL]);
  });

  it('a guess in the sentence after the commit that blames it ("X. That introduced the stall, I guess.") hedges it', () => {
    const thread = titled('Completion stalls', ['Completion stalls for a second after every key.', `Picked ${FULL.slice(0, 7)} onto the old build. That introduced the stall, I guess.`]);
    expect(found(thread)).toEqual([FULL.slice(0, 7)]);
    expect(codesOf(thread)).toContain('hedged');
  });

  it('"working commit: X, problematic commit: Y" blames neither as a list of suspects would', () => {
    const thread = titled('Completion stopped', ['After the update completion stopped.', `- server: working commit: 1a2b3c4, problematic commit: ${FULL.slice(0, 7)}`]);
    expect(found(thread)).not.toContain('1a2b3c4');
  });
});

describe('pointing at the attributed commit by position', () => {
  it('"… getting broken with the above commit" loses the pointer, keeps the symptom', () => {
    const out = decide(titled('Revert "Site tweaks"', [`This reverts commit ${FULL}.\n\nSome code blocks are getting broken with the above commit, the colours are gone.`])).out;
    expect(out.report.text).not.toContain('above commit');
    expect(out.report.text).toContain('Some code blocks are getting broken');
  });

  it('"Julia commit X broke …" names a commit of another project', () => {
    expect(found(titled('Fix an error after a deprecation', ['Julia commit 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567 broke the table printing. This should fix it.']))).toEqual([]);
  });
});

describe('a corrected reference', () => {
  it('one struck through and replaced after "EDIT:" leaves only the replacement', () => {
    const other = '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567';
    const thread = titled('Board hangs on reset', [`The board hangs after a reset.\n\nI bisected from v1.0 to v1.2, and the first commit where it hangs is ~~[that one](https://github.com/acme/widget/commit/${other})~~ correction: [this one](https://github.com/acme/widget/commit/${FULL}).`]);
    expect(codesOf(thread)).not.toContain('competing');
    expect(found(thread)).toEqual([FULL]);
  });

  it('the pull request in "Broken menus after #1828" goes with the answer', () => {
    const out = decide(titled('Broken menus after #1828', ['The menus render with garbage colours.', `Update: it's caused by commit ${FULL}`])).out;
    expect(out.report.text).not.toContain('#1828');
    expect(out.report.text).toContain('Broken menus after');
  });
});

describe('held-out shapes, round three', () => {
  it('a title "Errors in the plugin tests since X" blames X', () => {
    expect(found(titled(`Errors in the plugin tests since ${FULL.slice(0, 7)}`, ['Every test of the plugin runner fails on Windows with a missing file error.']))).toEqual([FULL.slice(0, 7)]);
  });

  it('"the commit that triggers the error is X" blames X', () => {
    expect(found(titled('Plugin tests fail', ['Every plugin test fails with a missing file error.', `I tried older builds: the commit that triggers the error is ${FULL.slice(0, 7)}.`]))).toEqual([FULL.slice(0, 7)]);
  });

  it('"Sorry for missing this in X" in a fix blames X', () => {
    expect(found(titled('dashboard: fix the top margin', [`The top margin of the dashboard collapsed, a recent regression. Sorry for missing this in ${FULL} to begin with.`]))).toEqual([FULL]);
  });

  it('"everything works fine until this commit X" blames X', () => {
    expect(found(titled('Crash when the second screen wakes', [`The compositor crashes when the second screen wakes up. All is working until this commit https://github.com/acme/widget/commit/${FULL}`]))).toEqual([FULL]);
  });

  it('"fixes a crash introduced in X, which fixed a related crash introduced in Y" blames X only', () => {
    const other = '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567';
    const thread = titled('Drop expired bans from the list', [`Fix a double free introduced in ${FULL.slice(0, 9)}, which itself fixed a related double free introduced in ${other.slice(0, 9)}.`]);
    expect(found(thread)).toEqual([FULL.slice(0, 9)]);
    expect(codesOf(thread)).not.toContain('competing');
  });
});

describe('held-out shapes, round four', () => {
  it('"After I pulled change X, saving does not work anymore" blames X', () => {
    expect(found(titled('Saving from the panel', [`After I pulled change \`${FULL.slice(0, 7)}\`, saving from the status panel is not working anymore. It reports success but writes nothing.`]))).toEqual([FULL.slice(0, 7)]);
  });

  it('a title "Change `X Remove junk` break saving" blames X', () => {
    expect(found(titled(`Change \`${FULL.slice(0, 7)} Remove junk\` break saving`, ['Saving from the status panel writes nothing any more.']))).toEqual([FULL.slice(0, 7)]);
  });

  it('a partial revert titled "Revert plugins API breakage" blames the reverted commit', () => {
    expect(found(titled('Revert the extension interface breakage', [`To keep the extension interface stable we partially revert ${FULL}.`]))).toEqual([FULL]);
  });

  it('a revert whose title quotes a merge reverts no single culprit', () => {
    expect(found(titled('Revert "Merge pull request #812 from someone/no-rebuild"', [`This reverts commit ${FULL}, it was causing errors in the downstream tests.`]))).toEqual([]);
  });

  it('a revert that doubts the relation ("hard to see how this is related") is a guess', () => {
    const thread = titled('Revert "backend: fix the resize crash"', [`This reverts commit ${FULL}.\n\nNightly runs crash since this commit. Hard to see how this is related, though.`]);
    expect(codesOf(thread)).toContain('hedged');
  });
});

describe('owning up and reverting by hand go with the answer', () => {
  it('"git revert X makes the tests pass" and "I must have pushed that commit by accident" go', () => {
    const out = decide(titled('Plugin tests fail', ['Every plugin test fails with a missing file error.', `I bisected: the commit that triggers the error is ${FULL.slice(0, 7)}.\n\nFor completeness \`git revert ${FULL.slice(0, 7)}\` makes the tests pass.`, 'Thanks! I must have pushed that commit by mistake before the tests finished.'])).out;
    expect(out.report.text).toContain('Every plugin test fails with a missing file error');
    expect(out.report.text).not.toMatch(/makes the tests pass|pushed that commit/);
  });
});

describe('the author owning up', () => {
  it('to "the changes you are referring to" makes the one commit named the culprit', () => {
    const thread = titled('Slashes in branch names turn into backslashes', [
      `In [this commit](https://github.com/acme/widget/commit/${FULL}) the path mapping was changed to use the platform separator. The same method reads the branch name, so feature/abc becomes feature\\abc on Windows.`,
      'Sorry about that, I introduced the change you mention without testing slashed branch names.',
    ]);
    expect(found(thread)).toEqual([FULL]);
  });

  it('does nothing when the thread names two commits', () => {
    const thread = titled('Slashes in branch names turn into backslashes', [
      `In [this commit](https://github.com/acme/widget/commit/${FULL}) the path mapping changed, and 1a2b3c4d5e6f touched the branch reader.`,
      'My fault, I introduced the change.',
    ]);
    expect(found(thread)).toEqual([]);
  });
});

describe('held-out shapes, round five', () => {
  it('"Since the last commit <URL> the plugin is ruined" blames the commit linked', () => {
    expect(found(titled('Fix the loader', [`Since the last commit\nhttps://github.com/acme/widget/commit/${FULL}\nthe loader is ruined and the game crashes on startup.`]))).toEqual([FULL]);
  });

  it('a revert "due to a bug with the card view" blames the reverted commit', () => {
    expect(found(titled('Revert commit "Update the libraries"', [`This commit reverts commit ${FULL}\n\nWe have to revert this commit due to a bug in the card view layout on old devices.`]))).toEqual([FULL]);
  });

  it('"That commit includes a wrong quote, which causes the script to break" blames the commit above it', () => {
    expect(found(titled('Duplicate quotes in the entry script', [`https://github.com/acme/widget/commit/${FULL}\n\nThat commit includes a stray quotation mark, which causes the script to break.`]))).toEqual([FULL]);
  });

  it('"it wasn\'t actually that commit that broke things" retracts', () => {
    const thread = titled('Fix the base image build', [`Fixes regression introduced in ${FULL.slice(0, 7)}`, 'It was not really the change that broke the image; the registry used a stale folder.'], ['dev', 'dev']);
    expect(codesOf(thread)).toContain('retracted');
  });
});

describe('more answer-bearing sentences', () => {
  it('a full SHA inside a file name goes; "narrowed it down to this one", "the commit before this one fixes it" and "revert the changes in this commit" go', () => {
    const parent = '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567';
    const out = decide(titled(`Commit ${FULL.slice(0, 10)} causes the editor to hang on startup`, [
      `The editor hangs on startup and the welcome screen never shows. I bisected it to this one. Checking out the commit before this one fixes it.\n\nLogs: [1_working_${parent}.zip](https://example.org/files/1_working_${parent}.zip)`,
      'Temporarily revert the renderer changes in this commit.',
    ])).out;
    expect(out.report.text).toContain('The editor hangs on startup');
    expect(out.report.text).not.toMatch(/narrowed it down|commit before this one|changes in this commit/);
    expect(out.report.text).not.toContain(parent);
    expect(out.audit.ok).toBe(true);
  });
});

describe('sentences that test, own or date the attributed commit', () => {
  it('go with the answer', () => {
    const out = decide(titled('Revert "Use a view model for the setup wizard"', [
      `This reverts commit ${FULL}.\n\nThis commit is causing the setup wizard to hang on old tablets.\n\nI tried this revert and it works again.\n\nSince this was your commit, any idea? That commit has been in main for weeks.`,
    ])).out;
    expect(out.report.text).toContain('setup wizard to hang on old tablets');
    expect(out.report.text).not.toMatch(/tried this revert|your commit|in main for/);
  });
});

describe('the words pointing at a reverted commit', () => {
  it('go, the reason stays', () => {
    const out = decide(titled('Revert commit "Update the libraries"', [`This commit reverts commit ${FULL}\n\nWe have to revert this commit due to a bug in the card view layout on old devices.`])).out;
    expect(out.report.text).not.toMatch(/revert this commit/i);
    expect(out.report.text).toContain('due to a bug in the card view layout on old devices');
  });
});

describe('held-out shapes, round six', () => {
  it('"Found the commit." over pasted git log output blames it, and the whole block goes', () => {
    const out = decide(titled('Current master hangs at startup', ['The app hangs at startup on current master.', `Found the commit.\n\`\`\`\ncommit ${FULL}\nAuthor: Some One <one@example.org>\nDate:   Tue Mar 1 10:00:00 2022 +0100\n\n    Rework the chart loader\n\`\`\``]));
    expect(out.attributions.map((a) => a.ref.value)).toEqual([FULL]);
    expect(out.out.report.text).not.toMatch(/Rework the chart loader|Some One/);
    expect(out.out.report.text).toContain('hangs at startup');
  });

  it('"I found that this [commit](URL)\\n\\nhas caused this issue" blames it', () => {
    expect(found(titled('Cannot open the panel', [`It turns out this [commit](https://github.com/acme/widget/commit/${FULL})\n\nhas caused the freeze\n\nThe panel never opens now.`]))).toEqual([FULL]);
  });

  it('"This reverts commit X which made the end-to-end tests fail" blames X', () => {
    const thread = titled('Revert #2792', [`This reverts commit ${FULL} which made the browser tests fail on the main branch.`]);
    expect(found(thread)).toContain(FULL);
    expect(codesOf(thread)).toEqual([]);
  });
});

describe('held-out shapes, round seven', () => {
  it('"Looks like this was caused by X. Prior to this commit it builds" is not a guess, and the neighbour sentence goes', () => {
    const thread = titled('Fails to build on BSD', ['The build stops with an undeclared identifier.', `Looks like this was caused by ${FULL}. Prior to this commit it compiles and runs fine.`]);
    expect(codesOf(thread)).toEqual([]);
    expect(decide(thread).out.report.text).not.toContain('Prior to this commit');
  });

  it('the lead-in of pasted bisect output and "from this commit on" go with the answer', () => {
    const out = decide(titled('Settings tab crashes', [`The settings tab crashes the app.\n\nMy git bisect ended like this:\n\n~~~\n${FULL} is the first bad commit\n~~~\n\nEvery build from this commit on fails the same way.`])).out;
    expect(out.report.text).toContain('The settings tab crashes the app.');
    expect(out.report.text).not.toMatch(/ended like this|from this commit on/);
  });

  it('a lead-in "caused by:" over an unfenced git log header goes', () => {
    const out = decide(titled('Regression: no shadows', [`Shadows are gone in every level.\n\nThis regression is caused by:\n\ncommit ${FULL}\nAuthor: Some One <one@example.org>\nDate:   Thu Aug 21 10:00:00 2014 +0200\n\n    Split the light buffers`])).out;
    expect(out.report.text).toContain('Shadows are gone in every level.');
    expect(out.report.text).not.toMatch(/caused by|Split the light buffers/);
  });
});

describe('held-out shapes, round eight', () => {
  it('"As of commit X the CI no longer passes" blames X; "as of X" alone is the revision run', () => {
    const red = titled('CI is red on main', [`As of commit https://github.com/acme/widget/commit/${FULL} the CI is no longer passing the test suite.`]);
    expect(found(red)).toEqual([FULL]);
    expect(decide(red).out.report.text).toContain('the CI is no longer passing the test suite');
    expect(found(titled('CI is red on main', [`As of commit ${FULL} I still see the red CI from last week.`]))).toEqual([]);
  });

  it('a revert titled as undoing a workaround is no blame, the title read on its own', () => {
    expect(found(titled('Revert "Pin the checkout action to work around a bug upstream"', [`This reverts commit ${FULL}.\n\nThe bug it was working around has been fixed.`]))).toEqual([]);
  });
});

describe('the symptom told beside the blamed commit stays', () => {
  /** The sanitized report of a one-post thread. */
  const report = (title: string, body: string) => decide(titled(title, [body])).out.report.text;

  it('"After commit X <name> will always crash": the clause after the reference stays even under a template heading', () => {
    const text = report('Crash on start', `[//]: # (What goes wrong:)\n\nAfter commit ${FULL} gridview will always crash on my old laptop whatever file I open.`);
    expect(text).toContain('gridview will always crash on my old laptop whatever file I open.');
    expect(text).not.toContain(FULL.slice(0, 7));
  });

  it('"After pulling commit X," and "After I pulled change X," keep what happens next', () => {
    expect(report('Hangs', `Hello Ann,\n\nafter pulling your commit ${FULL}, I get an error that the module *GeoUtils_Pkg* is undefined.`)).toContain('I get an error that the module *GeoUtils_Pkg* is undefined.');
    expect(report('Hangs', `After pulling commit ${FULL}, I find the exporter hangs forever once it is done. Reverting only that commit brings back the right behaviour.`)).toContain('I find the exporter hangs forever once it is done.');
    expect(report('Hangs', `After I pulled change \`${FULL.slice(0, 7)}\`, saving from the preview pane is not working anymore. It printed "notes.txt" 3L written, but no new file shows up.`)).toContain('saving from the preview pane is not working anymore.');
  });

  it('"Since your change to the parser in commit X, …" and a bold heading line above "Since commit X from @user , …"', () => {
    expect(report('Wrong colours', `Since your change to the token rules in commit ${FULL}, the highlighting in every theme is off.`)).toContain('the highlighting in every theme is off.');
    const text = report('Import broken', `**What happens**\nSince commit ${FULL} from @someone , importing an old archive seems to do nothing.`);
    expect(text).toContain('importing an old archive seems to do nothing.');
    expect(text).toContain('**What happens**');
  });

  it('a symptom ending on the reference keeps all but the words tying it in', () => {
    const cases = [
      [`The nightly job has been failing for two months since commit \`${FULL.slice(0, 7)} (beta)\`.`, 'The nightly job has been failing for two months'],
      [`Python 2 support was broken since May due to\n${FULL}`, 'Python 2 support was broken since May'],
      [`The ARM build of the bindings was broken due to commit ${FULL}.`, 'The ARM build of the bindings was broken'],
      [`My plugin fails to load following commit ${FULL.slice(0, 8)}.`, 'My plugin fails to load'],
      [`Nightly tests have been failing since March (commit ${FULL}).`, 'Nightly tests have been failing since March'],
      [`The viewer won't open any more after commit ${FULL}.`, "The viewer won't open any more"],
      [`Linking fails here because of a missing header in https://github.com/acme/widget/commit/${FULL}#diff-0a1b2c`, 'Linking fails here because of a missing header'],
    ] as const;
    for (const [body, kept] of cases) {
      const text = report('Regression', body);
      expect(text, body).toContain(kept);
      expect(text, body).not.toContain(FULL.slice(0, 7));
    }
  });

  it('"commit X is broken, as <reason>": the verdict goes, the reason stays', () => {
    const text = report('Configure fails', `commit ${FULL} is broken, as the config template is missing which makes configure stop with an error.`);
    expect(text).toContain('the config template is missing which makes configure stop with an error.');
    expect(text).not.toMatch(/is broken, as/);
  });
});

describe('held-out shapes, round nine', () => {
  it('"As of commit X when I try … I get the following" and "As of <URL> the main view is pretty much borked" blame X', () => {
    expect(found(titled('Completion broken in 1.4', [`As of commit ${FULL} when I try to complete a path I get the following.\n\n\`\`\`\n_complete:12: command not found: widget-x\n\`\`\``]))).toEqual([FULL]);
    expect(found(titled('Main view broken', [`As of https://github.com/acme/widget/commit/${FULL} the canvas is pretty much borked. It only paints what was behind it.`]))).toEqual([FULL]);
  });

  it('"I can confirm X is what broke the test; the one just before that, Y passes the test" names one culprit', () => {
    const other = 'aaaabbbbccccddddeeeeffff0000111122223333';
    const thread = titled('Broken physics test', ['Only one test fails on master.', `I can confirm ${FULL} is what broke the test; the one just before that, ${other} passes the test.`]);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).toEqual([]);
  });

  it('a fix title "Build fixes after X" or "Fix the error left in commit X" blames X; "Crash fixed in X" does not', () => {
    expect(found(titled(`Build fixes after ${FULL.slice(0, 9)}`, ['The clean Linux build is broken for me right now.']))).toEqual([FULL.slice(0, 9)]);
    expect(found(titled(`Makefile: fix the second error in commit ${FULL.slice(0, 9)}`, ['Now `make install` works again.']))).toEqual([FULL.slice(0, 9)]);
    expect(found(titled(`Crash fixed in ${FULL.slice(0, 9)}`, ['The crash on exit is gone now.']))).toEqual([]);
  });

  it('a heading "Bisection Report:" over a summary block is no bisect verb', () => {
    expect(found(titled('Boot test regression', [`- **Bisection Report**:\n\`\`\`\nSummary:\n  Start:      ${FULL.slice(0, 12)} Merge tag 'fixes'\n  Plain log:  https://logs.example.org/run.txt\n\`\`\``]))).toEqual([]);
  });

  it('another person doubting the commit itself, or undoing it without effect, retracts the title\'s blame', () => {
    const doubt = titled(`Commit ${FULL} breaks the tab helper`, ['', `Hm, I don't think that the change itself caused this. Which shell do you use?`], ['reporter', 'maintainer']);
    expect(codesOf(doubt)).toContain('retracted');
    const undone = titled(`Commit ${FULL} breaks the tab helper`, ['', `I reverted the change here and the bug still happens on my machine.`], ['reporter', 'maintainer']);
    expect(codesOf(undone)).toContain('retracted');
  });
});

describe('a fix title naming two commits', () => {
  it('blames neither', () => {
    expect(found(titled(`Fix errors in commit ${FULL.slice(0, 7)} and 0a1b2c3`, ['Both commits broke the build.']))).toEqual([]);
  });
});

describe('held-out shapes, round ten', () => {
  const withSubject = (thread: Thread, goldSubject: string) => {
    const attributions = extractAttributions(thread);
    return decideReport(thread, attributions, { gold: FULL, goldSubject, prNumbers: [], knownShas: [FULL] }, reportDrafts(thread, attributions), new Set());
  };

  it("the reporter's own follow-up before anyone answers stays in the report, unless it speaks of a fix", () => {
    const thread = titled('Viewer broken', [`The viewer no longer opens images after commit ${FULL}.`, 'To be precise: the window opens but stays empty.', 'Reverting that commit locally helps.', 'Thanks, looking.'], ['ann', 'ann', 'ann', 'bob']);
    const text = decide(thread).out.report.text;
    expect(text).toContain('the window opens but stays empty.');
    expect(text).not.toContain('Reverting that commit');
    const answered = titled('Viewer broken', [`The viewer no longer opens images after commit ${FULL}.`, 'Which version of the toolkit?', 'To be precise: the window opens but stays empty.'], ['ann', 'bob', 'ann']);
    expect(decide(answered).out.report.text).not.toContain('stays empty');
  });

  it('a revert title quoting a short subject whole loses it', () => {
    const out = withSubject(titled('Revert "fix #95"', [`This reverts commit ${FULL}.\n\nIt broke the cache warm-up: #96`]), 'fix #95');
    expect(out.report.text).not.toContain('fix #95');
  });

  it('a cause named by the words of the subject goes; a symptom that shares words without a causal lead-in stays', () => {
    const out = withSubject(titled('Breakage introduced by dock hang fixes', [`Only the left light blinks on master. I bisected the problem down to commit ${FULL}.`]), 'Fix dock hangs when unplugging the left half');
    expect(out.report.text).not.toMatch(/dock hang fixes/);
    expect(out.report.text).toContain('Only the left light blinks on master.');
    const kept = withSubject(titled('Crash', [`The app crashes after opening files with long names. I bisected it down to commit ${FULL}.`]), 'Fix crash when opening files');
    expect(kept.report.text).toContain('crashes after opening files with long names');
  });

  it('"since <the subject\'s words> commit" in a title goes too; the symptom before it stays', () => {
    const out = withSubject(titled('"Index file damaged" since label key commit', [`Saving fails since I updated.\n\nIn short, commit ${FULL}: the first commit for which saving fails.`]), 'Add the label key to index entries');
    expect(out.report.text).not.toMatch(/label key/);
    expect(out.report.text).toContain('"Index file damaged"');
  });

  it('"fixes <issue> by partly rolling back commit: X" blames X', () => {
    expect(found(titled('Fix: games boot into the menu', [`This PR fixes the boot problem on tablets by partly rolling back commit: ${FULL}\n\nPlease review.`]))).toEqual([FULL]);
  });

  it('"**Describe the bug**\\nAfter X, <symptom>" under a title reporting a breakage blames X', () => {
    const thread = titled('Shader build broken after the recent toolchain update', [`**Describe the bug**\nAfter ${FULL}, the compiler stops with an error on any shader with shadow samplers.`]);
    expect(found(thread)).toEqual([FULL]);
    expect(decide(thread).out.report.text).toContain('the compiler stops with an error on any shader');
  });

  it('"<symptom>, first bad commit is X" keeps the symptom clause', () => {
    const text = decide(titled('Crash when dragging', [`the picker crashes once I start dragging the mouse, first bad commit is ${FULL} (bisected).\n\nWill have a look.`])).out.report.text;
    expect(text).toContain('the picker crashes once I start dragging the mouse');
    expect(text).not.toContain('first bad commit');
  });

  it('a subject in brackets with full stops after the reference does not end the sentence', () => {
    expect(found(titled('Screen garbage (bisected)', [`commit ${FULL.slice(0, 12)} ("Clear the grid with the default colour. Issue 12.") brought in a regression leaving garbage on the screen.`]))).toEqual([FULL.slice(0, 12)]);
  });

  it('"where it stopped working: X" and "X incorrectly used …" blame X; the pointer sentence and "the previous commit works fine" go', () => {
    const thread = titled('Plugin installer broken', [`#### Which commit?\n\nIt seems this is the commit we want, where it stopped working:  https://github.com/acme/widget/commit/${FULL}\n\nThe previous commit builds and works, while that one shows an error box.`]);
    expect(found(thread)).toEqual([FULL]);
    const text = decide(thread).out.report.text;
    expect(text).not.toMatch(/commit we want|previous commit builds/);
    expect(found(titled('Fix the staleness check', [`${FULL} incorrectly took the lookup's printed text instead of its exit code.`]))).toEqual([FULL]);
  });

  it('a revert titled with the reference whose body only guesses ("quite a likely chance this commit introduced the regression") is hedged', () => {
    expect(codesOf(titled(`Revert ${FULL}`, ['Quite a likely chance this commit introduced the regression; we will test more in this branch.']))).toContain('hedged');
  });
});

describe('held-out shapes, round eleven', () => {
  it('someone else naming another cause than a commit sends the blame to review', () => {
    const thread = titled('No sound in the racing game', [`The audio worked until last month, and while looking for when it stopped working I saw that the commit https://github.com/acme/widget/commit/${FULL} made the game lose its sound.`, 'This bug is caused by the CI image, a local build of master has sound.'], ['ann', 'bob']);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('"Latest commit (X) broke …" blames X: the revision is the subject of the blame, not one merely run', () => {
    expect(found(titled(`Latest commit (${FULL.slice(0, 7)}) broke the PAL games`, ['Every PAL game shows a black screen now.']))).toEqual([FULL.slice(0, 7)]);
  });

  it("the words of a reverted fix's subject are no reason for the revert; the reason told in the body is", () => {
    expect(found(titled('Revert "[android] Fix the crash in release builds (#4617)"', [`The app starts correctly now.\n\nThis reverts commit ${FULL}.`]))).toEqual([]);
    expect(found(titled('Revert "Fix a small leak in the pool"', [`This reverts commit ${FULL}.\n\nNot ready yet, it is breaking the exporter right now.`]))).toEqual([FULL]);
    expect(found(titled('Revert "Tidy the loader"', [`This reverts commit ${FULL}. My misunderstanding, leading to the settings tab not showing at all.`]))).toEqual([FULL]);
  });

  it('a blame in the title keeps the early comments, not the talk of a revert that answers it; the dated latest commit and the last good one go', () => {
    const thread = titled(`Latest commit (${FULL.slice(0, 7)}) broke the PAL games`, [
      'Looks like the newest commit from 2016-06-25 has broken every PAL game: black screen, sound only.\n\nThe last working commit was 0a1b2c3 built on 2016-06-22.',
      'Same here with the auto video mode.',
      "There is only one commit after that one; I've reverted it. Hopefully that fixes it.",
      'It works again, closing.',
    ], ['ann', 'cid', 'bob', 'ann']);
    const text = decide(thread).out.report.text;
    expect(text).toContain('has broken every PAL game');
    expect(text).toContain('Same here with the auto video mode.');
    expect(text).not.toMatch(/reverted it|works again|2016-06-25|last working commit/);
  });
});

describe('a revert whose reason a reviewer finds unfounded', () => {
  it('is taken back', () => {
    const thread = titled('Revert "Add more lint passes (#4711)"', [`This reverts commit ${FULL}.\nThis is breaking the build.`, 'Hm, which job did it break? All I see on it is an unrelated flake. We should reland it.'], ['ann', 'bob']);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).toContain('retracted');
  });
});

describe('a revert announced without an object', () => {
  it('goes with the answer, the reason stays', () => {
    const text = decide(titled('Revert "Speed up the search endpoint (#311)"', [`This reverts commit ${FULL}.\n\nWe have to revert for now. It broke the search endpoint, which answers some requests with a 500.`])).out.report.text;
    expect(text).not.toMatch(/have to revert/);
    expect(text).toContain("the search endpoint, which answers some requests with a 500.");
  });
});

describe('held-out shapes, round twelve', () => {
  it('"This commit changed it into" over the changed line goes with the answer', () => {
    const text = decide(titled('Toolbar broken', [`The whole toolbar breaks with commit  https://github.com/acme/widget/commit/${FULL}\n\nThe old rule was \`#bar {\`\n\n**This commit changed it into**\n\n\`#bar, #main {\``])).out.report.text;
    expect(text).not.toMatch(/This commit changed/);
    expect(text).toContain('The old rule was');
  });

  it('"Yes, it is X." answering someone else who guessed X names the culprit', () => {
    const other = 'aaaabbbbccccddddeeeeffff0000111122223333';
    const thread = titled('regression: tennis court shadows are broken', ['The shadows in the game are broken since a recent commit.', `Must be newer than https://github.com/acme/widget/commit/${other} and I think it is https://github.com/acme/widget/commit/${FULL}`, `Yes, it is ${FULL.slice(0, 7)}. Bad news.`], ['ann', 'bob', 'cid']);
    expect(found(thread)).toContain(FULL.slice(0, 7));
  });

  it('"Nope, I tested with the parent commit of X" takes the bisect back', () => {
    const thread = titled('Grey shadows', ['The shadows turn grey after ten seconds.', 'Could you find the commit?', `bad commit: ${FULL}`, `Nope, I tested with the parent commit of ${FULL.slice(0, 7)}. The bug is still there.`], ['ann', 'bob', 'ann', 'bob']);
    expect(codesOf(thread)).toContain('retracted');
  });
});

describe('"<symptom> in commits after X"', () => {
  it('makes X the last good one, not the culprit', () => {
    expect(found(titled(`Capes break in commits after ${FULL.slice(0, 7)}`, [`A lot of capes break in builds after ${FULL.slice(0, 7)}, fine with ${FULL.slice(0, 7)} itself.`]))).toEqual([]);
  });
});

describe('"<it> worked before X and now <is broken>"', () => {
  it('names X, and only "before X" goes from the report', () => {
    const thread = titled('Exports are empty', [`The CSV export worked before ${FULL} and now every file it writes is empty.`]);
    expect(found(thread)).toEqual([FULL]);
    const { out } = decide(thread);
    expect(out.report.text).toContain('The CSV export worked');
    expect(out.report.text).toContain('and now every file it writes is empty.');
    expect(out.report.text).not.toContain(FULL.slice(0, 7));
  });

  it('"works fine on X" stays the good side', () => {
    expect(found(titled('Exports are empty', [`The CSV export works fine on ${FULL}, but the nightly is broken.`]))).toEqual([]);
  });
});

describe('a pasted `git log` header under "… showed this is the commit that ruined it."', () => {
  it('names the commit, and the pointer sentence, the header and its fenced message go', () => {
    const thread = titled('Tabs lose their order', [
      `Tabs come back in a random order after a restart. A bisect session showed this is the commit that ruined it.\n\ncommit ${FULL}\nAuthor: Some One <one@example.org>\nDate:   Tue Mar 3 10:00:00 2020 +0100\n\n\`\`\`\nStore tabs in a set\n\nFaster lookups for the tab strip.\n\`\`\`\n\nSteps: open three tabs, restart.`,
    ]);
    expect(found(thread)).toEqual([FULL]);
    const { out } = decide(thread);
    expect(out.report.text).toContain('Tabs come back in a random order after a restart.');
    expect(out.report.text).toContain('Steps: open three tabs, restart.');
    expect(out.report.text).not.toMatch(/this is the commit|Author:|Faster lookups/);
  });
});

describe('"Removing the commit X fixes it"', () => {
  it('blames X as reverting it would', () => {
    expect(found(titled('Subtitles drift with the newest build', [`Removing the commit ${FULL.slice(0, 8)} fixes the drift.`]))).toEqual([FULL.slice(0, 8)]);
  });
});

describe('"I bisected … It was X which includes <a change>"', () => {
  it('names X; a relative clause of a fix does not', () => {
    const story = 'The date picker shows the wrong week. I ran git bisect until it said which commit was at fault.';
    expect(found(titled('Wrong week', [`${story} It was ${FULL} which includes the calendar library update, so that fits.`]))).toEqual([FULL]);
    expect(found(titled('Wrong week', [`${story} It was ${FULL} which fixed the week numbers.`]))).toEqual([]);
  });
});

describe('"trunk broken here: X"', () => {
  it('names X', () => {
    expect(found(titled('Regenerate the bindings', ['Bindings are stale on trunk.', `trunk broken here: ${FULL}`]))).toEqual([FULL]);
  });
});

describe('"Cannot <do something> after X"', () => {
  it('dates the breakage from X instead of denying it', () => {
    expect(found(titled('Drafts', [`Cannot save drafts after https://github.com/acme/widget/commit/${FULL}`]))).toEqual([FULL]);
  });
});

describe('a revert titled with one commit while the only blame names another', () => {
  it('is two culprits', () => {
    const other = 'c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe';
    const thread = titled(`revert ${FULL}`, ['Closes #12', `revert just https://github.com/acme/widget/commit/${other}, that is the bad commit`], ['ann', 'bob']);
    expect(codesOf(thread)).toContain('competing');
  });
});

describe('the one who named the commit finds the cause elsewhere', () => {
  it.each([
    ['stale dependencies', 'Sorry, those were stale dependencies on my machine. Everything passes now.'],
    ['a plugin they use', 'Update: it seems to be the theme plugin I use, without it the latest commit starts fine.'],
  ])('%s', (_name, later) => {
    const thread = titled('Start-up crash', [`git bisect says the crash started with ${FULL}`, 'CI is green for us.', later], ['ann', 'bob', 'ann']);
    expect(codesOf(thread)).toContain('retracted');
  });
});

describe('the bisector doubting what they found', () => {
  it('"hard to say if this really is the bug" hedges', () => {
    const thread = titled('Audio stutter', [
      `My manual bisect ended at ${FULL} (the first one that stutters). That change rewrote the mixer, which later commits touched again, so a plain revert is not possible, and it is hard to say if this really is the bug we see today.`,
    ]);
    expect(codesOf(thread)).toContain('hedged');
  });
});

describe('"Unlike in #N, …" beside the culprit', () => {
  it('sets the other issue apart: no different symptom', () => {
    const thread = titled('Error when opening a log', [
      `Opening a log window raises E42: unknown buffer.\n\nUnlike in #310, the failing function is part of this plugin and not another one. After checking out a few commits I see the error started with https://github.com/acme/widget/commit/${FULL}.`,
    ]);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).not.toContain('symptom-mismatch');
  });
});

describe('"git blame shows that commit X …" under a blame made in the title', () => {
  it('goes whole: it says how the commit was found and what it did', () => {
    const thread = titled(`${FULL} breaks the macOS build`, [
      "Building on macOS stops with: error: unknown type name 'wordlist_t'.\n\nRunning git blame shows that commit " + FULL + ' dropped the typedef from the header. Adding it back gets further.',
    ]);
    const text = decide(thread).out.report.text;
    expect(text).toContain("error: unknown type name 'wordlist_t'");
    expect(text).toContain('Adding it back gets further.');
    expect(text).not.toMatch(/git blame|dropped the typedef/);
  });
});

describe('a report that is only a link to a comment on a commit', () => {
  it('under a title telling a breakage, blames that commit; under a neutral title, does not', () => {
    const link = `https://github.com/acme/widget/commit/${FULL}#commitcomment-4242`;
    expect(found(titled('The status line crashes at launch', [link]))).toEqual([FULL]);
    expect(found(titled('A question about the status line', [link]))).toEqual([]);
  });
});

describe('"X works, Y not": a good/bad pair in one sentence', () => {
  it('makes X the good side, so Y alone is named', () => {
    const good = '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b';
    const thread = titled('Shaders no longer compile', [
      `[Commit ${FULL.slice(0, 7)}](https://github.com/acme/widget/commit/${FULL}) broke the shaders for me.\n\nerror: undeclared name "tint"\n\n[Commit ${good.slice(0, 7)}](https://github.com/acme/widget/commit/${good}) works, [Commit ${FULL.slice(0, 7)}](https://github.com/acme/widget/commit/${FULL}) not, so it must be due to that change.`,
    ]);
    expect(codesOf(thread)).not.toContain('competing');
    expect([...new Set(found(thread))]).toEqual([FULL]);
  });
});

describe('commits a bisector mentions in passing beside the verdict of `git bisect`', () => {
  it('are steps of that bisect, not rival culprits', () => {
    const step = '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432';
    const thread = titled('Widget freezes after an hour', [
      'It freezes after an hour with the new release.',
      `I bisected between the two releases. Builds ${step.slice(0, 7)} and ${FULL.slice(0, 7)} started and froze soon after; the others ran for hours.\n\n${FULL} is the first bad commit\n\`\`\`\ncommit ${FULL}\nAuthor: Some One <one@example.org>\n\n    Tune the timer\n\`\`\``,
    ], ['ann', 'bob']);
    expect(codesOf(thread)).not.toContain('competing');
  });
});

describe('"your recent commit "<subject>" <link> is broken"', () => {
  it('blames the commit whose quoted subject sits between the word commit and the link', () => {
    const thread = titled('Docs page symlinks are gone', [`Hello,\nyour recent commit "Move the FAQ into the guide"\nhttps://github.com/acme/widget/commit/${FULL}\nis broken: the docs symlinks became plain copies.`]);
    expect(found(thread)).toEqual([FULL]);
  });
});

describe('"X seems to break <something>"', () => {
  it('is read as a blame, as "seems to have broken" is', () => {
    expect(found(titled('make dist fails', [`https://github.com/acme/widget/commit/${FULL} seems to break \`make dist\`:\n\n    gmake[1]: docs/index.html: missing input, giving up`]))).toEqual([FULL]);
  });
});

describe('"I suppose the bug came with commit X"', () => {
  it('is a guess', () => {
    const thread = titled('configure fails', [`./configure stops with a syntax error near stdlib.h.\n\nI suppose the error got introduced by\n${FULL}`]);
    expect(codesOf(thread)).toContain('hedged');
  });
});

describe('more shapes of a named culprit', () => {
  it('"I ran git bisect between 2.1 and 2.2 and got the first bad one: X"', () => {
    expect(found(titled('Menus open off screen', ['Menus open at the far left since 2.2.', `I ran \`git bisect\` between 2.1 and 2.2 and got the first bad one: ${FULL}.`]))).toEqual([FULL]);
  });

  it('a lead-in ending in ":-" across a blank line', () => {
    expect(found(titled('Garbled sprites', ['Sprites are garbled in the intro.', `The garbling got introduced by this commit:-\n\nhttps://github.com/acme/widget/commit/${FULL}`]))).toEqual([FULL]);
  });

  it('"The [latest change](URL) made <symptom>" in a report that speaks of a regression', () => {
    expect(found(titled('Fix the clock regression', [`The [latest change](https://github.com/acme/widget/commit/${FULL}) made the clock hands swap places.`]))).toEqual([FULL]);
    expect(found(titled('Clock hands', [`The [latest change](https://github.com/acme/widget/commit/${FULL}) made the clock hands thinner.`]))).toEqual([]);
  });

  it('"(Found by bisection.)" goes from the report', () => {
    const thread = titled('Pico build hangs', [`Commit ${FULL.slice(0, 8)} breaks the pico build at boot.\n(Found by bisection.)\nThe board blinks twice and stops.`]);
    const text = decide(thread).out.report.text;
    expect(text).not.toMatch(/bisection/);
    expect(text).toContain('The board blinks twice and stops.');
  });
});

describe('words that still point at the culprit once its reference is gone', () => {
  const textOf = (title: string, bodies: readonly string[]) => decide(titled(title, bodies)).out.report.text;

  it('"(Found by bisection.)" inside a line with more after it goes alone', () => {
    const text = textOf('Pico build hangs', [`Commit ${FULL.slice(0, 8)} breaks the pico build at boot. (Found by bisection.) The board blinks twice and stops.`]);
    expect(text).not.toMatch(/bisection/);
    expect(text).toContain('The board blinks twice and stops.');
  });

  it('"the commit in question was meant to …" goes with its sentence', () => {
    const text = textOf(`${FULL} breaks the build on BSD`, [
      'Building on FreeBSD 13 stops early with an undeclared identifier `optbl` in parse.c.\n\nI looked at the history: the commit in question was meant to silence pointer-sign warnings, which still show up.',
    ]);
    expect(text).not.toMatch(/in question|pointer-sign/);
    expect(text).toContain('undeclared identifier `optbl` in parse.c');
  });

  it('"since I caused this regression" goes', () => {
    const text = textOf('Revert "Drop the legacy loader"', [
      `This reverts commit ${FULL}.\n\nFixes the crash on start. Please review with care, since I caused this regression.`,
    ]);
    expect(text).not.toMatch(/I caused/);
    expect(text).toContain('crash on start');
  });
});

describe('look-alikes met in real reports', () => {
  it('"After updating to commit X" where the form\'s revision field holds X: the revision run, not the culprit', () => {
    const body = `### Description\n\nAfter updating to commit ${FULL} the daemon dies at start.\n\n### Revision hash\n\n${FULL}\n\n### OS\n\nLinux`;
    expect(found(titled('Server crashes after update', [body]))).toEqual([]);
    // Without the form naming it as the revision run, the update is where it started.
    expect(found(titled('Server crashes after update', [`After updating to commit ${FULL} the daemon dies at start.`]))).toEqual([FULL]);
  });

  it('a revert that is an experiment ("we will see whether undoing it helps", "Attempts to fix the login") is hedged', () => {
    expect(codesOf(titled('Try the old parser', [`This reverts commit ${FULL}.\n\nThe parser suite fails since then. We will see whether undoing it helps.`]))).toContain('hedged');
    expect(codesOf(titled(`Revert ${FULL.slice(0, 8)}`, [`This reverts commit ${FULL}.\n\nAttempts to fix the login page.`]))).toContain('hedged');
  });

  it('"It seems that change crashed the worker" as a revert\'s reason is a guess', () => {
    expect(codesOf(titled('Revert "Pin the image tag"', [`This reverts commit ${FULL}.\n\nIt seems that change crashed the worker, no job starts now.`]))).toContain('hedged');
  });

  it('"X also needs to be reverted" is one of several commits taken back, no single culprit', () => {
    expect(found(titled('Lists render twice', ['Every list renders twice on the dashboard.', `https://github.com/acme/widget/commit/${FULL} also has to be reverted: it caused the doubled lists.`], ['ann', 'bob']))).toEqual([]);
  });

  it('"It seems that commit X is the one which causes …" is a plain blame', () => {
    expect(found(titled('Slow import', [`It seems that commit ${FULL} is the one which causes the slow import.`]))).toEqual([FULL]);
  });

  it('"a commit after X breaks …" in a title makes X the good side', () => {
    expect(found(titled(`a commit after ${FULL} breaks the menu on linux`, ['The menu shows no entries any more.']))).toEqual([]);
  });

  it('"Add back the bug fix in commit X" brings a fix back: X is no culprit', () => {
    expect(found(titled(`Add back bug fix in commit ${FULL.slice(0, 11)}`, ['The check was done before the flag was set; moving it back.']))).toEqual([]);
  });

  it('"I am not claiming that this commit caused it" blames nothing', () => {
    expect(found(titled('Crash on launch', [`The crash hit a build of commit ${FULL.slice(0, 7)}. I am not claiming that this commit caused it, only that my build lacked later fixes.`]))).toEqual([]);
  });

  it('"not @someone\'s fault" from another writer disputes the named commit', () => {
    const thread = titled('Flags test broken by a commit', [`The elf tests show a regression coming from ${FULL} @carol`, 'The flag went away long ago, so not @carol\'s fault; the test was stale.'], ['ann', 'bob']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('a later revert of the named commit "reversing changes made to Y" shows it is a merge', () => {
    const thread = titled('Segfault when printing', ['It segfaults when printing to stdout.', `Bisected: https://github.com/acme/widget/commit/${FULL} is the first bad commit.`, `Reverting it works:\n\`\`\`\nRevert "Merge pull request #7 from dev/topic"\n\nThis reverts commit ${FULL}, reversing\nchanges made to ${'e'.repeat(40)}.\n\`\`\``], ['ann', 'ann', 'ann']);
    expect(codesOf(thread)).toContain('range-only');
  });

  it('a commit reported by cargo-bisect-rustc is the merge of a pull request', () => {
    const thread = titled('ICE on feature gate', ['The compiler panics on this feature gate.', `nightly range 2024-01-01..2024-03-12\nregressed at commit ${FULL}\n\nbisected with cargo-bisect-rustc v0.6.8`], ['ann', 'bob']);
    expect(codesOf(thread)).toContain('range-only');
  });
});

describe('culprits named in shapes met in real reports', () => {
  it('a mailed patch pasted in a fence, with its trailers, is read as prose', () => {
    const body = `Patch mail:\n~~~\nThis reverts commit ${FULL}.\n\nCommit ${FULL.slice(0, 12)} ("Widget: fix boot") breaks the boot on older boards.\n\nSigned-off-by: Ann Example <ann@example.org>\n~~~`;
    expect(found(titled('Revert "Widget: fix boot"', [body]))).toContain(FULL);
  });

  it('"between parsing and linking" names no range of commits', () => {
    expect(found(titled('Build fails with old CMake', [`The old toolchain build fails since commit ${FULL}, with a crash between parsing and linking.`]))).toEqual([FULL]);
  });

  it('"The exact commit looks to be X which relates to issue #N": a culprit, and the issue is the one it was made for', () => {
    const thread = titled('Corrupted output for some input', [`Output is corrupted since 7.1.\n\nThe exact commit looks to be ${FULL} which relates to issue #812.\n\nUndoing that change locally makes the corruption go away.`]);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).toEqual([]);
  });

  it('"Edit: commit is this one: X" under a title blaming a recent commit', () => {
    expect(found(titled('Crash on latest build due to recent commit.', [`A recent commit made the helper local, hiding it from the games.\n\nEdit: commit is this one: ${FULL}`]))).toEqual([FULL]);
  });

  it('"Commit X regresses …" in a title', () => {
    expect(found(titled(`Commit ${FULL.slice(0, 12)} regresses the speed display`, ['The setup page shows 0 MHz.']))).toEqual([FULL.slice(0, 12)]);
  });

  it("a revert's reason given in its writer's first comment", () => {
    const thread = titled('Revert "Pin the installer version"', [`This reverts commit ${FULL}.`, "this change is causing failures in the test suite, taking it out for the moment."], ['ann', 'ann']);
    expect(found(thread)).toEqual([FULL]);
  });

  it('a revert after which "the system goes back to working"', () => {
    expect(found(titled('Revert "fix some tests"', [`This reverts commit ${FULL}.\n\nThe unit suite goes red again, yet the app goes back to working.`]))).toEqual([FULL]);
  });

  it('"In <commit URL> a guard got dropped by mistake, making …"', () => {
    expect(found(titled('Fix regression on window move', [`In https://github.com/acme/widget/commit/${FULL}\na guard got dropped by mistake, making the panel impossible to drag.`]))).toEqual([FULL]);
  });

  it('a title "Fixup X" names the commit it repairs', () => {
    expect(found(titled(`Fixup ${FULL}`, ['Round caps were drawn square.']))).toEqual([FULL]);
  });
});

describe('terse culprit lines met in real reports', () => {
  it('"Regressed in 9176408": an abbreviation of digits only, called the point of regression', () => {
    expect(found(titled('Fix `make docs` regression', ['Regressed in 9176408']))).toEqual(['9176408']);
    // A plain number stays a number.
    expect(found(titled('Slow start', ['Startup takes 9176408 microseconds.']))).toEqual([]);
  });

  it('"Broken at X." in a fix', () => {
    expect(found(titled('Update README.md', [`Fix the screenshot link.\n\nBroken at ${FULL}.`]))).toEqual([FULL]);
  });

  it('"affected commit : X" as the one commit of the report', () => {
    expect(found(titled('Commit causes crash when loading the cave', [`affected commit : ${FULL}\n\nHow to reproduce:\n1. Load the attached save.\n2. Walk into the cave.`]))).toEqual([FULL]);
  });

  it('"<file> was not added in commit X": what the commit left behind', () => {
    expect(found(titled('Missing header', [`It appears the header src/util/span_helpers.h was not added in commit ${FULL}`]))).toEqual([FULL]);
    expect(found(titled('make install fails', [`share/rules.mk was not updated in commit: ${FULL}`]))).toEqual([FULL]);
    // Something other than a file not being in the commit is no blame.
    expect(found(titled('Crash on exit', [`The crash was not fixed in commit ${FULL}.`]))).toEqual([]);
  });

  it('"the system goes back to working" after a revert leaves the report', () => {
    const text = decide(titled('Revert "tune the cache"', [`This reverts commit ${FULL}.\n\nThe cache suite fails again while the server goes back to working.\n\nCloses #31`])).out.report.text;
    expect(text).not.toMatch(/back to working/);
  });
});

describe('a state at a commit is not where it broke', () => {
  it('"The CMake build is broken at X" in a title names no culprit; a sentence opening "Broken at X." in a fix does', () => {
    expect(found(titled(`The CMake build is broken at ${FULL}`, ['Log: https://example.org/log.txt']))).toEqual([]);
  });

  it('a five-character prefix of the culprit called a commit goes from the report too', () => {
    const text = decide(titled(`Header gone since commit ${FULL.slice(0, 5)}`, [`The header src/util/span_helpers.h was not added in commit ${FULL}`])).out.report.text;
    expect(text).not.toContain(FULL.slice(0, 5));
  });
});

describe('more shapes from held-out reports', () => {
  it('a revert of a change whose counterpart elsewhere was undone blames nothing', () => {
    expect(found(titled('Revert "adapt to the new hook signature"', [`This reverts commit ${FULL}.\n\nThis breaks builds against the released toolchain. The matching library changes have been reverted, so we follow.`]))).toEqual([]);
  });

  it('"that is not related to the issue" from the one who pasted the bisect takes it back', () => {
    const thread = titled('Crash when hosting a game', ['Hosting a local game crashes at once.', `\`\`\`\n${FULL} is the first bad commit\n\`\`\``, 'Sorry, this is not related to the issue.'], ['ann', 'bob', 'bob']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('a maintainer "not yet convinced that" the change should go sends the blame to review', () => {
    const thread = titled('Revert "Change the default socket path"', [`This reverts commit ${FULL}. It broke the resume hook.`, 'I am not yet convinced that this change has to be backed out; it fixed other problems.'], ['ann', 'bob']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('"I have pinpointed the bad change to:" over a commit link with a file anchor', () => {
    expect(found(titled('Boot loop on the router', ['It loops at boot since the update.', `I have pinpointed the bad change to:\n\nhttps://github.com/acme/widget/commit/${FULL}#diff-0a1b2c3d`], ['ann', 'bob']))).toEqual([FULL]);
  });

  it('a revert that "addresses the compile errors seen in #33" blames the reverted commit', () => {
    expect(found(titled('Revert "Add the fast path"', [`This reverts commit ${FULL}.\n\nThis addresses the compile errors seen in #33.`]))).toEqual([FULL]);
  });

  it('a revert titled with a digits-only abbreviation, its reason in the writer\'s comment', () => {
    const thread = titled('Revert 4402918', ['', 'Taken out: it was breaking the firmware image.'], ['ann', 'ann']);
    expect(found(thread)).toEqual(['4402918']);
  });

  it('"Commit X makes the emulator crash" in a title', () => {
    expect(found(titled(`Commit ${FULL.slice(0, 7)} makes the emulator crash.`, ['Any game crashes at start; the build before it is fine.']))).toEqual([FULL.slice(0, 7)]);
  });

  it('"were removed in commit X … the regression gets undone here" in a fix', () => {
    expect(found(titled('fix: default shortcuts', [`The default shortcuts were removed in commit ${FULL} as I expected them to come back by themselves. This PR undoes the regression.`]))).toEqual([FULL]);
    expect(found(titled('docs', [`The old guide was removed in commit ${FULL}.`]))).toEqual([]);
  });

  it('"<quoted subject> in commit X also deleted …" in a title', () => {
    expect(found(titled(`"Tidy the menu" in commit ${FULL.slice(0, 7)} also deleted the help entry`, ['The help entry is gone from the menu.']))).toEqual([FULL.slice(0, 7)]);
  });

  it('a revert because after the commit the device "no longer works on boot"', () => {
    expect(found(titled('Revert "load the radio driver lazily"', [`This reverts commit ${FULL}.\n\nAfter said commit the radio no longer works on boot.`]))).toEqual([FULL]);
  });

  it('a title "… fails to launch after the console update in commit X"', () => {
    expect(found(titled(`App fails to launch after \`helper.exe\` update in commit \`${FULL.slice(0, 8)}\``, ['The window never opens on Windows 11.']))).toEqual([FULL.slice(0, 8)]);
  });

  it('"repair the restore regression due to an earlier commit" over a post that is only "Commit : <URL>" and an issue', () => {
    expect(found(titled('repair the restore regression due to an earlier commit', [`Commit : https://github.com/acme/widget/commit/${FULL}\n#395`]))).toEqual([FULL]);
  });

  it('"<it> crashes when launched since <URL>" in a report; "fixed since X" is no blame', () => {
    expect(found(titled('Crash at launch', [`The app crashes whenever it is opened since https://github.com/acme/widget/commit/${FULL}\n\nLast good build: 1.4.2-165`]))).toEqual([FULL]);
    expect(found(titled('Crash at launch', [`The start-up crash is fixed since\nhttps://github.com/acme/widget/commit/${FULL}`]))).toEqual([]);
  });

  it('"X is to blame, though I cannot tell which part of it" is no guess about the commit', () => {
    const thread = titled('Demo desyncs', ['The second demo desyncs on map 3.', `Turns out commit ${FULL} is the cause of the drift, though I'm not sure which bit of it.`], ['ann', 'bob']);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).not.toContain('hedged');
  });

  it('"Looks like a PHP error since commit X" describes the error, it does not hedge the commit', () => {
    expect(codesOf(titled('Panes stop updating', [`Looks like a PHP error since commit ${FULL} in the monitor; no pane updates now:\n\n\`\`\`\nFatal error: undefined method Repo::log()\n\`\`\``]))).not.toContain('hedged');
  });

  it('an earlier breakage named and said fixed is no rival of the new one', () => {
    const other = 'c'.repeat(40);
    const thread = titled('Fix the core again', [`Commit https://github.com/acme/widget/commit/${other} broke the decoder. PR #60 resolved it.\n\nNow commit https://github.com/acme/widget/commit/${FULL} has broken the same code the same way. This PR fixes it again.`]);
    expect(codesOf(thread)).not.toContain('competing');
    expect(screenThread(thread, extractAttributions(thread)).culprits.map((i) => extractAttributions(thread)[i]!.ref.value)).toEqual([FULL]);
  });

  it('"Which is #61." after the attribution, the first line of a long subject quoted alone, and "reverting it restores …" leave the report', () => {
    const lead = decide(titled('Listing breaks with icons', [`Long listings lose their icons.\n\nBisected to ${FULL}.\nWhich is #61.\n\nReverting it restores the icons.`])).out.report.text;
    expect(lead).toContain('Long listings lose their icons.');
    expect(lead).not.toMatch(/#61|restores/);
  });
});

describe('a last batch of shapes from held-out reports', () => {
  it('"X is largely exonerated" takes the suspect back', () => {
    expect(found(titled('Queries slower since 2.3', ['Top-N queries got slower with 2.3.', `## Bisect 2: \`${FULL.slice(0, 8)}\` is largely exonerated. The hypothesis I posted was wrong.`], ['ann', 'bob']))).toEqual([]);
  });

  it('another writer for whom it works on a build made at the named commit sends the bisect to review', () => {
    const thread = titled('Module fails to install', ['Installing the module fails with 5.31.', `The bisect lands on:\n\ncommit ${FULL}\nAuthor: Some One <one@example.org>\nDate:   Mon Mar  4 08:15:00 2019 +0100\n\n    Update the bundled installer`, `For what it is worth, the module installs fine for me on a build from commit ${FULL.slice(0, 7)}.`], ['ann', 'bob', 'carl']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('"it works just fine for me" from another writer sends the blame to review', () => {
    const thread = titled('Backend broke the sampler', [`https://github.com/acme/widget/commit/${FULL} broke the sampler: backing it out makes it work again.`, 'No idea what differs on your side; it works just fine for me.'], ['ann', 'bob']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('"since X commit, …" under a title telling what went missing', () => {
    expect(found(titled('missing translations', [`since ${FULL} commit, most of the menu strings can no longer be translated`]))).toEqual([FULL]);
  });

  it('"Commit X makes the toolbar icons disappear"', () => {
    expect(found(titled('Toolbar icons gone', [`Commit ${FULL} makes the toolbar icons disappear for me.`]))).toEqual([FULL]);
  });

  it('"Yes, it\'s X. If we revert that commit, we can start it."', () => {
    expect(found(titled('Board does not boot', ['', `Yes, it's ${FULL}. If we revert that commit, we can start it. Without the revert we cannot.`], ['ann', 'bob']))).toEqual([FULL]);
  });

  it('"Bisecting points at the following commit as the cause." over a line with the SHA and its subject in backticks', () => {
    expect(found(titled('One core shows full load', ['One core sits at 100% in the meter.', `Bisecting points at the following commit as the cause.\n\n${FULL} \`Account guest time separately\``], ['ann', 'bob']))).toEqual([FULL]);
  });

  it('"Adds a header left out of commit X" in a fix', () => {
    expect(found(titled('Add the missing include', [`Adds a required include left out of commit ${FULL.slice(0, 9)}.`]))).toEqual([FULL.slice(0, 9)]);
  });

  it('no guess: "bisected: X seems to be the bad one", a revert reason that asks "what the problem could be", "and probably a few more cases as well", "fix the potential deadlock"', () => {
    expect(codesOf(titled('Parser hangs', ['The parser hangs on nested input.', `I bisected it and ${FULL} seems to be the bad one.`], ['ann', 'bob']))).not.toContain('hedged');
    // …but a bisect still to be checked stays a guess.
    expect(codesOf(titled('Parser hangs', ['The parser hangs on nested input.', `Some bisecting says ${FULL} seems to be the bad one; we need a couple of hours to verify it.`], ['ann', 'bob']))).toContain('hedged');
    expect(codesOf(titled('Revert "Shorten the fetch timeout"', [`This reverts commit ${FULL}.\n\nThe shorter timeout has caused failures on slow links.\n\nIt was meant to fail fast, and the error message never said what the problem could be.`]))).not.toContain('hedged');
    expect(codesOf(titled('Revert "Fix a crash on scaling (#650)"', [`This reverts commit ${FULL}.\nThat commit caused a crash for many users of tiling setups, and probably in a few more cases as well.`]))).not.toContain('hedged');
    expect(codesOf(titled('Revert "Fix a potential pool race (#17)"', [`This reverts commit ${FULL}.\n\nFixing the potential race that way brought a real hang in daily use.`]))).not.toContain('hedged');
  });
});

describe('wordings of a later round of real threads', () => {
  const PARENT = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c';

  it('"Use-after-free following the latest commit <URL>" blames the commit the breakage followed', () => {
    expect(found(titled('Daemon dies on the first request', [`Use-after-free following the latest [commit](https://github.com/acme/widget/commit/${FULL})\n\nSteps: start the daemon, send one request.`]))).toEqual([FULL]);
  });

  it('"the following commit" is a pointer, not the time the breakage followed', () => {
    expect(found(titled('Daemon dies on the first request', [`Crashes on start. I read the following commit https://github.com/acme/widget/commit/${FULL} but it seems fine.`]))).toEqual([]);
  });

  it('"X is the bad one and Y is the last working one": Y is the good side, not a rival culprit', () => {
    const thread = titled('Playback stalls', ['The player stalls after a few seconds.', `I went through the history:\n\n${FULL} is the breaking commit and\n${PARENT} is the last working commit`]);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).not.toContain('competing');
  });

  it('"X is the fault commit" and a title "<ref> - messes up the fonts" blame X', () => {
    expect(found(titled('Menus broken', ['The menus render empty.', `Looked into it: ${FULL} is the fault commit.`]))).toEqual([FULL]);
    expect(found(titled(`June 3 commit 1a2b3c4d5e - messes up the fonts in the editor`, ['The glyphs are drawn twice since that build.']))).toEqual(['1a2b3c4d5e']);
  });

  it('a six-hex abbreviation counts only as a bisect\'s outcome', () => {
    expect(found(titled('Viewer shows black frames', ['Frames are black in windowed mode.', 'Bisecting says the first bad commit is 9a8b7c']))).toEqual(['9a8b7c']);
    expect(found(titled('Viewer shows black frames', ['Frames are black in windowed mode; the error code is 9a8b7c and it broke the tests.']))).toEqual([]);
    expect(found(titled('Upstream commit 9a8b7c broke all of the tests.', ['See the upstream change.']))).toEqual([]);
  });

  it('the namer unable to reproduce it at the commit on going back to it retracts the bisect', () => {
    const thread = titled('Link error: undefined symbol', [`Commit ${FULL} introduces a link error for the debug build.`, 'This passed in CI, which toolchain do you use?', 'I did bisect to that commit, but on going back to it I cannot reproduce the error any more.'], ['reporter', 'maintainer', 'reporter']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('"caused by my last PR" from the author of the culprit owns it, it names no other cause', () => {
    const thread = titled('Fix the build', [`The build failures were introduced by commit ${FULL}.`, 'Please have a look, this problem was caused by my last PR.'], ['dev-one', 'dev-two']);
    expect(codesOf(thread)).not.toContain('retracted');
    expect(found(thread)).toEqual([FULL]);
  });

  it('an aside opened with "Also" about a second, older problem is no symptom mismatch', () => {
    const thread = titled('Quick start no longer skips the intro', ['Seen on the current nightly.', `Here is the commit which caused this regression: https://github.com/acme/widget/commit/${FULL}\n\nAlso the load menu seems broken for a while too, most likely another regression from long ago.`]);
    expect(codesOf(thread)).not.toContain('symptom-mismatch');
  });

  it('a revert whose reason is "the job keeps failing from this commit" or "users could not type any more" blames the reverted commit', () => {
    expect(found(titled('Reverting commit 1a2b3c4', ['### Problem\nThe nightly benchmark job keeps failing from this commit\n\n### Change\nRevert of 1a2b3c4 commit']))).toEqual(['1a2b3c4']);
    expect(found(titled('Revert "Smooth pen input to avoid jagged lines"', [`This reverts commit ${FULL}.\n\nSeveral users could not draw any more, the strokes stopped half way.`]))).toEqual([FULL]);
  });

  it('a reverted workaround with no loss told stays a cleanup', () => {
    expect(found(titled('Revert "Work around the stall on resume"', [`This reverts commit ${FULL}.\n\nThe driver update made it unnecessary.`]))).toEqual([]);
  });

  it('"I ran git bisect and narrowed it down to this commit" goes with the answer', () => {
    const out = decide(titled('Colour profile ignored', [`Commit ${FULL} broke the export to sRGB. I ran \`git bisect\` and narrowed it down to this commit. Exports stay 16-bit.`])).out;
    expect(out.report.text).not.toMatch(/narrow it down/);
    expect(out.report.text).toContain('Exports stay 16-bit.');
  });

});

describe('wordings of a later round of real threads, continued', () => {
  const PARENT = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c';

  it('"I located the change which introduced the failure" over a SHA on its own paragraph blames it', () => {
    expect(found(titled('Cannot build on Windows', [`Eventually I located the change which introduced the failure\n\n${FULL}\n\nThe log of the failed build is attached.`]))).toEqual([FULL]);
  });

  it('"masked by another issue at this commit" says the other bug hides this one, not that the report is another', () => {
    const thread = titled('Cannot build on Windows', [`Eventually I located the change which introduced the failure\n\n${FULL}\n\nAt that commit the failure is hidden by a second problem, which a later fix uncovers.`]);
    expect(codesOf(thread)).not.toContain('symptom-mismatch');
  });

  it('a revert whose reason is "bisecting showed me this change introduced a new bug" blames the reverted commit', () => {
    expect(found(titled('Revert "pager: keep the last line"', [`This reverts commit ${FULL}.\n\nBisecting showed me this change introduced a new bug: piping one line prints nothing.`]))).toEqual([FULL]);
  });

  it('"… since it caused a far worse bug" is a revert reason', () => {
    expect(found(titled('Revert "Round the totals"', [`This reverts commit ${FULL}.\n\nI want to revert this since it caused a far worse bug in the invoices.`]))).toEqual([FULL]);
  });

  it('"I was able to trace the start of this crash back to this commit <URL>" blames it', () => {
    expect(found(titled('editor: fix crash when pasting a unit', [`I was able to trace the start of this crash back to this commit https://github.com/acme/widget/commit/${FULL} and its change to the serializer.`]))).toEqual([FULL]);
  });

  it('"a version before this commit worked" is no parent: a likely blame stays a guess', () => {
    const thread = titled('Segfault with the new compiler', [`The crash was probably introduced with commit ${FULL}\n(I moved up from a version before this commit; before that all was fine)`]);
    expect(codesOf(thread)).toContain('hedged');
  });

  it('"It looks like X introduced it (the parent Y still works)" has both ends: no guess', () => {
    const thread = titled('ant build fails', ['The ant build fails with a missing jar.', `It looks like commit ${FULL} caused the failure (the parent ${PARENT} still works).`]);
    expect(codesOf(thread)).not.toContain('hedged');
    expect(found(thread)).toEqual([FULL]);
  });

  it('someone else finding a stale build ("you just need to run cmake again"), an intended change or a harmless one puts the blame in doubt', () => {
    const blamed = `git bisect points at ${FULL} as the commit that started the compile errors.`;
    expect(codesOf(titled('Compile errors on master', [blamed, 'The main branch builds here. You only need to run `meson` again.']))).toContain('retracted');
    expect(codesOf(titled('Compile errors on master', [blamed, 'Master dropped support for the old toolkit on purpose, so this is expected.']))).toContain('retracted');
    expect(codesOf(titled('Compile errors on master', [blamed, `${FULL} only edits documentation, it should not cause any problems for you.`]))).toContain('retracted');
  });

  it('"X (subject (#64)) which is a fix for #53" names the issue X was written for, not another bug', () => {
    const thread = titled('--only-failed runs a single test', ['Only one test runs with the flag.', `Bisected to ${FULL} ("Collect lazily (#64)") which is a fix for #53 - cc @dev`]);
    expect(codesOf(thread)).not.toContain('symptom-mismatch');
    expect(found(thread)).toEqual([FULL]);
  });

  it('a title "fix another bug in commit# X" blames X, and "another bug" is X\'s own', () => {
    const thread = titled('fix another bug in commit# 1a2b3c4', ['Our tests for the small board are thin.']);
    expect(found(thread)).toEqual(['1a2b3c4']);
    expect(codesOf(thread)).not.toContain('symptom-mismatch');
  });

  it('"Commit X makes clang versión 3.8.0 abort" blames X', () => {
    expect(found(titled('Fails to build with an old gcc', [`Commit ${FULL} makes clang versión 3.8.0 abort with this error:\n\n\`\`\`\nerror: no member named 'mode'\n\`\`\``]))).toEqual([FULL]);
  });

  it('"It builds again when I go back to before this commit:" over fenced `git log` output blames it, and the fence goes with it', () => {
    const body = `The build fails:\n\`\`\`\nERROR: include not allowed\n\`\`\`\n\nIt builds again when I go back to before this commit:\n\`\`\`\ncommit ${FULL}\nAuthor: Some One <one@example.com>\nDate:   Mon Mar 4 09:12:30 2024 +0100\n    [shell] build the shell as a module (#70)\n\`\`\`\n\nThe CI does not build every configuration.`;
    const thread = titled('CI missed a broken configuration', [body]);
    expect(found(thread)).toEqual([FULL]);
    const text = decide(thread).out.report.text;
    expect(text).not.toContain('go back');
    expect(text).not.toContain('Author:');
    expect(text.match(/```/g)).toHaveLength(2);
    expect(text).toContain('The CI does not build every configuration.');
  });

  it('a revert whose failure its writer later puts down to a transient outage blames nothing', () => {
    const thread = titled('Revert "Bump the toolchain"', [`This reverts commit ${FULL}.\n\nThe nightly job keeps failing since this commit.`, 'It turns out the failures were triggered by a transient outage of the package registry.'], ['dev', 'dev']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('"after bisecting, I found …" and "running `git bisect` we isolated it …" go with the answer', () => {
    const a = decide(titled('Revert "pager: keep the last line"', [`This reverts commit ${FULL}.\n\nAfter bisecting, we identified this patch: it broke piping a single line. Nothing is printed.`])).out;
    expect(a.report.text).not.toMatch(/bisecting/i);
    expect(a.report.text).toContain('Nothing is printed.');
    const b = decide(titled('Media keys do nothing', [`The media keys stopped working on master.\n\nRunning \`git bisect\` we isolated it to this commit (unless we made a mistake):\n\n${FULL} is the first bad commit`])).out;
    expect(b.report.text).not.toMatch(/isolate/);
    expect(b.report.text).toContain('The media keys stopped working on master.');
  });

  it('"X was causing test failures, but that was because …" explains the blame away', () => {
    expect(found(titled('Re-apply "Merge single blocks"', [`${FULL} was causing some test failures, but that was because the other half of the change had not landed yet.`]))).toEqual([]);
  });

  it('"it clearly isn\'t this commit alone" withdraws a revert\'s blame', () => {
    const thread = titled('Revert "Batch the splitter"', [`This reverts commit ${FULL}.\n\nIt causes crashes on the CI runners, but not locally.`, 'We looked again: it started around that time, maybe together with other changes, but it clearly is not this commit alone.']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('a SHA cut in two by a shortened title ("… since commit 5d4140…" / "…2abc4b…") is one reference, and both halves go', () => {
    const thread = titled(`Repair the sample in the guide that fails since commit ${FULL.slice(0, 6)}\u2026`, [`\u2026${FULL.slice(6)}`, 'Thanks!']);
    expect(found(thread)).toEqual([FULL]);
    const text = decide(thread).out.report.text;
    expect(text).not.toContain(FULL.slice(0, 6));
    expect(text).not.toContain(FULL.slice(6, 20));
    expect(text).toContain('Repair the sample in the guide');
  });

  it('"I updated the rules in #17" before the blame names the writer\'s own work, not another bug', () => {
    const thread = titled('Broken rules for the mirror site', [`I updated the rules in #17. Later someone pushed ${FULL}, which breaks the mirror because the certificate name does not match.`]);
    expect(codesOf(thread)).not.toContain('symptom-mismatch');
    expect(found(thread)).toEqual([FULL]);
  });

  it('"It looks like X broke …" that the commit\'s author owns up to ("I must have dropped that …", "I suspected this might break things") is no guess', () => {
    const blamed = `It looks like ${FULL} broke the install step, the helper it calls is gone.`;
    expect(codesOf(titled('Undefined function on install', [blamed, 'I must have accidentally dropped that while tidying the commands. A fix follows today.']))).not.toContain('hedged');
    expect(codesOf(titled('Undefined function on install', [blamed, 'I suspected this might break things. Let us see what CI says about #12.']))).not.toContain('hedged');
    expect(codesOf(titled('Undefined function on install', [blamed, 'Can you attach the full log?']))).toContain('hedged');
  });

  it('"X and some other commits broke …" blames several commits', () => {
    expect(found(titled('fix: broken references', [`${FULL} and some other older commits broke the links to the helpers. This commit fixes them.`]))).toEqual([]);
  });
});

describe('wordings of held-out sets 69–72', () => {
  it('"a full revert of that commit" loses its pointer, the outcome stays', () => {
    const out = decide(titled('Layer dialog crashes', [`Commit ${FULL} broke the layer dialog. Cherry-picking the two small fixes did not help, so I tried a full revert of that commit and the dialog opens again.`])).out;
    expect(out.report.text).not.toMatch(/revert of that commit/);
    expect(out.report.text).toContain('the dialog opens again');
  });

  it('"Never mind." from the one who named the commit takes the blame back', () => {
    const thread = titled(`${FULL} broke the plugin`, ['The last line should close the wrapper.', 'Never mind.'], ['reporter', 'reporter']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('another bug the writer will open later is no symptom of this one', () => {
    const thread = titled('Shift combinations ignored since commit 1a2b3c4d', ['While checking another bug that I will file later, I saw that no key combination with shift works in the search box.\n\nBisecting from the release I use, I ended at commit 1a2b3c4d, which reworks the key handling.']);
    expect(codesOf(thread)).not.toContain('symptom-mismatch');
  });

  it('"could this commit be related to it?" right after the blame makes it a question', () => {
    const thread = titled('CI red since a commit', [`Since commit [1a2b3c4](https://github.com/acme/widget/commit/${FULL}), two of the CI jobs exit with code 1 at the packaging step.\n\nWhat happened there, and could this commit be related to it?`]);
    expect(codesOf(thread)).toContain('hedged');
  });

  it('"accidentially" (sic) and "removed some lines it should not have" blame the commit', () => {
    expect(found(titled('[FIX] Inverted checks', [`Since the change https://github.com/acme/widget/commit/${FULL} the two checks are accidentially swapped.`]))).toEqual([FULL]);
    expect(found(titled('fix the earlier fix', [`Commit ${FULL}, which meant to fix a crash, deleted two checks it should not have.\n\nThis puts them back.`]))).toEqual([FULL]);
  });

  it('"I was looking at issue #88 when …" and "the crash reported in issue #240" point at this very problem, not another', () => {
    expect(codesOf(titled('Wrong totals', [`I was looking at issue #88 when I saw the totals are off by a factor of three.\n\nA bisect says the regression came with commit ${FULL} last spring.`]))).not.toContain('symptom-mismatch');
    expect(codesOf(titled('Fix a crash', [`This fixes the crash that has been reported in issue #31 (introduced with commit 1a2b3c4).`]))).not.toContain('symptom-mismatch');
  });

  it('an apology for the noise takes the blame back even when its post names the commit again', () => {
    const thread = titled('Crash on start with a PDF argument', ['The app crashes a second after start when a PDF is given.\n\nUndoing 1a2b3c4 makes the crash go away.', 'Cannot reproduce here. Is this plain master?', 'On plain master it does not crash; only my own branch, which brings 1a2b3c4 back, does. Sorry for the noise.'], ['reporter', 'maintainer', 'reporter']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('"Building latest v2.4 X results in …" and "running the tests off of X caused them to fail" name the revision run, not a culprit', () => {
    expect(found(titled('Building latest 1a2b3c4 results in a dead board', ['Building the latest v2.4 1a2b3c4 results in a board that never boots.']))).toEqual([]);
    expect(found(titled('Some solver tests fail', ['Can someone check whether the solver tests fail for them too?', 'They pass once I updated master. Running them off of commit 1a2b3c4 caused them to fail, apparently.']))).toEqual([]);
  });

  it('"I found another bug though" and "please open a separate issue for that" set a second problem apart', () => {
    const thread = titled('Crash when leaving the locked state', [`The compositor crashes when the session unlocks.\n\nThe regression came in with ${FULL}; it does not happen before that commit.`, 'Found it. I found another bug though: some windows close when the session unlocks.', 'Will look; please open a separate issue for that.']);
    expect(codesOf(thread)).not.toContain('symptom-mismatch');
  });

  it('"Introduced with commit X" under a feature request names where the feature came in', () => {
    expect(found(titled('Simulation for the new robot', ['Add a simulation for the new robot plugin.', `Introduced with commit ${FULL}`, 'done a while ago']))).toEqual([]);
    expect(found(titled('Simulation crashes for the new robot', ['The simulation crashes on start.', `Introduced with commit ${FULL}`]))).toEqual([FULL]);
    // A fix naming where its mistake came in is no feature request, though its body opens with "introduced".
    expect(found(titled('shader: close the stray bracket', [`introduced in ${FULL}\n\nOdd that no compiler flagged it until now.`]))).toEqual([FULL]);
  });

  it('"The offending change was therefore reverted." goes with the answer', () => {
    const out = decide(titled('Revert "Tune the boot flags"', [`This reverts commit ${FULL}.\n\n- The new flags broke booting on the small board.\n- The offending change was therefore reverted.\n- Boot logs are attached.`])).out;
    expect(out.report.text).not.toMatch(/therefore reverted/);
    expect(out.report.text).toContain('Boot logs are attached.');
  });

  it('"It builds for me." from someone else puts the blame in doubt', () => {
    expect(codesOf(titled('Fix build', [`The build was broken by commit ${FULL}.`, 'Which errors do you see? It builds for me.']))).toContain('retracted');
  });
});

describe('shapes of reports met on threads r2v was not tuned on', () => {
  const OTHER = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b';
  const PARENT = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4';

  it('"the merge (A ... B) caused it" names a range, which a later bisect inside it does not compete with', () => {
    const thread = titled('Prompt no longer redraws', [`The cleanup merge ( ${OTHER} ... ${PARENT} ) caused the prompt to stop redrawing on Ctrl+L.`, `Easy to reproduce. Bisects to ${FULL}`], ['reporter', 'maintainer']);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).toEqual([]);
  });

  it('a revert whose cure someone else does not see ("it still crashes for me") goes to review', () => {
    const thread = titled('Revert "Use the compact symbol map"', [`This reverts commit ${FULL}.\n\nWith that commit reverted the viewer no longer crashes for me, so I take it back.`, 'Hmm, it still crashes for me :(']);
    expect(screenThread(thread, extractAttributions(thread))).toMatchObject({ decision: 'review', reasons: [{ code: 'retracted' }] });
    // Nobody doubting the revert: a plain candidate.
    const plain = titled('Revert "Use the compact symbol map"', [`This reverts commit ${FULL}.\n\nWith that commit reverted the viewer no longer crashes for me, so I take it back.`, 'Thanks, merging.']);
    expect(screenThread(plain, extractAttributions(plain)).decision).toBe('candidate');
  });

  it('"I applied #77 and now it works as designed" reports a fix working, which disputes nothing', () => {
    const thread = titled('Menu flickers', ['The menu flickers while scrolling.', `The flicker starts with ${FULL}; its parent is fine.`, 'Thanks: I applied #77 and it works as designed here.'], ['reporter', 'maintainer', 'reporter']);
    expect(codesOf(thread)).not.toContain('retracted');
  });

  it('"since I updated to the latest commit X …" names X once going back to the commit before it cures the problem', () => {
    const lead = `Ever since I updated to the latest commit ${FULL} the indexer started eating all memory.`;
    expect(found(titled('Indexer eats memory', [`${lead}\n\nGoing back to the prior commit ${PARENT} cured it here.`]))).toEqual([FULL]);
    // Without the commit before it being good, the latest commit is only the revision run.
    expect(found(titled('Indexer eats memory', [`${lead}\n\nNo idea which change did it.`]))).toEqual([]);
  });

  it('"X and later commits do not work" marks X as where it starts', () => {
    const thread = titled('Board dead after flashing', [`Boards flashed with builds from ${FULL} (#412) and later commits do not work; builds from ${PARENT.slice(0, 10)} and earlier work fine.\n\nThe keys do nothing on the host.`]);
    expect(found(thread)).toContain(FULL);
  });

  it('a pasted bisect verdict under "X seems to be the culprit" is no guess; doubt about the bisect still is', () => {
    const log = `\`\`\`\ngit bisect start\n# bad: [${OTHER}] release 2.0\n# good: [${PARENT}] release 1.9\n# first bad commit: [${FULL}] rework the loader\n\`\`\``;
    const sure = titled('Setup script fails', [`The setup script fails on a clean checkout.`, `Using git bisect I pinned down where it began. ${FULL} seems to be the culprit.\n${log}`]);
    expect(codesOf(sure)).not.toContain('hedged');
    const unsure = titled('Setup script fails', [`The setup script fails on a clean checkout.`, `I am not sure my bisect is right, maybe ${FULL} is the culprit.\n${log}`]);
    expect(codesOf(unsure)).toContain('hedged');
  });

  it('guesses at pull requests made before a plain bisect result are superseded by it, not rival culprits', () => {
    const thread = titled('Sprites stay on screen', ['Falling sprites stay on screen since the March builds.', 'Regression possibly introduced by #881.', 'I believe the regression was instead caused by #944.', `Bisected ${FULL} as first bad commit.`], ['reporter', 'helper', 'helper', 'tester']);
    expect(codesOf(thread)).toEqual([]);
    // Two plain blames of different commits still compete.
    const rival = titled('Sprites stay on screen', ['Falling sprites stay on screen since the March builds.', `This was caused by ${OTHER}.`, `Bisected ${FULL} as first bad commit.`], ['reporter', 'helper', 'tester']);
    expect(codesOf(rival)).toContain('competing');
  });

  it('a bare hash that the thread then links as another repository\'s commit is that repository\'s', () => {
    const thread = titled('Bump of the transport library', ['Undoes the transport bump; the chain stalls with it.', `Either \`${OTHER}\` or \`${FULL}\` is the culprit. Will know soon.`, `It's https://github.com/acme/transport/commit/${FULL}`]);
    expect(codesOf(thread)).toContain('cross-repository');
  });

  it('"… simply exposed it, but is not the root cause" takes the blame back', () => {
    const thread = titled('Freeze when loading an old save', ['The game freezes loading an old save.', `Bisected to ${FULL}`, 'I think the bug was older; the commit in question only exposed it, but is not the root cause.'], ['reporter', 'tester', 'maintainer']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('a guessed culprit that its maintainer then says he will revert was acted on', () => {
    const thread = titled('Title screen cut off', ['Part of the title screen is cut off.', `Likely a regression from ${FULL}. Could you try this build without it?`, 'Neither problem shows in that build.', 'Good, that settles it. Will revert the shadow change for now and look again later.'], ['reporter', 'maintainer', 'reporter', 'maintainer']);
    expect(codesOf(thread)).not.toContain('hedged');
    // Reverting only to see whether it helps is an experiment, not a verdict.
    const trial = titled('Title screen cut off', ['Part of the title screen is cut off.', `Likely a regression from ${FULL}.`, 'I will revert the shadow change to see if that helps.'], ['reporter', 'maintainer', 'maintainer']);
    expect(codesOf(trial)).toContain('hedged');
  });

  it('"The following commit: X — Introduced a bug in …" blames X', () => {
    expect(found(titled('Fix the missing transport setup', [`The following commit:\nhttps://github.com/acme/widget/commit/${FULL}\n\nIntroduced a bug in the transport setup, which then leaves the tools without a context.`]))).toEqual([FULL]);
  });

  it('"unlike #1931, which fixes a separate regression" sets another change\'s problem apart', () => {
    const thread = titled('Fix regression in the dock manager introduced in the last commit', [`This restores the fix of #1873. Commit ${FULL.slice(0, 8)} accidentally dropped it again.\n\nThis is close to, but not the same as, #1931, which fixes a separate regression of that week.`]);
    expect(codesOf(thread)).not.toContain('symptom-mismatch');
  });

  it('"Revert part of commit X" with a fix stated, and a revert whose reason is that X made the tests unstable, blame X', () => {
    expect(found(titled(`Revert part of commit ${FULL}`, ['This fixes a regression in training.']))).toEqual([FULL]);
    expect(found(titled('Revert "Replace the argument list with slices"', [`This reverts commit ${FULL}.\n\nIt made the nightly suite flaky, so out it goes before the release.`]))).toEqual([FULL]);
  });

  it('the Subversion revision a thread gives as the text of its link to the culprit is deleted everywhere, with no copy at hand', async () => {
    const thread = titled('Hang on a black screen', [`The game hangs on a black screen after boot.\n\nLast working: r8810, broken in [r8811](https://github.com/acme/widget/commit/${FULL})\n\nThe other game broken in \`r8811\` was fixed later.\n\n    Revision 8811\n    Stop the loop when masked`]);
    const attributions = extractAttributions(thread);
    const out = await sanitizeThread(thread, attributions, { gold: null, goldSubject: null, prNumbers: [], knownShas: [] }, null);
    expect(out.report.text).toContain('hangs on a black screen');
    expect(out.report.text).not.toMatch(/r8811|Revision 8811/);
  });
});

describe('the symptom told in the attribution sentence stays, the answer goes', () => {
  it('"Since upgrading to the newest commit (X) the daemon started …": the opener and the reference go, the symptom clause stays', () => {
    const { out } = decide(titled('Daemon eats memory', [`Since upgrading to the newest commit (${FULL}) the sync daemon started leaking memory.\n\nGoing back to the prior commit cured it.`]));
    expect(out.report.text).toContain('the sync daemon started leaking memory');
    expect(out.report.text).not.toContain(FULL.slice(0, 7));
  });

  it('"Commit X somehow broke …" and "This PR <link> seems to have broken …": the verb goes with the reference, what broke stays', () => {
    const a = decide(titled('CI red', [`Commit ${FULL} somehow broke the parser tests on the nightly runner.`])).out;
    expect(a.report.text).toContain('broke the parser tests on the nightly runner');
    expect(a.report.text).not.toContain(FULL.slice(0, 7));
    const b = decide(titled('Vertical layout wrong', [`This PR https://github.com/acme/widget/pull/77 seems to have broken vertical layout, making the glyphs overlap badly.`])).out;
    expect(b.report.text).toContain('making the glyphs overlap badly');
    expect(b.report.text).not.toContain('pull/77');
  });

  it('"This reverts commit X, for introducing …": the revert goes, the reason stays', () => {
    const { out } = decide(titled('Revert "Order the transforms of a frame"', [`This reverts commit ${FULL},\nfor introducing scroll jumps in the viewer such as the one in the linked bug.`]));
    expect(out.report.text).toContain('for introducing scroll jumps in the viewer');
    expect(out.report.text).not.toContain(FULL.slice(0, 7));
  });
});

describe('more shapes from held-out threads', () => {
  const OTHER = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b';
  const PARENT = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4';

  it('a hex run named as a web player, an image or a checksum is no commit', () => {
    expect(found(titled('New player 3fa9c1d2 has broken the video extractor', ['Downloads fail since this morning.']))).toEqual([]);
    expect(found(titled('Container image 3fa9c1d2 breaks startup', ['The service never comes up.']))).toEqual([]);
  });

  it('"I have bisected between main and v2.0, and it seems that X is the first bad commit" tells the searched range, then the verdict', () => {
    expect(found(titled('Machine stays busy after shutdown', [`I have bisected between main and v2.0, and it seems that ${FULL} \`stop on errors\` is the first bad commit.`]))).toEqual([FULL]);
  });

  it('"Fixes #7318" atop a revert pull request closes the issue of this very problem', () => {
    const thread: Thread = { ...titled('Revert the commit that broke the display', [`Fixes https://github.com/acme/widget/issues/7318\n\nReverts\nhttps://github.com/acme/widget/commit/${FULL} to make the display work again.`]), url: 'https://github.com/acme/widget/pull/7326' };
    expect(codesOf(thread)).not.toContain('symptom-mismatch');
  });

  it('"certainly looks like the point where it breaks" is no guess, and "no longer working with X" names X bad, not good', () => {
    const thread = titled('Clipboard no longer works', [`Clipboard sharing no longer working with ${OTHER.slice(0, 7)}.\n\n- I have success with ${PARENT.slice(0, 7)}\n  - ${FULL.slice(0, 7)} certainly looks like the point where sharing breaks`]);
    const { candidates } = extractWithCandidates(thread);
    expect(candidates.find((c) => c.ref.ref.value === OTHER.slice(0, 7))!.evidence.map((e) => e.code)).not.toContain('goodSide');
    expect(codesOf(thread)).not.toContain('hedged');
    expect(found(thread)).toContain(FULL.slice(0, 7));
  });

  it('a run of digits the next words call a commit ("7310552 (the bad commit)") is one; "up to and including the current HEAD (X)" is a range end', () => {
    const thread = titled('Banners no longer hidden', ['7310552 (the bad commit) and everything up to and including the current HEAD (c0ffee1) have broken the banner hiding. Its predecessor d00dad5 is fine.']);
    expect(found(thread)).toEqual(['7310552']);
    // Digits alone stay a number.
    expect(found(titled('Slow start', ['Startup takes 8374799 microseconds now.']))).toEqual([]);
  });

  it('a reference alone in its paragraph, then "triggers a test failure in …", is blamed', () => {
    expect(found(titled('Image parser broken', [`### Description\n\nhttps://github.com/acme/widget/commit/${FULL}\n\ntriggers a test failure in the Perl bindings.`]))).toEqual([FULL]);
  });

  it('"everything is working again, because I had never pressed Apply" from the one who blamed takes it back', () => {
    const thread = titled(`commit ${FULL.slice(0, 10)} breaks the custom rules`, [`Starting with commit ${FULL.slice(0, 10)} my custom rules have no effect any more.`, 'Works on my side; exact steps, please.', 'Everything is working again now, seemingly because I had never pressed "Apply" in the rules tab.'], ['reporter', 'maintainer', 'reporter']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('a revert whose reason is an "unintended side effect" blames the reverted commit', () => {
    expect(found(titled('Revert "Honour the local build flags"', [`This reverts commit ${FULL}.\nIt has an unintended side effect (#12, #13); the cleanup must be redone another way.`]))).toEqual([FULL]);
  });

  it('"The last working revision was Y and on X the reload stopped working" blames X, not Y', () => {
    const thread = titled('Hot reload broken on master', ['The component does not re-render after an edit.', `The last working revision was ${PARENT.slice(0, 7)} and on ${FULL.slice(0, 7)} the reload stopped working.`]);
    expect(found(thread)).toEqual([FULL.slice(0, 7)]);
  });
});

describe('held-out shapes of sets 81 and 83', () => {
  const PARENT = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4';

  it('"I started back from X (v0.5.1)" names a restore point, not where trouble started', () => {
    const thread = titled('Repair the glyph outlines', [`Commit ${FULL} from last month broke the glyph outlines and shifted the kerning.\n\nSo I started back from the source file at ${PARENT} (v0.5.1) and applied the later patches again.`]);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).not.toContain('competing');
  });

  it('the writer\'s own follow-up "found issues with the patch which broke the release job" gives the revert its reason', () => {
    expect(found(titled('Revert "Run CI on every push"', [`This reverts commit ${FULL}.`, 'Found issues with the patch which broke the release job twice. Backing it out until it is reworked.'], ['dev', 'dev']))).toEqual([FULL]);
  });

  it('a commit a pasted bisect log marks good is the good end, whatever the prose around it says', () => {
    const log = `\`\`\`\ngit bisect start\n# good: [${PARENT}] Make cross builds work\ngit bisect good ${PARENT}\n# first bad commit: [${FULL}] bump the build macro\n\`\`\``;
    const thread = titled(`cross builds broken since ${FULL}`, [`Glad to see ${PARENT} merged, but this broke right after in ${FULL}:\n\n${log}`]);
    expect(codesOf(thread)).not.toContain('competing');
    expect(found(thread)).not.toContain(PARENT);
  });

  it('a revert whose reason is "CI is failing steadily from this commit" blames it', () => {
    expect(found(titled('Revert "Index the buckets"', [`This reverts commit ${FULL}.\n\nCI is failing steadily from this commit; reverting to unblock the release.`]))).toEqual([FULL]);
  });
});

describe('a hash of letters only, and a revert "causing a few issues"', () => {
  it('"caused by cbcdecd" names a commit though its hash has no digit; a plain word stays a word', () => {
    expect(found(titled('Slowdown caused by afbecde', ['The finder benchmark dropped by a third overnight.']))).toEqual(['afbecde']);
    expect(found(titled('Report defaced after the upgrade', ['The summary page looks defaced since the upgrade.']))).toEqual([]);
  });

  it('"this is causing several problems; backing it out" gives the revert its reason', () => {
    expect(found(titled('Revert "Maximise windows that ask for it"', [`This reverts commit ${FULL}.\n\nThis is causing several problems (#12, #14); backing it out until they are understood.`]))).toEqual([FULL]);
  });
});

describe('a title that names the culprit after its symptom', () => {
  it('"Memory regression caused by X" keeps "Memory regression"; "Regression in X" loses its lead-in', () => {
    const a = decide(titled(`Startup slowdown regression caused by ${FULL.slice(0, 9)}`, ['The bench shows a dip I did not expect; will look on Monday.'])).out;
    expect(a.report.text).toContain('Startup slowdown regression');
    expect(a.report.text).not.toContain('caused by');
    const b = decide(titled(`Regression in ${FULL.slice(0, 9)}: the menu freezes`, ['Opening the menu freezes the app for ten seconds.'])).out;
    expect(b.report.text).not.toMatch(/Regression in/);
    expect(b.report.text).toContain('the menu freezes');
  });
});

describe('held-out shapes of sets 85 to 88', () => {
  const OTHER = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4';
  const url = (sha: string) => `https://github.com/acme/widget/commit/${sha}`;

  it('"Fixed the regression in <commit URL>" from the maintainer names the fix, not a second culprit', () => {
    const thread = titled(`Pairing fails since ${FULL}`, [`Commit ${url(FULL)} introduced a regression: pairing the keyboard never completes.`, `Fixed the regression in ${url(OTHER)}.`], ['reporter', 'maintainer']);
    expect(codesOf(thread)).not.toContain('competing');
    expect(found(thread)).not.toContain(OTHER);
  });

  it('"After commit Y, when it worked:" marks Y as the good side beside the commit where it started', () => {
    const thread = titled('Scanner no longer listed', [`The scanner is not listed any more. I narrowed it down to the commit where this began: ${FULL}\n\n## After commit ${OTHER}, when it worked:\n\nscanner listed as device 3`]);
    expect(codesOf(thread)).not.toContain('competing');
    expect(found(thread)).toEqual([FULL]);
  });

  it('"uploads fail after <commit URL>." blames the commit; "still fails even after X" does not', () => {
    expect(found(titled('Uploads rejected', [`Large uploads fail after ${url(FULL)}. The proxy answers with a 413 now.`]))).toEqual([FULL]);
    expect(found(titled('Uploads rejected', [`Large uploads still fail even after ${url(FULL)}. The proxy answers with a 413.`]))).toEqual([]);
  });

  it('a guess the maintainer thanks the reporter for "confirming the offending change" is confirmed, the fix commit aside', () => {
    const thread = titled('Eject hangs the desktop', [`The desktop hangs on eject. I suspect commit ${FULL.slice(0, 7)} introduced the hang.`, `Thank you for confirming the offending change. I pushed a fix with commit ${OTHER.slice(0, 8)}, please try it.`], ['reporter', 'maintainer']);
    expect(codesOf(thread)).not.toContain('hedged');
  });

  it('"I don\'t have that commit" and "apparently a driver issue" withdraw the blame', () => {
    const notHere = titled('Lockup on lookup', [`Bisecting it gave ${FULL} as the faulty commit.`, 'I don\'t have that commit in my tree.'], ['reporter', 'maintainer']);
    expect(codesOf(notHere)).toContain('retracted');
    const driver = titled(`Crash after commit ${FULL}`, ['The compositor dies on resume.', 'Apparently a nasty driver issue, closing.'], ['reporter', 'maintainer']);
    expect(codesOf(driver)).toContain('retracted');
  });

  it('"It\'s a separate problem from #212" sets the thread apart from another issue; the blame after it is this one\'s', () => {
    const thread = titled('Cursor jumps between screens', ['The cursor jumps back to the first screen.', `It's a separate problem from #212.\n\nThis is caused by the change to the pointer module in this commit: ${FULL}`], ['reporter', 'maintainer']);
    expect(codesOf(thread)).not.toContain('symptom-mismatch');
    expect(found(thread)).toEqual([FULL]);
  });

  it('"A works, and B fails" gives a good/bad pair, not a culprit', () => {
    const thread = titled('Import segfault', [`The importer segfaults now. There is a regression somewhere in the last weeks: ${OTHER.slice(0, 11)} works, and ${FULL.slice(0, 11)} fails.`]);
    expect(found(thread)).toEqual([]);
  });

  it('"the change to blame here is: X" after "I think", then "I reverted the commit and … without any more problems", is tested', () => {
    const thread = titled('Karts fall through the bridge', [`Karts fall through the bridge on the harbour track.\n\nI think the change to blame here is: ${FULL}\n\nI reverted the commit and raced the track without any more problems.`]);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).not.toContain('hedged');
  });

  it('"perf: revert most of X" whose body says "The patch in question caused a 12 % regression" blames X and keeps the symptom', () => {
    const thread = titled(`perf: revert most of ${FULL}`, ['The patch in question caused a 12 % regression in the solver benchmarks.\nThe rest will be resubmitted later.']);
    expect(found(thread)).toEqual([FULL]);
    const { out } = decide(thread);
    expect(out.report.text).toContain('caused a 12 % regression in the solver benchmarks');
    expect(out.report.text).not.toContain('patch in question');
  });

  it('"Trouble arises here <commit URL>" blames the commit; "Resolved here Y" names the fix', () => {
    const thread = titled('Results pane stops resizing', ['The results pane no longer grows with the list.', `Trouble arises here ${url(FULL)}`, `Resolved here ${OTHER}`], ['dev', 'dev', 'dev']);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).not.toContain('competing');
  });

  it('"Upgrading to the newest revision X made … crash" with no bisect names the revision run, not a culprit', () => {
    const thread = titled(`'make check' crashes with ${FULL.slice(0, 7)}`, [`Upgrading to the newest revision ${FULL.slice(0, 7)} resulted in 'make check' crashing in user mode.\n\nGoing back to an older build helps. I have not bisected it yet.`]);
    expect(found(thread)).toEqual([]);
  });

  it('"that one is my fault" from the culprit\'s author confirms a guess instead of retracting it', () => {
    const thread = titled('New test failure: parser', [`Maybe introduced by ${FULL.slice(0, 7)} (ping @dev)`, `This is already fixed with ${OTHER}.`, 'That one is my fault, I pushed them in the wrong order.'], ['reporter', 'dev', 'dev']);
    expect(codesOf(thread)).not.toContain('retracted');
    expect(codesOf(thread)).not.toContain('hedged');
  });

  it('a revert that restores commits reverted by mistake blames nothing', () => {
    expect(found(titled('Restore the mistakenly reverted work', [`Revert ${FULL.slice(0, 7)}, after two broken merges`]))).toEqual([]);
  });

  it('"the last good commit before the breakage is:" then a bare hash names the good side, not a culprit', () => {
    const thread = titled('Plugin stopped loading', ['Most plugins fail with the nightly build.', `The last good commit before the load errors / plugin breakage on nightly is:\n\n${FULL}\n\nPin that one until it settles.`]);
    expect(found(thread)).toEqual([]);
  });

  it('a maintainer blaming the same commit plainly confirms a reporter\'s guess', () => {
    const thread = titled('Focus bounces between monitors', ['Focus jumps back to the other monitor.', `I guess commit ${FULL.slice(0, 7)} introduced the focus jump.`, `This is caused by the change to the layout code in this commit: ${FULL}`], ['reporter', 'reporter', 'maintainer']);
    expect(codesOf(thread)).not.toContain('hedged');
  });
});

describe('held-out shapes of sets 89 to 92', () => {
  const OTHER = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4';
  const url = (sha: string) => `https://github.com/acme/widget/commit/${sha}`;

  it('a commit listed beside the pasted verdict\'s own commit is a bisect step: the repository check does not weigh it against the verdict', () => {
    const thread = titled('Daemon dies after start', [`I bisected between 2.1 and 2.2. Builds ${OTHER.slice(0, 7)} and ${FULL.slice(0, 7)} started and died a few seconds later.\n\n\`\`\`\n${FULL} is the first bad commit\n\`\`\``]);
    const attributions = extractAttributions(thread);
    const text = screenThread(thread, attributions);
    const resolved = attributions.map((a, index) => ({ index, status: 'ok' as const, sha: a.ref.value.startsWith(OTHER.slice(0, 7)) ? OTHER : FULL, candidates: [] }));
    expect(screenResolved(thread, attributions, text, resolved).reasons.map((r) => r.code)).not.toContain('competing');
  });

  it('"some possibility that commit X is the offending one" is a guess', () => {
    expect(codesOf(titled('Crash in the spec run', ['The spec run segfaults with the new flags.', `There is some possibility that commit ${FULL.slice(0, 7)} is the offending one.`]))).toContain('hedged');
  });

  it('"It\'s not the code that is wrong, it\'s the check" from the maintainer rejects the blame', () => {
    const thread = titled('Assertion in the folder', [`The assertion was introduced by: ${url(FULL)}\n\nThe fold step aborts with it.`, "It's not the code that is wrong -- it's the check. Fixed, thanks."], ['reporter', 'maintainer']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('"… are no longer shown, following this particular commit: <URL>" blames it and keeps the symptom', () => {
    const thread = titled('Pins missing on tablets', [`Today my map pins are no longer shown on tablets, following this particular commit: ${url(FULL)}`]);
    expect(found(thread)).toEqual([FULL]);
    expect(decide(thread).out.report.text).toContain('my map pins are no longer shown');
  });

  it('"one of these commits broke it: <compare link>" from someone else answers a named commit with a range', () => {
    const thread = titled('Pages do not turn', ['The advanced demo does not turn pages.', `Last working commit ${url(OTHER)}\n\nFirst commit with this issue ${url(FULL)}`, `That commit is the 4.2 release, so one of these commits probably broke it: https://github.com/acme/widget/compare/v4.1.0...v4.2.0 .`], ['reporter', 'helper', 'maintainer']);
    expect(codesOf(thread)).toContain('range-only');
  });

  it('a hash in a post pasting a bisect still under way ("Bisecting: 5 revisions left to test") is a step, not a culprit', () => {
    const thread = titled('Keys stop registering', ['Typing stops now and then.', `Please try this build next.\n\n    $ git bisect bad\n    Bisecting: 5 revisions left to test\n    [${FULL}] Tidy the timer code`]);
    expect(found(thread)).toEqual([]);
  });

  it('"Commit X is when it began", beside the last good commit, blames X', () => {
    const thread = titled('Static on the second channel', ['Loud static on weak signals since the decoder change.', `${url(OTHER)} is the last good build. Commit ${url(FULL)} is when it began.`]);
    expect(found(thread)).toEqual([FULL]);
  });

  it('"I tracked down the QEMU commit that caused the faults" over a pasted bisect puts the culprit in that project', () => {
    const thread = titled('Bump the emulator', ['Keep the emulator on the tagged release.', `I tracked down the QEMU commit that caused the guest faults.\n\n\`\`\`\n${FULL} is the first bad commit\n\`\`\``]);
    expect(codesOf(thread)).toContain('cross-repository');
  });

  it('"Amazing find" from the maintainer confirms a guess', () => {
    const thread = titled('Audio lands in the wrong file', ['Recordings get the audio of the next call.', `I believe this is the breaking change:\n${url(FULL)}`, 'WOW, amazing find - let me trace where that change hits.'], ['reporter', 'reporter', 'maintainer']);
    expect(codesOf(thread)).not.toContain('hedged');
  });

  it('the issue that led the writer here, "persists, yet the update caused a new problem", is no symptom mismatch', () => {
    const thread = titled('Regression in a June commit', [`While chasing the bug mentioned in #12 I built the newest sources.\n\nSadly the bug described in #12 persists there too, yet the update also caused a new problem: the game hangs at start.\n\nA git bisect then narrowed it to commit ${FULL}.`]);
    expect(codesOf(thread)).not.toContain('symptom-mismatch');
  });
});

describe('shapes still missed after sets 85 to 92', () => {
  const OTHER = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4';
  const url = (sha: string) => `https://github.com/acme/widget/commit/${sha}`;

  it('"I built the parent commit X: clean. Then Y: the gaps came back" pins Y, the pair being one commit apart', () => {
    const thread = titled('Mesh export leaves gaps', [`The mesh export leaves gaps in the outline.\n\nI built the parent commit [${OTHER.slice(0, 7)}](${url(OTHER)}) and the export came out clean. Then I did the same with [${FULL.slice(0, 7)}](${url(FULL)}) and the gaps came back.\n\n\`\`\`\nBuild: 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567\n\`\`\``]);
    expect(found(thread)).toEqual([FULL]);
  });

  it('a parent that "fails too" pins nothing', () => {
    const thread = titled('Mesh export leaves gaps', [`The mesh export leaves gaps in the outline.\n\nI built the parent commit ${OTHER.slice(0, 7)} and it fails too. Then I did the same with ${FULL.slice(0, 7)} and the gaps are there.`]);
    expect(found(thread)).toEqual([]);
  });

  it('"fails due to following commit." over a link after a blank line takes the lead-in\'s cause', () => {
    const thread = titled('Tablet build fails', [`**Describe the bug**\nThe tablet build fails due to following commit.\n\n${url(FULL)}#diff-0a1b2c3d4e5f60718293a4b5c6d7e8f9L12\n\n**To Reproduce**\nBuild the tablet target.`]);
    expect(found(thread)).toEqual([FULL]);
  });

  it('a guess in that lead-in ("I think … due to the following commit.") hedges the blame across the blank line', () => {
    const thread = titled('Tablet build fails', [`I think the tablet build fails due to the following commit.\n\n${url(FULL)}\n\nBuild the tablet target to see it.`]);
    expect(codesOf(thread)).toContain('hedged');
  });

  it('"Ok, it is this commit X" after the same writer wondered which commit caused it answers their own question; "my bad" there owns the first wrong blame', () => {
    const thread = titled('Labels drawn twice', [
      'It looks like #77 draws every label twice.',
      'I will revert that pull request.',
      'Hmm, perhaps I got wrong which commit caused this, since the revert did not change anything.',
      `Ok, it is this commit ${url(FULL)}\n\nI was sure I had tried that one and it looked fine. My bad.`,
    ], ['reporter', 'maintainer', 'reporter', 'reporter']);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).not.toContain('retracted');
  });

  it('"my bad" from the namer with no earlier blame of theirs still takes the commit back', () => {
    const thread = titled('Labels drawn twice', ['Labels are drawn twice.', `This commit broke it: ${url(FULL)}`, 'Sorry, I had an old build installed, my bad.'], ['reporter', 'helper', 'helper']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('a six-hex abbreviation right after the word "commit" is a reference ("commit 5d4140 breaks the printer")', () => {
    expect(found(titled(`commit ${FULL.slice(0, 6)} breaks the printer`, ['Printing any page now gives an empty sheet after the library update.']))).toEqual([FULL.slice(0, 6)]);
    expect(found(titled(`colour ${FULL.slice(0, 6)} breaks the printer`, ['Printing any page now gives an empty sheet after the library update.']))).toEqual([]);
  });
});

describe('held-out shapes of sets 93 to 96', () => {
  const OTHER = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4';
  const url = (sha: string) => `https://github.com/acme/widget/commit/${sha}`;

  it('"my bisect ends at the following commit:" over pasted `git log` output in a code block blames it', () => {
    const thread = titled('Release 2.4 seems to have broken tables', ['', `My bisect ends at the following commit:\n\n\`\`\`\ncommit ${FULL}\nAuthor: Some One <one@example.org>\nDate:   Mon Mar 4 10:00:00 2024 +0100\n\n    bump the bundled renderer\n\`\`\``]);
    expect(found(thread)).toEqual([FULL]);
  });

  it('"the following commit:" over a code block that is no `git log` output is no blame', () => {
    const thread = titled('Tables are broken', ['Tables are broken since the update.', `I tested the following commit:\n\n\`\`\`\ncommit ${FULL}\n\`\`\``]);
    expect(found(thread)).toEqual([]);
  });

  it('"this just reverts your <URL> … I am seeing regressions" blames the reverted commit', () => {
    const thread = titled('Keep attributes on bindings', ['', `@alice, this just reverts your\n${url(FULL)} and updates the tests. I am seeing regressions like the new case in the bindings test.`]);
    expect(found(thread)).toEqual([FULL]);
  });

  it('"Let\'s say X was the first bad one" in a how-to names no culprit', () => {
    const thread = titled('Highlighting broken on nightly?', ['Broken since the nightly of that day.', `Pick a good and a bad build. Let's say that the build of May 3 (${FULL}) was the first bad one and the build of April 26 (${OTHER}) worked. Then run the bisect yourself.`]);
    expect(found(thread)).toEqual([]);
  });

  it('"it shows in 7301924 and not in its parent Y" pins the digits-only commit, not the build hash the post names too', () => {
    const thread = titled('Floor tiles lose their texture', [`Build hash: 0a1b2c3\n\nI built older commits to find it.\n\nIt shows in 7301924 (first picture) and not in its parent ${OTHER.slice(0, 7)} (second picture).`]);
    expect(found(thread)).toEqual(['7301924']);
  });

  it('a revert whose description says "Causes <trouble>" on a line of its own blames the reverted commit', () => {
    const thread = titled('Revert "Faster note input (#42)"', [`This reverts commit ${FULL}.\n\nCauses a play/stop loop on the desktop build`]);
    expect(found(thread)).toEqual([FULL]);
  });

  it('a revert its author later calls "opened just to isolate the cause" is an experiment', () => {
    const thread = titled('Revert #812', [`This reverts commit ${FULL}.\n\nFixes #811`, 'What do you think?', 'This PR was opened just to isolate the cause, so we know nothing else is behind it.'], ['maint', 'other', 'maint']);
    expect(codesOf(thread)).toContain('hedged');
  });

  it('"publish a release as soon as possible" and "so we do not regress other setups" hedge no revert', () => {
    const thread = titled('rt: revert #812 to fix a hang', [`This reverts commit ${FULL}.\n\nSadly it made every pool hang. We need to undo it and ship 1.2.1 as soon as possible.\n\nLater I think a new queue should probably be opt-in, so we do not regress other setups.`]);
    expect(codesOf(thread)).not.toContain('hedged');
  });

  it('"commit X (\"subject\") : the first commit for which saving throws" blames X', () => {
    const thread = titled('Error on save since the tag keys commit', [`Updating began to throw an error on save.\n\nIn short, commit ${FULL.slice(0, 7)} ("Add keys to tag entries"): the first commit for which saving throws.\n\nThe error reads:`]);
    expect(found(thread)).toEqual([FULL.slice(0, 7)]);
  });

  it('"its X im pretty sure now" followed by "reverted that commit, idle load 0" blames X', () => {
    const thread = titled('Idle load went up', ['', 'No change after I undo the other one.', `its ${FULL} im pretty sure now\n\nreverted that commit, idle load 0`]);
    expect(found(thread)).toEqual([FULL]);
  });
});

describe('held-out shapes of sets 97 to 100', () => {
  const OTHER = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4';
  const url = (sha: string) => `https://github.com/acme/widget/commit/${sha}`;

  it('"commit X leads to segfaults here" blames X', () => {
    expect(found(titled('Crashing since the scroll rework', [`Hi,\ncommit [${FULL.slice(0, 7)}](${url(FULL)}) leads to segfaults here. Seen in two terminals.`]))).toEqual([FULL]);
  });

  it('a revert opened "to run the perf suite and verify that X was the cause of the slowdown", not to be merged, names no culprit', () => {
    const thread = titled('Revert "Store sparse columns by default"', [`This reverts commit ${FULL}.\n\nPlease do not merge: this PR is only opened to run the perf suite and verify that ${FULL.slice(0, 8)} was the cause of last week's slowdown.`]);
    expect(found(thread)).toEqual([]);
  });

  it('"the error does not occur on my test box" from the maintainer puts the blame in doubt', () => {
    const thread = titled('Broken shaders', [`The commit ${url(FULL)} broke some shaders; the whole UI stops drawing at the second screen.`, 'Strange: the error does not occur on my test box, only on the hosted page. No idea why.'], ['reporter', 'maintainer']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('"X: that does not seem related to a regression this big" is no blame of X', () => {
    const thread = titled('Huge slowdown on the newest build', ['Generation got four times slower on the newest build.', `${FULL.slice(0, 7)}: that doesn't seem related to a slowdown regression this big. Someone needs to bisect.`], ['reporter', 'helper']);
    expect(found(thread)).toEqual([]);
  });

  it('"regression compare with X" makes X the baseline, not the culprit', () => {
    expect(found(titled(`Answer quality regression compare with ${FULL.slice(0, 7)}`, ['The model now fails the puzzle it solved before.']))).toEqual([]);
  });

  it('"X Last GOOD commit (bisected)" beside "Y First BAD commit" leaves one culprit', () => {
    const thread = titled('Crash on disassembly', [`### Versions\n2.1.X ${FULL} First BAD commit (bisected)\n\n2.1.X ${OTHER} Last GOOD commit (bisected)`]);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).not.toContain('competing');
  });

  it('"I bisected this, commit X is at fault" over a log with skipped steps blames X, the steps stay steps', () => {
    const thread = titled('Segfault on the new release', ['', `I bisected this, commit ${FULL} is at fault. Some steps did not build.\n\n\`\`\`\n% git bisect skip\nBisecting: 12 revisions left to test\n[${OTHER}] layer: tidy the fallback\n\`\`\``]);
    expect(found(thread)).toEqual([FULL]);
  });

  it('"Same as #41 but for the other campaign. Same cause: X" is no other symptom', () => {
    const thread = titled('Assertion after the story screen', [`Same as #41 but for the other campaign this time. Same cause: [${FULL.slice(0, 7)}](${url(FULL)})\n\nTwo breakages in one release.`]);
    expect(codesOf(thread)).not.toContain('symptom-mismatch');
  });

  it('"This was intentional" from the maintainer answers the blame', () => {
    const thread = titled('Games start in trial mode', [`They worked in complete mode until this commit: ${url(FULL)}. Could you roll it back?`, 'This was intentional. Build it yourself with the flag changed if you want otherwise.'], ['reporter', 'maintainer']);
    expect(codesOf(thread)).toContain('retracted');
  });

  it('"… or in a combination of these two commits" in the next paragraph makes the blame a guess', () => {
    const thread = titled('Trees vanish', ['', `The vanishing trees were introduced in commit ${FULL}.\n\nSadly it also made the engine crash at load, so you need commit ${OTHER} too. So the fault may also be in that other commit, or in a combination of these two commits.`]);
    expect(codesOf(thread)).toContain('hedged');
  });
});

describe('held-out shapes of sets 101 to 104', () => {
  const OTHER = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4';
  const url = (sha: string) => `https://github.com/acme/widget/commit/${sha}`;

  it('"first bad commit is Y … *edit:* narrowed down to X, with Y cherry-picked onto every step" ends on X alone', () => {
    const thread = titled('Moving to std locks hangs the tests', [`One of the lock commits hangs the test run. Last good commit is ${OTHER}, first bad commit is 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567 but two commits in between do not build.\n\n*edit:* Narrowed down to ${FULL}, with 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567 cherry-picked onto every step so each one builds.`]);
    expect(codesOf(thread)).not.toContain('competing');
    const attributions = extractAttributions(thread);
    const text = screenThread(thread, attributions);
    expect(text.culprits.map((i) => attributions[i]!.ref.value)).toEqual([FULL]);
  });

  it('"We reverted it on main so the regression suite passes (X)" names the revert, not a second culprit', () => {
    const thread = titled('Net count went up', ['The count of nets grew from 100 to 120.', `Bisecting shows the offending commit is:\n\`\`\`\n${FULL} is the first bad commit\n\`\`\`\n\nI have reverted it on main to unbreak the regression suite (0a1b2c3).`], ['reporter', 'maintainer']);
    expect(found(thread)).toEqual([FULL]);
  });

  it('"X is broken and fails CI", X opening the sentence of a post naming no other commit, blames X', () => {
    expect(found(titled('Take back the broken commit', [`${FULL} is broken and fails CI. It should go, and come back fixed in a pull request.`]))).toEqual([FULL]);
  });

  it('"From commit X (May 2), the import does not proceed …" blames X', () => {
    const thread = titled('Import hangs', [`From commit ${FULL} (May 2), the import does not proceed after the first source fails, and never completes.\n\nBefore it, the import moved on to the next source.`]);
    expect(found(thread)).toEqual([FULL]);
  });

  it('"it worked up to the \\"bad\\" commit <URL>" blames it', () => {
    expect(found(titled('Crash in the mapper', [`### Expected\n\nA clean run, as it was up to "bad" commit ${url(FULL)}\n\n### Actual\n\nSegmentation fault`]))).toEqual([FULL]);
  });

  it('a known SHA typed with extra hex characters in the title is deleted whole', () => {
    const spans = detectEmbeddedShas(`Crash at commit ${FULL}123`, [FULL]);
    expect(spans.map((m) => m.end - m.start)).toEqual([43]);
  });

  it('a guessed culprit answered "Yep, that looks right" by the maintainer in the next post is no guess', () => {
    const thread = titled('[Regression] Multi-line scripts fail', ['', `Maybe this commit broke it? ${FULL}\n\nThe script that found it builds each step in a container.`, 'Yep, that looks right. Thanks!'], ['reporter', 'reporter', 'maintainer']);
    expect(found(thread)).toEqual([FULL]);
    expect(codesOf(thread)).not.toContain('hedged');
  });

  it('a revert made "to find out whether this commit brought in" the flaky runs is a guess', () => {
    for (const reason of ['the crash', 'a crash in the CI runs']) {
      const thread = titled('Revert "Retry the name servers"', [`This reverts commit ${FULL}.\n\nReverting to find out if the commit is behind ${reason} or not.`]);
      expect(codesOf(thread).some((c) => c === 'hedged' || c === 'no-attribution')).toBe(true);
    }
  });

  it('a reverted pin that sidestepped a tool\'s bug, released with a fix since, blames nothing', () => {
    expect(found(titled('Revert "Pin the linter to sidestep a regression (#12)"', [`This reverts commit ${FULL}.\n\n2.0.1 has been released with a fix`]))).toEqual([]);
  });

  it('a revert because "that suggested fix was not a good idea after all" blames nothing', () => {
    expect(found(titled(`revert ${FULL}`, ['That suggested fix was not a good idea after all.']))).toEqual([]);
  });

  it('"my bisection against `libnet`" over its pasted verdict puts the culprit in that project', () => {
    const thread = titled('Fails with libnet 2.0', ['', `My bisection against \`libnet\` ends on this commit, which breaks us:\n\n\`\`\`\n${FULL} is the first bad commit\n\`\`\``]);
    expect(codesOf(thread)).toContain('cross-repository');
  });

  it('a commit linked in the fork of someone writing in the thread is this repository\'s; a same-name repository of a stranger is not', () => {
    const mine = titled('Fix the linked trains', [`The trains stopped sharing speed; it regressed with https://github.com/dana/widget/commit/${FULL.slice(0, 8)}.`], ['dana']);
    expect(found(mine)).toEqual([FULL.slice(0, 8)]);
    expect(codesOf(mine)).not.toContain('cross-repository');
    const stranger = titled('Fix the linked trains', [`The trains stopped sharing speed; it regressed with https://github.com/erin/widget/commit/${FULL.slice(0, 8)}.`], ['dana']);
    expect(codesOf(stranger)).toContain('cross-repository');
  });
});

describe('held-out shapes of sets 105 to 108', () => {
  const url = (sha: string) => `https://github.com/acme/widget/commit/${sha}`;

  it('a title "… no longer work as of X" blames X', () => {
    expect(found(titled(`Bug: wildcard bindings no longer work as of ${FULL.slice(0, 7)}`, ['They did in the spring builds.']))).toEqual([FULL.slice(0, 7)]);
  });

  it('"I think it has to do with commit X. Reverting the commit makes the bug go away." blames X, the build hash named before it aside', () => {
    const thread = titled('Caret jumps after formatting', [`Seen on the newest main 0a1b2c3d.\n\nI think it has to do with commit ${FULL.slice(0, 8)} "Diff the pipe output by line".\n\nReverting the commit makes the bug go away.`]);
    expect(found(thread)).toEqual([FULL.slice(0, 8)]);
    expect(codesOf(thread)).not.toContain('hedged');
  });

  it('"regression caused by commit" over a link and its subject on the next line blames the commit', () => {
    expect(found(titled('Poor prompt under the emulated shell', [`Repairs the regression caused by commit\n\n[${FULL.slice(0, 8)}](${url(FULL)}) Terminals must not be built when input is redirected`]))).toEqual([FULL]);
  });

  it('"The new <URL> update makes the runner crash" blames the commit', () => {
    expect(found(titled('Runner crash', [`The new ${url(FULL)} update makes the game runner crash:\n\n\`KeyError: 'prefix'\``]))).toEqual([FULL]);
  });

  it('a title "Fix the cached state (Fix X)" names X as what it repairs', () => {
    expect(found(titled(`Fix the cached loader state (Fix ${FULL})`, ['The loader kept stale entries.']))).toEqual([FULL]);
  });

  it('a revert "because the commit cause a drop in accuracy" blames the reverted commit', () => {
    expect(found(titled('Revert "Faster grouped matmul for small batches (#71)"', [`This reverts commit ${FULL}. The commit cause accuracy drop on the math set, 98 -> 91.`]))).toEqual([FULL]);
  });

  it('"I\'ve got it: it\'s X!" from the one hunting blames X', () => {
    expect(found(titled('Pinball - wrong sound', ['The sound is off in the pinball game.', `I've got it: it's ${FULL}!`], ['reporter', 'maintainer']))).toEqual([FULL]);
  });

  it('"plausible if caused by X" and "the only thing I can think of is X" are guesses; "it seems that X is the first bad commit" is not', () => {
    expect(codesOf(titled('Crash on start', [`It seems that ${FULL} is the first bad commit.`]))).not.toContain('hedged');
    expect(codesOf(titled('Slow start', ['Startup takes a minute now.', `That would be plausible if caused by ${FULL}, but I am not convinced.`], ['reporter', 'maintainer']))).toContain('hedged');
    expect(codesOf(titled('Dialog broken', ['The dialog lost its buttons.', `The only thing I can think of right now is that ${FULL.slice(0, 10)} broke it.`], ['reporter', 'maintainer']))).toContain('hedged');
  });
});

describe('held-out shapes of sets 109 to 112', () => {
  const url = (sha: string) => `https://github.com/acme/widget/commit/${sha}`;

  it('a bracketed "(?)" inside a sentence does not end it: "after bisecting, the offending (?) commit is X" blames X', () => {
    expect(found(titled('Launch with arguments broken', [`Launching with a double dash does not work anymore.\n\nAfter a git bisect, the offending (?) commit is ${FULL.slice(0, 8)}\n\nIs that on purpose?`]))).toEqual([FULL.slice(0, 8)]);
  });

  it('"a broken test introduced by X" names a problem although a test is a neutral thing; "the test introduced in X fails" still does not', () => {
    expect(found(titled('pkg broken', [`The parser package ships a broken check introduced by ${url(FULL)}\n\nI cannot iterate on builds this week.`]))).toEqual([FULL]);
    expect(found(titled('pkg broken', [`The test introduced in ${FULL} fails on arm.`]))).toEqual([]);
  });

  it('"Regression introduced (found with git bisect) on commit X" blames X', () => {
    expect(found(titled('Internal fault', [`Regression introduced (found with git bisect, thanks!) on commit ${FULL.slice(0, 7)}, in March.\n\nThe tool now stops with an internal fault.`]))).toEqual([FULL.slice(0, 7)]);
  });

  it('"The freeze happens because of commit X" and "A typo from X" blame X', () => {
    expect(found(titled('Revert "Governor tuning"', ['Reverts acme/widget#63', `The freeze on boot happens because of commit ${FULL} . The other changes work.`], ['dev', 'dev']))).toEqual([FULL]);
    expect(found(titled('Fix the lookup crash', [`A typo from ${url(FULL)}`]))).toEqual([FULL]);
  });

  it('"Before [this commit](X) it worked fine" blames X; "the commit before X works" still is the good side', () => {
    expect(found(titled('Player crashes on start', ['It crashes when opening any file.', `Same here on another distribution. Before [this commit](${url(FULL)}) it worked fine.`], ['reporter', 'other']))).toEqual([FULL]);
    expect(found(titled('Player crashes on start', [`It crashes on open. The build just before ${FULL.slice(0, 8)} works fine.`]))).toEqual([]);
  });

  it('a commit that only "revealed" an older bug is no rival of the one that introduced it', () => {
    const other = '0123456789abcdef0123456789abcdef01234567';
    const thread = titled('Fix the silent crash', [`Introduced in ${url(FULL)} long ago, and only revealed by ${url(other)} last week.`]);
    expect(codesOf(thread)).not.toContain('competing');
    expect(screenThread(thread, extractAttributions(thread)).culprits.map((i) => extractAttributions(thread)[i]!.ref.value)).toEqual([FULL]);
  });

  it('"the first bisect step was at X" is a step, not an outcome', () => {
    expect(found(titled('Freeze on resume', ['The desktop freezes on resume.', `I tried to bisect. The first bisect step was at ${FULL.slice(0, 8)}, and it did not even build.`], ['reporter', 'reporter']))).toEqual([]);
  });

  it('a revert "so we can fix the author" or made to "break down" a sync into pieces gives no reason of breakage', () => {
    expect(found(titled('Revert the sync', [`This reverts commit ${FULL}, so we can fix the author and make one more change.`]))).toEqual([]);
    expect(found(titled('Revert the sync', [`This reverts commit ${FULL}.\n\nWe will now break down each sync commit into separate pull requests.`]))).toEqual([]);
  });

  it('the writer\'s later outcome called the "real" first bad commit replaces their earlier one, and a retraction between them does not reach it', () => {
    const early = '0123456789abcdef0123456789abcdef01234567';
    const thread = titled('Renaming test fails', [
      'The renaming test fails on the main branch.',
      `\`git bisect\` names ${early} as the first bad commit. No investigation yet.`,
      "As I thought, that one is a false positive. The build broke for an unrelated reason.",
      `A further \`git bisect\` names ${FULL.slice(0, 8)} as the 'real' first bad commit, a test failure this time.`,
    ], ['reporter', 'dev', 'dev', 'dev']);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.decision).toBe('candidate');
    expect(screen.culprits.map((i) => extractAttributions(thread)[i]!.ref.value)).toEqual([FULL.slice(0, 8)]);
  });
});

describe('held-out shapes of sets 113 to 116', () => {
  it('"commit X made the board useless by …" blames X, the fix named later aside', () => {
    const thread = titled('Traces overlap on the controller board', [`commit ${FULL.slice(0, 7)} made the board useless by crossing most of the traces.`, `Fixed in 0123456789abcdef0123456789abcdef01234567 -- moving the header shifted the traces.`], ['reporter', 'maintainer']);
    expect(found(thread)).toEqual([FULL.slice(0, 7)]);
    expect(codesOf(thread)).not.toContain('fix-not-culprit');
  });

  it('"it may bring back the problems fixed in commit X" does not make X this report\'s fix', () => {
    const thread = titled('Work around the upload stall', [`Commit ${FULL.slice(0, 7)} broke resumed uploads.`, `Fine with this stopgap, although it may bring back the problems fixed in commit ${FULL.slice(0, 7)} for some users.`], ['dev', 'maintainer']);
    expect(codesOf(thread)).not.toContain('fix-not-culprit');
    expect(screenThread(thread, extractAttributions(thread)).decision).toBe('candidate');
  });

  it('"Maybe start with X and narrow down from there" is advice on where to begin, not a guessed culprit', () => {
    const thread = titled('Tests run out of memory', ['The test binaries run out of memory on the board.', `The toolchain bump makes bisecting hard. Maybe start with ${FULL} and narrow down from there?`, 'Bisecting gives 0123456789abcdef0123456789abcdef01234567, which pulled the regex engine into the test runner.'], ['reporter', 'dev', 'dev']);
    expect(found(thread)).toEqual(['0123456789abcdef0123456789abcdef01234567']);
    expect(codesOf(thread)).not.toContain('hedged');
  });

  it('git\'s verdict under a quoted question and "a bisect from X to Y" settles the culprit; the ends of the range are none', () => {
    const guess = 'fedcba9876543210fedcba9876543210fedcba98';
    const thread = titled('Shadows drawn wrong with the new backend', [
      '',
      `When you say it began after ${guess}, did you bisect? If not, could you?`,
      `> When you say it began after ${guess}, did you bisect? If not, could you?\n\nHere is a bisect from 1a2b3c4 to 5d6e7f8:\n\n\`\`\`\n${FULL} is the first bad commit\ncommit ${FULL}\nAuthor: A Dev <dev@example.org>\n\n    render: handle the rounded corners\n\`\`\``,
    ], ['reporter', 'maintainer', 'reporter']);
    const attributions = extractAttributions(thread);
    expect(attributions.map((a) => a.ref.value)).not.toContain('1a2b3c4');
    const screen = screenThread(thread, attributions);
    expect(screen.decision).toBe('candidate');
    expect(screen.culprits.map((i) => attributions[i]!.ref.value)).toEqual([FULL]);
  });

  it('a revert saying "the aforementioned change introduces a substantial perf regression" blames the reverted commit', () => {
    expect(found(titled('revert: "perf: fewer allocations in the join loop"', [`This reverts commit ${FULL}.\n\nSadly the aforementioned change introduces a substantial perf regression for big joins.`]))).toEqual([FULL]);
  });

  it('"I reset my main branch to X since the other pull request broke things" names the good side', () => {
    expect(found(titled('Schema loading broken', ['Loading nested schemas fails now.', `I reset my main branch to ${FULL} since the other pull request that was merged seems to have broken things badly.`], ['reporter', 'other']))).toEqual([]);
  });

  it('"nothing compiles at the first bisect - X errors out" is a step of a bisect under way', () => {
    expect(found(titled('Guest does not boot', ['The guest screen stays black with split firmware images.', `Bisecting stalled: nothing compiles at the first bisect - ${FULL.slice(0, 10)} errors out, log below. What now?`], ['reporter', 'reporter']))).toEqual([]);
  });
});

describe('the wrong gold of set 123', () => {
  const url = (sha: string) => `https://github.com/acme/widget/commit/${sha}`;
  const early = '0123456789abcdef0123456789abcdef01234567';
  it('the revision updated "from" is the good side, and "went through every commit between <range> and located the culprit, commit X" names X', () => {
    const thread = titled('Glyphs drawn in monochrome', [
      `Hi, when moving my app from release 0.7-ish (commit ${url(early)}) to the newest release I see a regression in glyph colours.`,
      `I went through every commit between https://github.com/acme/widget/compare/0.6.0...0.7.0 and located the culprit, commit ${url(FULL)} Prefer the colour font last.`,
    ], ['reporter', 'reporter']);
    const attributions = extractAttributions(thread);
    expect(attributions.map((a) => a.ref.value)).toEqual([FULL]);
    expect(screenThread(thread, attributions).decision).toBe('candidate');
  });
});
