/**
 * The pairs stage: coupled and control pairs of merged PRs, validated by building the patched
 * trees and running the repository's tests (DESIGN.md §1.3). One item per candidate pair,
 * key `owner/name#A+B`; a rejected pair keeps its reason code and evidence.
 */
import { join } from 'node:path';
import { repoConfig, type Config } from '../config.js';
import { candidatePairs, type PairWhy } from '../pairs/candidates.js';
import { PairGit } from '../pairs/git.js';
import { compileGlobs, DEFAULT_TEST_GLOBS } from '../pairs/globs.js';
import { checkTemplate } from '../pairs/tests.js';
import { validatePair, type PairValidation, type PrRef } from '../pairs/validate.js';
import type { PullRow } from '../store/tables/sources.js';
import type { PairRecord } from '../store/tables/pairs.js';
import { sha256 } from '../util/canonical.js';
import { planItem } from './plan.js';
import type { ItemOutcome, PlannedItem, Stage, StageContext } from './types.js';

export interface PairPr extends PrRef {
  readonly baseRef: string;
  readonly createdAt: string;
  readonly mergedAt: string;
}

export interface PairInput {
  readonly repo: string;
  readonly a: PairPr;
  readonly b: PairPr;
  readonly why: PairWhy;
  readonly testCommand: string;
  readonly testGlobs: readonly string[];
  readonly base: 'newer' | 'older';
  readonly repeats: number;
}

/** The pull-request fields a pair reads (a subset of the stored pull row). */
export type PullFields = Pick<PullRow, 'number' | 'baseSha' | 'headSha' | 'baseRef' | 'createdAt' | 'mergedAt'>;

export const DEFAULT_TEST_TIMEOUT_MS = 300_000;

/** Ledger key of a coupled pull-request pair (`owner/name#a+b`); the Forward issue←pull key is forward/link-rules pairKey. */
export function coupledPairKey(repo: string, a: number, b: number): string {
  return `${repo}#${a}+${b}`;
}

/** The planned items of one repository (pure over its pull rows and the config). */
export function planRepo(config: Config, repo: string, pulls: readonly PullFields[]): PlannedItem<PairInput>[] {
  const rc = repoConfig(config, repo);
  if (!rc?.test_command) return [];
  checkTemplate(repo, rc.test_command);
  const testGlobs = rc.test_globs ?? DEFAULT_TEST_GLOBS;
  const merged = new Map<number, PairPr>();
  for (const p of pulls) {
    if (p.mergedAt === null) continue;
    merged.set(p.number, { number: p.number, baseSha: p.baseSha, headSha: p.headSha, baseRef: p.baseRef, createdAt: p.createdAt, mergedAt: p.mergedAt });
  }
  return candidatePairs([...merged.values()], config.pairs.window_days).map((c) => {
    const input: PairInput = {
      repo,
      a: merged.get(c.a)!,
      b: merged.get(c.b)!,
      why: c.why,
      testCommand: rc.test_command!,
      testGlobs: [...testGlobs],
      base: config.pairs.base,
      repeats: config.pairs.repeats,
    };
    return planItem(coupledPairKey(repo, c.a, c.b), repo, input);
  });
}

/** Rows to store for one validated pair. */
export function toRecord(input: PairInput, key: string, v: PairValidation): PairRecord {
  return {
    result: {
      key,
      repo: input.repo,
      prA: input.a.number,
      prB: input.b.number,
      why: input.why,
      status: v.status,
      reason: v.reason,
      tier: v.tier?.tier ?? null,
      tierBasis: v.tier?.basis ?? null,
      baseCommit: v.baseCommit,
      baseRule: v.baseRule,
      evidence: v.evidence,
    },
    members: v.members.map((m) => ({
      key,
      pr: m.split.number,
      baseSha: m.split.baseSha,
      headSha: m.split.headSha,
      mergeBase: m.split.mergeBase,
      codeFiles: [...m.split.codeFiles],
      testFiles: [...m.split.testFiles],
      candidateTests: [...m.split.candidateTests],
      failToPass: [...m.failToPass],
      codePatchSha256: sha256(m.split.codePatch),
      testPatchSha256: sha256(m.split.testPatch),
    })),
    runs: v.conditions.flatMap((c) => c.runs.map((r) => ({ ...r, key, condition: c.condition, tree: c.tree }))),
    patches: v.members.flatMap((m) => [m.split.codePatch, m.split.testPatch]),
  };
}

export const pairsStage: Stage<PairInput> = {
  name: 'pairs',
  version: 1,
  needs: ['discover'],
  description: 'mine coupled and control pairs of merged PRs and validate them by running their tests',
  plan(ctx: StageContext, repos: readonly string[]): PlannedItem<PairInput>[] {
    const sources = ctx.store.sources;
    return repos.flatMap((repo) => {
      if (!repoConfig(ctx.config, repo)?.test_command) {
        ctx.log.warn('pairs: repository has no test_command; skipped', { repo });
        return [];
      }
      return planRepo(ctx.config, repo, sources.pulls(repo));
    });
  },
  async process(item: PlannedItem<PairInput>, ctx: StageContext): Promise<ItemOutcome> {
    const input = item.input;
    const handle = await ctx.git.get(input.repo);
    const git = await PairGit.open(handle.gitDir);
    try {
      const dataDir = ctx.options.dataDir.length > 0 ? ctx.options.dataDir : undefined;
      const timeout = ctx.options.testTimeoutMs;
      const v = await validatePair(git, input.a, input.b, {
        isTest: compileGlobs(input.testGlobs),
        base: input.base,
        template: input.testCommand,
        repeats: input.repeats,
        timeoutMs: typeof timeout === 'number' && timeout > 0 ? timeout : DEFAULT_TEST_TIMEOUT_MS,
        logDir: dataDir ? join(dataDir, 'logs') : undefined,
        signal: ctx.signal,
        readFile: (rev, path) => handle.objects.blob(rev, path),
        cache: ctx.caches.pairConditionRuns,
        // Keyed by git dir, PR and commits; the globs are fixed per repository for the run.
        splits: ctx.caches.pairSplits,
      });
      const record = toRecord(input, item.key, v);
      const save = (store: StageContext['store']): void => store.pairs.replace(record);
      return v.status === 'valid' ? { status: 'done', save } : { status: 'rejected', reason: v.reason!, save };
    } finally {
      await git.close();
    }
  },
};
