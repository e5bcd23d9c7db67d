import { appendFileSync, chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPackages } from '../../../src/export/audit.js';
import { boundariesBelow, OBJECTS_DIR } from '../../../src/export/object-layers.js';
import { GRADING_DIR, packageBackward } from '../../../src/export/package.js';
import { BackwardManifestRecord } from '../../../src/export/read-manifest.js';
import { ValidationError } from '../../../src/errors.js';
import { digestTree } from '../../support/digest-tree.js';
import { cleanupTempDirs, makeRepo, tempDir } from '../../support/make-repo.js';

const LAYER = 3;

/**
 * main: 16 first-parent commits (index 0 … 15), a topic merged at index 7; a side branch off
 * index 6 that main never merged (a cutoff off the first-parent line); main goes on after every
 * cutoff, so each package has a future to leak.
 */
async function setup() {
  const repo = await makeRepo();
  const line: string[] = [];
  for (let i = 0; i < 16; i += 1) {
    if (i === 7) {
      await repo.git(['checkout', '-q', '-b', 'topic', line[5]!]);
      await repo.commit('Topic work', { files: { 'topic.txt': 'topic\n' } });
      await repo.git(['checkout', '-q', 'main']);
      await repo.git(['merge', '-q', '--no-ff', '-m', 'Merge topic', 'topic']);
      line.push(await repo.rev('HEAD'));
      continue;
    }
    line.push(await repo.commit(`Step ${i}`, { files: { [`src/f${i % 4}.txt`]: `step ${i}\n`, 'NEWS.md': `${i}\n` } }));
  }
  await repo.git(['checkout', '-q', '-b', 'side', line[6]!]);
  const side = await repo.commit('Side work', { files: { 'side.txt': 'side\n' } });
  await repo.git(['checkout', '-q', 'main']);
  const mirror = await repo.bareMirror();
  const record = (n: number, cutoff: string, gold: string): BackwardManifestRecord =>
    BackwardManifestRecord.parse({
      task: 'backward', case_id: `acme_widget__${n}__0000000${n}`, repo: 'acme/widget', number: n, report: `report ${n}: rendering fails\n`,
      report_time: '2024-01-02T00:00:00Z', default_branch: 'main', cutoff, gold, parent: null, history_window: 1, checks: {}, digests: { cutoff_tree: null },
    });
  const records = [record(1, line[2]!, line[1]!), record(2, line[5]!, line[3]!), record(3, line[9]!, line[8]!), record(4, line[12]!, line[10]!), record(5, side, line[4]!)];
  return { repo, mirror, line, side, records };
}

let s: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => {
  s = await setup();
});
afterAll(async () => {
  await cleanupTempDirs();
});

const git = async (gitDir: string, args: string[]): Promise<string> => (await execa('git', [`--git-dir=${gitDir}`, ...args], { env: { LC_ALL: 'C' } })).stdout;
const objects = async (pkg: string): Promise<string[]> =>
  (await git(join(pkg, 'repo', '.git'), ['cat-file', '--batch-all-objects', '--batch-check=%(objectname)'])).split('\n').filter(Boolean).sort();
const packsOf = (pkg: string): string[] => readdirSync(join(pkg, 'repo', '.git', 'objects', 'pack')).filter((f) => f.endsWith('.pack')).sort();
const inode = (path: string): number => statSync(path).ino;
/** Every commit line of a package's history parts, sorted (the parts differ with the layering, their union does not). */
const historyLines = (pkg: string): string[] =>
  readdirSync(join(pkg, 'history'))
    .sort()
    .flatMap((f) => readFileSync(join(pkg, 'history', f), 'utf8').split('\n').filter(Boolean))
    .sort();

