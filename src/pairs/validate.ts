/**
 * Validation of one candidate pair by construction and execution:
 * split each PR into code and test patches → tier → shared base → both code patches apply and
 * merge without textual conflict → per PR, fail-to-pass = candidate tests failing on base+test and
 * passing on base+code+test (repeated; disagreement is `flaky`) → gold composition (both code and
 * both test patches) passes every fail-to-pass test of both PRs, run on the union of their tests.
 */
import { MinerError } from '../errors.js';
import { digestOf, sha256 } from '../util/canonical.js';
import type { PairGit } from './git.js';
import { findImportLinks } from '../util/source-imports.js';
import { flakyIds, runCondition, stableOutcome, type ConditionResult, type Outcome, type TestRunRecord } from './tests.js';
import { classifyTier, type TierDecision } from './tier.js';

export type PairReason =
  | 'no-code-change'
  | 'unrelated'
  | 'apply-failed'
  | 'textual-conflict'
  | 'no-fail-to-pass'
  | 'base-validity'
  | 'flaky'
  | 'composition-failed';

export const PAIR_REASONS: readonly PairReason[] = [
  'no-code-change',
  'unrelated',
  'apply-failed',
  'textual-conflict',
  'no-fail-to-pass',
  'base-validity',
  'flaky',
  'composition-failed',
];

export interface PrRef {
  readonly number: number;
  readonly baseSha: string;
  readonly headSha: string;
}

export interface PrSplit extends PrRef {
  readonly mergeBase: string;
  readonly codeFiles: readonly string[];
  readonly testFiles: readonly string[];
  /** Test files the PR adds or changes (deleted ones cannot run). */
  readonly candidateTests: readonly string[];
  readonly codePatch: Buffer;
  readonly testPatch: Buffer;
}

export interface MemberResult {
  readonly split: PrSplit;
  readonly failToPass: readonly string[];
}

export interface ConditionRuns {
  /** `pre:<N>` (base+test), `post:<N>` (base+code+test) or `gold`. */
  readonly condition: string;
  readonly tree: string;
  readonly runs: readonly TestRunRecord[];
}

export interface PairValidation {
  readonly status: 'valid' | 'rejected';
  readonly reason: PairReason | null;
  readonly tier: TierDecision | null;
  readonly baseCommit: string | null;
  readonly baseRule: string | null;
  readonly members: readonly MemberResult[];
  readonly evidence: Record<string, unknown>;
  readonly conditions: readonly ConditionRuns[];
}

export interface ValidateOptions {
  readonly isTest: (path: string) => boolean;
  readonly base: 'newer' | 'older';
  readonly template: string;
  readonly repeats: number;
  readonly timeoutMs: number;
  readonly logDir?: string;
  readonly signal?: AbortSignal;
  /**
   * Condition results shared between pairs of one run, keyed by tree, command, files and repeats:
   * a PR's base+test and base+code+test trees are the same in every pair with the same base, so
   * their (already repeated) runs are reused instead of run again.
   */
  readonly cache?: Map<string, Promise<ConditionResult>>;
  /** Splits shared between pairs of one run (a PR's split does not depend on its partner). */
  readonly splits?: Map<string, Promise<PrSplit>>;
  /** File reader for the import scan (e.g. a long-lived `cat-file --batch`); default one git process per file. */
  readonly readFile?: FileReader;
}

/** Splits the PR's diff (merge base of base and head → head) into code and test patches. */
export async function splitPr(git: PairGit, pr: PrRef, isTest: (path: string) => boolean): Promise<PrSplit> {
  const missing = await git.missingCommits([pr.baseSha, pr.headSha]);
  if (missing.length > 0) throw new MinerError('not-found', `PR #${pr.number}: commit ${missing.join(', ')} is not in the mirror`);
  const mergeBase = await git.mergeBase(pr.baseSha, pr.headSha);
  if (mergeBase === null) throw new MinerError('validation', `PR #${pr.number}: base ${pr.baseSha} and head ${pr.headSha} share no history`);
  const changed = await git.changedFiles(pr.baseSha, pr.headSha);
  const codeFiles = changed.filter((f) => !isTest(f.path)).map((f) => f.path);
  const tests = changed.filter((f) => isTest(f.path));
  return {
    ...pr,
    mergeBase,
    codeFiles,
    testFiles: tests.map((f) => f.path),
    candidateTests: tests.filter((f) => f.status !== 'D').map((f) => f.path),
    codePatch: await git.diff(pr.baseSha, pr.headSha, codeFiles),
    testPatch: await git.diff(pr.baseSha, pr.headSha, tests.map((f) => f.path)),
  };
}

