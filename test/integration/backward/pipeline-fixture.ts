import { execa } from 'execa';
import { Config } from '../../../src/config.js';
import { findCommitPrefixCollision } from '../../../src/git/object-id.js';
import { silentLogger } from '../../../src/log.js';
import { createStageContext } from '../../../src/run/context.js';
import type { ItemOutcome, Stage, StageContext } from '../../../src/stages/types.js';
import type { Store } from '../../../src/store/db.js';
import { BASE_EPOCH, type TestRepo } from '../../support/make-repo.js';

export const REPO = 'acme/widget';

/** An observable symptom (error, file, versions, steps) that the sanitize stage keeps. */
export const SYMPTOM =
  'Rendering any SVG with nested groups now fails with `TypeError: Cannot read properties of undefined (reading "points")` ' +
  'in src/flatten.js. It works fine with 2.3.0. Steps: install widget 2.4.0, run `widget render nested.svg`, see the crash.';

/** A stage context over `store` whose git mirrors live in `dataDir`, cloned from `gitUrl`. */
export function stageContext(store: Store, dataDir: string, gitUrl: string): StageContext {
  return createStageContext({
    store,
    config: Config.parse({ repos: [{ name: REPO, git_url: gitUrl, default_branch: 'main' }] }),
    log: silentLogger,
    now: () => new Date('2024-06-01T00:00:00Z'),
    signal: new AbortController().signal,
    dataDir,
    env: {},
  });
}

/** Runs one stage the way the runner does: plan, process each item, save in a transaction. */
export async function runStage(stage: Stage<any>, ctx: StageContext): Promise<Map<string, ItemOutcome>> {
  const out = new Map<string, ItemOutcome>();
  for (const item of await stage.plan(ctx, [REPO])) {
    const outcome = await stage.process(item, ctx);
    ctx.store.transaction(() => outcome.save(ctx.store));
    out.set(item.key, outcome);
  }
  return out;
}

/** Time of the fixed clock, `hours` after its base. */
export const at = (hours: number): string => new Date((BASE_EPOCH + hours * 3600) * 1000).toISOString().replace('.000Z', 'Z');

/** Stores an issue thread (body + comments, one hour apart after `createdHour`) as discover/import would. */
export function storeThread(store: Store, number: number, title: string, body: string, comments: readonly string[], createdHour: number): void {
  const sources = store.sources;
  sources.upsertThread({
    repo: REPO,
    number,
    kind: 'issue',
    title,
    body,
    author: 'reporter',
    state: 'open',
    createdAt: at(createdHour),
    updatedAt: null,
    closedAt: null,
    htmlUrl: `https://github.com/${REPO}/issues/${number}`,
    source: 'import',
  });
  sources.replaceComments(
    REPO,
    number,
    comments.map((c, i) => ({
      repo: REPO,
      number,
      commentId: number * 100 + i,
      author: `dev${i}`,
      createdAt: at(createdHour + i + 1),
      updatedAt: null,
      body: c,
      htmlUrl: null,
    })),
  );
}

const hasLetterAndDigit = (hex: string): boolean => /[a-f]/.test(hex) && /\d/.test(hex);

/**
 * Two commits on `parent` whose SHAs share their first 7 hex digits (found by hashing candidate
 * commit objects; a birthday search needs some tens of thousands), written into the repository
 * and kept alive by the branches exp-a and exp-b.
 */
export async function collidingCommits(repo: TestRepo, parent: string): Promise<{ prefix: string; shas: [string, string] }> {
  const tree = await repo.git(['rev-parse', `${parent}^{tree}`]);
  const when = `${BASE_EPOCH + 50 * 3600} +0000`;
  const found = findCommitPrefixCollision(
    (i) => `tree ${tree}\nparent ${parent}\nauthor Test Author <author@example.com> ${when}\ncommitter Test Author <author@example.com> ${when}\n\nExperiment ${i}\n`,
    7,
    { accept: hasLetterAndDigit, limit: 2_000_000 },
  );
  if (!found) throw new Error('no colliding prefix found');
  const shas: string[] = [];
  for (const [k, b] of found.bodies.entries()) {
    const r = await execa('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], {
      cwd: repo.dir,
      input: b,
      env: { LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' },
    });
    shas.push(r.stdout.trim());
    await repo.updateRef(`refs/heads/exp-${k === 0 ? 'a' : 'b'}`, r.stdout.trim());
  }
  return { prefix: found.prefix, shas: [shas[0]!, shas[1]!] };
}
