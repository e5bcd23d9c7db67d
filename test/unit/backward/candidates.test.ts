import { describe, expect, it } from 'vitest';
import { extractAttributions, extractWithCandidates } from '../../../src/backward/attribute.js';
import { SCORING } from '../../../src/backward/candidates.js';
import { screenThread } from '../../../src/backward/attribution-screen.js';
import { sanitizeReport } from '../../../src/sanitize/index.js';
import type { Thread } from '../../../src/model/backward.js';
import { aThread } from './build.js';

const SHA = '3e9a1f2c';
const FULL = '8f14e45fceea167a5a36dedd4bea2543a1b2c3d4';
const SYMPTOM = 'Opening a project with more than 200 files now takes 40 seconds instead of 2 on version 3.1.';

function refs(thread: Thread): string[] {
  return extractAttributions(thread).map((a) => a.ref.text);
}

describe('candidates: causal wording that names a commit', () => {
  it.each([
    ['an offending change after a bisect', `According to a bisect run, the offending change is https://github.com/acme/widget/commit/${FULL}.`, `https://github.com/acme/widget/commit/${FULL}`],
    ['a slowdown that started with a commit', `The slowdown started with ${SHA}.`, SHA],
    ['the bisect names the commit in another clause', `From the bisect log, ${SHA} is the one that brought the crash in.`, SHA],
    ['a commit that introduced the problem, said after it', `Commit ${SHA} introduced the extra allocations.`, SHA],
    ['a list item of a report', `Notes from my search:\n- the leak appeared with ${SHA}\n- memory is flat on 3.0`, SHA],
    ['a bisect output line with the newer quoted wording', `\`\`\`\n${FULL} is the first 'bad' commit\n\`\`\``, FULL],
  ])('%s', (_name, body, ref) => {
    expect(refs(aThread([SYMPTOM, body]))).toEqual([ref]);
  });

  it('a doubt about the mechanism does not hedge the commit', () => {
    const [a] = extractAttributions(aThread([SYMPTOM, `I bisected it down to ${SHA}, but I am not sure why that change matters.`]));
    expect(a).toMatchObject({ ref: { text: SHA }, hedged: false });
  });

  it('a guessed pull request beside plain bisect output does not hedge the thread', () => {
    const thread = aThread([SYMPTOM, `\`\`\`\n${FULL} is the first bad commit\n\`\`\``, 'Looks like it came in with #812.']);
    expect(screenThread(thread, extractAttributions(thread)).reasons.map((r) => r.code)).not.toContain('hedged');
  });
});

describe('candidates: traps that name a commit without blaming it', () => {
  it.each([
    ['the good and bad ends handed to bisect', `I started the search with ${SHA} as good and 4b5c6d7e as bad.`],
    ['a step of a bisect transcript', `git bisect good ${SHA}`],
    ['a range of commits', `The regression is somewhere in ${SHA}..4b5c6d7e.`],
    ['the revision being run', `Running ${SHA}, the regression is still there.`],
    ['a negated cause', `The slowdown was not caused by ${SHA}.`],
    ['the fix', `The regression is fixed by ${SHA}.`],
    ['the last good commit', `The last good commit is ${SHA}, the regression shows right after it.`],
    ['an issue number with causal words', 'This regression looks like the one in #123.'],
    ['several candidates in one sentence', `The bisect left two candidates, ${SHA} and 4b5c6d7e.`],
    ['a commit without any causal word', `I am building ${SHA} with clang 17.`],
    ['a pasted log in a code block', `\`\`\`\ncommit ${FULL}\nAuthor: someone\n\n    regression test\n\`\`\``],
  ])('%s', (_name, body) => {
    expect(refs(aThread([SYMPTOM, body]))).toEqual([]);
  });

  it('a post that sends the report to another project blames another repository', () => {
    const thread = aThread([SYMPTOM, `From a bisect in their repository, ${SHA} introduced it. I recommend reporting to the engine project upstream.`]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.decision).toBe('reject');
    expect(screen.reasons.map((r) => r.code)).toContain('cross-repository');
  });

  it('a suggestion from a probe is a hedge', () => {
    const thread = aThread([SYMPTOM, `The probe passed on the parent, which suggests ${SHA} is the cause.`]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.decision).toBe('reject');
    expect(screen.reasons.map((r) => r.code)).toContain('hedged');
  });

  it('a later "cannot be it" retracts the attribution', () => {
    const thread = aThread([SYMPTOM, `It broke with ${SHA}.`, `That cannot be it, ${SHA} only touches the docs.`]);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.decision).not.toBe('candidate');
  });
});