/** Reads a file at a revision (null when absent). */
export type FileReader = (rev: string, path: string) => Promise<string | null>;

async function readTexts(read: FileReader, split: PrSplit): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  for (const path of split.codeFiles) {
    const text = (await read(split.headSha, path)) ?? (await read(split.mergeBase, path));
    if (text !== null) out.push({ path, text });
  }
  return out;
}

/** The tier of two split PRs (reads the code files' texts for the import scan). */
export async function pairTierOf(read: FileReader, a: PrSplit, b: PrSplit): Promise<TierDecision> {
  const links = [
    ...findImportLinks(await readTexts(read, a), b.codeFiles),
    ...findImportLinks(await readTexts(read, b), a.codeFiles),
  ];
  return classifyTier(a.codeFiles, b.codeFiles, links);
}

/** The shared base: the newer (or older) of the two base commits; a descendant is the newer. */
export async function chooseBase(git: PairGit, a: PrRef, b: PrRef, rule: 'newer' | 'older'): Promise<{ sha: string; rule: string }> {
  if (a.baseSha === b.baseSha) return { sha: a.baseSha, rule: 'same-base' };
  let newer: string;
  let how: string;
  if (await git.isAncestor(a.baseSha, b.baseSha)) [newer, how] = [b.baseSha, 'ancestry'];
  else if (await git.isAncestor(b.baseSha, a.baseSha)) [newer, how] = [a.baseSha, 'ancestry'];
  else {
    const [ta, tb] = [await git.commitTime(a.baseSha), await git.commitTime(b.baseSha)];
    newer = ta !== tb ? (ta > tb ? a.baseSha : b.baseSha) : a.baseSha > b.baseSha ? a.baseSha : b.baseSha;
    how = 'commit-time';
  }
  const sha = rule === 'newer' ? newer : newer === a.baseSha ? b.baseSha : a.baseSha;
  return { sha, rule: `${rule}-by-${how}` };
}

const digest = (b: Buffer): string => sha256(b);

