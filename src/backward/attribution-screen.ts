/**
 * Screening of a thread's attributions: text-level rules (no git needed) and the rules that need
 * the resolved commits. Every rule adds a reason with a stable code and quoted evidence; ties
 * between culprits are never broken by recency or frequency.
 */
import { ValidationError } from '../errors.js';
import { ELSEWHERE, REVERTING_CURES, SCORING, UPSTREAMS } from './candidates.js';
import {
  BISECT_SKIPPED,
  DIFFERENT_SYMPTOM,
  FIX_AFTER,
  FIX_BEFORE,
  FOUND_THE_FIX,
  MY_MISTAKE,
  namedAsFixBefore,
  OTHER_ISSUE,
  RANGE,
  RETRACTION,
  REVERT_BEFORE,
} from './phrases.js';
import { familyOf, findRefs, isCrossRepository, sameCommitHex, sameTarget } from './refs.js';
import { linkNames } from './thread.js';
import { layoutOf, lineIndexAt, sentenceAt, sentencesOf, type Layout, type Range } from './text.js';
import type { Attribution, AttributionRef, BackwardReason, Decision, Reason, TextScreen, Thread } from '../model/backward.js';

export { hasObservableSymptom } from './symptom.js';

export interface ResolvedRef {
  /** Index into the attribution list. */
  index: number;
  status: 'ok' | 'ambiguous' | 'missing' | 'not-commit' | 'cross-repository' | 'pr-not-single-commit' | 'pr-unknown';
  sha: string | null;
  candidates: string[];
}

interface Finding extends Reason {
  /** For symptom-mismatch: false when unsure (the case goes to review instead of being rejected). */
  readonly sure: boolean;
}

interface PostText {
  readonly index: number;
  readonly body: string;
  readonly layout: Layout;
  readonly sentences: readonly Range[];
}