describe('candidates: the title', () => {
  const titled = (title: string, body = SYMPTOM): Thread => ({ ...aThread([body]), title });

  it('names the culprit alone: an attribution of post -1 whose span is the reference and its lead-in words', () => {
    const thread = titled(`Slow project loading introduced in commit ${SHA}`);
    const [a] = extractAttributions(thread);
    expect(a).toMatchObject({ post: -1, ref: { text: SHA } });
    expect(a!.sentence.text).toBe(`introduced in commit ${SHA}`);
    const report = sanitizeReport(thread, [a!], { repo: thread.repo, isCommitPrefix: () => true });
    expect(report.text.startsWith('Slow project loading')).toBe(true);
    expect(report.text).not.toContain(SHA);
  });

  it('a title naming the commit the body already attributes adds nothing', () => {
    const thread = titled(`Regression at ${SHA}`, `${SYMPTOM}\n\nI used git bisect and the first failing commit is ${SHA}.`);
    expect(extractAttributions(thread).map((a) => a.post)).toEqual([0]);
  });

  it('a title without a causal word is no attribution', () => {
    expect(refs(titled(`Slow project loading on ${SHA}`))).toEqual([]);
  });
});

describe('candidates: repository identity', () => {
  const body = `Bisected, and it was this: https://github.com/oldorg/widget/commit/${FULL}`;

  it('a URL under another owner is cross-repository', () => {
    const thread = aThread([SYMPTOM, body]);
    expect(screenThread(thread, extractAttributions(thread)).reasons.map((r) => r.code)).toContain('cross-repository');
  });

  it('a URL under a former name (alias) is the same repository, and is deleted from the report', () => {
    const thread = { ...aThread([SYMPTOM, `${body}\n\nSee the commit above.`]), aliases: ['oldorg/widget'] };
    const attributions = extractAttributions(thread);
    expect(screenThread(thread, attributions).decision).toBe('candidate');
    const quoted = { ...thread, posts: [{ ...thread.posts[0]!, body: `${SYMPTOM} Same as https://github.com/oldorg/widget/commit/${FULL} I think.` }, thread.posts[1]!] };
    const report = sanitizeReport(quoted, attributions, { repo: thread.repo, aliases: thread.aliases, isCommitPrefix: () => false });
    expect(report.text).not.toContain('oldorg/widget/commit');
  });
});

describe('candidates: bad input stays bounded', () => {
  it('megabytes of hex noise: at most the table cap of candidates, and screening finishes', () => {
    const noise = Array.from({ length: 120_000 }, (_, i) => `${(i * 2654435761 % 0xfffffff).toString(16).padStart(7, 'a')}e1 introduced`).join(' ');
    expect(noise.length).toBeGreaterThan(2_000_000);
    const thread = aThread([SYMPTOM, noise]);
    const { attributions, candidates } = extractWithCandidates(thread);
    expect(candidates.length).toBeLessThanOrEqual(SCORING.maxCandidates);
    expect(candidates.every((c) => c.ref.end <= SCORING.maxScan)).toBe(true);
    // A body without sentence ends is read only so far around each reference.
    for (const c of candidates) expect(c.sentence.end - c.sentence.start).toBeLessThanOrEqual(2 * SCORING.sentenceReach + c.ref.ref.text.length);
    const screen = screenThread(thread, attributions);
    expect(['reject', 'review']).toContain(screen.decision);
  });

  it('megabytes of prose in the body do not hide an attribution in a later comment', () => {
    const prose = 'The window flickers when it is resized on a second monitor. '.repeat(80_000);
    expect(prose.length).toBeGreaterThan(4_000_000);
    const thread = aThread([prose, `Bisected to ${SHA}, the first bad commit.`]);
    expect(refs(thread)).toEqual([SHA]);
    const out = sanitizeReport(thread, extractAttributions(thread), { repo: 'acme/widget', isCommitPrefix: (h) => SHA.startsWith(h) });
    expect(out.text.length).toBe(thread.title.length + 2 + prose.length);
  });

  it('binary bytes in a body are read as text without an error', () => {
    const binary = String.fromCharCode(...Array.from({ length: 4096 }, (_, i) => (i * 37) % 256));
    const thread = aThread([`${SYMPTOM}\n${binary}`, `Bisected to ${SHA}.`]);
    expect(refs(thread)).toContain(SHA);
  });
});