export async function validatePair(git: PairGit, pa: PrRef, pb: PrRef, opts: ValidateOptions): Promise<PairValidation> {
  const split = (pr: PrRef): Promise<PrSplit> => {
    const key = `${git.gitDir}#${pr.number}@${pr.baseSha}..${pr.headSha}`;
    let p = opts.splits?.get(key);
    if (!p) {
      p = splitPr(git, pr, opts.isTest);
      p.catch(() => opts.splits?.delete(key));
      opts.splits?.set(key, p);
    }
    return p;
  };
  const a = await split(pa);
  const b = await split(pb);
  const conditions: ConditionRuns[] = [];
  const fail = new Map<number, string[]>();
  let tier: TierDecision | null = null;
  let base: { sha: string; rule: string } | null = null;
  const result = (reason: PairReason | null, evidence: Record<string, unknown>): PairValidation => ({
    status: reason === null ? 'valid' : 'rejected',
    reason,
    tier,
    baseCommit: base?.sha ?? null,
    baseRule: base?.rule ?? null,
    members: [a, b].map((split) => ({ split, failToPass: fail.get(split.number) ?? [] })),
    evidence,
    conditions,
  });

  for (const s of [a, b]) {
    if (s.codeFiles.length === 0) return result('no-code-change', { pr: s.number, test_files: s.testFiles });
  }
  tier = await pairTierOf(opts.readFile ?? ((rev, path) => git.readFile(rev, path)), a, b);
  if (tier.tier === 'unrelated') return result('unrelated', { basis: tier.basis, shared_directories: tier.evidence });

  base = await chooseBase(git, a, b, opts.base);
  const baseSha = base.sha;
  const trees = new Map<string, string>();
  for (const s of [a, b]) {
    const coded = await git.applyToTree(baseSha, [s.codePatch, s.testPatch]);
    if (!coded.ok) {
      const patch = coded.patch === 0 ? 'code' : 'test';
      return result('apply-failed', { pr: s.number, patch, base: baseSha, stderr: coded.stderr.split('\n').slice(0, 5).join('\n') });
    }
    const tested = await git.applyToTree(baseSha, [s.testPatch]);
    if (!tested.ok) return result('apply-failed', { pr: s.number, patch: 'test', base: baseSha, stderr: tested.stderr.split('\n').slice(0, 5).join('\n') });
    trees.set(`code:${s.number}`, coded.trees[0]!);
    trees.set(`code+test:${s.number}`, coded.trees[1]!);
    trees.set(`test:${s.number}`, tested.trees[0]!);
  }
  const commit = async (key: string): Promise<string> => git.commitTree(trees.get(key)!, baseSha, key);
  const codeMerge = await git.mergeCommits(await commit(`code:${a.number}`), await commit(`code:${b.number}`));
  if (!codeMerge.clean) return result('textual-conflict', { patches: 'code', conflicts: codeMerge.conflicts, base: baseSha });
  const goldMerge = await git.mergeCommits(await commit(`code+test:${a.number}`), await commit(`code+test:${b.number}`));
  if (!goldMerge.clean) return result('textual-conflict', { patches: 'code+test', conflicts: goldMerge.conflicts, base: baseSha });

  const run = async (condition: string, tree: string, files: readonly string[]) => {
    const cacheKey = digestOf({ tree, template: opts.template, files, repeats: opts.repeats, timeoutMs: opts.timeoutMs });
    let pending = opts.cache?.get(cacheKey);
    if (!pending) {
      pending = runCondition({
        prepare: async () => {
          const dir = await git.tempDir('wt');
          await git.checkout(tree, dir);
          return dir;
        },
        template: opts.template,
        files,
        repeats: opts.repeats,
        timeoutMs: opts.timeoutMs,
        logDir: opts.logDir,
        signal: opts.signal,
      });
      // A failed or aborted run is not reused.
      pending.catch(() => opts.cache?.delete(cacheKey));
      opts.cache?.set(cacheKey, pending);
    }
    const r = await pending;
    conditions.push({ condition, tree, runs: r.runs });
    return r.outcomes;
  };
  const summary = (o: ReadonlyMap<string, readonly Outcome[]>): Record<string, readonly Outcome[]> => Object.fromEntries([...o].sort());

  for (const s of [a, b]) {
    if (s.candidateTests.length === 0) return result('no-fail-to-pass', { pr: s.number, detail: 'no-candidate-tests' });
    const pre = await run(`pre:${s.number}`, trees.get(`test:${s.number}`)!, s.candidateTests);
    const post = await run(`post:${s.number}`, trees.get(`code+test:${s.number}`)!, s.candidateTests);
    const flaky = [...flakyIds(pre).map((id) => `pre:${s.number}:${id}`), ...flakyIds(post).map((id) => `post:${s.number}:${id}`)];
    if (flaky.length > 0) return result('flaky', { pr: s.number, tests: flaky, pre: summary(pre), post: summary(post) });
    const ids = [...new Set([...pre.keys(), ...post.keys()])].sort();
    const f2p = ids.filter((id) => stableOutcome(pre, id) !== 'pass' && stableOutcome(post, id) === 'pass');
    if (f2p.length === 0) {
      const alreadyPass = ids.filter((id) => stableOutcome(pre, id) === 'pass' && stableOutcome(post, id) === 'pass');
      const evidence = { pr: s.number, pre: summary(pre), post: summary(post) };
      return alreadyPass.length > 0 ? result('base-validity', { ...evidence, already_passing: alreadyPass }) : result('no-fail-to-pass', evidence);
    }
    fail.set(s.number, f2p);
  }

  const union = [...new Set([...a.candidateTests, ...b.candidateTests])].sort();
  const gold = await run('gold', goldMerge.tree, union);
  const goldFlaky = flakyIds(gold);
  if (goldFlaky.length > 0) return result('flaky', { condition: 'gold', tests: goldFlaky.map((id) => `gold:${id}`), gold: summary(gold) });
  const required = [...new Set([...(fail.get(a.number) ?? []), ...(fail.get(b.number) ?? [])])].sort();
  const broken = required.filter((id) => stableOutcome(gold, id) !== 'pass');
  if (broken.length > 0) return result('composition-failed', { failing: broken, gold: summary(gold) });
  return result(null, {
    tier_basis: tier.basis,
    tier_evidence: tier.evidence,
    code_patch_sha256: { [a.number]: digest(a.codePatch), [b.number]: digest(b.codePatch) },
  });
}