describe('Backward packages sharing layered history', () => {
  it('builds layers at fixed first-parent boundaries below each cutoff, off-line cutoffs included', async () => {
    expect(await boundariesBelow(s.mirror, 'main', s.line[1]!, LAYER)).toEqual([]);
    expect(await boundariesBelow(s.mirror, 'main', s.line[2]!, LAYER)).toEqual([s.line[2]]);
    expect(await boundariesBelow(s.mirror, 'main', s.line[12]!, LAYER)).toEqual([s.line[2], s.line[5], s.line[8], s.line[11]]);
    // The side branch starts at index 6: index 5 is below it, index 8 is not.
    expect(await boundariesBelow(s.mirror, 'main', s.side, LAYER)).toEqual([s.line[2], s.line[5]]);
    expect(await boundariesBelow(s.mirror, null, s.line[12]!, LAYER)).toEqual([]);
  });

  it('gives every package exactly its history (audit clean, nothing after the cutoff) with the layers hard-linked, whatever the order', async () => {
    const out = await tempDir('r2v-shared-');
    for (const r of [...s.records].reverse()) await packageBackward(r, s.mirror, out, { layerCommits: LAYER });
    const report = await auditPackages(out);
    // index.json is written by the command, not by packageBackward: only that finding is expected.
    expect(report.packages).toBe(5);
    expect(report.findings.filter((f) => !f.startsWith('index.json'))).toEqual([]);
    const pkg = (n: number): string => join(out, s.records[n - 1]!.case_id);
    // Layers below each cutoff + one pack of its own (none when the cutoff is a boundary), and as many history parts.
    for (const [n, parts] of [[1, 1], [2, 2], [3, 4], [4, 5], [5, 3]] as const) expect(readdirSync(join(pkg(n), 'history')).sort()).toEqual(Array.from({ length: parts }, (_, i) => `0000${i}.jsonl`));
    expect(packsOf(pkg(1))).toHaveLength(1);
    expect(packsOf(pkg(2))).toHaveLength(2);
    expect(packsOf(pkg(3))).toHaveLength(4);
    expect(packsOf(pkg(4))).toHaveLength(5);
    expect(packsOf(pkg(5))).toHaveLength(3);
    // The first layer is one file on disk for every package above it (and the store).
    const first = join(out, OBJECTS_DIR, `root..${s.line[2]}`);
    const firstPack = readdirSync(first).find((f) => f.endsWith('.pack'))!;
    for (const n of [1, 2, 3, 4, 5]) expect(inode(join(pkg(n), 'repo', '.git', 'objects', 'pack', firstPack))).toBe(inode(join(first, firstPack)));
    expect(statSync(join(first, firstPack)).nlink).toBe(6);
    // So is its history part, read-only.
    for (const n of [1, 2, 3, 4, 5]) expect(inode(join(pkg(n), 'history', '00000.jsonl'))).toBe(inode(join(first, 'history.jsonl')));
    expect(statSync(join(first, 'history.jsonl')).mode & 0o222).toBe(0);
    // No package holds a commit from after its cutoff.
    for (const [i, r] of s.records.entries()) {
      const grading = JSON.parse(readFileSync(join(out, GRADING_DIR, `${r.case_id}.json`), 'utf8')) as { after_cutoff: string | null };
      if (i < 4) expect(grading.after_cutoff).toBe(s.line[s.line.indexOf(r.cutoff) + 1]);
      const present = new Set(await objects(pkg(i + 1)));
      const after = i < 4 ? s.line.indexOf(r.cutoff) + 1 : 7; // the side branch leaves main after index 6
      for (const later of s.line.slice(after)) expect(present.has(later)).toBe(false);
    }
    expect(existsSync(join(out, OBJECTS_DIR, `${s.line[11]}..${s.line[14]}`))).toBe(false);
  });

  it('holds the same objects and the same files as one whole pack per package, and the same layers in any order', async () => {
    const whole = await tempDir('r2v-whole-');
    const layered = await tempDir('r2v-layered-');
    const again = await tempDir('r2v-again-');
    for (const r of s.records) await packageBackward(r, s.mirror, whole, { objects: null });
    for (const r of s.records) await packageBackward(r, s.mirror, layered, { layerCommits: LAYER });
    for (const r of [s.records[3]!, s.records[0]!]) await packageBackward(r, s.mirror, again, { layerCommits: LAYER });
    expect(existsSync(join(whole, OBJECTS_DIR))).toBe(false);
    for (const r of s.records) {
      expect(packsOf(join(whole, r.case_id))).toHaveLength(1);
      expect(await objects(join(layered, r.case_id))).toEqual(await objects(join(whole, r.case_id)));
      expect(historyLines(join(layered, r.case_id))).toEqual(historyLines(join(whole, r.case_id)));
      expect(readFileSync(join(layered, r.case_id, 'report.md'), 'utf8')).toBe(readFileSync(join(whole, r.case_id, 'report.md'), 'utf8'));
      expect(readFileSync(join(layered, GRADING_DIR, `${r.case_id}.json`), 'utf8')).toBe(readFileSync(join(whole, GRADING_DIR, `${r.case_id}.json`), 'utf8'));
    }
    // Layers depend on the history alone: the same boundaries and the same objects in each.
    const layerObjects = async (store: string, name: string): Promise<string> => {
      const idx = readdirSync(join(store, name)).find((f) => f.endsWith('.idx'))!;
      return (await execa('git', ['show-index'], { inputFile: join(store, name, idx) })).stdout.split('\n').map((l) => l.split(' ')[1]).sort().join('\n');
    };
    const names = readdirSync(join(again, OBJECTS_DIR)).sort();
    expect(names).toEqual(readdirSync(join(layered, OBJECTS_DIR)).sort());
    for (const name of names) expect(await layerObjects(join(again, OBJECTS_DIR), name)).toBe(await layerObjects(join(layered, OBJECTS_DIR), name));
  });
});