describe('candidates: more ways people write it', () => {
  it('"X. This introduced …": the next sentence blames the commit', () => {
    expect(refs(aThread([SYMPTOM, `In ${SHA} the parser was switched to the streaming reader. This introduced the long pauses on large projects.`]))).toEqual([SHA]);
  });

  it('a passive lead-in deletes the verb and the reference and keeps the symptom before it', () => {
    const thread = aThread([`Severe memory growth introduced at ${SHA}.`]);
    const [a] = extractAttributions(thread);
    expect(a!.sentence.text).toBe(`introduced at ${SHA}.`);
  });

  it('"<symptom> broke …: X" deletes only the colon and the reference', () => {
    const thread = aThread([`The new release broke the tab rendering: ${SHA}`]);
    const [a] = extractAttributions(thread);
    expect(a!.sentence.text).toBe(`: ${SHA}`);
  });

  it('a guess backed later by someone who bisected is not hedged; a request to bisect backs nothing', () => {
    const guess = `It seems to be an old regression in ${SHA}.`;
    const backed = aThread([SYMPTOM, guess, 'I went back to old builds and then bisected the exact commit where it appeared.']);
    expect(screenThread(backed, extractAttributions(backed)).decision).toBe('candidate');
    const asked = aThread([SYMPTOM, guess, 'We need a proper bisect before we can say more.']);
    expect(screenThread(asked, extractAttributions(asked)).reasons.map((r) => r.code)).toContain('hedged');
  });

  it('a bisect log pasted after a stack trace is not hedged by the sentence introducing the trace', () => {
    const body = `The cause might be the nested groups:\n\n\`\`\`\nat Loader.read(Loader.java:12)\n\`\`\`\n\n\`\`\`\ngit bisect log\n# first bad commit: [${FULL}] Rework loading\n\`\`\``;
    const [a] = extractAttributions(aThread([SYMPTOM, body]));
    expect(a).toMatchObject({ kind: 'bisect-output', hedged: false });
  });

  it('a maintainer saying the bisected commit does not touch the code is a symptom mismatch', () => {
    const thread = aThread([SYMPTOM, `I did a bisect: the failures started at commit ${SHA}.`, 'Thanks, but that commit does not touch the code that prints this error.']);
    const screen = screenThread(thread, extractAttributions(thread));
    expect(screen.decision).toBe('reject');
    expect(screen.reasons.map((r) => r.code)).toContain('symptom-mismatch');
  });
});

describe('candidates: reverts and other words for the cause', () => {
  it('a revert of a commit that makes the problem go away names that commit', () => {
    expect(refs(aThread([SYMPTOM, `Reverting ${SHA} locally makes the slow start go away.`]))).toEqual([SHA]);
  });

  it('a revert with no word about the problem going away names nothing', () => {
    expect(refs(aThread([SYMPTOM, `I am reverting ${SHA} in my fork for unrelated reasons.`]))).toEqual([]);
  });

  it('"the introducer" and "the regressing commit" are causal words', () => {
    expect(refs(aThread([SYMPTOM, `The probe turned red on ${SHA}, so that is the introducer.`]))).toEqual([SHA]);
    expect(refs(aThread([SYMPTOM, `The regressing commit looks to be ${SHA} to me, having read the diff twice.`]))).toEqual([SHA]);
  });

  it('a dated introduction names the commit after the date', () => {
    expect(refs(aThread([SYMPTOM, `The crash was introduced 2024-02-01 in commit ${FULL} "Small cleanup".`]))).toEqual([FULL]);
  });
});

