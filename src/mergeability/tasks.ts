/**
 * The tasks that get rubric scaffolds, with what the database knows about them: an admitted
 * Forward case (its gold is the PR's change), a valid coupled pair (its gold is both PRs' code
 * and test patches on the pair's base). Test globs come from the configuration, evidence
 * candidates from the pull requests' imported comments.
 */
import type { Store } from '../store/db.js';
import type { ForwardManifestRecord } from '../export/read-manifest.js';
import { instanceId } from '../pairs/pairs-export.js';
import { PairTables } from '../store/tables/pairs.js';
import { Sources } from '../store/tables/sources.js';
import { prPatch, type RubricTask } from './emit.js';
import type { EvidenceCandidate } from './rubric.js';

export interface TaskContext {
  /** The configured test globs of a repository (repos[].test_globs), if any. */
  readonly testGlobs: (repo: string) => readonly string[] | undefined;
  /** Imported comments of a pull request, as evidence candidates (none without a database). */
  readonly evidence: (repo: string, pull: number) => EvidenceCandidate[];
}

/** Evidence candidates from the stored comments of pull requests (empty when none were imported). */
export function commentEvidence(store: Store): (repo: string, pull: number) => EvidenceCandidate[] {
  const sources = store.sources;
  return (repo, pull) =>
    sources.comments(repo, pull).map((c) => ({ kind: 'pull-comment', pull, author: c.author, created_at: c.createdAt, url: c.htmlUrl, body: c.body }));
}

/** The rubric task of a Forward case (null patches when the record has no head commit). */
export async function forwardTask(r: ForwardManifestRecord, mirror: string, ctx: TaskContext): Promise<RubricTask> {
  return {
    taskId: r.case_id,
    task: 'forward',
    repo: r.repo,
    base: r.base,
    intent: r.issue_text,
    patches: r.head ? [await prPatch(mirror, r.base, r.head)] : null,
    testGlobs: ctx.testGlobs(r.repo),
    evidence: ctx.evidence(r.repo, r.pull),
  };
}

/** The rubric tasks of every valid coupled pair in the database. */
export function coupledPairTasks(store: Store, ctx: TaskContext): RubricTask[] {
  const tables = store.pairs;
  const sources = store.sources;
  const tasks: RubricTask[] = [];
  for (const r of tables.results()) {
    if (r.status !== 'valid' || r.tier !== 'coupled' || !r.baseCommit) continue;
    const members = tables.members(r.key);
    const patches: Buffer[] = [];
    for (const m of members) {
      for (const digest of [m.codePatchSha256, m.testPatchSha256]) {
        const p = tables.patch(digest);
        if (p === undefined) throw new Error(`${r.repo}#${m.pr}: stored patch ${digest} missing`);
        patches.push(p);
      }
    }
    const intent = members.map((m) => `#${m.pr}: ${sources.pull(r.repo, m.pr)?.title ?? ''}`.trimEnd()).join('\n');
    tasks.push({
      taskId: instanceId(r.repo, r.prA, r.prB),
      task: 'pair',
      repo: r.repo,
      base: r.baseCommit,
      intent,
      patches,
      testGlobs: ctx.testGlobs(r.repo),
      evidence: members.flatMap((m) => ctx.evidence(r.repo, m.pr)),
      testIds: [...new Set(members.flatMap((m) => m.failToPass))].sort(),
    });
  }
  return tasks.sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0));
}
