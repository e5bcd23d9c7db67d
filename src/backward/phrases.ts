/**
 * Phrase lists of the text-level screening rules. Each is a case-insensitive pattern; a rule
 * quotes the sentence that matched as its evidence.
 */

/** A commit range or good/bad lists: localized, but not to one commit. */
export const RANGE = [
  /\bbetween\s+`?(?:v?\d+\.\d+[\w.+-]*|v\d+|[0-9a-f]{7,40}|nightly[\w.-]*|r\d+)`?\s+and\s+`?(?:v?\d+\.\d+[\w.+-]*|v\d+|[0-9a-f]{7,40}|nightly[\w.-]*|r\d+|HEAD|main|master)`?/i,
  /(?<![\w/.])(?:v?\d+\.\d+[\w.+-]*|[0-9a-f]{7,40})\.\.\.?(?:v?\d+\.\d+[\w+-]*|[0-9a-f]{7,40}|HEAD)\b/i,
  /\/compare\/[\w.-]+\.\.\.?[\w.-]+/i,
  /\b(?:last|latest)\s+(?:known[- ])?(?:good|working)\b/i,
  /\bfirst\s+(?:known[- ])?(?:bad|broken|failing)\s+(?:version|release|nightly|build|tag|snapshot)\b/i,
  /^[ \t>]*(?:[-*+]\s+)?(?:git bisect\s+)?(?:good|bad)\s*[:=]?\s+(?:v?\d+\.\d+[\w.+-]*|[0-9a-f]{7,40})\b/im,
  /^[ \t>]*(?:[-*+]\s+)?`?(?:v?\d+\.\d+[\w.+-]*|[0-9a-f]{7,40})`?\s*(?::|-|—|=>|->)\s*(?:good|bad|ok|broken|works|fails|passes)\b/im,
];

/** `git bisect` gave up because of skipped commits. */
export const BISECT_SKIPPED = [
  /there are only 'skip'ped commits left to test/i,
  /only\s+'?skip'?ped commits left/i,
  /the first bad commit could be any of/i,
  /\bcould be any of\s*:/i,
  /we cannot bisect more/i,
];

/** The writer owning a mistake ("my bad", "my mistake"). */
export const MY_MISTAKE = /\bmy\s+(?:mistake|bad)\b/i;

