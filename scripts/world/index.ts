/**
 * Generates the offline sample world: three repositories with real git history (bare repos
 * playing the GitHub remotes) and the issues and pull requests about them. Deterministic: the
 * same code gives the same SHAs, texts and times.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findCommitPrefixCollision } from '../../src/git/object-id.js';
import { runGit } from '../../src/git/runner.js';
import { writeTinyparse, TINYPARSE } from './tinyparse.js';
import { writeQuill } from './quill.js';
import { writeEmber } from './ember.js';
import type { RepoScript } from './script.js';
import type { SampleWorld, WorldRepo } from './types.js';

export const WORLD_VERSION = 'world/1';

async function git(gitDir: string, args: string[], input?: string): Promise<string> {
  return (await runGit(gitDir, args, { input })).stdout.trim();
}

/**
 * Adds two unmerged commits (under `refPrefix`-a and -b) whose 7-hex abbreviations are equal,
 * so that abbreviation is ambiguous in the repository, as happens in large projects. A birthday
 * search over commit nonces finds a pair in a few ten thousand hashes; it is deterministic.
 * Returns the shared 7-hex prefix.
 */
export async function plantAmbiguousPrefix(gitDir: string, branch: string, refPrefix: string): Promise<string> {
  const tip = await git(gitDir, ['rev-parse', branch]);
  const tree = await git(gitDir, ['rev-parse', `${tip}^{tree}`]);
  const head = `tree ${tree}\nparent ${tip}\nauthor Aiko Tanaka <aiko@example.org> 1735689600 +0000\ncommitter Aiko Tanaka <aiko@example.org> 1735689600 +0000\n\nwip: try a faster splitter\n\nattempt `;
  const { prefix, bodies } = findCommitPrefixCollision((nonce) => `${head}${nonce}\n`, 7)!;
  for (const [suffix, text] of [['a', bodies[0]], ['b', bodies[1]]] as const) {
    const written = await git(gitDir, ['hash-object', '-t', 'commit', '-w', '--stdin'], text);
    await git(gitDir, ['update-ref', `${refPrefix}-${suffix}`, written]);
  }
  return prefix;
}

export async function generateWorld(root: string): Promise<SampleWorld> {
  mkdirSync(join(root, 'remotes'), { recursive: true });
  const parts = [writeTinyparse(), writeQuill(), writeEmber()];
  const repos: WorldRepo[] = [];
  const extraExpectations: SampleWorld['expectations'] = [];
  for (const part of parts) {
    const s: RepoScript = part.script;
    const gitDir = join(root, 'remotes', `${s.repo.replace('/', '__')}.git`);
    await s.h.write(gitDir);
    part.after(s);
    if (s.repo === TINYPARSE) {
      // Planted on the v0.4.1 release (not the moving tip of main), so the colliding pair stays fixed.
      const prefix = await plantAmbiguousPrefix(gitDir, 'v0.4.1^{commit}', 'refs/heads/wip-splitter');
      s.issue({
        number: 106, title: 'Parsing is slower on long records', author: 'farid', at: Date.parse(s.issues[0]!.created_at) / 1000 + 9 * 3600,
        body: 'Parsing a 10 MB file with long records takes 2.1 s on 0.4.0 versus 1.2 s on 0.3.0 (`python3 -m timeit -s "from tinyparse.fields import split_fields" "split_fields(\'a,\' * 5000)"`).',
        comments: [{ author: 'farid', afterHours: 3, body: `git bisect says the first bad commit is ${prefix}.` }],
      });
      extraExpectations.push({ repo: s.repo, kind: 'backward', ref: '#106', expect: 'rejected: ambiguous-sha' });
    }
    repos.push({
      name: s.repo,
      description: '',
      defaultBranch: 'main',
      gitDir,
      testCommand: s.repo === 'quillhq/quill-api' ? 'node run-tests.js {tests}' : undefined,
      testGlobs: s.repo === 'quillhq/quill-api' ? ['test/**'] : undefined,
      issues: [...s.issues].sort((a, b) => a.number - b.number),
      pulls: s.finishPulls().sort((a, b) => a.number - b.number),
    });
  }
  // Probes and expectations are filled in by each part's `after`, once its SHAs are known.
  const probes = parts.flatMap((p) => p.probes);
  const expectations = [...parts.flatMap((p) => p.expectations), ...extraExpectations];
  const world: SampleWorld = { root, repos, probes, expectations };
  writeFileSync(join(root, 'world.json'), `${JSON.stringify(world, null, 2)}\n`);
  return world;
}

/** The world's threads and pulls in r2v's offline import format (one JSON object per line). */
export function importLines(world: SampleWorld): { threads: string[]; pulls: string[] } {
  const threads: string[] = [];
  const pulls: string[] = [];
  for (const repo of world.repos) {
    for (const i of repo.issues) {
      const { comments, ...issue } = i;
      threads.push(JSON.stringify({ repo: repo.name, issue, comments }));
    }
    for (const p of repo.pulls) {
      const { commits, closing_issues, ...pull } = p;
      pulls.push(JSON.stringify({ repo: repo.name, pull_request: { ...pull, merged: p.merged_at !== null }, commits: commits.map((c) => ({ sha: c.sha, commit: { message: c.message } })), closing_issues }));
    }
  }
  return { threads, pulls };
}
