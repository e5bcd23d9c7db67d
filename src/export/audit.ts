/**
 * `r2v package audit DIR`: checks every package against its grading data instead of trusting
 * how it was built. Each finding is one line naming the package and the problem.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { runGit } from '../git/runner.js';
import { describeError, UsageError } from '../errors.js';
import { auditRubrics } from './audit-rubrics.js';
import { PACKAGE_INDEX, readPackageIndex } from './package-index.js';
import { eachHistoryLine } from './history-metadata.js';
import { HISTORY_DIR, HISTORY_PART } from './object-layers.js';
import { GRADING_DIR, type BackwardGrading, type ForwardGrading, type Grading } from './package.js';
import { sha256 } from '../util/canonical.js';
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


/** Files every package's .git may hold; anything else there is a finding. */
const GIT_ALLOWED: readonly RegExp[] = [
  /^HEAD$/,
  /^config$/,
  /^index$/,
  /^packed-refs$/,
  /^objects\/pack\/pack-[0-9a-f]{40}\.(?:pack|idx|rev)$/,
  /^objects\/[0-9a-f]{2}\/[0-9a-f]{38}$/,
  /^objects\/info\/packs$/,
];
/** Reported by their own checks (refs by for-each-ref, these by name), so not repeated as unexpected files. */
const GIT_REPORTED: readonly RegExp[] = [
  /^refs\//,
  /^logs\//,
  /^(?:shallow|FETCH_HEAD|ORIG_HEAD|MERGE_HEAD|CHERRY_PICK_HEAD|REVERT_HEAD|info\/grafts|objects\/info\/alternates)$/,
];
/** Settings `git init --template=` and packaging write; any other key in a package's config is a finding. */
const CONFIG_ALLOWED = new Set([
  'core.repositoryformatversion',
  'core.filemode',
  'core.bare',
  'core.logallrefupdates',
  'core.symlinks',
  'core.ignorecase',
  'core.precomposeunicode',
  'gc.auto',
]);

/** Problems of a packed-refs file (git itself stops at the first malformed line). */
export function packedRefsProblems(text: string): string[] {
  const out: string[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line === '' || line.startsWith('# pack-refs with:')) continue;
    if (/^[0-9a-f]{40} refs\/\S+$/.test(line) || /^\^[0-9a-f]{40}$/.test(line)) continue;
    out.push(`line ${i + 1}`);
  }
  return out;
}

/** Text with every %XX escape decoded (invalid escapes left as they are). */
function decodedUrlText(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** A package's own files are plain files and directories, never symlinks (which could point at grading data). */
function topLevelSymlinks(pkgDir: string, add: (what: string) => void): void {
  for (const e of readdirSync(pkgDir)) {
    const p = join(pkgDir, e);
    if (lstatSync(p).isSymbolicLink()) add(`${e} is a symlink (to ${readlinkSync(p)})`);
  }
}

/** Every symlink under `root` (not descending into `skip` names) whose target leaves `pkgDir`. */
function escapingSymlinks(root: string, pkgDir: string, skip: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  const base = resolve(pkgDir);
  const walk = (abs: string): void => {
    for (const e of readdirSync(abs)) {
      if (skip.has(e)) continue;
      const p = join(abs, e);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isSymbolicLink()) {
        const target = readlinkSync(p);
        const to = resolve(dirname(p), target);
        if (isAbsolute(target) || (to !== base && !to.startsWith(`${base}${sep}`))) out.push(`${relative(base, p)} -> ${target}`);
      }
    }
  };
  if (existsSync(root)) walk(root);
  return out.sort();
}

/** Findings about everything under repo/.git that is not git's own bookkeeping, byte for byte. */
function auditGitFiles(gitDir: string, add: (what: string) => void, g: BackwardGrading): void {
  const files = filesUnder(gitDir);
  const unexpected = files.filter((p) => !GIT_ALLOWED.some((r) => r.test(p)) && !GIT_REPORTED.some((r) => r.test(p)));
  if (unexpected.length > 0) add(`unexpected files in repo/.git: ${listed(unexpected)}`);
  const links = files.filter((p) => lstatSync(join(gitDir, p)).isSymbolicLink());
  if (links.length > 0) add(`symlinks in repo/.git: ${listed(links)}`);
  // Every non-object file (objects are checked by reachability; the index by git status).
  for (const p of files) {
    if (p.startsWith('objects/') || p === 'index' || GIT_REPORTED.some((r) => r.test(p))) continue;
    if (lstatSync(join(gitDir, p)).isSymbolicLink()) continue;
    const text = readFileSync(join(gitDir, p)).toString('latin1');
    const gold = shaPrefixesIn(text, g.gold);
    if (gold.length > 0) add(`.git/${p} contains a prefix of the gold: ${listed(gold)}`);
    if (g.after_cutoff && shaPrefixesIn(text, g.after_cutoff).length > 0) add(`.git/${p} names the commit ${g.after_cutoff} from after the cutoff`);
  }
  const packed = join(gitDir, 'packed-refs');
  if (existsSync(packed) && lstatSync(packed).isFile()) {
    const bad = packedRefsProblems(readFileSync(packed, 'latin1'));
    if (bad.length > 0) add(`packed-refs is malformed: ${listed(bad)}`);
  }
}

