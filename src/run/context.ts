import { isAbsolute, resolve } from 'node:path';
import { repoConfig, tokenEnvs, type Config } from '../config.js';
import { createGitHubClient, tokenFrom, type GitHubClient, type GitHubClientOptions } from '../github/client.js';
import { defaultGitUrl } from '../git/mirror.js';
import { createGitPort, type GitRepos } from '../git/port.js';
import { secretsInEnv, type Logger } from '../log.js';
import { createServices } from '../services.js';
import type { Store } from '../store/db.js';
import type { RunOptions, StageContext } from '../stages/types.js';
import { createRunCaches } from './caches.js';

/**
 * Builds the context every stage receives: the run's options, its ports (GitHub client and git
 * mirrors, both created on first use) and its caches. The owner of the run closes
 * `ctx.services` at the end.
 */
export function createStageContext(input: {
  store: Store;
  config: Config;
  log: Logger;
  signal: AbortSignal;
  dataDir: string;
  /** Where the GitHub token is read from (never process.env directly). */
  env: NodeJS.ProcessEnv;
  now?: () => Date;
  options?: Omit<RunOptions, 'dataDir'>;
  /** The variable holding this run's token (a shard's); default the config's first. */
  tokenEnv?: string;
  /** Client settings over the config's (tests: fast retries against a local server). */
  githubClient?: Partial<GitHubClientOptions>;
}): StageContext {
  const now = input.now ?? (() => new Date());
  const options: RunOptions = { ...(input.options ?? {}), dataDir: input.dataDir };
  const services = createServices();
  const git = gitPortOf(input.config, options, input.signal);
  services.onClose(() => git.close());
  const tokenEnv = input.tokenEnv ?? tokenEnvs(input.config)[0]!;
  return {
    store: input.store,
    config: input.config,
    log: input.log,
    signal: input.signal,
    now,
    options,
    github: lazyGitHubClient(() => {
      const g = input.config.github;
      return createGitHubClient({
        apiUrl: g.api_url,
        ...(g.graphql_url ? { graphqlUrl: g.graphql_url } : {}),
        token: tokenFrom(input.env, tokenEnv, 'discover'),
        recorder: input.store.github.withTokenEnv(tokenEnv),
        maxRetries: g.max_retries,
        pace: !isLoopback(g.api_url),
        log: input.log,
        now,
        ...input.githubClient,
      });
    }),
    git,
    caches: createRunCaches(),
    services,
    secrets: [...new Set([...tokenEnvs(input.config).map((name) => input.env[name]?.trim() ?? ''), ...secretsInEnv(input.env)].filter((s) => s.length >= 4))],
  };
}

/**
 * The run's git mirrors. The mirror URL of a repository is its configured `git_url`, else
 * GitHub's; a configured `git_dir` is used in place.
 */
function gitPortOf(config: Config, options: RunOptions, signal: AbortSignal): GitRepos {
  return createGitPort({
    dataDir: options.dataDir,
    urlFor: (repo) => resolveGitUrl(repoConfig(config, repo)?.git_url, options.configDir) ?? defaultGitUrl(repo),
    gitDirFor: (repo) => {
      const dir = repoConfig(config, repo)?.git_dir;
      return dir === undefined ? undefined : resolveGitUrl(dir, options.configDir);
    },
    mode: options.fetch === false ? 'never' : options.refreshMirrors === true ? 'always' : undefined,
    signal,
  });
}

/** A client created on the first request for a port (a run without discover needs no token). */
function lazyGitHubClient(create: () => GitHubClient): GitHubClient {
  let client: GitHubClient | undefined;
  return { port: (scope) => (client ??= create()).port(scope) };
}

/**
 * A configured git URL; a relative local path is taken relative to the config file's directory
 * (like data_dir), not to wherever r2v was started.
 */
export function resolveGitUrl(url: string | undefined, configDir: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^[^/\\]+@[^:]+:/.test(url);
  if (isUrl || isAbsolute(url) || configDir === undefined) return url;
  return resolve(configDir, url);
}

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  } catch {
    return false;
  }
}
