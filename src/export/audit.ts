/**
 * `r2v package audit DIR`: checks every package against its grading data instead of trusting
 * how it was built. Each finding is one line naming the package and the problem.
 */
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from '../git/runner.js';
import { UsageError } from '../errors.js';
import { auditRubrics } from './audit-rubrics.js';
import { GRADING_DIR, type BackwardGrading, type ForwardGrading, type Grading } from './package.js';
import { directoryTree, findNamed } from './tree.js';
import { auditVariant, expectedEntries, readVariantGrading, type Variant } from './variants.js';

/** The variant task.json names (`full` when it names none or cannot be read). */
function declaredVariant(pkgDir: string): string {
  try {
    const v = (JSON.parse(readFileSync(join(pkgDir, 'task.json'), 'utf8')) as { variant?: unknown }).variant;
    return typeof v === 'string' ? v : 'full';
  } catch {
    return 'full';
  }
}

export interface AuditReport {
  readonly packages: number;
  readonly findings: string[];
}

const MAX_LISTED = 5;

function listed(items: readonly string[]): string {
  const shown = items.slice(0, MAX_LISTED).join(', ');
  return items.length > MAX_LISTED ? `${shown} and ${items.length - MAX_LISTED} more` : shown;
}

/** Hex runs of 7+ characters in `text` that are prefixes of `sha`. */
export function shaPrefixesIn(text: string, sha: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/[0-9a-fA-F]{7,}/g)) {
    const run = m[0].toLowerCase();
    for (let i = 0; i + 7 <= run.length; i += 1) {
      // any 7+ window of the run that starts a prefix of the SHA
      if (sha.startsWith(run.slice(i, i + 7))) {
        out.add(run.slice(i, Math.min(run.length, i + 40)));
        break;
      }
    }
  }
  return [...out];
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (abs: string, rel: string): void => {
    for (const e of readdirSync(abs)) {
      const p = join(abs, e);
      const r = rel ? `${rel}/${e}` : e;
      if (lstatSync(p).isDirectory()) walk(p, r);
      else out.push(r);
    }
  };
  walk(dir, '');
  return out.sort();
}

async function objectSet(gitDir: string, args: string[]): Promise<Set<string> | null> {
  const r = await runGit(gitDir, args, { allowExit: [128, 1] });
  if (r.exitCode !== 0) return null;
  return new Set(r.stdout.split('\n').map((l) => l.split(' ')[0]!).filter((s) => /^[0-9a-f]{40}$/.test(s)));
}