interface BackwardTask {
  readonly history?: { readonly parts?: readonly { readonly path?: unknown; readonly commits?: unknown; readonly sha256?: unknown }[] };
  readonly repository?: { readonly work_tree?: unknown };
}

/** task.json of a package as an object, or null when it is missing or not JSON (reported elsewhere). */
function readTask(pkgDir: string): BackwardTask | null {
  try {
    const t = JSON.parse(readFileSync(join(pkgDir, 'task.json'), 'utf8')) as unknown;
    return t !== null && typeof t === 'object' ? (t as BackwardTask) : null;
  } catch {
    return null;
  }
}

/**
 * Findings about history/: only part files (plain files named NNNNN.jsonl), exactly the parts
 * task.json lists with their digests and counts, and together exactly the commits reachable from
 * the cutoff, each line byte for byte what the package's repository says of that commit (an
 * edited, added, repeated or missing line is a finding). With `gitReadable` false (the history
 * up to the cutoff cannot be read), only the files are checked.
 */
async function auditHistory(pkgDir: string, gitDir: string, g: BackwardGrading, task: BackwardTask | null, gitReadable: boolean, add: (what: string) => void): Promise<void> {
  const dir = join(pkgDir, HISTORY_DIR);
  if (!existsSync(dir) || !lstatSync(dir).isDirectory()) {
    add(`${HISTORY_DIR}/ is missing or not a directory`);
    return;
  }
  const entries = readdirSync(dir).sort();
  const odd = entries.filter((e) => !HISTORY_PART.test(e) || !lstatSync(join(dir, e)).isFile());
  if (odd.length > 0) add(`unexpected entries in ${HISTORY_DIR}/: ${listed(odd)}`);
  const parts = entries.filter((e) => !odd.includes(e));
  const declared = Array.isArray(task?.history?.parts) ? task.history.parts : null;
  if (declared === null) add('task.json lists no history parts');
  else {
    const names = declared.map((p) => String(p?.path));
    if (names.join('\n') !== parts.map((p) => `${HISTORY_DIR}/${p}`).join('\n')) add(`task.json lists the history parts ${listed(names)}, ${HISTORY_DIR}/ holds ${listed(parts) || 'none'}`);
  }
  const byPath = new Map((declared ?? []).map((p) => [String(p?.path), p]));
  const want = new Map<string, string>();
  if (gitReadable) await eachHistoryLine(gitDir, g.cutoff, (lines) => lines.forEach((l) => want.set((JSON.parse(l) as { sha: string }).sha, l)));
  const seen = new Set<string>();
  let total = 0;
  for (const part of parts) {
    const rel = `${HISTORY_DIR}/${part}`;
    const bytes = readFileSync(join(dir, part));
    const d = byPath.get(rel);
    if (d && d.sha256 !== sha256(bytes)) add(`${rel} does not match its digest in task.json (edited or damaged)`);
    const lines = bytes.toString('utf8').split('\n').filter((l) => l.length > 0);
    if (d && d.commits !== lines.length) add(`${rel} has ${lines.length} commits, task.json says ${String(d.commits)}`);
    total += lines.length;
    const outside: string[] = [];
    const changed: string[] = [];
    const twice: string[] = [];
    for (const [i, l] of lines.entries()) {
      let sha: unknown;
      try {
        sha = (JSON.parse(l) as { sha?: unknown }).sha;
      } catch {
        add(`${rel} line ${i + 1} is not JSON`);
        continue;
      }
      if (!gitReadable) continue;
      const expected = typeof sha === 'string' ? want.get(sha) : undefined;
      if (expected === undefined) outside.push(String(sha));
      else if (seen.has(sha as string)) twice.push(sha as string);
      else {
        seen.add(sha as string);
        if (l !== expected) changed.push(`line ${i + 1}`);
      }
    }
    if (outside.length > 0) add(`${rel} lists commits not reachable from the cutoff: ${listed(outside)}`);
    if (twice.length > 0) add(`${rel} lists commits a second time: ${listed(twice)}`);
    if (changed.length > 0) add(`${rel} differs from the repository's commits at ${listed(changed)}`);
  }
  if (gitReadable && seen.size < want.size) add(`${HISTORY_DIR}/ lacks ${want.size - seen.size} commit${want.size - seen.size === 1 ? '' : 's'} reachable from the cutoff`);
  if (total !== g.commits) add(`${HISTORY_DIR}/ has ${total} commits, expected ${g.commits}`);
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
  topLevelSymlinks(pkgDir, add);
  const escaping = escapingSymlinks(join(pkgDir, 'repo'), pkgDir, new Set(['.git']));
  if (escaping.length > 0) add(`symlinks pointing outside the package: ${listed(escaping)}`);
  const logs = filesUnder(join(gitDir, 'logs'));
  if (logs.length > 0) add(`reflogs present: ${listed(logs.map((l) => `logs/${l}`))}`);
  for (const file of ['FETCH_HEAD', 'ORIG_HEAD', 'MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'info/grafts', 'objects/info/alternates']) {
    if (existsSync(join(gitDir, file))) add(`${file} present in repo/.git`);
  }
  auditGitFiles(gitDir, add, g);
  const configured = await runGit(gitDir, ['config', '--file', join(gitDir, 'config'), '--list'], { allowExit: [1, 128] });
  if (configured.exitCode !== 0) add('config cannot be read');
  const settings = configured.stdout.split('\n').filter((l) => l.length > 0).map((l) => l.split('=')[0]!.toLowerCase());
  const remotes = settings.filter((k) => k.startsWith('remote.'));
  if (remotes.length > 0) add(`remote configured: ${listed(configured.stdout.trim().split('\n').filter((l) => l.toLowerCase().startsWith('remote.')).map((l) => l.replace('=', ' ')))}`);
  const odd = settings.filter((k) => !k.startsWith('remote.') && !CONFIG_ALLOWED.has(k));
  if (odd.length > 0) add(`config has unexpected settings: ${listed([...new Set(odd)])}`);
  const head = await runGit(gitDir, ['symbolic-ref', '-q', 'HEAD'], { allowExit: [1, 128] });
  if (head.stdout.trim() !== 'refs/heads/main') add(`HEAD is ${head.stdout.trim() || 'detached'}, not refs/heads/main`);
  const listedRefs = await runGit(gitDir, ['for-each-ref', '--format=%(refname) %(objectname)'], { allowExit: [128] });
  if (listedRefs.exitCode !== 0) add('git cannot list the refs (a malformed ref or packed-refs)');
  const refs = listedRefs.stdout.split('\n').filter((l) => l.length > 0);
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
  const task = readTask(pkgDir);
  const workTree = g.work_tree ?? 'checkout';
  const declared = task?.repository?.work_tree ?? 'checkout';
  if (task && declared !== workTree) add(`task.json says the work tree is ${JSON.stringify(declared)}, the grading data ${JSON.stringify(workTree)}`);
  if (workTree === 'none') {
    // Nothing beside .git (the harness checks the files out in its own copy), and no index.
    const files = readdirSync(join(pkgDir, 'repo')).filter((e) => e !== '.git').sort();
    if (files.length > 0) add(`files in repo/ of a package built without a work tree: ${listed(files)}`);
    if (existsSync(join(gitDir, 'index'))) add('repo/.git/index present in a package built without a work tree');
  } else {
    const status = await runGit(gitDir, [`--work-tree=${join(pkgDir, 'repo')}`, 'status', '--porcelain', '--ignored', '--untracked-files=all'], { allowExit: [128] });
    if (status.exitCode !== 0) add('cannot read the work tree status');
    else if (status.stdout.trim()) add(`work tree differs from the cutoff: ${listed(status.stdout.trim().split('\n'))}`);
  }

  await auditHistory(pkgDir, gitDir, g, task, reachable !== null, add);
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
  topLevelSymlinks(pkgDir, add);
  const escaping = escapingSymlinks(treeDir, pkgDir);
  if (escaping.length > 0) add(`symlinks pointing outside the package: ${listed(escaping)}`);
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
    if (lstatSync(p).isSymbolicLink()) continue; // reported above
    const raw = readFileSync(p, 'utf8');
    // URL-encoded links are read decoded too (%2Fpull%2F7 is /pull/7).
    const text = `${raw}\n${decodedUrlText(raw)}`;
    if (g.pr_url && text.includes(g.pr_url)) add(`${file} links the fixing pull request`);
    if (new RegExp(`/pulls?/${g.pull}(?![0-9])`).test(text)) add(`${file} links pull/${g.pull}`);
    if (file !== 'context.json' && new RegExp(`(?<![\\w&/#])#${g.pull}(?![0-9])`).test(text)) add(`${file} names the fixing pull request #${g.pull}`);
    if (g.head && shaPrefixesIn(text, g.head).length > 0) add(`${file} contains a prefix of the fix's head commit`);
    if (file !== 'changed_paths.json' && g.gold.length > 0 && g.gold.every((w) => text.includes(w))) add(`${file} lists the gold workflows`);
  }
  return f;
}