/** A correction the writer edited in ("*edit:* narrowed it down to X", "Update: the bad commit is actually X"). */
const EDIT_CORRECTION = /^[\s>*_]*(?:edit(?:ed)?|update[d]?|correction)\s*\d*\s*[:*_-]+[\s*_]*(?:(?:I\s+)?narrowed\s+(?:it\s+)?down|(?:the\s+)?(?:first\s+)?bad\s+commit\s+is\s+actually|it(?:'s|\s+is)\s+actually)\b/i;

/** An outcome the writer qualifies as the genuine one ("the 'real' first bad one", "the actual culprit"). */
const TRUE_CULPRIT = /\b(?:first\s+)?["'`‘“]?(?:true|real|actual|correct)["'`’”]?\s+(?:first[- ])?(?:bad|broken|breaking|offending|culprit|guilty)\b/i;

/** Whether the namer of the attribution named another commit or pull request in an earlier post of theirs. */
function blamedOtherBefore(thread: Thread, first: Attribution, namer: string | null | undefined): boolean {
  const earlier = [{ index: -1, author: thread.author, body: thread.title }, ...thread.posts].filter((p) => p.index < first.post && p.author === namer);
  return earlier.some((p) => findRefs(p.body.slice(0, 20000)).some((x) => !sameTarget(x.ref, first.ref)));
}

/** Text-level rules: everything decidable from the thread and its attributions alone. */
export function screenThread(thread: Thread, attributions: readonly Attribution[]): TextScreen {
  // The title is post -1: an attribution may sit there.
  const posts: PostText[] = [{ index: -1, body: thread.title }, ...thread.posts].map((p) => {
    const body = p.body.length > SCORING.maxScan ? p.body.slice(0, SCORING.maxScan) : p.body;
    const layout = layoutOf(body);
    return { index: p.index, body, layout, sentences: sentencesOf(layout) };
  });
  const blocks = attributions.filter((a) => a.kind === 'bisect-output').map((a) => ({ post: a.post, ...a.sentence }));
  const outsideBlocks = (post: number, r: Range): boolean => !blocks.some((b) => b.post === post && r.start < b.end && r.end > b.start);

  const findings: Finding[] = [];
  const seen = new Map<string, number>();
  const add = (code: BackwardReason, evidence: string, post?: number, sure = true): void => {
    const key = `${code}\u0000${evidence}\u0000${post ?? ''}`;
    const at = seen.get(key);
    // The same finding made twice counts as sure when either made it sure.
    if (at !== undefined) findings[at] = { ...findings[at]!, sure: findings[at]!.sure || sure };
    else {
      seen.set(key, findings.length);
      findings.push(post === undefined ? { code, evidence, sure } : { code, evidence, post, sure });
    }
  };
  const matching = (patterns: readonly RegExp[], from: { post: number; offset: number } | null): { post: number; text: string }[] => {
    const out: { post: number; text: string }[] = [];
    for (const p of posts) {
      if (from && p.index < from.post) continue;
      for (const s of p.sentences) {
        if (from && p.index === from.post && s.start < from.offset) continue;
        if (!outsideBlocks(p.index, s)) continue;
        const text = p.body.slice(s.start, s.end);
        if (patterns.some((re) => re.test(text))) out.push({ post: p.index, text });
      }
    }
    return out;
  };

  const aliases = linkNames(thread);
  // A reference its own writer later corrects as a typo ("Sorry, typo, it was X") is no culprit of its own.
  const domestic = attributions
    .map((a, i) => ({ a, i }))
    .filter(({ a }) => !isCrossRepository(a.ref, thread.repo, aliases))
    .filter(({ a }, _k, all) => !correctedAsTypo(thread, a, all.map((x) => x.a)));
  for (const a of attributions) if (isCrossRepository(a.ref, thread.repo, aliases)) add('cross-repository', a.ref.text, a.post);
  // A post that attributes and sends the report to another project ("I recommend reporting to …") blames a dependency.
  for (const a of attributions) {
    const p = posts.find((q) => q.index === a.post);
    const m = p ? ELSEWHERE.exec(p.body) : null;
    if (p && m) add('cross-repository', sentenceText(p, m.index), a.post);
    // "the QEMU commit that broke the guest boot" over a pasted bisect: the bisect ran in that project's history.
    const upstream = p ? UPSTREAM_CULPRIT.exec(p.body) : null;
    const own = [thread.repo, ...aliases].flatMap((r) => r.toLowerCase().split('/'));
    if (p && upstream && UPSTREAMS.has(upstream[1]!.toLowerCase()) && !own.includes(upstream[1]!.toLowerCase())) add('cross-repository', sentenceText(p, upstream.index), a.post);
    // "a bisection against `libnet`", "bisected in the `mesa` tree": the search ran in another project's history.
    const against = p ? BISECTED_AGAINST.exec(p.body) : null;
    if (p && against && !own.includes(against[1]!.toLowerCase()) && !own.some((o) => o.replace(/[-_.]/g, '') === against[1]!.toLowerCase().replace(/[-_.]/g, ''))) add('cross-repository', sentenceText(p, against.index), a.post);
    // A later post that names the same commit and places it in another project ("X is an update of Y from upstream").
    if (a.ref.type === 'pr') continue;
    // The same hash given anywhere as a commit URL of another repository ("It's https://github.com/other/lib/commit/X"):
    // the bare hash named that repository's commit.
    if (a.ref.type === 'sha') {
      const elsewhere = posts.flatMap((q) => findRefs(q.body).map((r) => ({ q, r }))).find(({ r }) => r.ref.type === 'commit-url' && isCrossRepository(r.ref, thread.repo, aliases) && sameCommitHex(r.ref.value, a.ref.value));
      if (elsewhere) add('cross-repository', sentenceText(elsewhere.q, elsewhere.r.start), elsewhere.q.index);
    }
    for (const q of posts) {
      if (q.index <= a.post) continue;
      const n = ELSEWHERE.exec(q.body);
      if (n && findRefs(q.body).some((r) => sameTarget(r.ref, a.ref))) add('cross-repository', sentenceText(q, n.index), q.index);
    }
  }

  // Bisect output whose first bad commit is a merge ("Merge: a b" in its header): the culprit is one of the merged commits.
  for (const a of attributions) {
    if (a.kind !== 'bisect-output') continue;
    const p = posts.find((q) => q.index === a.post);
    const block = p ? p.body.slice(a.sentence.start, Math.min(p.body.length, a.sentence.end + 400)) : '';
    const merge = /^[ \t>]*Merge:\s+[0-9a-f]{7,40}\s+[0-9a-f]{7,40}\s*$/m.exec(block);
    if (merge) add('range-only', `the first bad commit is a merge (${merge[0].trim()})`, a.post);
  }

  // Whether a hex abbreviation written in the thread names one of the attributed commits (either may be the longer).
  const namesAttributed = (hex: string): boolean => domestic.some(({ a }) => a.ref.type !== 'pr' && (a.ref.value.startsWith(hex) || hex.startsWith(a.ref.value)));
  // A later revert of the named commit whose message says "reversing changes made to Y": git's revert of a merge.
  for (const p of posts) {
    for (const m of p.body.matchAll(/\breverts\s+commit\s+([0-9a-fA-F]{7,40}),?\s+reversing\s+changes\s+made\s+to\s+[0-9a-fA-F]{7,40}/gi)) {
      if (namesAttributed(m[1]!.toLowerCase())) add('range-only', `the named commit is a merge (${m[0].trim()})`, p.index);
    }
  }
  // cargo-bisect-rustc bisects the CI builds of merged pull requests: the commit it reports is a merge.
  for (const a of domestic.map(({ a: x }) => x)) {
    const raw = thread.posts.find((q) => q.index === a.post)?.body ?? '';
    if (/\bcargo[- ]bisect-rustc\b/i.test(raw)) add('range-only', 'cargo-bisect-rustc reports the merge commit of a pull request', a.post);
  }

  const skipped = matching(BISECT_SKIPPED, null);
  for (const s of skipped) add('bisect-skipped', s.text, s.post);
  if (attributions.length === 0) {
    for (const r of matching(RANGE, null)) add('range-only', r.text, r.post);
    // A thread whose only commit reference is the fix ("fixed by <sha>") says why it has no culprit.
    for (const f of fixOnlyMentions(posts)) add('fix-not-culprit', f.text, f.post);
    if (findings.length === 0) add('no-attribution', 'no first-bad attribution in the issue body or its comments');
  }

  // Groups of attributions naming the same target (prefix-equal SHAs, equal PR numbers).
  const groups: { a: Attribution; i: number }[][] = [];
  for (const item of domestic) {
    const g = groups.find((members) => members.some((m) => sameTarget(m.a.ref, item.a.ref)));
    if (g) g.push(item);
    else groups.push([item]);
  }
  // A hedged mention next to a plain attribution of the other family (a guessed PR beside bisect output) does not hedge the thread.
  // A quoted repeat ("> I noticed this commit …" in an e-mailed reply) is the quoted writer's words, split by the
  // quote's own line breaks: the writer's own sentence says whether it was a guess.
  const ownWords = (g: readonly { a: Attribution }[]) => {
    const own = g.filter(({ a }) => !isQuoted(thread, { post: a.post, text: a.sentence.text }));
    return own.length > 0 ? own : g;
  };
  const plain = groups.filter((g) => ownWords(g).some(({ a }) => !a.hedged));
  // A pull request titled as the revert of one commit, where the only blame names another ("only revert Y, that is the bad
  // commit"): two commits are held to blame, one by the revert itself.
  const reverted = revertedByTitle(thread);
  if (reverted && groups.length > 0 && !groups.some((g) => g.some(({ a }) => sameTarget(a.ref, reverted)))) {
    add('competing', `different culprits named: ${reverted.text} (reverted by the title) vs ${groups.map((g) => g[0]!.a.ref.text).join(', ')}`);
  }
  // "Builds X and Z started and crashed. … Z is the first bad commit": a commit listed beside the verdict's own commit, in the
  // post holding `git bisect`'s verdict, is a step of that bisect, not a rival culprit.
  const verdicts = domestic.map(({ a }) => a).filter((a) => a.kind === 'bisect-output');
  const step = (a: Attribution): boolean =>
    a.kind !== 'bisect-output' && verdicts.some((v) => v.post === a.post && !sameTarget(v.ref, a.ref) && findRefs(a.sentence.text).some((r) => sameTarget(r.ref, v.ref)));
  // "Commit X broke the decoder. PR #60 resolved it. Now commit Y broke it the same way": X is an earlier breakage, already fixed.
  const fixedSince = (a: Attribution): boolean => {
    const body = thread.posts.find((p) => p.index === a.post)?.body ?? '';
    // (The attribution's span may end inside its sentence: the next sentence starts after the sentence's end.)
    const rest = body.slice(a.sentence.end, a.sentence.end + 300);
    const cut = rest.search(/[.!?](?:\s|$)/);
    return a.post >= 0 && cut >= 0 && FIXED_SINCE.test(rest.slice(cut + 1));
  };
  const live = groups.filter((g) => !g.every(({ a }) => fixedSince(a)));
  // Those earlier breakages are no culprit of this report.
  const earlier = new Set(live.length > 0 ? groups.filter((g) => !live.includes(g)).flatMap((g) => g.map(({ i }) => i)) : []);
  // "Maybe #120 did it." … "Perhaps #131 instead." … "Bisected X as first bad commit.": guesses made before
  // one bisect told its outcome plainly are superseded by it, not rival culprits.
  // (git's own verdict, "X is the first bad commit" over the commit block, is a bisect told plainly.)
  const toldBisect = (a: Attribution): boolean => !a.hedged && (a.kind === 'bisect-output' || BISECT_DONE.test(a.sentence.text));
  const bisected = groups.filter((g) => ownWords(g).some(({ a }) => toldBisect(a)));
  const firstBisect = bisected.length === 1 ? Math.min(...bisected[0]!.filter(({ a }) => toldBisect(a)).map(({ a }) => a.post)) : null;
  // "First bad commit is Y … *edit:* Narrowed down to X": the writer's own correction, later in the same post, replaces Y.
  const corrections = groups.filter((g) => g.some(({ a }) => EDIT_CORRECTION.test(a.sentence.text)));
  const correctedAway = (g: (typeof groups)[number]): boolean =>
    corrections.length === 1 &&
    !corrections.includes(g) &&
    g.every(({ a }) => corrections[0]!.some(({ a: c }) => EDIT_CORRECTION.test(c.sentence.text) && c.post === a.post && c.author === a.author && c.start > a.start));
  // "Bisect says X … A second bisect gives Y, the 'real' first bad one": the writer's later, qualified outcome replaces their earlier one.
  // (The attribution's span may be a clause of its sentence: the qualifier may follow it.)
  const saysTrue = (a: Attribution): boolean => TRUE_CULPRIT.test((posts.find((p) => p.index === a.post)?.body ?? a.sentence.text).slice(a.sentence.start, a.sentence.end + 120));
  const qualified = groups.filter((g) => g.some(({ a }) => saysTrue(a)));
  const requalified = (g: (typeof groups)[number]): boolean =>
    qualified.length === 1 &&
    !qualified.includes(g) &&
    g.every(({ a }) => qualified[0]!.some(({ a: c }) => saysTrue(c) && c.author === a.author && (c.post > a.post || (c.post === a.post && c.start > a.start))));
  const superseded = (g: (typeof groups)[number]): boolean => (firstBisect !== null && !bisected.includes(g) && g.every(({ a }) => a.hedged && (a.post < firstBisect || isQuoted(thread, { post: a.post, text: a.sentence.text })))) || correctedAway(g) || requalified(g);
  const rivals = (live.length > 0 ? live : groups).filter((g) => !g.every(({ a }) => step(a)) && !superseded(g));
  for (const g of groups) {
    if (!ownWords(g).every(({ a }) => a.hedged)) continue;
    // (A guess a later plain bisect replaced is no guess about the culprit the thread settles on.)
    if (superseded(g)) continue;
    if (plain.some((p) => familyOf(p[0]!.a.ref) !== familyOf(g[0]!.a.ref))) continue;
    if (groups.length === 1 && (bisectReportedLater(posts, g[0]!.a) || admittedLater(thread, posts, g[0]!.a) || affirmedNext(thread, g[0]!.a) || revertedLater(posts, g[0]!.a) || curedByOwnRevert(posts, g[0]!.a) || parentWorksSaid(thread, posts, g[0]!.a))) continue;
    add('hedged', g[0]!.a.sentence.text, g[0]!.a.post);
  }
  for (const family of ['commit', 'pr'] as const) {
    const named = rivals.filter((g) => familyOf(g[0]!.a.ref) === family);
    if (named.length > 1) {
      const described = named.map((g) => `${g[0]!.a.ref.text} (post ${g[0]!.a.post}, ${g[0]!.a.author})`).join(' vs ');
      add('competing', `different culprits named: ${described}`);
    }
  }

  // Attributions the writer's own later outcome replaced: a retraction of them says nothing about the outcome that replaced them.
  const outdone = new Set(groups.filter((g) => requalified(g) || correctedAway(g)).flatMap((g) => g.map(({ i }) => i)));
  if (attributions.length > 0) {
    const first = attributions.find((_, i) => !outdone.has(i)) ?? attributions[0]!;
    // The one who named the commit first.
    const namer = first.post === -1 ? thread.author : thread.posts.find((p) => p.index === first.post)?.author;
    // "That commit is the 4.2 release, so one of these commits broke it: <compare link>": someone else answers the
    // commit named with the range it stands for.
    for (const p of posts) {
      if (p.index <= first.post || thread.posts.find((q) => q.index === p.index)?.author === namer || !COMPARE_LINK.test(p.body)) continue;
      const m = RANGE_ANSWER.exec(p.body);
      if (m && !isQuoted(thread, { post: p.index, text: sentenceText(p, m.index) })) add('range-only', sentenceText(p, m.index), p.index);
    }
    // "My bad" from someone else than the one who named the commit owns up to it; it retracts nothing.
    for (const r of matching(RETRACTION, { post: first.post, offset: first.sentence.end })) {
      // A quoted line repeats someone else's words.
      if (isQuoted(thread, r)) continue;
      const by = thread.posts.find((p) => p.index === r.post)?.author;
      if (by !== namer && OWNING_UP.test(r.text) && !TESTING_MIXUP.test(r.text) && !RETRACTION.some((re) => re.source !== OWNING_UP.source && re.test(r.text.replace(OWNING_UP, ' ')))) continue;
      // "Ok, it's this commit X. I swear I checked that one. My bad.": in the post that names the commit, after the namer
      // blamed another one before, the apology is for that earlier blame.
      if (r.post === first.post && MY_MISTAKE.test(r.text) && blamedOtherBefore(thread, first, namer)) continue;
      add('retracted', r.text, r.post);
    }
    // The one who named the commit finds the cause elsewhere and apologises for the noise.
    for (const r of matching([NAMER_RETRACTION], { post: first.post, offset: first.sentence.end })) {
      if (isQuoted(thread, r) || thread.posts.find((p) => p.index === r.post)?.author !== namer) continue;
      // "I found what the problem was: X drops the flag" elaborates on the commit instead (an apology for the noise takes it back whatever it names).
      if (!/\bsorry\s+for\b/i.test(r.text) && findRefs(posts.find((p) => p.index === r.post)?.body ?? '').some((x) => attributions.some((a) => sameTarget(a.ref, x.ref)))) continue;
      add('retracted', r.text, r.post);
    }
  }

  // Someone else does not see the problem at all after the commit was named ("the team does not
  // have this issue"), and nobody later owns up, confirms or fixes it: unclear, so review.
  if (attributions.length > 0) {
    const first = attributions[0]!;
    const namer = first.post === -1 ? thread.author : thread.posts.find((p) => p.index === first.post)?.author;
    for (const r of matching([DISPUTE, OTHER_CAUSE], { post: first.post, offset: first.sentence.end })) {
      if (r.post === first.post || thread.posts.find((p) => p.index === r.post)?.author === namer || isQuoted(thread, r)) continue;
      // "… on the latest master" / "… anymore": gone since, which disputes nothing; "I applied #77 and now it works as
      // designed": a fix tried, which disputes nothing either.
      if (GONE_SINCE.test(r.text) || CONFIRM_SAME.test(r.text) || FIX_TRIED.test(r.text)) continue;
      const settled = posts.some((p) => p.index > r.post && (ADMISSION.test(p.body) || SETTLED.test(p.body) || findRefs(p.body).some((x) => x.ref.type !== 'pr')));
      if (!settled) add('retracted', r.text, r.post, false);
    }
  }

  // A blame that rests on a revert ("This reverts commit X. With it reverted the crash is gone"), and someone else then still
  // has the problem with the revert ("it still crashes for me"), nothing settling it later: the revert's cure is in doubt, so review.
  if (attributions.length > 0) {
    const first = attributions[0]!;
    const namer = first.post === -1 ? thread.author : thread.posts.find((p) => p.index === first.post)?.author;
    if (/\brevert/i.test(first.sentence.text)) {
      for (const r of matching([STILL_BROKEN], { post: first.post, offset: first.sentence.end })) {
        if (r.post === first.post || thread.posts.find((p) => p.index === r.post)?.author === namer || isQuoted(thread, r)) continue;
        const settled = posts.some((p) => p.index > r.post && (ADMISSION.test(p.body) || SETTLED.test(p.body)));
        if (!settled) add('retracted', r.text, r.post, false);
      }
    }
  }

  // Someone else finds it working on a build of the named commit itself ("I was able to install it on a perl built at
  // commit X"): the bisect is in doubt, so review.
  if (attributions.length > 0) {
    const first = attributions[0]!;
    const namer = first.post === -1 ? thread.author : thread.posts.find((p) => p.index === first.post)?.author;
    for (const p of posts) {
      if (p.index <= first.post || thread.posts.find((q) => q.index === p.index)?.author === namer) continue;
      for (const m of p.body.matchAll(WORKS_AT_COMMIT)) {
        if (m.index !== undefined && !isQuoted(thread, { post: p.index, text: m[0] }) && namesAttributed(m[1]!.toLowerCase())) {
          add('retracted', sentenceText(p, m.index), p.index, false);
        }
      }
    }
  }

  // Someone else still asks for a (proper) bisect after the commit was named: the localisation is not settled.
  if (attributions.length > 0) {
    const first = attributions[0]!;
    const namer = first.post === -1 ? thread.author : thread.posts.find((p) => p.index === first.post)?.author;
    for (const r of matching([BISECT_STILL_WANTED], { post: first.post, offset: first.sentence.end })) {
      if (r.post === first.post || thread.posts.find((p) => p.index === r.post)?.author === namer || isQuoted(thread, r)) continue;
      add('hedged', r.text, r.post);
    }
  }

  for (const f of fixMentions(posts, domestic.map(({ a }) => a))) add('fix-not-culprit', f.text, f.post);

  for (const s of symptomMismatches(thread, posts, domestic.map(({ a }) => a), outsideBlocks)) add('symptom-mismatch', s.text, s.post, s.sure);

  // Steps of a bisect whose verdict is pasted are no culprits either: the repository check must not weigh them against the verdict.
  // (…nor a first bad commit the writer's own edit replaced.)
  const replaced = new Set(groups.filter(superseded).flatMap((g) => g.map(({ i }) => i)));
  return decide(findings, domestic.filter(({ a, i }) => !earlier.has(i) && !replaced.has(i) && !step(a)).map(({ i }) => i));
}

/** The one commit a title reverts ("revert 9ea0ce6…", "Revert abc1234 (…)"), or null. */
function revertedByTitle(thread: Thread): AttributionRef | null {
  const m = /^\s*(?:\[[^\]]*\]\s*)?revert(?:s|ing)?\s+(?:commit\s+)?[`'"]?(?=[0-9a-fA-F]{7,40}\b|https?:)/i.exec(thread.title);
  if (!m) return null;
  const refs = findRefs(thread.title).filter((r) => r.ref.type !== 'pr');
  return refs.length === 1 && refs[0]!.outerStart === m[0].length ? refs[0]!.ref : null;
}

/** Working on a build of a named commit ("was able to install it on a build made at commit X", "works fine built from X"). */
const WORKS_AT_COMMIT =
  /\b(?:(?:was|were|am|are)\s+able\s+to|works?|worked|runs?|ran|installs?|installed|fine|no\s+(?:problem|issue)s?)\b[^.\n]{0,100}?\b(?:built|build|compiled|running)\s+(?:at|from|on)\s+(?:commit\s+)?[`'"\[]*([0-9a-fA-F]{7,40})\b/gi;

/** Right after an attribution: the breakage it names was fixed since ("PR #60 fixed it.", "That was fixed in 2.1."). */
const FIXED_SINCE = /^\s*(?:(?:(?:PR|pull\s+request)\s*)?#\d+\s+(?:fixed|resolved)\s+(?:it|this|that)\b|(?:it|this|that)\s+(?:was|has\s+been|got)\s+(?:fixed|resolved)\b)/i;

/**
 * Said by the one who named a commit, later: the cause was found elsewhere ("I found what the
 * problem was", "sorry for the noise", "stale dependencies", "seems to be the plugin I use", "this
 * is not related to this issue"), cannot reproduce it at the commit named ("on going back to it I
 * can't reproduce this myself"), or takes it back in a word ("Never mind.").
 */
const NAMER_RETRACTION =
  /\b(?:it|this|that|everything)\s+(?:is|was)\s+working\s+again\b[^.\n]{0,40}?\bbecause\s+I\b|\b(?:this|that|it)\s+(?:is|was)\s*(?:not|n't)\s+related\s+to\s+(?:this|the)\s+(?:ticket|issue|bug|report|problem)\b|\bsorry\s+for\s+(?:the\s+|all\s+the\s+)?(?:noise|inconvenience|confusion|false\s+alarm)\b|\b(?:I\s+(?:have\s+)?)?found\s+(?:out\s+)?what\s+the\s+(?:real\s+|actual\s+)?(?:problem|issue|cause)\s+(?:was|is)\b|\bstale\s+(?:dependenc(?:y|ies)|deps|build(?:\s+dir(?:ectory)?)?|cache|checkout|node_modules|install(?:ation)?)\b|\b(?:seems\s+to\s+be|was|is|turns?\s+out\s+to\s+be|turned\s+out\s+to\s+be)\s+(?:the|a|an|my)\s+(?:[\w-]+\s+)?(?:plugin|extension|add-?on|mod|theme|userscript)\s+(?:I|i)\s+(?:use|am\s+using|installed|have)\b|\b(?:go(?:ing)?|went|coming|came)\s+back\s+to\s+(?:it|that|this|the\s+commit)\b[^.\n]{0,40}?\b(?:can't|cannot|can\s+not|couldn't|could\s+not)\s+reproduce\b|\b(?:can't|cannot|couldn't|could\s+not)\s+reproduce\s+(?:this|it)\s+myself\b|^\s*(?:oh,?\s+)?never\s*mind\s*[.!]*\s*$/im;

/** A writer correcting a reference they gave ("Sorry, typo", "I meant", "should read"). */
const TYPO_FIX = /\btypo\b|\bI\s+meant\b|\bshould\s+(?:have\s+)?(?:read|said)\b|\bwrong\s+(?:hash|sha|commit\s+id)\b|\bmis-?typed\b|\bcopy[- ]?paste[d]?\s+(?:the\s+)?wrong\b/i;

/** Whether the writer of `a` later corrects it as a typo, naming another of the attributed commits. */
function correctedAsTypo(thread: Thread, a: Attribution, all: readonly Attribution[]): boolean {
  if (a.ref.type === 'pr') return false;
  const author = a.post === -1 ? thread.author : thread.posts.find((p) => p.index === a.post)?.author;
  return thread.posts.some(
    (p) =>
      p.index > a.post &&
      p.author === author &&
      TYPO_FIX.test(p.body) &&
      all.some((o) => o.post >= p.index && o.ref.type !== 'pr' && !sameTarget(o.ref, a.ref)) &&
      !findRefs(p.body).some((r) => sameTarget(r.ref, a.ref)),
  );
}

/** Whether a sentence found in a post sits on a quoted line ("> …"). */
function isQuoted(thread: Thread, found: { post: number; text: string }): boolean {
  const body = thread.posts.find((p) => p.index === found.post)?.body ?? '';
  const at = body.indexOf(found.text);
  if (at < 0) return false;
  const lineStart = body.lastIndexOf('\n', at - 1) + 1;
  return /^[ \t]*>/.test(body.slice(lineStart, at + 1));
}

/** A request for a bisect still to be done, or for the commit still to be found. */
const BISECT_STILL_WANTED =
  /\b(?:need|needs|would\s+(?:really\s+)?need|please\s+do|try\s+to\s+do|could\s+you\s+do|can\s+you\s+do)\s+(?:really\s+)?(?:a\s+)?(?:proper|real|full|actual|complete)\s+bisect\w*|\bneed\s+to\s+know\s+(?:specifically\s+|exactly\s+)?(?:at\s+)?which\s+commit\b/i;

/** Someone else naming another cause, not a commit ("this bug is caused by the CI image, a local build works"). */
const OTHER_CAUSE =
  /\b(?:this|the)\s+(?:bug|issue|problem|regression)\s+(?:is\s+|was\s+)?(?:caused|introduced)\s+by\s+(?!(?:the\s+|this\s+|that\s+|your\s+|a\s+|my\s+|our\s+)?(?:(?:last|latest|recent|previous|earlier|own)\s+)?(?:commit|change|pr\b|pull|patch|revision|merge)|[0-9a-f]{7}|#\d|https?:|it\b|that\b|this\b)[A-Za-z]/i;

/**
 * Someone who does not see the reported problem at all ("we can't reproduce this", "the team does
 * not have this issue", "plenty of green builds since that commit"), finds a stale build behind
 * it ("you just need to run cmake again"), calls the change intended ("so this is expected") or
 * harmless ("shouldn't cause any issues").
 */
const DISPUTE =
  /\b(?:this|the|that)\s+(?:error|problem|issue|bug|crash)\s+(?:does\s*(?:not|n't)|doesn't|did\s*(?:not|n't))\s+(?:occur|happen|show\s+up|reproduce)\s+(?:on|in|with|for)\s+(?:my|our)\b|\b(?:we|I|the\s+team|nobody\s+else|no\s+one\s+else)\s+(?:do(?:es)?\s*(?:not|n't)|cannot|can't|could\s*(?:not|n't)|(?:am|are|was|were)\s*(?:not|n't)\s+able\s+to)\s+(?:(?:have|see|get|reproduce|repro|hit|trigger)\w*)\s+(?:this|the|that|your|it|any)\b|\b(?:not|isn't|wasn't|is\s+not|was\s+not)\s+(?:@[\w-]+'s|his|her|their|your|(?:the|this|that)\s+(?:commit|change|PR)'s)\s+fault\b|\bnot\s+(?:yet\s+)?convinced\s+(?:that|if|whether)\b|\b(?:it|this|that)\s+works\s+(?:perfectly\s+|just\s+|totally\s+)?fine\s+for\s+me\b|\b(?:it|this|that)\s+(?:builds|compiles)\s+(?:(?:just\s+)?fine\s+)?for\s+me\b|\b(?:you|they)\s+(?:just\s+|only\s+|simply\s+)?(?:need|have)\s+to\s+(?:re-?run\s+[`'"]?[\w-]+[`'"]?|run\s+[`'"]?[\w-]+[`'"]?\s+again|re-?build|re-?configure|re-?generate|do\s+a\s+clean\s+build)\b|\b(?:so\s+)?(?:this|that|it)\s+(?:is|was)\s+(?:(?:the\s+)?expected|intended|intentional|deliberate|by\s+design)(?:\s+behaviou?r)?\s*(?:[.!]|$)|\bworks\s+as\s+(?:intended|designed)\b|\b(?:see|saw|seeing|have|had)\s+(?:several|many|multiple|some|plenty\s+of)\s+(?:successful|passing|green)\s+(?:builds?|runs?|pipelines?)\s+(?:after|since|with|past)\s+(?:that|this|the)\s+commit\b|\b(?:should(?:n't|\s+not)|would(?:n't|\s+not))\s+(?:cause|affect|break)\s+any(?:thing|\s+(?:issues?|problems?|bugs?|trouble))\b/im;
/** The problem is still there (after a revert): "it still crashes for me", "still getting the error". */
const STILL_BROKEN =
  /\b(?:it|this|that|mine|the\s+(?:app|game|build|program))\s+still\s+(?:crash|fail|hang|freez|segfault|break)\w*|\bstill\s+(?:see|get|have|hit)(?:s|ting|ing)?\s+(?:the|this|that|a)\s+(?:same\s+)?(?:crash|error|failure|hang|problem|issue|segfault)\b/i;
/** "I can confirm I also have this issue with the new compiler and I don't have it with the old one": a good side, not a dispute. */
const CONFIRM_SAME = /\bconfirm\w*|\b(?:also|too)\s+(?:have|see|get|hit)\b|\b(?:do(?:es)?\s*(?:not|n't)|cannot|can't)\s+\w+\s+(?:this|the|that|it)\s+(?:\w+\s+)?(?:when|if|with|using|after|before|until|on\s+(?:the\s+)?(?:old|older|previous))\b/i;
/** A fix tried and found working ("I applied #77 and now it works", "tried your patch: works as designed"). */
const FIX_TRIED = /\b(?:test(?:ed|ing)?|tried|trying|appl(?:y|ied|ying)|with)\s+(?:out\s+)?(?:the\s+|your\s+|this\s+)?(?:#\d+|fix|patch|PR|pull\s+request|branch)\b(?:\s+applied)?[^.\n]{0,40}\bworks?\b/i;
/** Not seeing the problem any more, on a newer revision: fixed since, not disputed. */
const GONE_SINCE = /\b(?:any\s*more|now|(?:on|with|in)\s+(?:the\s+)?(?:latest|current|newest|recent)\s+(?:master|main|trunk|head|version|release|build|nightly|commit)|(?:on|with|in)\s+(?:master|main|head)\b)/i;
/** A later post that settles a disputed attribution: a fix or a revert of it landed, or it reproduces after all. */
const SETTLED = /\b(?:fixed|resolved|reverted)\s+(?:by|in|with|via)\b|\b(?:can|could)\s+(?:now\s+)?reproduce\b|\breproduced\b/i;

/** First-person fault words: a retraction from the one who named the commit, an admission from anyone else. */
const OWNING_UP = /\bmy\s+(?:mistake|bad|fault)\b/i;
/** …unless the fault owned is a mix-up in testing ("My mistake, I mixed up the builds"): that withdraws the result. */
const TESTING_MIXUP = /\b(?:mix(?:ed)?\s+up|mixed-up|confused|wrong\s+(?:build|binary|commit|version|branch)|tested|testing|bisect\w*)\b/i;

/** Someone owning up to or confirming a named commit ("I broke it", "I must have dropped that", "yes, that's the culprit", "confirmed that"). */
const ADMISSION =
  /\b(?:I|we)\s+(?:(?:indeed|actually|apparently)\s+)?(?:broke|introduced|caused)\s+(?:it|this|that)\b|\b(?:I|we)\s+must\s+have\s+(?:accidentally\s+|mistakenly\s+)?(?:deleted|removed|dropped|broken|forgotten|missed|lost)\b|\bI\s+(?:had\s+)?suspected\s+(?:that|this|it)\s+(?:would|might|could)\s+(?:cause|break)\b|\bmy\s+(?:bad|fault|mistake)\b|\boops\b|\bsorry\s+(?:for|about)\s+(?:the|this|that)\s+(?:break(?:age)?|regression|trouble|mess)\b|\b(?:yes|yep|indeed|right),?\s+(?:that|this|it)(?:'s|\s+is|\s+was)\s+(?:the\s+)?(?:one|culprit|cause|commit|bad\s+commit)\b|\bconfirm(?:ed|s|ing)?\s+(?:that|it|this|the\s+(?:breaking|bad|offending|culprit|faulty)\s+(?:commit|change))\b|\bgood\s+catch\b|\b(?:amazing|great|nice|good|excellent)\s+find\b/i;

/**
 * A hedged attribution ("looks like X caused it") that someone else later owns up to or confirms,
 * naming no other commit except as a fix, is not a guess any more.
 */
/**
 * "How about this commit? X" answered at once by someone else with "Yep, that looks right": a guess put
 * as a question and affirmed in the very next post, which names no other commit.
 */
function affirmedNext(thread: Thread, a: Attribution): boolean {
  const author = a.post === -1 ? thread.author : thread.posts.find((p) => p.index === a.post)?.author;
  const next = thread.posts.find((p) => p.index > a.post);
  if (!next || next.author === author) return false;
  const body = next.body.slice(0, 400);
  return AFFIRMED.test(body) && !findRefs(body).some((r) => r.ref.type !== 'pr' && !sameTarget(r.ref, a.ref));
}

/** A reply opening by agreeing ("Yep, that looks more right", "Yes, confirmed"), with no "but" or doubt right after. */
const AFFIRMED = /^\s*(?:@[\w-]+\s+)?(?:yep|yes|yeah|yup|indeed|confirmed|correct|exactly)\b[,.!]?\s*(?:(?:that|this|it)(?:'s|\s+is|\s+looks?|\s+seems?)\s+(?:\w+\s+)?(?:right|correct|it|the\s+one)\b|confirmed\b|[.!]|$)(?![^.\n]{0,40}\b(?:but|although|though|however|not)\b)/i;

function admittedLater(thread: Thread, posts: readonly PostText[], a: Attribution): boolean {
  const author = a.post === -1 ? thread.author : thread.posts.find((p) => p.index === a.post)?.author;
  for (const p of posts) {
    if (p.index <= a.post) continue;
    if (thread.posts.find((q) => q.index === p.index)?.author === author) continue;
    const others = findRefs(p.body).filter((r) => r.ref.type !== 'pr' && !sameTarget(r.ref, a.ref));
    const asFix = (r: { outerStart: number }): boolean => {
      const before = p.body.slice(Math.max(0, r.outerStart - 80), r.outerStart);
      return FIX_BEFORE.test(before) || /\bfix(?:ed|es)?\s+(?:it|this|that)\s+(?:in|with|by)\s+(?:commit\s+)?[`'"(\[]*$/i.test(before);
    };
    if (others.some((r) => !asFix(r))) continue;
    if (ADMISSION.test(p.body)) return true;
  }
  return false;
}

/** A later post saying the named change was reverted ("Thanks, I reverted it for now", "Closed by reverting the patch"). */
const REVERTED_DONE =
  /\b(?:I|we)(?:'ve|\s+have|\s+just)?\s+reverted\b|(?:\b(?:I'll|I\s+will|we'll|we\s+will|(?:I'm|I\s+am|we're|we\s+are)\s+going\s+to)|(?:^|[.!]\s+)will)\s+(?:just\s+)?revert\s+(?:it|this|that|those|them|the\s+[\w-]+(?:\s+[\w-]+)?\s+(?:change|commit|patch)s?)\b(?![^.\n]{0,40}\b(?:see|test|check)\s+(?:if|whether)\b)|\breverted\s+(?:it|this|that|the\s+(?:commit|change|patch|pr|pull\s+request))\b|\b(?:closed|fixed|solved|resolved)\s+by\s+reverting\b|\bhas\s+been\s+reverted\b/i;
/** …unless the revert did not help, was only an experiment, or made way for the change redone (the change was this issue's fix). */
const REVERT_NO_HELP =
  /\b(?:did\s*n[o']?t|does\s*n[o']?t|didn't|doesn't|not)\s+(?:help|fix|solve|change|make\s+(?:a|any)\s+difference)\b|\bstill\s+(?:broken|fails?|failing|crash\w*|happens|there|present|see)\b|\bsame\s+(?:problem|issue|result|error)\b|\bif\s+(?:I|we|you)\s+revert|\bre-?(?:introduc|appl|land|implement)\w*|\bre-?(?:do|did|done|doing)\b/i;

/**
 * A hedged attribution ("I believe X introduced this") whose commit a later post reverts, naming
 * no other commit except as a fix and not saying the revert failed, was acted on: not a guess.
 */
function revertedLater(posts: readonly PostText[], a: Attribution): boolean {
  return posts.some(
    (p) =>
      p.index > a.post &&
      REVERTED_DONE.test(p.body) &&
      !REVERT_NO_HELP.test(p.body) &&
      !findRefs(p.body).some((r) => r.ref.type !== 'pr' && !sameTarget(r.ref, a.ref) && !FIX_BEFORE.test(p.body.slice(Math.max(0, r.outerStart - 80), r.outerStart))),
  );
}

/** "I reverted that change and the menu opens without any more crashes": a guess its writer tested by undoing the commit. */
const REVERT_CURED = new RegExp(
  String.raw`\b` +
    REVERTING_CURES.source +
    String.raw`|\b(?:I|we)(?:'ve|\s+have|\s+then|\s+just)?\s+reverted\s+(?:it|this|that|the\s+(?:commit|change|patch))\b[^.\n]{0,120}?\b(?:without\s+(?:any\s*more\s+|any\s+|further\s+)?(?:problems?|issues?|crash\w*|errors?|glitch\w*)|works?|worked|working\s+again|fine|fixe[sd]|solve[sd]|resolve[sd]|gone|disappear\w*|no\s+(?:more\s+)?(?:problems?|issues?|crash\w*|errors?))\b`,
  'i',
);

/** The writer of a guess goes on, in the same post, to undo the commit and see the problem gone; nothing else is named. */
function curedByOwnRevert(posts: readonly PostText[], a: Attribution): boolean {
  const p = posts.find((q) => q.index === a.post);
  if (!p) return false;
  const rest = p.body.slice(a.sentence.end);
  // (A commit named before the guess, "with newest master X", is the build being run; only one after it would compete.)
  return REVERT_CURED.test(rest) && !REVERT_NO_HELP.test(rest) && !findRefs(rest).some((r) => r.ref.type !== 'pr' && !sameTarget(r.ref, a.ref));
}

/** "In the previous commit the UI still loads": the commit before the named one is good ("a version before this commit" is some older one). */
const PARENT_WORKS =
  /\b(?:(?:the|its)\s+(?:previous|prior|preceding|parent)\s+(?:commit|revision|one)|(?:the|its)\s+parent(?:\s+commit)?\s+[`'"]?[0-9a-f]{7,40}\b[`'"]?|(?<!\b(?:version|release|build|tag|update)\s+)(?:prior\s+to|before)\s+(?:this|that|the)\s+commit)\b[^.\n]{0,60}?\b(?:works?|worked|still|fine|ok(?:ay)?|good|passe[sd]|builds?|built|compiles?|loads?|loaded)\b/i;

/**
 * A hedged attribution ("Looks like this broke in X") whose writer also says the commit before X
 * is good has the two ends of a bisect: not a guess. Only the writer's own posts count, and none
 * naming another commit.
 */
function parentWorksSaid(thread: Thread, posts: readonly PostText[], a: Attribution): boolean {
  const author = a.post === -1 ? thread.author : thread.posts.find((p) => p.index === a.post)?.author;
  return posts.some(
    (p) =>
      p.index >= a.post &&
      (p.index === -1 ? thread.author : thread.posts.find((q) => q.index === p.index)?.author) === author &&
      PARENT_WORKS.test(p.body) &&
      // The parent itself named ("the parent 3e729d0 still works") is no other commit.
      !findRefs(p.body).some((r) => r.ref.type !== 'pr' && !sameTarget(r.ref, a.ref) && !/\bparent(?:\s+commit)?\s+[`'"]?$/i.test(p.body.slice(Math.max(0, r.outerStart - 20), r.outerStart))),
  );
}

/** A statement (not a request) that a bisect was done. */
const BISECT_DONE = /\bbisect(?:ed|ing)?\b/i;
const REQUEST =
  /\bthanks?\b|\bthank\s+you\b|\b(?:could|can|would|will)\s+you\b|\bplease\b|\btry\b|\bif\s+you\b|\bhow\s+did\b|\bneed(?:s|ed)?\b|\bshould\b|\bmust\b|\bnot\b|n't\b|\bnever\b|\byet\b|\bproper\b|\bbefore\s+we\b|\buntil\b/i;

/**
 * A hedged attribution that a later post backs with a bisect ("I went back to old versions and
 * then bisected the commit it appeared in"), naming no other commit, is not a guess any more.
 */
function bisectReportedLater(posts: readonly PostText[], a: Attribution): boolean {
  for (const p of posts) {
    if (p.index <= a.post) continue;
    if (findRefs(p.body).some((r) => r.ref.type !== 'pr' && !sameTarget(r.ref, a.ref))) continue;
    for (const s of p.sentences) {
      const text = p.body.slice(s.start, s.end);
      if (BISECT_DONE.test(text) && !REQUEST.test(text) && !/\?\s*$/.test(text)) return true;
    }
  }
  return false;
}

function decide(findings: readonly Finding[], culprits: number[]): TextScreen {
  const reasons = sortReasons(findings.map(({ sure: _sure, ...r }) => r));
  const rejected = findings.some((f) => f.sure);
  const decision: Decision = rejected ? 'reject' : findings.length > 0 ? 'review' : 'candidate';
  return { decision, reasons, culprits: decision === 'reject' ? [] : culprits };
}

function sortReasons(reasons: readonly Reason[]): Reason[] {
  return [...reasons].sort(
    (a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) || (a.post ?? -1) - (b.post ?? -1) || (a.evidence < b.evidence ? -1 : a.evidence > b.evidence ? 1 : 0),
  );
}

/** Mentions of an attributed commit or PR as the fix ("fixed by X", "X fixes it"), and bisects that found the fix. */
function fixMentions(posts: readonly PostText[], culprits: readonly Attribution[]): { post: number; text: string }[] {
  const out: { post: number; text: string }[] = [];
  if (culprits.length === 0) return out;
  for (const p of posts) {
    for (const r of findRefs(p.body)) {
      if (!culprits.some((c) => sameTarget(c.ref, r.ref))) continue;
      const before = p.body.slice(Math.max(0, r.start - 80), r.start);
      const after = p.body.slice(r.end, r.end + 140);
      const asFix = namedAsFixBefore(before) || (FIX_AFTER.test(after) && !REVERT_BEFORE.test(before));
      if (asFix) out.push({ post: p.index, text: sentenceText(p, r.start) });
    }
  }
  for (const c of culprits) {
    const text = c.kind === 'bisect-output' ? '' : c.sentence.text;
    const m = FOUND_THE_FIX.exec(text);
    if (m && !/\brevert/i.test(text)) out.push({ post: c.post, text });
  }
  return out;
}

/** Commit references (SHAs, commit URLs; not PR numbers) described as the fix, in a thread with no attribution. */
function fixOnlyMentions(posts: readonly PostText[]): { post: number; text: string }[] {
  const out: { post: number; text: string }[] = [];
  for (const p of posts) {
    for (const r of findRefs(p.body)) {
      if (r.ref.type === 'pr') continue;
      const before = p.body.slice(Math.max(0, r.start - 80), r.start);
      if (FIX_BEFORE.test(before) && !REVERT_BEFORE.test(before)) out.push({ post: p.index, text: sentenceText(p, r.start) });
    }
  }
  return out;
}

function sentenceText(p: PostText, pos: number): string {
  const s = sentenceAt(p.layout, pos);
  return p.body.slice(s.start, s.end);
}

/**
 * Attributions that may answer another issue: another issue is named in the attribution's
 * paragraph (unsure → review), or a sentence says the commit is about a different problem (sure
 * when a later post says so about the bisect or commit; unsure in the attribution's own post).
 */
function symptomMismatches(
  thread: Thread,
  posts: readonly PostText[],
  culprits: readonly Attribution[],
  outsideBlocks: (post: number, r: Range) => boolean,
): { post: number; text: string; sure: boolean }[] {
  const out: { post: number; text: string; sure: boolean }[] = [];
  if (culprits.length === 0) return out;
  const own = new Set<string>([String(thread.number), ...culprits.filter((c) => c.ref.type === 'pr').map((c) => c.ref.value)]);
  for (const c of culprits) {
    const p = posts.find((q) => q.index === c.post)!;
    const window = contextWindow(p, c);
    const text = p.body.slice(window.start, window.end);
    const re = new RegExp(OTHER_ISSUE.source, OTHER_ISSUE.flags);
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const n = m[1] ?? m[2] ?? '';
      const at = window.start + m.index;
      if (own.has(String(Number(n))) || !outsideBlocks(p.index, { start: at, end: at + m[0].length })) continue;
      // A link to an issue of another repository ("[breaking users of the distro](…/other/distro/issues/92)") tells who else is hit, not another bug here.
      const linked = /\/\/[^/\s]+\/([\w.-]+\/[\w.-]+)\/issues\/\d+$/.exec(text.slice(Math.max(0, m.index - 160), m.index + m[0].length));
      const here = [thread.repo, ...(thread.aliases ?? [])].map((r) => r.toLowerCase());
      if (linked && !here.includes(linked[1]!.toLowerCase())) continue;
      // "X from #1065", "X (#1065)", "X which relates to issue #4987": the pull request or issue the culprit was made for, not another bug.
      if (c.ref.type !== 'pr' && at >= c.end && OWN_PULL_GAP.test(p.body.slice(c.end, at + m[0].length))) continue;
      // 'X ("Cache the parser (#64)") which is a fix for #53': the issue the culprit was written to fix.
      if (c.ref.type !== 'pr' && at >= c.end && FIXED_BY_CULPRIT_GAP.test(p.body.slice(c.end, at + m[0].length).replace(/^\s*\((?:[^()\n]|\([^()\n]*\)){1,200}\)/, ''))) continue;
      // The words right before the number: "I was looking at issue #88 when …" (the issue that led the
      // writer here), "the crash that has been reported in issue #240" (where this very problem is tracked).
      const lead = p.body.slice(Math.max(0, at - 60), at + m[0].length - n.length - 1);
      if (LED_HERE_BY.test(lead) || TRACKED_IN.test(lead) || OTHER_STILL_THERE.test(sentenceText(p, at))) continue;
      // "It's a separate problem from #212": the other issue is set apart from this thread's.
      if (SET_APART_LEAD.test(lead)) continue;
      // "Same as #7550 but for the other campaign. Same cause: X": a sibling report of the same breakage.
      if (/\b(?:same|identical)\s+(?:(?:issue|problem|bug|crash|error)\s+)?as\s*(?:in\s+)?(?:issue\s+)?#?$/i.test(p.body.slice(Math.max(0, at - 40), at + m[0].length - n.length))) continue;
      // "Fixes #7318" atop a pull request's description: the issue this very change (a revert, a fix) closes.
      if (p.index === 0 && /\/pull\/\d+/.test(thread.url) && CLOSES.test(lead)) continue;
      // "I updated the rules in #1733": the writer's own earlier work, not another bug.
      if (OWN_WORK_IN.test(p.body.slice(Math.max(0, at - 80), at + m[0].length))) continue;
      // "Unlike in #1077, …": the other issue is set apart from this one, so the attribution is not its.
      if (/\bunlike\s*$/i.test(p.body.slice(Math.max(0, at - 12), at))) continue;
      out.push({ post: p.index, text: sentenceText(p, at), sure: false });
    }
  }
  const firstPost = Math.min(...culprits.map((c) => c.post));
  for (const p of posts) {
    if (p.index < firstPost) continue;
    for (const s of p.sentences) {
      if (!outsideBlocks(p.index, s)) continue;
      const text = p.body.slice(s.start, s.end);
      if (!DIFFERENT_SYMPTOM.some((re) => re.test(text))) continue;
      // "Something similar was reported in another issue": the same problem seen elsewhere, not a different one.
      if (SAME_SEEN_ELSEWHERE.test(text) || MASKED_BY_OTHER.test(text) || OTHER_TO_COME.test(text) || OTHER_ADDRESSED.test(text) || THIS_SET_APART.test(text)) continue;
      // "Fix another bug in commit X": the other bug is X's own, the one reported here.
      if (culprits.some((c) => text.includes(c.ref.text) && ANOTHER_IN.test(text.slice(0, text.indexOf(c.ref.text))))) continue;
      const aboutCulprit = /\b(?:bisect\w*|commit|culprit)\b/i.test(text) || culprits.some((c) => text.includes(c.ref.text));
      // "Also, the load menu looks wrong, probably an older regression": a second problem set beside this one.
      if (!aboutCulprit && ASIDE_OPENING.test(text)) continue;
      const later = p.index > firstPost;
      out.push({ post: p.index, text, sure: later && aboutCulprit });
    }
  }
  return out;
}

/** Before an issue number: the issue the writer was looking at when they found this one. */
const LED_HERE_BY = /\b(?:look(?:ing)?|having\s+a\s+look|working|investigating|reading)\s+(?:at|on|into)\s+(?:issue\s+)?$|\b(?:testing|investigating|debugging|chasing|looking\s+into)\s+(?:the\s+)?(?:problem|issue|bug|crash)\s+(?:reported|described|mentioned|tracked)\s+in\s+(?:issue\s+)?$/i;
/** "the bug of #12 persists, yet the update caused a new problem": the other issue set beside the new one this thread reports. */
const OTHER_STILL_THERE = /\b(?:still\s+(?:present|there|happens|occurs|reproduces)|persists)\b[^.\n]{0,120}\bnew\s+(?:problem|issue|bug|regression|crash)\b/i;
/** Before an issue number: GitHub's closing keywords ("Fixes #12", "Closes: <issue URL>"). */
const CLOSES = /(?:^|\n)\s*[-*]?\s*(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s*:?\s*(?:https?:\/\/\S+\/issues\/?)?$/i;
/** Before an issue number: the issue where this very problem was reported. */
const TRACKED_IN = /\b(?:that|which)\s+(?:has\s+been|had\s+been|was|were|is)\s+(?:mentioned|reported|described|tracked|discussed|raised)\s+in\s+(?:issue\s+)?$/i;

/** "another bug in commit ", right before the culprit's reference. */
const ANOTHER_IN = /\b(?:another|a\s+second|one\s+more)\s+(?:bug|mistake|issue|problem|regression|error)\s+(?:in|from|of|introduced\s+(?:in|by))\s+(?:commit\s*#?\s*)?[`'"(\[]*$/i;

/** A bisect said to run against a project named in code quotes ("a bisection against `libnet`", "bisected in the `mesa` tree"): the project (group 1). */
const BISECTED_AGAINST = /\bbisect(?:ion|ing|ed)?\s+(?:against|on|in|of)\s+(?:the\s+)?`([\w.+-]+)`/i;

/** "the QEMU commit that broke the boot": a commit of a project named by its name (group 1). */
const UPSTREAM_CULPRIT = /\bthe\s+([A-Za-z][\w.-]*)\s+(?:commit|change)\s+(?:that\s+|which\s+)?(?:causing|caused|causes|broke|breaks|introduced|introducing)\b/i;

/** "one of these commits broke it", said of a range given as a compare link. */
const RANGE_ANSWER = /\b(?:one|some|any)\s+of\s+(?:these|those|the\s+following)\s+(?:commits|changes)\b/i;
const COMPARE_LINK = /\/compare\/[\w.-]+\.\.\.?[\w.-]+/;

/** "It's a separate problem from #212": this thread's problem set apart from another issue's, so what follows is about this one. */
const THIS_SET_APART = /\b(?:this|it)(?:\s+is|'s)\s+(?:a\s+|an\s+)?(?:different|separate|another|other)\s+(?:bug|issue|problem)\s+(?:than|from|to)\s+(?:issue\s+)?#\d+/i;
/** …the same words right before the other issue's number. */
const SET_APART_LEAD = /\b(?:this|it)(?:\s+is|'s)\s+(?:a\s+|an\s+)?(?:different|separate|another|other)\s+(?:bug|issue|problem)\s+(?:than|from|to)\s+(?:issue\s+)?$/i;

/** "unlike #410, which fixes a separate regression": the other problem is another change's business. */
const OTHER_ADDRESSED = /#\d+\s*,?\s+(?:which|that)\s+(?:addresses|fixes|fixed|covers|handles|tracks|is\s+about)\s+(?:a|an|the)\s+(?:different|separate|other|second)\b/i;

/** "while testing another bug I will file soon", "I found another bug though", "please open a separate issue for that": a second problem set apart, not a different symptom of this one. */
const OTHER_TO_COME = /\b(?:an?other|a\s+separate|a\s+different)\s+(?:bug|issue|problem)\s+(?:that\s+)?(?:I|we)\s+(?:will|'ll|am\s+going\s+to|are\s+going\s+to|plan\s+to)\s+(?:be\s+)?(?:open|fil|report|post|submit)\w*|\b(?:make|open|file|create|report)\s+(?:an?other|a\s+separate|a\s+new)\s+(?:issue|bug|report|ticket)\s+for\s+(?:that|this|it)\b|\b(?:I|we)\s+(?:also\s+)?found\s+another\s+(?:issue|bug|problem)\b/i;

/** "This bug is masked by another issue at that commit": the other bug hides this one, it is not what was reported. */
const MASKED_BY_OTHER = /\b(?:masked|hidden|obscured|shadowed|covered)\s+(?:up\s+)?by\s+(?:an?other|a\s+separate|a\s+second)\s+(?:bug|issue|problem|error)\b/i;

/** A sentence opened as an aside: what follows is added beside the problem, it does not say the problem differs. */
const ASIDE_OPENING = /^[\s>*_-]*(?:also|separately|unrelated(?:ly)?|btw|by\s+the\s+way|(?:on\s+)?(?:a\s+)?side\s+note|on\s+(?:an(?:other|\s+unrelated))\s+note)\b/i;

/** The same problem reported elsewhere too ("something similar was reported in another issue", "also seen in another bug"). */
const SAME_SEEN_ELSEWHERE = /\b(?:similar|the\s+same|also|too|as\s+well|likewise)\b[^.\n]{0,40}\b(?:reported|seen|noticed|observed|mentioned|filed)\s+(?:in|on|as)\s+(?:an?other|a\s+separate|the\s+other)\s+(?:bug|issue|ticket|report)\b/i;

/** The writer's own change named by number ("we reworked the rules in #17", "I fixed that in #12"). */
const OWN_WORK_IN = /\b(?:I|we)\s+(?:have\s+|had\s+|already\s+)?(?:updated|changed|added|fixed|rewrote|wrote|reworked|submitted|opened|proposed|did\s+(?:that|this|it))\b[^.\n]{0,60}?\bin\s+#\d+$/i;

/** Between a commit reference (and its subject in brackets) and a `#N` the commit was written to fix ("which is a fix for #N", "that fixed #N"). */
const FIXED_BY_CULPRIT_GAP = /^[`'"\])]*\s*,?\s*(?:which|that)\s+(?:is|was)\s+(?:a|the)\s+fix\s+for\s+(?:issue\s+)?#\d+$|^[`'"\])]*\s*,?\s*(?:which|that)\s+(?:fixe[sd]|addresse[sd]|resolve[sd]|was\s+meant\s+to\s+fix)\s+(?:issue\s+)?#\d+$/i;

/** Between a commit reference and a `#N` that names the pull request it came from ("X from #N", "X (#N)", "X in PR #N"). */
const OWN_PULL_GAP =
  /^[`'"\])]*\s*(?:,\s*)?(?:\(|(?:from|in|of|via|by)\s+(?:(?:the\s+)?(?:PR|pull\s+request|merge\s+of)\s+)?|,?\s*(?:which|that)\s+(?:relates|related|refers|referred|belongs|belonged|is\s+related|was\s+made)\s+(?:to|for)\s+(?:(?:the\s+)?(?:issue|PR|pull\s+request)\s+)?)#\d+\b\)?$/i;

/** How far before an attribution's sentence another issue's mention still counts as its context. */
const CONTEXT_CHARS = 400;

/** The attribution's paragraph up to its sentence end, plus the paragraph before when it opens a paragraph or block. */
function contextWindow(p: PostText, c: Attribution): Range {
  const { lines } = p.layout;
  const li = lineIndexAt(p.layout, c.sentence.start);
  let first = li;
  const blank = (i: number): boolean => lines[i]!.content.trim() === '' || lines[i]!.kind === 'fence';
  while (first > 0 && !blank(first - 1)) first -= 1;
  if (first === li || c.kind === 'bisect-output') {
    let j = first - 1;
    while (j >= 0 && blank(j)) j -= 1;
    if (j >= 0) {
      first = j;
      while (first > 0 && !blank(first - 1)) first -= 1;
    }
  }
  const end = c.kind === 'bisect-output' ? c.sentence.start : c.sentence.end;
  return { start: Math.max(lines[first]!.start, c.sentence.start - CONTEXT_CHARS), end };
}

const STATUS_REASON: Record<Exclude<ResolvedRef['status'], 'ok'>, BackwardReason> = {
  ambiguous: 'ambiguous-sha',
  missing: 'missing-sha',
  'not-commit': 'not-commit',
  'cross-repository': 'cross-repository',
  'pr-not-single-commit': 'pr-not-single-commit',
  'pr-unknown': 'unresolved',
};

/**
 * Adds the rules that need resolved commits: unresolvable references, and culprits that resolve
 * to different commits (competing).
 */
export function screenResolved(
  thread: Thread,
  attributions: readonly Attribution[],
  text: TextScreen,
  resolved: readonly ResolvedRef[],
): TextScreen {
  const findings: Finding[] = text.reasons.map((r) => ({ ...r, sure: true }));
  const add = (code: BackwardReason, evidence: string, post?: number): void => {
    if (!findings.some((f) => f.code === code && f.evidence === evidence && f.post === post)) {
      findings.push(post === undefined ? { code, evidence, sure: true } : { code, evidence, post, sure: true });
    }
  };
  // A pull request that cannot be looked up says nothing against a commit culprit that resolved.
  const commitResolved = resolved.some((r) => r.status === 'ok' && attributions[r.index] && familyOf(attributions[r.index]!.ref) === 'commit');
  for (const r of resolved) {
    const a = attributions[r.index];
    if (!a) throw new ValidationError(`${thread.repo}#${thread.number}: resolved reference ${r.index} names no attribution (there are ${attributions.length})`);
    if (r.status === 'pr-unknown' && commitResolved) continue;
    // A reference the text screen set aside (corrected as a typo) says nothing about the culprit.
    if (text.culprits.length > 0 && !text.culprits.includes(r.index) && !isCrossRepository(a.ref, thread.repo, linkNames(thread))) continue;
    if (r.status === 'ok') {
      if (r.sha === null || !/^[0-9a-f]{40}$/.test(r.sha)) {
        throw new ValidationError(`${thread.repo}#${thread.number}: resolved reference ${r.index} (${a.ref.text}) is ok but has no full SHA`);
      }
      continue;
    }
    const detail = r.candidates.length > 0 ? `${r.status}: ${r.candidates.join(', ')}` : r.status;
    add(STATUS_REASON[r.status], `${a.ref.text}: ${detail}`, a.post);
  }
  const considered = new Set(text.culprits.length > 0 ? text.culprits : resolved.map((r) => r.index));
  const shas = new Map<string, string>();
  for (const r of resolved) {
    if (r.status === 'ok' && considered.has(r.index) && r.sha && !shas.has(r.sha)) shas.set(r.sha, attributions[r.index]!.ref.text);
  }
  if (shas.size > 1) {
    add('competing', `culprits resolve to different commits: ${[...shas].map(([sha, ref]) => `${ref} → ${sha}`).join('; ')}`);
  }
  // Text-level unsure findings (symptom mismatch sent to review) keep their review status.
  const unsure = text.decision === 'review' ? new Set(text.reasons.map((r) => `${r.code}\u0000${r.evidence}\u0000${r.post ?? ''}`)) : new Set<string>();
  const all = findings.map((f) => (unsure.has(`${f.code}\u0000${f.evidence}\u0000${f.post ?? ''}`) ? { ...f, sure: false } : f));
  const culprits = text.decision === 'reject' ? [] : text.culprits;
  return decide(all, culprits);
}