describe('candidates: what the deletion keeps', () => {
  it('"…bisect…, and it was this: X" deletes the pointer clause and keeps how the search was run', () => {
    const body = `I ran a bisect while timing the import of the sample archive, and it was this: https://github.com/acme/widget/commit/${FULL}`;
    const [a] = extractAttributions(aThread([body]));
    expect(a!.sentence.text).toBe(`it was this: https://github.com/acme/widget/commit/${FULL}`);
  });

  it('"X slowed down <symptom>" deletes the reference and keeps the verb with the symptom', () => {
    const body = `Commit ${SHA} slowed down the \`[init] loading plugins\` step from 2 to 30 seconds.`;
    const [a] = extractAttributions(aThread([body]));
    expect(a!.sentence.text).toBe(`Commit ${SHA}`);
  });

  it('"X broke it" with nothing after the verb deletes the verb too', () => {
    const [a] = extractAttributions(aThread([`Startup takes 30 seconds now on 4.2. Commit ${SHA} broke it.`]));
    expect(a!.sentence.text).toContain('broke');
  });
});

describe('candidates: a bare reference answering an unnamed blame', () => {
  const blame = `${SYMPTOM} My bisect run ended on the change this pull request takes back, and with it reverted the import is fast again.`;

  it('a reply holding only the hash names the commit an earlier post blamed without naming it', () => {
    const thread = aThread([blame, `\`${FULL}\``], { authors: ['reporter', 'reviewer'] });
    expect(refs(thread)).toEqual([`${FULL}`]);
    const [c] = extractWithCandidates(thread).candidates.filter((x) => x.post === 1);
    expect(c!.evidence.map((e) => e.code)).toEqual(['answers']);
    expect(c!.score).toBe(SCORING.answers);
  });

  it('a bare hash with no earlier unnamed blame names nothing', () => {
    expect(refs(aThread([SYMPTOM, FULL]))).toEqual([]);
  });

  it('a bare hash after a blame that already names a reference names nothing', () => {
    expect(refs(aThread([`${SYMPTOM} My bisect ended on the change 4b5c6d7e.`, FULL]))).not.toContain(FULL);
  });

  it('the writer of the blame posting the hash alone is not an independent answer', () => {
    expect(refs(aThread([blame, FULL], { authors: ['reporter', 'reporter'] }))).toEqual([]);
  });

  it('a hash with words around it is scored by those words, not as an answer', () => {
    const thread = aThread([blame, `Maybe ${FULL}? Not sure.`]);
    const [c] = extractWithCandidates(thread).candidates.filter((x) => x.post === 1);
    expect(c!.evidence.map((e) => e.code)).not.toContain('answers');
  });

  it('the report keeps the second statement of the blaming sentence', () => {
    const body = `${SYMPTOM} Bisecting landed on the change this pull request takes back, and I've checked by hand that the import is fast again.`;
    const thread = aThread([body, FULL], { authors: ['reporter', 'reviewer'] });
    const out = sanitizeReport(thread, extractAttributions(thread), { repo: 'acme/widget', isCommitPrefix: (h) => FULL.startsWith(h) });
    expect(out.text).toContain("I've checked by hand that the import is fast again.");
    expect(out.text).not.toContain('Bisecting landed');
    expect(out.text).not.toContain(FULL.slice(0, 7));
  });
});