const withoutIndex = (t: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(t).filter(([p]) => !p.endsWith('/.git/index')));

describe('Backward packages without a work tree, self-contained and reproducible', () => {
  it('holds only .git in repo/, says how to check it out, and checks out to the cutoff; the audit passes', async () => {
    const out = await tempDir('r2v-lean-');
    for (const r of s.records) await packageBackward(r, s.mirror, out, { layerCommits: LAYER, workTree: 'none' });
    const report = await auditPackages(out);
    expect(report.findings.filter((f) => !f.startsWith('index.json'))).toEqual([]);
    for (const r of s.records) {
      const pkg = join(out, r.case_id);
      expect(readdirSync(join(pkg, 'repo'))).toEqual(['.git']);
      expect(existsSync(join(pkg, 'repo', '.git', 'index'))).toBe(false);
      const task = JSON.parse(readFileSync(join(pkg, 'task.json'), 'utf8')) as { repository: { work_tree: string; materialize: string }; instructions: string };
      expect(task.repository).toEqual({ path: 'repo', work_tree: 'none', materialize: 'git -C repo reset -q --hard' });
      expect(task.instructions).toContain('git -C repo reset -q --hard');
      const grading = JSON.parse(readFileSync(join(out, GRADING_DIR, `${r.case_id}.json`), 'utf8')) as { work_tree: string };
      expect(grading.work_tree).toBe('none');
    }
    // A harness's copy, checked out as task.json says: the files of the cutoff, nothing else.
    const copy = join(await tempDir('r2v-lean-copy-'), 'pkg');
    cpSync(join(out, s.records[3]!.case_id), copy, { recursive: true });
    await execa('sh', ['-c', 'git -C repo reset -q --hard'], { cwd: copy });
    const tracked = (await execa('git', ['-C', join(copy, 'repo'), 'ls-files'])).stdout.split('\n').sort();
    expect(tracked).toEqual((await git(s.mirror, ['ls-tree', '-r', '--name-only', s.records[3]!.cutoff])).split('\n').sort());
    expect(readFileSync(join(copy, 'repo', 'NEWS.md'), 'utf8')).toBe('12\n');
    expect((await execa('git', ['-C', join(copy, 'repo'), 'status', '--porcelain'])).stdout).toBe('');
  });

  it('the audit catches work-tree files, an index and a task.json that disagrees in a package built without a work tree', async () => {
    const out = await tempDir('r2v-lean-audit-');
    const r = s.records[1]!;
    await packageBackward(r, s.mirror, out, { layerCommits: LAYER, workTree: 'none' });
    const pkg = join(out, r.case_id);
    writeFileSync(join(pkg, 'repo', 'NEWS.md'), '99\n');
    writeFileSync(join(pkg, 'repo', '.git', 'index'), 'DIRC');
    const task = JSON.parse(readFileSync(join(pkg, 'task.json'), 'utf8')) as { repository: { work_tree: string } };
    task.repository.work_tree = 'checkout';
    writeFileSync(join(pkg, 'task.json'), JSON.stringify(task));
    const findings = (await auditPackages(out)).findings.filter((f) => !f.startsWith('index.json'));
    expect(findings).toEqual([
      `${r.case_id}: task.json says the work tree is "checkout", the grading data "none"`,
      `${r.case_id}: files in repo/ of a package built without a work tree: NEWS.md`,
      `${r.case_id}: repo/.git/index present in a package built without a work tree`,
    ]);
  });

  it('a copied package stands alone: the set and its shared layers deleted, the copy still audits clean', async () => {
    const out = await tempDir('r2v-alone-');
    for (const r of s.records) await packageBackward(r, s.mirror, out, { layerCommits: LAYER });
    const r = s.records[3]!;
    const alone = await tempDir('r2v-alone-copy-');
    cpSync(join(out, r.case_id), join(alone, r.case_id), { recursive: true });
    mkdirSync(join(alone, GRADING_DIR));
    cpSync(join(out, GRADING_DIR, `${r.case_id}.json`), join(alone, GRADING_DIR, `${r.case_id}.json`));
    writeFileSync(join(alone, 'index.json'), JSON.stringify({ complete: true, cases: [r.case_id] }));
    rmSync(out, { recursive: true, force: true });
    expect(await auditPackages(alone)).toEqual({ packages: 1, findings: [] });
    expect((await execa('git', ['-C', join(alone, r.case_id, 'repo'), 'fsck', '--full', '--no-dangling'])).exitCode).toBe(0);
    expect(historyLines(join(alone, r.case_id))).toHaveLength(Number(await git(s.mirror, ['rev-list', '--count', r.cutoff])));
  });

  it('is byte-for-byte reproducible: packages, history parts and layers, whatever the order (the git index aside)', async () => {
    const a = await tempDir('r2v-repro-a-');
    const b = await tempDir('r2v-repro-b-');
    for (const r of s.records) await packageBackward(r, s.mirror, a, { layerCommits: LAYER, workTree: 'none' });
    for (const r of [...s.records].reverse()) await packageBackward(r, s.mirror, b, { layerCommits: LAYER, workTree: 'none' });
    const da = digestTree(a);
    expect(Object.keys(da).filter((p) => p.includes('/history/')).length).toBeGreaterThanOrEqual(15);
    expect(Object.keys(da).filter((p) => p.startsWith(`${OBJECTS_DIR}/`) && p.endsWith('layer.json')).length).toBe(4);
    expect(digestTree(b)).toEqual(da);
    const c = await tempDir('r2v-repro-c-');
    const d = await tempDir('r2v-repro-d-');
    for (const r of s.records) await packageBackward(r, s.mirror, c, { layerCommits: LAYER });
    for (const r of [...s.records].reverse()) await packageBackward(r, s.mirror, d, { layerCommits: LAYER });
    expect(withoutIndex(digestTree(d))).toEqual(withoutIndex(digestTree(c)));
  });

  it('a damaged layer stops packaging with one line naming it, leaving nothing half-written', async () => {
    const out = await tempDir('r2v-damaged-');
    await packageBackward(s.records[2]!, s.mirror, out, { layerCommits: LAYER });
    const layerDir = join(out, OBJECTS_DIR, `${s.line[2]}..${s.line[5]}`);
    const history = join(layerDir, 'history.jsonl');
    chmodSync(history, 0o644);
    appendFileSync(history, `${JSON.stringify({ sha: s.line[14], message: 'later' })}\n`);
    const error = await packageBackward(s.records[3]!, s.mirror, out, { layerCommits: LAYER }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toBe(
      `${layerDir}: history.jsonl does not match its digest in layer.json (a damaged history layer: remove the directory to rebuild it, and re-package the packages linked to it)`,
    );
    expect(existsSync(join(out, s.records[3]!.case_id))).toBe(false);
    expect(readdirSync(out).filter((e) => e.includes('partial'))).toEqual([]);
    // The package linked to it before carries the damage too; the audit says so.
    const findings = (await auditPackages(out)).findings;
    expect(findings).toContainEqual(`${s.records[2]!.case_id}: history/00001.jsonl does not match its digest in task.json (edited or damaged)`);
    expect(findings).toContainEqual(expect.stringMatching(new RegExp(`^${s.records[2]!.case_id}: history/00001\\.jsonl lists commits not reachable from the cutoff: ${s.line[14]}`)));
    // A damaged pack and a missing description are named too.
    const other = await tempDir('r2v-damaged-pack-');
    await packageBackward(s.records[1]!, s.mirror, other, { layerCommits: LAYER });
    const first = join(other, OBJECTS_DIR, `root..${s.line[2]}`);
    const pack = readdirSync(first).find((f) => f.endsWith('.pack'))!;
    chmodSync(join(first, pack), 0o644);
    appendFileSync(join(first, pack), 'x');
    await expect(packageBackward(s.records[0]!, s.mirror, other, { layerCommits: LAYER })).rejects.toThrow(`${first}: ${pack} does not match its digest in layer.json`);
    writeFileSync(join(first, 'layer.json'), '{');
    await expect(packageBackward(s.records[0]!, s.mirror, other, { layerCommits: LAYER })).rejects.toThrow(`${first}: layer.json is missing or not JSON`);
  });

  it('rebuilds a layer of the older layout (packs only) and leaves the packages linked to it intact', async () => {
    const out = await tempDir('r2v-old-layout-');
    await packageBackward(s.records[0]!, s.mirror, out, { layerCommits: LAYER });
    const first = join(out, OBJECTS_DIR, `root..${s.line[2]}`);
    rmSync(join(first, 'layer.json'), { force: true });
    rmSync(join(first, 'history.jsonl'), { force: true });
    await packageBackward(s.records[1]!, s.mirror, out, { layerCommits: LAYER });
    expect(readdirSync(first).filter((f) => !f.startsWith('pack-')).sort()).toEqual(['history.jsonl', 'layer.json']);
    expect((await auditPackages(out)).findings.filter((f) => !f.startsWith('index.json'))).toEqual([]);
  });
});
