/**
 * A database holding both tasks' cases, built by the real stages: a Backward repository with a
 * candidate, a review case (another issue named next to the attribution) and a thread whose
 * guess is no attribution (rejected); and the Forward scenario (candidates, multi-link and scope-ambiguous pairs, rejections).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type Store } from '../../../src/store/db.js';
import { runCliCaptured, type CliResult } from '../../support/cli.js';
import { makeRepo, tempDir } from '../../support/make-repo.js';
import { REPO as BACKWARD_REPO, storeThread, SYMPTOM } from '../backward/pipeline-fixture.js';
import { buildScenario, REPO as FORWARD_REPO } from '../forward/scenario.js';

export { BACKWARD_REPO, FORWARD_REPO, SYMPTOM };

export interface World {
  readonly dir: string;
  readonly dbPath: string;
  readonly gold: string;
  /** Runs the CLI in the world's directory. */
  cli(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<CliResult>;
  /** Opens the database (close it before the next cli call). */
  open(): Store;
  /** Rewrites the config with extra YAML lines appended. */
  writeConfig(extra?: readonly string[]): void;
}

/** The Backward review thread: another issue is named next to the attribution (unsure symptom match). */
export function reviewThreadComment(gold: string): string {
  return `Looks like #12 again. I bisected it to ${gold.slice(0, 9)}.`;
}

/** `forward: false` leaves the Forward scenario out (a smaller, faster world). */
export async function buildWorld(options: { forward?: boolean } = {}): Promise<World> {
  const dir = await tempDir('r2v-review-');
  const dbPath = join(dir, 'data', 'r2v.db');
  const store = openStore(dbPath);
  const brepo = await makeRepo();
  await brepo.commit('Initial import', { files: { 'src/flatten.js': 'v1\n' } });
  const gold = await brepo.commit('Rework the path flattener', { files: { 'src/flatten.js': 'v2\n' } });
  await brepo.commit('Tidy docs', { files: { 'README.md': 'docs\n' } });
  storeThread(store, 1, 'render crashes on nested groups', SYMPTOM, [`Bisected it to ${gold.slice(0, 9)}.`], 10);
  storeThread(store, 2, 'render crashes on nested groups again', SYMPTOM, [reviewThreadComment(gold)], 10);
  storeThread(store, 3, 'render crashes with nested groups', SYMPTOM, [`Maybe it is ${gold.slice(0, 9)}, I suspect that commit.`], 10);
  const scenario = options.forward === false ? null : await buildScenario(store);
  store.close();

  const writeConfig = (extra: readonly string[] = []): void => {
    writeFileSync(
      join(dir, 'r2v.config.yaml'),
      [
        'data_dir: data',
        'repos:',
        `  - name: ${BACKWARD_REPO}`,
        `    git_url: ${JSON.stringify(brepo.dir)}`,
        '    default_branch: main',
        ...(scenario ? [`  - name: ${FORWARD_REPO}`, `    git_url: ${JSON.stringify(scenario.repo.dir)}`] : []),
        ...extra,
        '',
      ].join('\n'),
    );
  };
  writeConfig();
  const cli = (args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> => runCliCaptured(args, dir, env);
  return { dir, dbPath, gold, cli, open: () => openStore(dbPath), writeConfig };
}

/** Every row of the review ledger, in insertion order. */
export function ledgerRows(world: World): unknown[] {
  const store = world.open();
  try {
    return store.db.prepare('SELECT * FROM review_entries ORDER BY id').all();
  } finally {
    store.close();
  }
}

/** Runs the Backward and Forward stages (everything between discover and probe). */
export async function runPipeline(world: World, force = false): Promise<void> {
  const r = await world.cli(['--quiet', 'run', '--from', 'attribute', '--until', 'forward-screen', ...(force ? ['--force'] : [])]);
  if (r.code !== 0 && r.code !== 3) throw new Error(`pipeline run failed (${r.code}): ${r.stderr}`);
}