/** Audits one package against its grading data. */
async function auditOne(dir: string, name: string): Promise<string[]> {
  const findings: string[] = [];
  const pkgDir = join(dir, name);
  const gradingPath = join(dir, GRADING_DIR, `${name}.json`);
  if (existsSync(join(pkgDir, GRADING_DIR))) findings.push(`${name}: grading data inside the package`);
  if (!existsSync(gradingPath)) {
    findings.push(`${name}: no grading data at ${GRADING_DIR}/${name}.json`);
    return findings;
  }
  let g: Grading;
  try {
    g = JSON.parse(readFileSync(gradingPath, 'utf8')) as Grading;
  } catch {
    findings.push(`${name}: ${GRADING_DIR}/${name}.json is not valid JSON`);
    return findings;
  }
  if (g.case_id !== name) findings.push(`${name}: grading data is for case ${g.case_id}`);
  const v = readVariantGrading(join(dir, GRADING_DIR), name);
  if (v === 'invalid') {
    findings.push(`${name}: ${GRADING_DIR}/${name}.variant.json is not valid variant data`);
    return findings;
  }
  const variant: Variant = v?.variant ?? 'full';
  if (v) findings.push(...auditVariant(pkgDir, name, v));
  else if (declaredVariant(pkgDir) !== 'full') findings.push(`${name}: task.json names variant ${declaredVariant(pkgDir)} but there is no ${GRADING_DIR}/${name}.variant.json`);
  if (g.task === 'backward') findings.push(...(await auditBackward(pkgDir, name, g, variant)));
  else if (g.task === 'forward') findings.push(...auditForward(pkgDir, name, g, variant));
  else findings.push(`${name}: grading data has an unknown task`);
  return findings;
}

