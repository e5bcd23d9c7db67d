import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPackages } from '../../../src/export/audit.js';
import { boundariesBelow, OBJECTS_DIR } from '../../../src/export/object-layers.js';
import { GRADING_DIR, packageBackward } from '../../../src/export/package.js';
import { BackwardManifestRecord } from '../../../src/export/read-manifest.js';
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
const files = (pkg: string): Record<string, string> =>
  Object.fromEntries(['history_metadata.jsonl', 'report.md', 'task.json'].map((f) => [f, readFileSync(join(pkg, f), 'utf8')]));

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
    // Layers below each cutoff + one pack of its own (none when the cutoff is a boundary).
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
      expect(files(join(layered, r.case_id))).toEqual(files(join(whole, r.case_id)));
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
