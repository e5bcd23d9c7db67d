/**
 * Controlled package variants of the evaluation protocol. Each variant withholds or adds one
 * input, so a harness can measure what that input is worth:
 * - `full`: today's package (the default);
 * - Backward `metadata-only`: commit metadata only (SHA, parents, author date, subject, changed
 *   paths) and the report: no code, no diffs, no repository;
 * - Backward `symptom-ablated`: the full package with the report's symptom lines deleted
 *   (deletion only, logged in the grading data), leaving the version and environment context;
 * - Forward `no-issue`: the tree and the event context, without the issue;
 * - Forward `oracle-scope`: the full package plus the gold changed-path set Δ* (changed_paths.json);
 * - Forward `paired-state`: the case's paired state (forward-pairs.jsonl): same issue, Δ* and
 *   context, the tree of the paired commit, its own gold.
 * task.json names the variant; what the audit needs to check it goes to
 * grading/<case-id>.variant.json, never into the package.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { pairedCaseId } from '../forward/paired-states.js';
import { runGit } from '../git/runner.js';
import { ablateSymptoms } from '../sanitize/ablate.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { canonicalJson } from '../util/canonical.js';
import type { ForwardPairRecord } from './forward-pairs.js';
import { addToPackageIndex } from './package-index.js';
import { HISTORY_DIR, OBJECTS_DIR } from './object-layers.js';
import { writeGitRecords } from './history-metadata.js';
import { backwardGrading, backwardTaskJson, GRADING_DIR, packageBackward, packageCase, packageForward, type BackwardPackageOptions } from './package.js';
import type { BackwardManifestRecord, ForwardManifestRecord, ManifestRecord } from './read-manifest.js';

export const VARIANTS = ['full', 'metadata-only', 'symptom-ablated', 'no-issue', 'oracle-scope', 'paired-state'] as const;
export type Variant = (typeof VARIANTS)[number];

const TASK_OF: Record<Variant, 'backward' | 'forward' | 'both'> = {
  full: 'both',
  'metadata-only': 'backward',
  'symptom-ablated': 'backward',
  'no-issue': 'forward',
  'oracle-scope': 'forward',
  'paired-state': 'forward',
};

/** Whether `variant` is defined for a task. */
export function variantApplies(variant: Variant, task: 'backward' | 'forward'): boolean {
  return TASK_OF[variant] === 'both' || TASK_OF[variant] === task;
}

/** Keys of a metadata-only history line. */
export const METADATA_KEYS = ['author_date', 'changed_paths', 'parents', 'sha', 'subject'] as const;

export const METADATA_INSTRUCTIONS =
  'report.md describes a regression. history_metadata.jsonl lists every commit of the project history up to the ' +
  'moment the report was filed: its SHA, parents, author date, subject and changed paths (no code, no diffs). ' +
  'Find the first bad commit. Answer with one line: its full 40-character lowercase hexadecimal SHA.';

export const NO_ISSUE_INSTRUCTIONS =
  'tree/ is a repository snapshot. A pull request is opened against the branch named in context.json. Predict which ' +
  'workflow files under .github/workflows/ a pull_request event with the action in context.json would activate for ' +
  'it. Answer with one JSON object {"case_id": "...", "activated_workflows": ["<path>", ...]}; an empty list is valid.';

export const ORACLE_SCOPE_NOTE = 'changed_paths.json lists every path the pull request changes (old and new path of every change).';

const pretty = (v: unknown): string => `${JSON.stringify(JSON.parse(canonicalJson(v)), null, 2)}\n`;

export interface VariantGrading {
  case_id: string;
  variant: Variant;
  /** Backward symptom-ablated: the deleted lines, as written. */
  deleted?: string[];
  /** Forward: Δ* and the gold, so the audit can look for them where they must not be. */
  changed_paths?: string[];
  gold?: string[];
  /** paired-state: the case this state pairs with, and that case's gold. */
  pair_of?: string;
  pair_gold?: string[];
}

function patchTask(dir: string, patch: (t: Record<string, unknown>) => void): void {
  const path = join(dir, 'task.json');
  const t = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  patch(t);
  writeFileSync(path, pretty(t));
}

/**
 * Packages one record in `variant` under `out`, the package built in a scratch directory and moved
 * when complete. Returns the package's case id, or null when the variant does not apply (a
 * Backward record in a Forward variant, a Forward case without a paired state).
 */