/**
 * Audits every package under `dir` (each directory except grading/) and the set as a whole: the
 * index names every package and says the set is complete, and every grading file has its
 * package. A package that cannot be read is a finding, never the end of the audit. Throws
 * UsageError when `dir` holds no packages and no index.
 */
export async function auditPackages(dir: string): Promise<AuditReport> {
  if (!existsSync(dir) || !lstatSync(dir).isDirectory()) throw new UsageError(`${dir}: not a directory`);
  const findings: string[] = [];
  const names = readdirSync(dir).filter((e) => e !== GRADING_DIR && !e.startsWith('.') && lstatSync(join(dir, e)).isDirectory()).sort();
  const index = readPackageIndex(dir);
  if (names.length === 0 && (index === null || index === 'invalid')) throw new UsageError(`${dir}: no packages to audit`);
  if (index === null) findings.push(`${PACKAGE_INDEX} is missing: the set cannot be checked for completeness`);
  else if (index === 'invalid') findings.push(`${PACKAGE_INDEX} is not a package index`);
  else {
    if (!index.complete) findings.push(`${PACKAGE_INDEX}: the package set is half-written (packaging did not finish)`);
    const present = new Set(names);
    const missing = index.cases.filter((c) => !present.has(c));
    if (missing.length > 0) findings.push(`${PACKAGE_INDEX} lists ${missing.length} packages that are missing: ${listed(missing)}`);
    const inIndex = new Set(index.cases);
    const unlisted = names.filter((n) => !inIndex.has(n));
    if (unlisted.length > 0) findings.push(`packages not listed in ${PACKAGE_INDEX}: ${listed(unlisted)}`);
  }
  const gradingDir = join(dir, GRADING_DIR);
  if (existsSync(gradingDir)) {
    const orphans = readdirSync(gradingDir)
      .filter((e) => e.endsWith('.json') && !e.endsWith('.variant.json'))
      .map((e) => e.slice(0, -'.json'.length))
      .filter((id) => !names.includes(id))
      .sort();
    if (orphans.length > 0) findings.push(`grading data without its package: ${listed(orphans.map((id) => `${GRADING_DIR}/${id}.json`))}`);
  }
  for (const name of names) {
    try {
      findings.push(...(await auditOne(dir, name)));
    } catch (error) {
      findings.push(`${name}: the audit could not read the package: ${describeError(error)}`);
    }
  }
  findings.push(...auditRubrics(dir, names));
  return { packages: names.length, findings };
}