describe('candidates: more wordings seen on real threads (written anew)', () => {
  it.each([
    ['"has broken" with a mild "seems"', `Commit ${SHA} seems to have broken the plugin loader for every later build.`, SHA],
    ['the bare verb "introduce"', `Please revert ${SHA}, since it appears to introduce a crash when closing the last tab.`, SHA],
    ['an admission of a slip in a commit', `Sorry, I accidentally switched the cache off in https://github.com/acme/widget/commit/${FULL} while testing.`, `https://github.com/acme/widget/commit/${FULL}`],
    ['a revert sent because the commit caused a regression', `One of my changes caused a regression in the exporter, so here is the revert.\n\nThis reverts commit ${FULL}.`, FULL],
  ])('%s', (_name, body, ref) => {
    expect(refs(aThread([SYMPTOM, body]))).toEqual([ref]);
  });

  it.each([
    ['a rollup that bundles many pull requests', `The graph points at https://github.com/acme/widget/commit/${SHA}, which is a rollup, so the regression could be in any of its parts.`],
    ['a revert of a merge ("reversing changes made to")', `The last merge breaks the build, reverting for now.\n\nThis reverts commit ${FULL}, reversing\nchanges made to 4b5c6d7e8f9a.`],
    ['a commit that only tried to fix a crash', `Commit ${FULL} tried to fix an odd crash which in the end was caused by something else entirely.`],
    ['a revert of a workaround that is no longer needed', `This reverts commit ${FULL}.\n\nThe test machines are fixed now, so the workaround is no longer needed.`],
  ])('%s names no culprit', (_name, body) => {
    expect(refs(aThread([SYMPTOM, body]))).toEqual([]);
  });

  it('a title about a bisect step ("bisect round 3 (commit X)") is no attribution by the word "bisect" alone', () => {
    const thread = { ...aThread([`Testing midpoint ${FULL}; bounds are now 2..9.`]), title: `bisect round 3 of 6 (commit ${SHA})` };
    expect(refs(thread)).toEqual([]);
  });

  it('a regression alarm later called an outlier by someone else is retracted', () => {
    const thread = aThread(
      [`Regression detected for commit [${SHA}](https://github.com/acme/widget/commit/${FULL}): p95 latency 412 ms exceeds the 400 ms limit of the import benchmark.`, 'Looked at it locally: this one is an outlier, the numbers are back to normal.'],
      { authors: ['perf-alarm', 'maintainer'] },
    );
    const atts = extractAttributions(thread);
    expect(atts.length).toBeGreaterThan(0);
    expect(screenThread(thread, atts).reasons.map((r) => r.code)).toContain('retracted');
  });
});

describe('candidates: blame carried from the sentence before, and reverts explained by the title', () => {
  it.each([
    ['"I bisected … . Turns out it is X."', `I bisected which change makes the import take 40 seconds. Turns out it's ${FULL} from #31.`, FULL],
    ['"The following commit broke …:" and the hash alone below', `The following commit broke the export tests:\n\n${FULL}\n\nGoing back one commit makes them pass.`, FULL],
    ['"fails since commit X"', `The round-trip test fails since commit ${FULL}.`, FULL],
  ])('%s', (_name, body, ref) => {
    expect(refs(aThread([SYMPTOM, body]))).toEqual([ref]);
  });

  it('a pointer sentence after a sentence with no cause names nothing', () => {
    expect(refs(aThread([SYMPTOM, `I checked the export today. Turns out it's ${FULL}.`]))).toEqual([]);
  });

  it('a bisect still to be run is no outcome, and a merge commit is not one culprit', () => {
    expect(refs(aThread([SYMPTOM, `The merge commit is ${SHA} on the feature branch, whenever someone gets around to bisecting it.`]))).toEqual([]);
    expect(refs(aThread([SYMPTOM, `Could someone try to bisect ${SHA} against the release?`]))).toEqual([]);
  });

  it('a revert whose title calls the commit the breaking one names it; an unexplained revert does not', () => {
    const blamed = { ...aThread([`This reverts commit ${FULL}.`]), title: 'Revert breaking commit' };
    expect(refs(blamed)).toEqual([FULL]);
    const plain = { ...aThread([`This reverts commit ${FULL}.`]), title: 'Revert an earlier change' };
    expect(refs(plain)).toEqual([]);
  });
});