/** A later correction of a bisect or an attribution. */
export const RETRACTION = [
  /\bbisect(?:ion)?\s+(?:was|is|were)\s+(?:wrong|bogus|broken|flawed|misleading|incorrect|invalid|off|busted)\b/i,
  /\b(?:wrong|bad|botched|messed[- ]up|broken|bogus|invalid|flawed)\s+bisect(?:ion)?\b/i,
  /\bmis-?bisect(?:ed|ion)?\b/i,
  /\bfalse\s+alarm\b/i,
  // The failure was passing: nothing was localised ("it was a temporary error").
  /\b(?:(?:was|is)\s+(?:just\s+|only\s+)?|(?:caused|triggered)\s+by\s+)an?\s+(?:temporary|transient|intermittent)\s+(?:error|issue|problem|glitch|outage|failure)\b/i,
  /\bscratch\s+that\b/i,
  MY_MISTAKE,
  // The problem vanished without the change being undone: nothing was localised.
  /\b(?:went\s+away|disappeared|vanished)\s+(?:by|on)\s+(?:it|them)sel(?:f|ves)\b|\bfixed\s+itself\b/i,
  // The reporter's own setup was at fault ("problem was on my end", "user error on my side").
  /\b(?:problem|issue|error|bug|it)\s+(?:was|is)\s+(?:on|at)\s+my\s+(?:end|side)\b/i,
  /\b(?:user|pebkac|operator)\s+error\b/i,
  /\b(?:my|our)\s+(?:own\s+)?(?:fault|setup|environment|local\s+(?:tree|build|checkout))\b(?=[^.\n]{0,40}\b(?:problem|issue|cause|wrong|broken|stale)\b)/i,
  /\bI\s+was\s+wrong\b/i,
  /\bignore\s+(?:my|the)\s+(?:previous|earlier|last|above)\s+(?:comment|bisect|message|result|post)\b/i,
  // "… but is not the root cause": the commit only exposed a bug that was there before.
  /\b(?:is|was|'s)\s*(?:not|n't)\s+(?:actually\s+)?the\s+(?:root\s+|real\s+|actual\s+)?(?:culprit|cause|first bad commit|bad commit)\b/i,
  /\bisn'?t\s+(?:actually\s+)?the\s+(?:root\s+|real\s+|actual\s+)?(?:culprit|cause|first bad commit|bad commit)\b/i,
  /\bwasn'?t\s+(?:actually\s+)?the\s+(?:root\s+|real\s+|actual\s+)?(?:culprit|cause|first bad commit|bad commit)\b/i,
  /\bwrong\s+commit\b/i,
  // Not that commit by itself ("it is not that commit by itself"): no single first bad commit.
  /\b(?:isn't|is\s+not|wasn't|was\s+not)\s+(?:this|that|the)\s+(?:commit|change|patch)\s+(?:alone|by\s+itself|on\s+its\s+own)\b/i,
  /\b(?:wasn't|was\s+not|isn't|is\s+not)\s+(?:actually\s+|really\s+)?(?:that|this|the)\s+(?:commit|change)\s+(?:that|which)\s+(?:broke|caused|introduced|is\s+responsible)\b/i,
  /\b(?:cannot|can't|can\s+not|couldn't|could\s+not)\s+(?:possibly\s+)?be\s+(?:it|that|the\s+(?:culprit|cause|one))\b/i,
  /\bdid(?:\s+not|n't)\s+cause\s+(?:the|this|it)\b/i,
  /\bred\s+herring\b/i,
  // A maintainer finding the code right and the check wrong ("it's not the code that is wrong, it's the assertion").
  /\bit(?:'s|\s+is|\s+was)\s+not\s+the\s+(?:code|commit|change)\s+(?:that(?:'s|\s+is|\s+was)\s+|which\s+is\s+)?(?:wrong|broken|buggy|at\s+fault)\b/i,
  // The commit is not in the repository as the maintainers know it ("I don't have that commit", "that commit isn't upstream").
  /\b(?:I|we)\s+(?:do\s*(?:not|n't)|don't)\s+have\s+(?:that|this|such\s+a)\s+commit\b|\b(?:that|this)\s+commit\s+(?:isn't|is\s+not)\s+(?:upstream|in\s+(?:my|our|the)\s+(?:tree|repo(?:sitory)?|branch))\b|\bno\s+such\s+commit\b/i,
  // The cause found outside the project ("apparently a weird X11 issue", "turned out to be a driver bug").
  /\b(?:apparently|turns?\s+out\s+to\s+be|turned\s+out\s+to\s+be)\s+(?:it(?:'s|\s+is|\s+was)\s+)?(?:just\s+)?an?\s+(?:[\w-]+\s+)?(?:X11|Xorg|Wayland|driver|kernel|hardware|firmware|compiler|toolchain|distro|packaging|environment)\s+(?:issue|bug|problem)\b/i,
  // The parent has the bug too ("Nope, I tested with the parent commit of X. …"; "… parent … the bug is still there"): not the first bad commit.
  /^\s*(?:nope|no)\b[,.!]?\s+(?:I|we)\s+(?:tested|tried|checked|built|ran)\s+(?:with\s+|on\s+|at\s+)?(?:the\s+)?parent\b|\bparent\b[^.\n]{0,60}\b(?:bug|issue|problem|crash|error)\s+(?:is\s+|was\s+)?still\s+(?:there|present|happens|reproduces)\b/i,
  // A reviewer finding the revert unfounded ("the only red on it is an unrelated flake; we should reland this").
  /\bunrelated\s+flak(?:e|y)\b|\b(?:we|you)\s+should\s+re-?land\s+(?:this|it|the\s+(?:change|commit|PR))\b/i,
  // Someone else doubting the commit itself ("I don't believe the change itself is the cause").
  /\bI\s+(?:do\s*(?:not|n't)|don't)\s+(?:know|think|believe)\s+(?:that\s+)?(?:this|that|the)\s+(?:commit|change)\s+(?:itself\s+|alone\s+|really\s+)?(?:broke|caused|is\s+(?:the\s+)?(?:cause|culprit|responsible))\b/i,
  // Undoing it did not help ("reverted that change here, the bug still happens").
  /\b(?:undid|undone|reverted|backed\s+out|took\s+out)\s+(?:the|this|that)\s+(?:commit|change)\b[^.\n]{0,40}\bstill\s+(?:did\s*n[o']?t|does\s*n[o']?t|didn't|doesn't|fails?|failed|broken|crash\w*|happens|happened)\b/i,
  /\bretract(?:ed|ing)?\b/i,
  /\bcorrection\s*:/i,
  // An automated alarm dismissed by a person: "an outlier", "a false positive", "just noise".
  /\bfalse\s+positive\b/i,
  /\b(?:is|was|looks\s+like|seems\s+to\s+be)\s+(?:an?\s+|just\s+)?(?:outlier|noise|fluke)\b/i,
  /\b(?:actually|in fact),?\s+it(?:'s|\s+is|\s+was)\s+(?:commit\s+|`)?(?:[0-9a-f]{7,40}|#\d+|https?:\/\/)/i,
  /\bit(?:'s|\s+is|\s+was)\s+actually\s+(?:commit\s+|`)?(?:[0-9a-f]{7,40}|#\d+|https?:\/\/)/i,
];

/**
 * Said before "fixed in X": the problems X fixed come back ("may resurrect problems fixed in X",
 * "brings back the bugs fixed by X"), so X fixed something else; it is not named as this report's fix.
 */
const OTHER_FIXED_BEFORE = /\b(?:resurrect\w*|re-?introduc\w*|bring(?:s|ing)?\s+back|brought\s+back|reviv(?:e|es|ed|ing)|re-?open(?:s|ed|ing)?)\b[^.\n]{0,50}$/i;

/** The commit described as a fix, matched just before the reference. */
export const FIX_BEFORE =
  /\b(?:(?:fixed|resolved|addressed|solved|repaired)\s+(?:by|in|with|via|on|here)(?:\s+(?:this|that)\s+commit\s*:?)?|(?:^|[.!?]\s+|\n\s*)(?:fixed|resolved)\s+(?:the\s+|this\s+|that\s+)?(?:regression|bug|issue|problem)\s+in|revert(?:ed|ing)?\s+(?:it|this|that|the\s+(?:\w+\s+)?(?:commit|change|PR))\s+(?:in|with|via|by)|the\s+fix\s+(?:is|was|landed in|went in(?:to)?|came in|:)|fix(?:ed)?\s+landed\s+in|(?:pushed|committed|landed|merged|added|made)\s+(?:a|the|my)\s+(?:fix|patch)\s+(?:with|in|as|via)|fixing\s+commit(?:\s+is|:)?)\s*(?:(?:the\s+)?(?:commit|PR|pull request|change)\s+)?[`'"([]*$/i;

/** Whether the text before a reference names it as this report's fix ("fixed by X"), not as the fix of problems brought back. */
export function namedAsFixBefore(before: string): boolean {
  return FIX_BEFORE.test(before) && !OTHER_FIXED_BEFORE.test(before);
}

/** The commit described as a fix, matched just after the reference. */
export const FIX_AFTER =
  /^[`'")\]]*\s*(?:\([^)\n]{0,80}\)\s*)?(?:(?:(?:fixes|fixed|resolves|resolved|should fix|addresses|repairs|(?:tried|attempted|was\s+meant|was\s+intended|was\s+supposed)\s+to\s+(?:fix|address|solve))\s+(?:it|this|the|that|these|an?)\b|(?:is|was)\s+(?:the|a)\s+fix\b|,?\s*(?:as|since|because)\s+(?:that|this|the)\s+fix\b))/i;

/** "reverting X fixes it": evidence for X as the culprit, not a fix. */
export const REVERT_BEFORE = /\b(?:revert(?:ing|ed|s)?|back(?:ing|ed)?\s+out|roll(?:s|ing|ed)?[\s-]?back|undoing|undo|removing|dropping)\b(?:\s+(?:of|the|commit|change|PR))*[\s`'"([]*$/i;

/** A bisect that found the fix instead of the regression. */
export const FOUND_THE_FIX = /\b(?:fix(?:ing)?\s+bisection|bisect(?:ing|ed)?\s+(?:the\s+)?fixing\s+commit|(?:commit|change|one)\s+(?:that|which)\s+(?:fixed|fixes|resolved|resolves)\s+(?:it|this|the)|bisect(?:ed|ing)?\s+(?:for\s+)?the\s+fix|reverse\s+bisect|found\s+the\s+fix)\b/i;

/** Another issue named near an attribution: the attribution may answer that issue. */
export const OTHER_ISSUE =
  /(?:\b(?:issue|bug|ticket|same as|similar to|like|duplicate of|dup of|see|over in|from|in|for|as in|reported in|described in|quoting|quoted from)\s+(?:issue\s+)?#(\d+)\b|\/issues\/(\d+)\b)/gi;

/** Explicit statements that an attribution belongs to a different problem. */
export const DIFFERENT_SYMPTOM = [
  /\b(?:a\s+)?different\s+(?:bug|issue|problem|symptom|crash|error|regression|failure|panic|behaviou?r)\b/i,
  /\bunrelated\s+(?:to\s+(?:this|the\s+(?:original|reported))|bug|issue|problem|regression|crash|change)\b/i,
  /\b(?:separate|another|the\s+other)\s+(?:bug|issue|regression|problem|crash|failure)\b/i,
  /\bnot\s+the\s+same\s+(?:bug|issue|problem|crash|error|symptom|regression|failure)\b/i,
  /\b(?:commit|change|patch)\s+(?:does|did)\s*(?:not|n't)\s+(?:even\s+)?(?:touch|change|affect|modify)\s+(?:the\s+)?(?:code|file|function|path)\b/i,
];

/** What was introduced is a thing, not a problem ("the test introduced in X", "the option added with X"). */
export const NEUTRAL_SUBJECT =
  /\b(?:test|tests|testcase|feature|features|option|options|flag|flags|file|files|function|functions|method|api|setting|settings|class|module|support|check|checks|command|field|parameter|dependency|version|versions|release|compiler|library|driver|part|parts|code|lines?|section|block|comment|comments)\s+(?:(?:that\s+)?(?:was|were|is|being|been|got)\s+)?$/i;

/**
 * A blame of a commit the sentence does not name ("your last commit broke", "that change
 * introduced"): the words naming the commit, and the blaming verb after them. The extractor reads
 * both as one phrase; the sanitizer deletes only the first part when a commit is attributed.
 */
export const UNNAMED_COMMIT = '\\b(?:your|the|this|that|my|his|her|their)\\s+(?:(?:last|latest|recent|previous|new)\\s+)?(?:commit|change)';
export const BLAMING_VERB = '\\s+(?:has\\s+|had\\s+|have\\s+|is\\s+|was\\s+)?(?:broke|broken|breaks|introduced|caused|causes|causing|regressed)\\b';
