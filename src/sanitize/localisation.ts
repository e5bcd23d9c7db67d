import { BLAMING_VERB, UNNAMED_COMMIT } from '../backward/phrases.js';
import type { Span } from '../model/deletions.js';
import { sentenceAround } from './text.js';

export const LOCALISATION_DETECTOR = 'localisation';

/**
 * Sentences that localise the culprit by its good neighbour: the parent (or the commit just
 * before) works, or going back to an earlier commit fixes it. With the culprit deleted they still
 * tell the solver "the commit right after this one".
 */
const GOOD_NEIGHBOUR =
  /\b(?:(?:its|the)\s+parent(?:\s+commit)?|(?:the\s+)?(?:commit|one)\s+(?:right\s+|just\s+)?before\s+(?:it|that|this)|(?:prior\s+to|before)\s+(?:this|that|the)\s+commit|the\s+previous\s+commit)\b[^.\n]{0,50}?\b(?:works|worked|compiles|compiled|builds|built|passes|passed|fixes|fixed|solves|solved|helps|is\s+fine|was\s+fine|is\s+ok(?:ay)?|(?:with\s+)?no\s+(?:issues?|problems?|errors?))\b|\b(?:downgrad\w*|going\s+back|reverting\s+back|rolling\s+back|checking\s+out)\s+to\s+[^.\n]{0,50}?\b(?:fix\w*|works?|solves?|solved|helps?|builds?|compiles?)\b|\b(?:revert(?:ing|ed)?|remov(?:e|ed|ing)|dropp?(?:ed|ing)?|without)\s+(?:just\s+|only\s+)?(?:this|that|the(?:\s+(?:bad|offending|culprit))?)\s+(?:commit|change)\b[^.\n]{0,60}?\b(?:fix\w*|disappear\w*|go(?:es)?\s+away|went\s+away|solves?|solved|resolv\w*|works?|restores?|restored)\b|\b(?:dropping|removing|reverting|backing\s+out|without|git\s+revert)\s+(?:commit\s+)?[`'"]*[0-9a-fA-F]{7,40}[`'"]*\s+(?:enables|makes|lets|fixes|solves|restores|helps)\b|\b(?:I|we)\s+(?:must\s+have\s+|accidentally\s+|probably\s+|apparently\s+)?(?:pushed|committed|merged|landed)\s+(?:that|this|the)\s+(?:commit|change)\s+(?:by\s+(?:accident|mistake)|accidentally|too\s+(?:early|soon)|before)\b/gi;

/** A blame that points at the attributed commit without naming it ("your last commit broke"): the words naming the commit go, the verb stays with what it broke. */
const POINTING_BLAME = new RegExp(`${UNNAMED_COMMIT}(?=${BLAMING_VERB})`, 'gi');

/** The passive form ("it was caused by the changes in this commit"): the clause naming the commit goes. */
const POINTING_CAUSE =
  /\b(?:(?:it|this|that)\s+(?:was|is)\s+)?(?:caused|introduced|broken)\s+by\s+(?:the\s+(?:changes?|patch(?:es)?)\s+in\s+)?(?:this|that|the\s+(?:last|latest|previous|reverted))\s+(?:commit|change|patch)\b/gi;

/** A pull request blamed by number ("broken by Pull 803", "regressed in PR #41"): the preposition and the number go, the verb stays. */
const BLAMED_PR = /\b(?:broken|broke|caused|introduced|regressed)(\s+(?:by|in|with|since|from)\s+(?:the\s+)?(?:(?:PR|pull\s+request|pull|merge\s+request|MR)\s*#?\s*\d+|(?:[\w.-]+\/[\w.-]+)?#\d+))(?!\w)/gi;

/** The attributed commit pointed at by position ("getting broken with the above commit", "since the mentioned change"): the pointing words go. */
const POINTED_COMMIT = /\b(?:with|by|in|since|after|from)\s+(?:the\s+)?(?:above|aforementioned|mentioned|reverted|said)\s+(?:commit|change|patch)\b/gi;

/** "Broken graphics after #1828", "Crashes since PR #77.": the pull request after which it broke; the number goes. */
const SINCE_PR = /\b(?:after|since)\s+((?:(?:PR|pull\s+request)\s*)?#\d+)(?=\s*(?:$|[.,;:!)]))/gim;

/**
 * A sentence that points at the attributed commit as the search's result, tests or undoes it, or
 * tells its author or age ("I narrowed it down to this one with a bisect", "I tested the revert and
 * it fixes the problem", "As this was your commit …", "The commit has been on master for 2 months").
 */
const POINTED_RESULT = /\b(?:tested|tried|applied)\s+(?:the|this|that|a)\s+revert\b[^.\n]{0,40}?\b(?:fix\w*|works?|solves?|solved|helps?|helped)\b|\b(?:this|that|it)\s+(?:was|is)\s+(?:your|his|her|their|my)\s+(?:commit|change)\b|\b(?:the|that|this)\s+commit\s+(?:itself\s+)?has\s+been\s+(?:on|in)\s+(?:master|main|trunk|the\s+default\s+branch)\b|\b(?:narrow(?:ed)?|track(?:ed)?|trace[ds]?|bisected|pin(?:ned)?)\s+(?:it|this|the\s+\w+)\s+(?:down\s+)?to\s+(?:this|that)\s+(?:one|commit|change)\b|\brevert\w*\s+(?:the\s+|these\s+|those\s+|all\s+)?(?:[\w-]+\s+){0,3}?changes?\s+(?:in|of|from|made\s+in)\s+(?:this|that)\s+commit\b/gi;

/** "I need to revert this commit due to …", "Revert this change because …", "a full revert of that commit": the words pointing at the reverted commit go, the reason stays. */
const REVERT_POINTER = /\b(?:(?:I|we)\s+(?:need|have|had|want|wanted)\s+to\s+|please\s+)?revert(?:ing)?\s+(?:this|that|the\s+(?:above|mentioned))\s+(?:commit|change|patch|PR)\b|\b(?:a\s+)?(?:(?:complete|full|whole|partial)\s+)?(?:revert|reversal)\s+of\s+(?:this|that|the\s+(?:above|mentioned))\s+(?:commit|change|patch|PR)\b/gi;

/**
 * A lead-in that announces pasted bisect or `git log` output ("I ran a git bisect and came up with
 * this:", "This is a regression caused by:"): with the output gone it still says what followed.
 */
const LEAD_TO_OUTPUT = /^[^\n]*\b(?:bisect\w*|caused\s+by|culprit|first\s+bad|introduced\s+(?:by|in|with)|came\s+up\s+with|found\s+the\s+commit|offending)\b[^\n]*:[ \t]*\n(?:[ \t]*\n)*[ \t]*(?:(?:```|~~~)[^\n]*\n[ \t]*)?(?:commit\s+)?[0-9a-fA-F]{7,40}\b/gim;

/** "any build from this commit on fails": the words pointing at the attributed commit go. */
const FROM_THIS_COMMIT_ON = /\bfrom\s+(?:this|that|the\s+above)\s+commit\s+on(?:wards?)?\b/gi;

/** A pull request number as the subject of a blaming verb ("#190 Breaks loading into the game"): the number goes, the verb stays. */
const BLAMING_PR_SUBJECT = /(?<![\w/#])(?:(?:PR|pull\s+request)\s*)?#\d+(?=\s+(?:broke|breaks|has\s+broken|caused|causes|introduced|regressed)\b)/gi;

/** A commit named by its quoted subject ('Commit "Set the default port (#875)" breaks tests'): the quoted subject goes. */
const QUOTED_SUBJECT = /\bcommit\s+(?:[#"“'`]\s*)([^"”`\n]{8,120}?)["”`](?=\s|$|[.,:;)])/gi;

/** "The last working commit was X compiled on <date>": the good neighbour named as such, with or without its reference. */
const LAST_GOOD_NAMED = /\b(?:the\s+)?last\s+(?:known[- ])?(?:good|working)\s+(?:commit|revision|build)\s+(?:was|is)\b/gi;

/** "the last commit from March 3, 2021": the commit dated; the date goes. */
const DATED_COMMIT = /\b(?:the\s+)?(?:latest|last|recent|newest)\s+commit\s+(?:from|of|on|dated)\s+(?:\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}|[A-Z][a-z]{2,8}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}(?:st|nd|rd|th)?\s+[A-Z][a-z]{2,8}\.?\s+\d{4})/g;

/** "Need to revert for now.": the revert announced without an object still says the culprit is reverted here. */
const REVERT_NEEDED = /\b(?:(?:I|we)\s+)?(?:need|needed|have|had|want|wanted)\s+to\s+revert(?:\s+(?:it|this|that))?(?:\s+for\s+now)?(?=\s*[.!,;]|\s*$)/gim;

/** "This commit modified it to:" over a quoted line: what the attributed commit changed, pointed at. */
const POINTED_CHANGE = /\b(?:this|that|the\s+(?:bad|offending|culprit))\s+commit\s+(?:modified|changed|replaced|rewrote|turned)\b/gi;

/** "Running git blame shows that commit X dropped the helper": the search that found the commit, and what it says. */
const BLAME_FOUND = /\bgit[- ]?blam(?:e|es|ed|ing)\b[^.\n]{0,40}?\b(?:reveals?|revealed|shows?|showed|shown|says|said|points?|pointed|tells?|told|noticed?|found|saw|see)\b[^.\n]{0,20}?\b(?:commit|change|revision)\b/gi;

/** "(Found by bisection.)": how the culprit was found, said on its own. */
const FOUND_BY_BISECT = /\b(?:found|identified|located|pinpointed|tracked\s+down)\s+(?:by|with|via|using|through)\s+(?:a\s+)?(?:git\s+)?bisect(?:ion|ing)?\b/gi;

/**
 * What undoing or leaving out the culprit did, said of it by pronoun: "Reverting it restores the old
 * output", "reverting to before it makes it work normally", and a test run with the commit and
 * without it ("with the commit (and not without)").
 */
const UNDONE_BY_PRONOUN =
  /\brevert(?:ing|ed|s)?\s+(?:it|this|that)\b[^.\n]{0,40}?\b(?:restores?|restored|fix(?:es|ed)?|solves?|solved|resolves?|resolved|helps?|helped)\b|\brevert(?:ing|ed|s)?\s+(?:back\s+)?(?:to\s+)?before\s+(?:it|this|that)\b[^.\n]{0,50}?\b(?:work\w*|fix\w*|normal\w*|fine)\b|\bwith\s+(?:this|that|the)\s+commit\s*\(?\s*(?:but|and)\s+not\s+without\b/gi;

/** "I ran a git bisect and found the bad commit that introduced this", "by bisecting, I found …", "running `git bisect` we isolated the culprit": the search that found the answer. */
const BISECT_FOUND = /\b(?:(?:ran|run|running|did|done|performed|made)\s+(?:a\s+)?[`'"]?(?:git\s+)?bisect[`'"]?|(?:by|after|when|while|from)\s+bisect(?:ing|ion))(?![\w-])[^.\n]{0,60}?\b(?:found|identified|got|located|pinpointed|isolated?|narrowed)\b/gi;

/** "Which is #61.": the pull request that brought the culprit, pointed at right after it. */
const PULL_POINTER = /^[ \t>]*(?:which|that|this|it)(?:'s|\s+is|\s+was)\s+(?:(?:PR|pull\s+request)\s*)?#\d+\s*[.!]?[ \t]*$/gim;

/** "The suite fails again, yet the app goes back to working": what undoing the culprit did. */
const UNDONE_EFFECT = /\b(?:revert(?:s|ed)?|go(?:es)?|went)\s+back\s+to\s+(?:working|normal|broken|failing)\b/gi;

const IN_QUESTION = String.raw`\b(?:the|this|that)\s+(?:commit|change|patch)\s+in\s+question\b`;
/** "the commit in question was meant to silence warnings": what the attributed commit is, pointed at. */
const COMMIT_IN_QUESTION = new RegExp(`${IN_QUESTION}(?!${BLAMING_VERB})`, 'gi');
/** "The patch in question caused every export to slow down …": only the pointer goes, the symptom it caused stays. */
const COMMIT_IN_QUESTION_BLAMED = new RegExp(`${IN_QUESTION}(?=${BLAMING_VERB})`, 'gi');

/** "The offending change was therefore reverted.": the attributed commit, pointed at as the one undone here. */
const REVERTED_HERE = /\b(?:this|that|the\s+(?:above|offending|bad))\s+(?:commit|change|patch)\s+(?:is|was|will\s+be|has\s+been)\s+(?:therefore\s+|thus\s+|hence\s+|now\s+|so\s+)?(?:being\s+)?reverted\b/gi;

/** Patterns whose whole sentence localises the culprit. */
const SENTENCE_PATTERNS: readonly RegExp[] = [GOOD_NEIGHBOUR, POINTED_RESULT, LAST_GOOD_NAMED, POINTED_CHANGE, BLAME_FOUND, FOUND_BY_BISECT, COMMIT_IN_QUESTION, UNDONE_EFFECT, UNDONE_BY_PRONOUN, BISECT_FOUND, PULL_POINTER, REVERTED_HERE];
/** "since I caused this regression", "we introduced the bug": the writer owning the culprit. */
const OWNED_CULPRIT =
  /\b(?:(?:because|since|as)\s+)?(?:I|we)\s+(?:must\s+have\s+|probably\s+|accidentally\s+|apparently\s+)?(?:introduced|caused|created)\s+(?:the|this|that)\s+(?:bug|regression|issue|problem|breakage|crash)(?:\s+in\s+question)?\b/gi;

/** Patterns whose whole match points at the culprit; the rest of the sentence stays. */
const PHRASE_PATTERNS: readonly RegExp[] = [COMMIT_IN_QUESTION_BLAMED, POINTING_BLAME, POINTING_CAUSE, FROM_THIS_COMMIT_ON, REVERT_POINTER, POINTED_COMMIT, BLAMING_PR_SUBJECT, DATED_COMMIT, REVERT_NEEDED, OWNED_CULPRIT];
/** Patterns whose first group, ending the match, names the culprit's pull request. */
const TRAILING_GROUP_PATTERNS: readonly RegExp[] = [SINCE_PR, BLAMED_PR];

/** The spans of `text` that localise or point at the attributed culprit; none when nothing is attributed. */
export function detectLocalisation(text: string, attributed: boolean): Span[] {
  if (!attributed) return [];
  const out: Span[] = [];
  const add = (start: number, end: number): void => void out.push({ start, end, detector: LOCALISATION_DETECTOR });
  for (const re of SENTENCE_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const s = sentenceAround(text, m.index, m.index + m[0].length);
      add(s.start, s.end);
    }
  }
  for (const re of PHRASE_PATTERNS) for (const m of text.matchAll(re)) add(m.index, m.index + m[0].length);
  for (const re of TRAILING_GROUP_PATTERNS) for (const m of text.matchAll(re)) add(m.index + m[0].length - m[1]!.length, m.index + m[0].length);
  for (const m of text.matchAll(QUOTED_SUBJECT)) add(m.index + m[0].indexOf(m[1]!), m.index + m[0].length);
  for (const m of text.matchAll(LEAD_TO_OUTPUT)) {
    // Only the sentence that announces the output: the line may tell the symptom before it.
    const lead = m[0].slice(0, m[0].search(/:[ \t]*\n/) + 1);
    const cut = Math.max(lead.lastIndexOf('. '), lead.lastIndexOf('! '), lead.lastIndexOf('? '));
    add(m.index + (cut >= 0 ? cut + 2 : 0), m.index + lead.length);
  }
  return out;
}