export async function auditBackward(pkgDir: string, name: string, g: BackwardGrading, variant: Variant = 'full'): Promise<string[]> {
  const f: string[] = [];
  const add = (what: string): void => void f.push(`${name}: ${what}`);
  const expected = expectedEntries('backward', variant);
  for (const e of readdirSync(pkgDir)) if (!expected.has(e)) add(`unexpected entry ${e} in the package`);
  if (variant === 'metadata-only') {
    const dotGit = findNamed(pkgDir, '.git');
    if (dotGit.length > 0) add(`a git directory in a metadata-only package: ${listed(dotGit)}`);
    const historyPath = join(pkgDir, 'history_metadata.jsonl');
    if (!existsSync(historyPath)) add('history_metadata.jsonl is missing');
    else {
      const n = readFileSync(historyPath, 'utf8').split('\n').filter((l) => l.length > 0).length;
      if (n !== g.commits) add(`history_metadata.jsonl has ${n} commits, expected ${g.commits}`);
    }
    for (const file of ['report.md', 'task.json']) {
      const p = join(pkgDir, file);
      if (!existsSync(p)) add(`${file} is missing`);
      else if (shaPrefixesIn(readFileSync(p, 'utf8'), g.gold).length > 0) add(`${file} contains a prefix of the gold`);
    }
    return f;
  }
  const gitDir = join(pkgDir, 'repo', '.git');
  if (!existsSync(gitDir) || !lstatSync(gitDir).isDirectory()) {
    add('repo/.git is missing or not a directory');
    return f;
  }
  if (existsSync(join(gitDir, 'shallow'))) add('repository is shallow (.git/shallow exists)');
  const logs = filesUnder(join(gitDir, 'logs'));
  if (logs.length > 0) add(`reflogs present: ${listed(logs.map((l) => `logs/${l}`))}`);
  for (const file of ['FETCH_HEAD', 'ORIG_HEAD', 'MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'info/grafts', 'objects/info/alternates']) {
    if (existsSync(join(gitDir, file))) add(`${file} present in repo/.git`);
  }
  const remotes = await runGit(gitDir, ['config', '--get-regexp', '^remote\\.'], { allowExit: [1] });
  if (remotes.stdout.trim()) add(`remote configured: ${listed(remotes.stdout.trim().split('\n'))}`);
  const head = await runGit(gitDir, ['symbolic-ref', '-q', 'HEAD'], { allowExit: [1, 128] });
  if (head.stdout.trim() !== 'refs/heads/main') add(`HEAD is ${head.stdout.trim() || 'detached'}, not refs/heads/main`);
  const refs = (await runGit(gitDir, ['for-each-ref', '--format=%(refname) %(objectname)'])).stdout.split('\n').filter((l) => l.length > 0);
  const main = refs.find((l) => l.startsWith('refs/heads/main '))?.split(' ')[1] ?? null;
  const extra = refs.filter((l) => !l.startsWith('refs/heads/main ')).map((l) => l.split(' ')[0]!);
  if (extra.length > 0) add(`unexpected refs: ${listed(extra)}`);
  if (main === null) add('refs/heads/main is missing');
  else if (main !== g.cutoff) add(`refs/heads/main is ${main}, not the cutoff ${g.cutoff}`);

  const reachable = await objectSet(gitDir, ['rev-list', '--objects', g.cutoff, '--']);
  if (!reachable) add(`history up to the cutoff ${g.cutoff} is incomplete or missing`);
  const present = await objectSet(gitDir, ['cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)']);
  if (reachable && present) {
    const strays = [...present].filter((o) => !reachable.has(o)).sort();
    if (strays.length > 0) add(`${strays.length} objects not reachable from the cutoff: ${listed(strays)}`);
  }
  if (g.after_cutoff) {
    const child = await runGit(gitDir, ['cat-file', '-e', `${g.after_cutoff}^{commit}`], { allowExit: [1, 128] });
    if (child.exitCode === 0) add(`commit ${g.after_cutoff} from after the cutoff is present`);
  }
  const anc = await runGit(gitDir, ['merge-base', '--is-ancestor', g.gold, g.cutoff], { allowExit: [1, 128] });
  if (anc.exitCode !== 0) add(`gold is not reachable from the cutoff`);
  const tree = await runGit(gitDir, ['rev-parse', '--verify', '-q', `${g.cutoff}^{tree}`], { allowExit: [1, 128] });
  if (tree.exitCode === 0 && tree.stdout.trim() !== g.cutoff_tree) add(`cutoff tree ${tree.stdout.trim()} differs from the recorded ${g.cutoff_tree}`);
  const status = await runGit(gitDir, [`--work-tree=${join(pkgDir, 'repo')}`, 'status', '--porcelain', '--ignored', '--untracked-files=all'], { allowExit: [128] });
  if (status.exitCode !== 0) add('cannot read the work tree status');
  else if (status.stdout.trim()) add(`work tree differs from the cutoff: ${listed(status.stdout.trim().split('\n'))}`);

  const historyPath = join(pkgDir, 'history_metadata.jsonl');
  if (!existsSync(historyPath)) add('history_metadata.jsonl is missing');
  else if (reachable) {
    const lines = readFileSync(historyPath, 'utf8').split('\n').filter((l) => l.length > 0);
    const outside: string[] = [];
    for (const [i, l] of lines.entries()) {
      let sha: unknown;
      try {
        sha = (JSON.parse(l) as { sha?: unknown }).sha;
      } catch {
        add(`history_metadata.jsonl line ${i + 1} is not JSON`);
        continue;
      }
      if (typeof sha !== 'string' || !reachable.has(sha)) outside.push(String(sha));
    }
    if (outside.length > 0) add(`history_metadata.jsonl lists commits not reachable from the cutoff: ${listed(outside)}`);
    if (lines.length !== g.commits) add(`history_metadata.jsonl has ${lines.length} commits, expected ${g.commits}`);
  }
  for (const file of ['report.md', 'task.json']) {
    const p = join(pkgDir, file);
    if (!existsSync(p)) {
      add(`${file} is missing`);
      continue;
    }
    const hits = shaPrefixesIn(readFileSync(p, 'utf8'), g.gold);
    if (hits.length > 0) add(`${file} contains a prefix of the gold: ${listed(hits)}`);
  }
  return f;
}

export function auditForward(pkgDir: string, name: string, g: ForwardGrading, variant: Variant = 'full'): string[] {
  const f: string[] = [];
  const add = (what: string): void => void f.push(`${name}: ${what}`);
  const expected = expectedEntries('forward', variant);
  for (const e of readdirSync(pkgDir)) if (!expected.has(e)) add(`unexpected entry ${e} in the package`);
  const treeDir = join(pkgDir, 'tree');
  if (!existsSync(treeDir)) {
    add('tree/ is missing');
    return f;
  }
  const dotGit = findNamed(treeDir, '.git');
  if (dotGit.length > 0) add(`.git in the tree: ${listed(dotGit.map((p) => `tree/${p}`))}`);
  const { tree, files } = directoryTree(treeDir);
  if (tree !== g.base_tree) add(`tree digest ${tree} differs from the recorded base tree ${g.base_tree}`);
  const changed: string[] = [];
  const extra: string[] = [];
  for (const [path, file] of files) {
    const want = g.base_files[path];
    if (want === undefined) extra.push(path);
    else if (want !== `${file.mode} ${file.oid}`) changed.push(path);
  }
  const missing = Object.keys(g.base_files).filter((p) => !files.has(p)).sort();
  if (extra.length > 0) add(`files not in the base: ${listed(extra.sort())}`);
  if (changed.length > 0) add(`file content differs from the base: ${listed(changed.sort())}`);
  if (missing.length > 0) add(`files of the base missing: ${listed(missing)}`);
  for (const file of [...(variant === 'no-issue' ? [] : ['issue.md']), 'task.json', 'context.json', ...(variant === 'oracle-scope' ? ['changed_paths.json'] : [])]) {
    const p = join(pkgDir, file);
    if (!existsSync(p)) {
      add(`${file} is missing`);
      continue;
    }
    const text = readFileSync(p, 'utf8');
    if (g.pr_url && text.includes(g.pr_url)) add(`${file} links the fixing pull request`);
    if (new RegExp(`/pull/${g.pull}(?![0-9])`).test(text)) add(`${file} links pull/${g.pull}`);
    if (g.head && shaPrefixesIn(text, g.head).length > 0) add(`${file} contains a prefix of the fix's head commit`);
  }
  return f;
}

/** Audits every package under `dir` (each directory except grading/); throws UsageError when `dir` holds none. */
export async function auditPackages(dir: string): Promise<AuditReport> {
  if (!existsSync(dir) || !lstatSync(dir).isDirectory()) throw new UsageError(`${dir}: not a directory`);
  const findings: string[] = [];
  const names = readdirSync(dir).filter((e) => e !== GRADING_DIR && !e.startsWith('.') && lstatSync(join(dir, e)).isDirectory()).sort();
  if (names.length === 0) throw new UsageError(`${dir}: no packages to audit`);
  for (const name of names) {
    const pkgDir = join(dir, name);
    const gradingPath = join(dir, GRADING_DIR, `${name}.json`);
    if (existsSync(join(pkgDir, GRADING_DIR))) findings.push(`${name}: grading data inside the package`);
    if (!existsSync(gradingPath)) {
      findings.push(`${name}: no grading data at ${GRADING_DIR}/${name}.json`);
      continue;
    }
    let g: Grading;
    try {
      g = JSON.parse(readFileSync(gradingPath, 'utf8')) as Grading;
    } catch {
      findings.push(`${name}: ${GRADING_DIR}/${name}.json is not valid JSON`);
      continue;
    }
    if (g.case_id !== name) findings.push(`${name}: grading data is for case ${g.case_id}`);
    const v = readVariantGrading(join(dir, GRADING_DIR), name);
    if (v === 'invalid') {
      findings.push(`${name}: ${GRADING_DIR}/${name}.variant.json is not valid variant data`);
      continue;
    }
    const variant: Variant = v?.variant ?? 'full';
    if (v) findings.push(...auditVariant(pkgDir, name, v));
    else if (declaredVariant(pkgDir) !== 'full') findings.push(`${name}: task.json names variant ${declaredVariant(pkgDir)} but there is no ${GRADING_DIR}/${name}.variant.json`);
    if (g.task === 'backward') findings.push(...(await auditBackward(pkgDir, name, g, variant)));
    else if (g.task === 'forward') findings.push(...auditForward(pkgDir, name, g, variant));
    else findings.push(`${name}: grading data has an unknown task`);
  }
  findings.push(...auditRubrics(dir, names));
  return { packages: names.length, findings };
}
