/**
 * `r2v verify`: recompute what a manifest records. Forward: the gold from the recorded base, Δ*
 * and context with the recorded evaluator (a different evaluator id is refused). Backward: every
 * structural check, the cutoff tree and gold's parent. Any difference is reported.
 */
import { BatchObjects } from '../git/batch.js';
import { structuralChecks } from '../backward/chain.js';
import { readWorkflowFiles } from '../git/workflows.js';
import { computeGold } from '../forward/gold.js';
import { EVALUATOR_ID, isWorkflowPath, route } from '../routing/index.js';
import { UsageError } from '../errors.js';
import { digestOf } from '../util/canonical.js';
import type { MirrorOf } from './mirrors.js';
import { fileSha256, readManifest, readSidecar, type BackwardManifestRecord, type ForwardManifestRecord } from './read-manifest.js';

export interface VerifyDifference {
  readonly caseId: string;
  readonly what: string;
}

export interface VerifyReport {
  readonly checked: number;
  readonly differences: VerifyDifference[];
}

/** Refuses a manifest whose evaluator differs from this r2v's. */
export function checkEvaluator(where: string, evaluator: string): void {
  if (evaluator !== EVALUATOR_ID) {
    throw new UsageError(`${where}: gold was computed by evaluator ${evaluator}, this r2v has ${EVALUATOR_ID}; verify it with the r2v version that wrote it`);
  }
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

export async function verifyBackward(objects: BatchObjects, gitDir: string, r: BackwardManifestRecord): Promise<string[]> {
  const out: string[] = [];
  if (!r.default_branch) return ['no default branch recorded'];
  const checks = await structuralChecks({ gitDir, objects }, {
    gold: r.gold,
    cutoff: r.cutoff,
    defaultBranch: r.default_branch,
    reportTime: new Date(r.report_time),
  });
  for (const c of checks) {
    const recorded = r.checks[c.name];
    if (recorded === undefined) out.push(`check ${c.name}: not recorded (now ${c.pass ? 'pass' : 'fail'}: ${c.evidence})`);
    else if (recorded !== c.pass) out.push(`check ${c.name}: recorded ${recorded ? 'pass' : 'fail'}, now ${c.pass ? 'pass' : 'fail'} (${c.evidence})`);
  }
  for (const name of Object.keys(r.checks)) if (!checks.some((c) => c.name === name)) out.push(`check ${name}: recorded but no longer defined`);
  const cutoff = await objects.commit(r.cutoff);
  if (!cutoff) out.push(`cutoff ${r.cutoff} is not a commit of ${gitDir}`);
  else if (r.digests.cutoff_tree !== null && cutoff.tree !== r.digests.cutoff_tree) out.push(`cutoff tree: recorded ${r.digests.cutoff_tree}, now ${cutoff.tree}`);
  const gold = await objects.commit(r.gold);
  if (gold && (gold.parents[0] ?? null) !== r.parent) out.push(`gold parent: recorded ${r.parent ?? 'none'}, now ${gold.parents[0] ?? 'none'}`);
  return out;
}

export async function verifyForward(objects: BatchObjects, gitDir: string, r: ForwardManifestRecord): Promise<string[]> {
  const out: string[] = [];
  const base = await objects.commit(r.base);
  if (!base) return [`base ${r.base} is not a commit of ${gitDir}`];
  if (r.digests.base_tree !== null && base.tree !== r.digests.base_tree) out.push(`base tree: recorded ${r.digests.base_tree}, now ${base.tree}`);
  const workflows = await readWorkflowFiles(gitDir, r.base);
  const context = { event: 'pull_request' as const, action: r.context.action, base_branch: r.context.base_branch };
  const g = computeGold(workflows, r.changed_paths, context, route, isWorkflowPath);
  if (g.evaluator !== r.evaluator) out.push(`evaluator: recorded ${r.evaluator}, recomputed with ${g.evaluator}`);
  const recorded = [...r.gold].sort();
  if (!sameList(recorded, g.gold)) {
    const added = g.gold.filter((p) => !recorded.includes(p));
    const removed = recorded.filter((p) => !g.gold.includes(p));
    out.push(`gold: recorded [${recorded.join(', ')}], recomputed [${g.gold.join(', ')}] (+${added.join(',') || '-'} -${removed.join(',') || '-'})`);
  }
  if (r.digests.workflows !== null && g.inputDigests.workflows !== r.digests.workflows) out.push('workflow files at base differ from the ones the gold was computed on');
  if (r.digests.changed_paths !== null && digestOf(r.changed_paths) !== r.digests.changed_paths) out.push('changed_paths differ from the ones the gold was computed on');
  if (r.digests.context !== null && g.inputDigests.context !== r.digests.context) out.push('context differs from the one the gold was computed on');
  return out;
}

/** Verifies every record of the manifest; throws UsageError for an unusable manifest or evaluator. */
export async function verifyManifest(path: string, mirrorOf: MirrorOf): Promise<VerifyReport> {
  const differences: VerifyDifference[] = [];
  const meta = readSidecar(path);
  if (meta) {
    if (typeof meta.evaluator === 'string') checkEvaluator(path, meta.evaluator);
    if (typeof meta.sha256 === 'string') {
      const actual = await fileSha256(path);
      if (actual !== meta.sha256) differences.push({ caseId: '(manifest)', what: `sha256 ${actual} differs from the sidecar's ${meta.sha256}` });
    }
  }
  const readers = new Map<string, BatchObjects>();
  let checked = 0;
  try {
    for await (const r of readManifest(path)) {
      if (r.task === 'forward') checkEvaluator(`${path}:${r.line}: case ${r.case_id}`, r.evaluator);
      const gitDir = mirrorOf(r.repo);
      let objects = readers.get(gitDir);
      if (!objects) {
        objects = BatchObjects.open(gitDir);
        readers.set(gitDir, objects);
      }
      const found = r.task === 'backward' ? await verifyBackward(objects, gitDir, r) : await verifyForward(objects, gitDir, r);
      for (const what of found) differences.push({ caseId: r.case_id, what });
      checked += 1;
    }
  } finally {
    await Promise.all([...readers.values()].map((o) => o.close()));
  }
  return { checked, differences };
}
