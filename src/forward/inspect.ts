/**
 * Everything the Forward pipeline computes for one base/head pair of a local repository, without
 * the database: Δ*, the workflows at base, the gold, and the stability, prior and label signals.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { BatchObjects } from '../git/batch.js';
import { changedPaths } from '../git/forward.js';
import { commitIdOf } from '../git/revision.js';
import { runGit } from '../git/runner.js';
import { readWorkflowFiles } from '../git/workflows.js';
import { isWorkflowPath, route } from '../routing/index.js';
import { forwardContext, type RouteContext } from '../model/forward.js';
import { readBaseInputs } from './git-inputs.js';
import { computeGold } from './gold.js';
import { labelsOf, repositoryPrior, sameSet } from './prior.js';
import type { Labels, Prior } from '../model/forward.js';
import { compiledRouter } from './router.js';
import { alternativeScopes, measureStability } from './stability.js';
import type { Stability } from '../model/forward.js';

export interface InspectForwardInput {
  readonly gitDir: string;
  readonly base: string;
  readonly head: string;
  readonly baseBranch: string;
  readonly action?: string;
}

export interface InspectForwardResult {
  changed_paths: string[];
  workflows: string[];
  gold: string[];
  invalid: { path: string; reason: string }[];
  evaluator: string;
  stability: Stability;
  labels: Labels;
  prior: Prior & { equal: boolean };
  context: RouteContext;
  base: string;
  head: string;
  /** Rejection codes the route stage would record (no-workflows, empty-change, path-limit). */
  reasons: string[];
}

export async function inspectForward(input: InspectForwardInput): Promise<InspectForwardResult> {
  if (!existsSync(input.gitDir)) throw new UsageError(`--git-dir ${input.gitDir}: no such directory`);
  // A working tree is accepted for its .git directory.
  const gitDir = existsSync(join(input.gitDir, '.git')) ? join(input.gitDir, '.git') : input.gitDir;
  const probe = await runGit(gitDir, ['rev-parse', '--git-dir'], { allowExit: [0, 128] });
  if (probe.exitCode !== 0) throw new UsageError(`--git-dir ${gitDir}: not a git repository`);
  if (input.baseBranch.trim() === '') throw new UsageError('--base-branch: must not be empty');
  const action = input.action ?? 'synchronize';
  if (!/^[a-z_]+$/.test(action)) throw new UsageError(`--action ${action}: not a pull_request activity type`);
  const base = await commitOf(gitDir, input.base, '--base');
  const head = await commitOf(gitDir, input.head, '--head');
  const context = forwardContext(input.baseBranch, action);
  const changed = await changedPaths(gitDir, base, head);
  const files = await readWorkflowFiles(gitDir, base);
  const g = computeGold(files, changed, context, route, isWorkflowPath);
  const objects = BatchObjects.open(gitDir);
  try {
    const { tree, imports } = await readBaseInputs({ repo: gitDir, gitDir, objects }, base, changed);
    const activatedFor = compiledRouter(files, context);
    const stability = measureStability(g.gold, alternativeScopes({ changed, tree, imports }), activatedFor);
    const prior = repositoryPrior(tree, activatedFor);
    const workflows = files.map((f) => f.path).filter(isWorkflowPath);
    return {
      changed_paths: changed,
      workflows,
      gold: g.gold,
      invalid: g.invalid,
      evaluator: g.evaluator,
      stability,
      labels: labelsOf(changed, workflows.length),
      prior: { ...prior, equal: sameSet(prior.workflows, g.gold) },
      context,
      base,
      head,
      reasons: g.reasons.map((r) => r.code),
    };
  } finally {
    await objects.close();
  }
}

async function commitOf(gitDir: string, rev: string, flag: string): Promise<string> {
  if (rev.trim() === '' || rev.startsWith('-') || /[\s\0]/.test(rev)) throw new UsageError(`${flag} ${JSON.stringify(rev)}: not a revision`);
  const sha = await commitIdOf(gitDir, rev);
  if (sha === null) throw new UsageError(`${flag} ${rev}: not a commit in ${gitDir}`);
  return sha;
}