export async function packageVariant(
  r: ManifestRecord,
  mirror: string,
  out: string,
  variant: Variant,
  pairs?: ReadonlyMap<string, ForwardPairRecord>,
  backward: Pick<BackwardPackageOptions, 'workTree' | 'layerCommits'> = {},
): Promise<string | null> {
  if (!variantApplies(variant, r.task)) return null;
  if (variant === 'full') {
    await packageCase(r, mirror, out, backward);
    return r.case_id;
  }
  let id = r.case_id;
  if (variant === 'paired-state') {
    if (!pairs) throw new UsageError('package --variant paired-state: give --pairs FILE (written by r2v forward-pairs)');
    const p = pairs.get(r.case_id);
    if (!p || p.status !== 'paired' || !p.paired_sha || !p.paired_gold) return null;
    id = pairedCaseId(r.case_id);
  }
  const scratch = join(out, `.${id}.variant-partial`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    let extra: VariantGrading;
    if (variant === 'metadata-only') extra = await metadataOnly(r as BackwardManifestRecord, mirror, scratch);
    else if (variant === 'symptom-ablated') {
      const b = r as BackwardManifestRecord;
      const ablated = ablateSymptoms(b.report);
      await packageBackward({ ...b, report: ablated.text }, mirror, scratch, { ...backward, objects: join(out, OBJECTS_DIR) });
      extra = { case_id: id, variant, deleted: ablated.deletions.map((d) => b.report.slice(d.start, d.end).trim()).filter((t) => t.length > 0) };
    } else {
      const f = r as ForwardManifestRecord;
      const p = variant === 'paired-state' ? pairs!.get(r.case_id)! : null;
      const rec: ForwardManifestRecord = p
        ? { ...f, case_id: id, base: p.paired_sha!, gold: p.paired_gold!, digests: { ...f.digests, base_tree: null, workflows: null } }
        : f;
      await packageForward(rec, mirror, scratch);
      extra = { case_id: id, variant, changed_paths: [...f.changed_paths].sort(), gold: [...rec.gold].sort(), ...(p ? { pair_of: f.case_id, pair_gold: [...f.gold].sort() } : {}) };
      if (variant === 'no-issue') {
        rmSync(join(scratch, id, 'issue.md'));
        patchTask(join(scratch, id), (t) => {
          t.instructions = NO_ISSUE_INSTRUCTIONS;
          t.inputs = { tree: 'tree', context: 'context.json' };
        });
      } else if (variant === 'oracle-scope') {
        writeFileSync(join(scratch, id, 'changed_paths.json'), pretty([...f.changed_paths].sort()));
        patchTask(join(scratch, id), (t) => {
          t.instructions = `${String(t.instructions)} ${ORACLE_SCOPE_NOTE}`;
          t.inputs = { ...(t.inputs as object), changed_paths: 'changed_paths.json' };
        });
      }
    }
    patchTask(join(scratch, id), (t) => void (t.variant = variant));
    // Move into place: the package, its grading data, then the variant's grading data.
    mkdirSync(join(out, GRADING_DIR), { recursive: true });
    rmSync(join(out, id), { recursive: true, force: true });
    renameSync(join(scratch, id), join(out, id));
    renameSync(join(scratch, GRADING_DIR, `${id}.json`), join(out, GRADING_DIR, `${id}.json`));
    writeFileAtomic(join(out, GRADING_DIR, `${id}.variant.json`), pretty(extra));
    addToPackageIndex(out, id);
    return id;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The metadata line of one `git log` record of commitMetadata's format, or null for an empty one. */
function metadataLine(rec: string): string | null {
  if (rec.length === 0) return null;
  const [sha, parents, date, subject, rest] = rec.split('\x1f');
  return canonicalJson({
    sha,
    parents: parents ? parents.split(' ').filter((p) => p.length > 0) : [],
    author_date: date,
    subject: subject ?? '',
    changed_paths: (rest ?? '').split('\n').filter((l) => l.length > 0),
  });
}

/**
 * Writes one metadata line per commit reachable from `rev` to `path` (changed paths of a merge:
 * against its first parent), streamed from git so memory stays bounded; returns the count.
 */
export function writeCommitMetadata(gitDir: string, rev: string, path: string): Promise<number> {
  const args = ['-c', 'core.quotePath=false', 'log', '--format=%x1e%H%x1f%P%x1f%aI%x1f%s%x1f', '--name-only', '--no-renames', '--diff-merges=first-parent', rev, '--'];
  return writeGitRecords(gitDir, args, path, metadataLine);
}

async function metadataOnly(r: BackwardManifestRecord, mirror: string, scratch: string): Promise<VariantGrading> {
  const dir = join(scratch, r.case_id);
  mkdirSync(dir, { recursive: true });
  const commits = await writeCommitMetadata(mirror, r.cutoff, join(dir, 'history_metadata.jsonl'));
  writeFileSync(join(dir, 'report.md'), r.report.endsWith('\n') ? r.report : `${r.report}\n`);
  writeFileSync(join(dir, 'task.json'), backwardTaskJson(r, METADATA_INSTRUCTIONS, { history: 'history_metadata.jsonl', report: 'report.md' }));
  const tree = (await runGit(mirror, ['rev-parse', `${r.cutoff}^{tree}`])).stdout.trim();
  const grading = await backwardGrading(r, mirror, tree, commits);
  mkdirSync(join(scratch, GRADING_DIR), { recursive: true });
  writeFileSync(join(scratch, GRADING_DIR, `${r.case_id}.json`), pretty(grading));
  return { case_id: r.case_id, variant: 'metadata-only' };
}

// --- audit ----------------------------------------------------------------------------------

/** The variant grading data of a package, or null for a plain (full) package. */
export function readVariantGrading(gradingDir: string, name: string): VariantGrading | null | 'invalid' {
  const path = join(gradingDir, `${name}.variant.json`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const v = JSON.parse(text) as VariantGrading;
    return v && typeof v === 'object' && (VARIANTS as readonly string[]).includes(v.variant) ? v : 'invalid';
  } catch {
    return 'invalid';
  }
}

/** Entries a package of each variant holds (beside which nothing is allowed). */
export function expectedEntries(task: 'backward' | 'forward', variant: Variant): Set<string> {
  if (task === 'backward') {
    return new Set(variant === 'metadata-only' ? ['history_metadata.jsonl', 'report.md', 'task.json'] : ['repo', HISTORY_DIR, 'report.md', 'task.json']);
  }
  const base = ['tree', 'context.json', 'task.json'];
  if (variant !== 'no-issue') base.push('issue.md');
  if (variant === 'oracle-scope') base.push('changed_paths.json');
  return new Set(base);
}

const DIFF_TEXT = /^(?:diff --git |@@ -\d|--- a\/|\+\+\+ b\/)/m;

/**
 * Findings of the variant-specific rules (the task's own audit runs beside them): what the
 * variant withholds must be absent, what it adds must be exactly right.
 */
export function auditVariant(pkgDir: string, name: string, v: VariantGrading): string[] {
  const f: string[] = [];
  const add = (what: string): void => void f.push(`${name}: ${what}`);
  const read = (file: string): string | null => {
    try {
      return readFileSync(join(pkgDir, file), 'utf8');
    } catch {
      return null;
    }
  };
  const task = read('task.json');
  let declared: unknown;
  try {
    declared = task === null ? undefined : (JSON.parse(task) as { variant?: unknown }).variant;
  } catch {
    declared = undefined;
  }
  if (declared !== v.variant) add(`task.json names variant ${JSON.stringify(declared ?? null)}, the grading data ${v.variant}`);
  if (v.variant === 'metadata-only') {
    const history = read('history_metadata.jsonl');
    if (history !== null) {
      const allowed = new Set<string>(METADATA_KEYS);
      for (const [i, l] of history.split('\n').filter((x) => x.length > 0).entries()) {
        let rec: Record<string, unknown>;
        try {
          rec = JSON.parse(l) as Record<string, unknown>;
        } catch {
          add(`history_metadata.jsonl line ${i + 1} is not JSON`);
          continue;
        }
        const extra = Object.keys(rec).filter((k) => !allowed.has(k));
        if (extra.length > 0) add(`history_metadata.jsonl line ${i + 1} has fields beyond commit metadata: ${extra.join(', ')}`);
        if (DIFF_TEXT.test(l.replace(/\\n/g, '\n'))) add(`history_metadata.jsonl line ${i + 1} holds diff text`);
      }
    }
  }
  if (v.variant === 'symptom-ablated') {
    const report = read('report.md') ?? '';
    const back = (v.deleted ?? []).filter((d) => d.replace(/\s/g, '').length >= 12 && report.includes(d));
    if (back.length > 0) add(`report.md still holds ${back.length} deleted symptom line(s): ${JSON.stringify(back[0]!.slice(0, 60))}`);
  }
  if (v.variant === 'no-issue' || v.variant === 'oracle-scope' || v.variant === 'paired-state') {
    for (const file of ['task.json', 'context.json']) {
      const text = read(file);
      if (text === null) continue;
      const gold = [...new Set([...(v.gold ?? []), ...(v.pair_gold ?? [])])].filter((p) => text.includes(p));
      if (gold.length > 0) add(`${file} names gold workflows: ${gold.slice(0, 3).join(', ')}`);
      if (v.variant === 'no-issue') {
        const scope = (v.changed_paths ?? []).filter((p) => p.length >= 3 && text.includes(p));
        if (scope.length > 0) add(`${file} names changed paths of the fix: ${scope.slice(0, 3).join(', ')}`);
      }
    }
  }
  if (v.variant === 'oracle-scope') {
    const text = read('changed_paths.json');
    let listedPaths: unknown = null;
    try {
      listedPaths = text === null ? null : JSON.parse(text);
    } catch {
      listedPaths = null;
    }
    const want = [...(v.changed_paths ?? [])].sort();
    if (!Array.isArray(listedPaths) || JSON.stringify([...(listedPaths as unknown[])].sort()) !== JSON.stringify(want)) {
      add('changed_paths.json is missing or differs from the gold changed-path set');
    }
  }
  return f;
}
