import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { generateWorld } from '../../scripts/world/index.js';
import { toFakeWorld } from '../../scripts/world/fake-world.js';
import { startFakeGitHub } from '../../src/github/fake-server.js';
import { observeGitSpawns } from '../../src/git/runner.js';
import { runCliCaptured } from '../support/cli.js';
import { tempDir } from '../support/make-repo.js';

const TOKEN_ENV = 'R2V_TEST_TOKEN';

/** Runs the CLI and returns its exit code and the `git fetch` processes it started. */
async function countingFetches(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; fetches: number; stderr: string }> {
  let fetches = 0;
  const stop = observeGitSpawns((_dir, argv) => {
    if (argv[0] === 'fetch') fetches += 1;
  });
  try {
    const r = await runCliCaptured(args, cwd, env);
    return { code: r.code, fetches, stderr: r.stderr };
  } finally {
    stop();
  }
}

describe('mirrors are fetched only when it can matter', () => {
  it('re-running sanitize on the sample world starts no git fetch; --refresh-mirrors fetches each mirror once', async () => {
    const root = await tempDir('r2v-fetch-');
    const world = await generateWorld(join(root, 'world'));
    const server = await startFakeGitHub(toFakeWorld(world));
    try {
      const config = {
        github: { api_url: server.url, token_env: TOKEN_ENV, discover_mode: 'sync', max_retries: 2 },
        data_dir: '.',
        concurrency: 2,
        repos: world.repos.map((r) => ({ name: r.name, git_url: r.gitDir })),
      };
      writeFileSync(join(root, 'r2v.config.yaml'), YAML.stringify(config));
      const env = { [TOKEN_ENV]: 'test-token-not-a-secret' };
      const first = await countingFetches(['--quiet', 'run', '--until', 'sanitize'], root, env);
      expect(first.code, first.stderr).toBe(0);
      // The first run clones each mirror (a clone is an init plus one fetch).
      expect(first.fetches).toBe(world.repos.length);

      const again = await countingFetches(['--quiet', 'run', '--stage', 'sanitize', '--force'], root, env);
      expect(again.code, again.stderr).toBe(0);
      expect(again.fetches).toBe(0);

      const rest = await countingFetches(['--quiet', 'run', '--from', 'resolve', '--until', 'sanitize', '--force'], root, env);
      expect(rest.code, rest.stderr).toBe(0);
      expect(rest.fetches).toBe(0);

      const refreshed = await countingFetches(['--quiet', 'run', '--stage', 'sanitize', '--force', '--refresh-mirrors'], root, env);
      expect(refreshed.code, refreshed.stderr).toBe(0);
      expect(refreshed.fetches).toBe(world.repos.length);
    } finally {
      await server.close();
    }
  });
});
