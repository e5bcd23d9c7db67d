import { readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { ConfigError } from './errors.js';

const REPO_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,38}\/[A-Za-z0-9._-]{1,100}$/;

/**
 * Why `name` is not a usable repository name, or null when it is. The one rule for every place a
 * name enters (config, `repo add`, import lines, --repo options, case keys): owner/name with
 * GitHub's characters, and no name that is a path step (`.`, `..`) or a git directory (`.git`,
 * `*.git`), since names become directory names under the data dir.
 */
export function repoNameProblem(name: string): string | null {
  if (!REPO_NAME.test(name)) return 'must be owner/name';
  const repo = name.slice(name.indexOf('/') + 1);
  if (repo === '.' || repo === '..') return `repository part ${JSON.stringify(repo)} is a path step, not a name`;
  if (repo.toLowerCase().endsWith('.git')) return `repository part ${JSON.stringify(repo)} ends in .git`;
  return null;
}

export function isRepoName(name: string): boolean {
  return repoNameProblem(name) === null;
}

/** The zod rule for a repository name (config files and import lines). */
export const RepoName = z.string().superRefine((name, ctx) => {
  const problem = repoNameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');

export const RepoConfig = z
  .object({
    name: RepoName,
    git_url: z.string().min(1).optional(),
    git_dir: z.string().min(1).optional(),
    default_branch: z.string().min(1).optional(),
    test_command: z.string().min(1).optional(),
    test_globs: z.array(z.string().min(1)).optional(),
    /** Transplanted probes: commands run in each checkout before the tests (dependency installs). */
    test_setup: z.array(z.string().min(1)).optional(),
    /** Paths the setup produces (e.g. node_modules, .venv), cached per (repository, lockfile digest). */
    test_setup_cache: z
      .array(z.string().min(1).refine((p) => !p.startsWith('/') && !p.split('/').includes('..'), 'must be a path inside the checkout'))
      .optional(),
    release_branches: z.array(z.string().min(1)).optional(),
    /** Former owner/name spellings (renamed or transferred repository): their URLs are this repository's. */
    aliases: z.array(RepoName).optional(),
    /** Component map for the Backward locality label: name → path prefixes (default: top-level directories). */
    components: z
      .record(z.string().min(1), z.array(z.string().min(1).refine((p) => !p.startsWith('/') && !p.split('/').includes('..'), 'must be a path inside the repository')).min(1))
      .optional(),
  })
  .strict();
export type RepoConfig = z.infer<typeof RepoConfig>;

export const Config = z
  .object({
    github: z
      .object({
        api_url: z.string().url().default('https://api.github.com'),
        graphql_url: z.string().url().optional(),
        token_env: z
          .union([EnvName, z.array(EnvName).min(1, 'must name at least one variable')])
          .default('GITHUB_TOKEN'),
        discover_mode: z.enum(['search', 'sync']).default('sync'),
        max_retries: z.number().int().min(0).max(10).default(3),
        mode: z.enum(['online', 'offline']).default('online'),
      })
      .strict()
      .default({ api_url: 'https://api.github.com', token_env: 'GITHUB_TOKEN', discover_mode: 'sync', max_retries: 3, mode: 'online' }),
    data_dir: z.string().min(1).default('data'),
    concurrency: z.number().int().min(1).max(64).default(2),
    repos: z.array(RepoConfig).default([]),
    screener: z
      .object({
        name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'must be a short lowercase name'),
        command: z.array(z.string().min(1)).min(1, 'must name a program'),
        timeout_s: z.number().int().min(1).default(120),
      })
      .strict()
      .optional(),
    pairs: z
      .object({
        window_days: z.number().int().min(0).default(14),
        base: z.enum(['newer', 'older']).default('newer'),
        repeats: z.number().int().min(2).default(2),
      })
      .strict()
      .default({ window_days: 14, base: 'newer', repeats: 2 }),
  })
  .strict();
export type Config = z.infer<typeof Config>;

export const CONFIG_FILE = 'r2v.config.yaml';

export interface LoadedConfig {
  readonly config: Config;
  /** Absolute path of the file, or null when none exists (defaults). */
  readonly path: string | null;
  /** Directory relative paths (data_dir) resolve against. */
  readonly baseDir: string;
}

/** Finds and validates the config. `explicit` must exist; the default file may be absent. */
export function loadConfig(explicit: string | undefined, cwd: string): LoadedConfig {
  const path = explicit ? resolve(cwd, explicit) : resolve(cwd, CONFIG_FILE);
  if (!existsSync(path)) {
    if (explicit) throw new ConfigError(`${explicit}: config file not found`);
    return { config: Config.parse({}), path: null, baseDir: cwd };
  }
  return { config: parseConfigText(readConfigFile(path), path), path, baseDir: dirname(path) };
}

/** The config, or one line saying there is none (for commands that cannot work without one). */
export function requireConfig(explicit: string | undefined, cwd: string): LoadedConfig {
  const loaded = loadConfig(explicit, cwd);
  if (loaded.path === null) {
    throw new ConfigError(`no ${CONFIG_FILE} in ${cwd} (create one with: r2v init, or pass --config FILE or --db FILE)`);
  }
  return loaded;
}

function readConfigFile(path: string): string {
  try {
    if (statSync(path).isDirectory()) throw new ConfigError(`${path}: is a directory, not a config file`);
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${path}: cannot read config: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
}

export function parseConfigText(text: string, path: string): Config {
  let raw: unknown;
  try {
    const doc = YAML.parseDocument(text, { uniqueKeys: true, prettyErrors: true });
    if (doc.errors.length > 0) {
      const e = doc.errors[0]!;
      const pos = e.linePos?.[0];
      throw new ConfigError(`${path}${pos ? `:${pos.line}:${pos.col}` : ''}: invalid YAML: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`);
    }
    raw = doc.toJS() ?? {};
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${path}: invalid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = Config.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length > 0 ? issue.path.join('.') : '(root)';
    throw new ConfigError(`${path}: ${field}: ${issue.message}`);
  }
  const seen = new Set<string>();
  for (const [i, r] of parsed.data.repos.entries()) {
    if (seen.has(r.name.toLowerCase())) throw new ConfigError(`${path}: repos.${i}.name: duplicate repository ${r.name}`);
    seen.add(r.name.toLowerCase());
  }
  return parsed.data;
}

export function resolveDataDir(loaded: LoadedConfig): string {
  const d = loaded.config.data_dir;
  return isAbsolute(d) ? d : resolve(loaded.baseDir, d);
}

/** The token variables of `github.token_env` (one name or a list), in order. */
export function tokenEnvs(config: Config): string[] {
  const t = config.github.token_env;
  return typeof t === 'string' ? [t] : [...t];
}

export function repoConfig(config: Config, name: string): RepoConfig | undefined {
  return config.repos.find((r) => r.name.toLowerCase() === name.toLowerCase());
}

export const STARTER_CONFIG = `# r2v configuration. Every field is optional except where noted.
#
# GitHub API access. The token is read from the environment variable named here; it is never
# written to the database, the logs or the exports.
github:
  api_url: https://api.github.com      # GitHub Enterprise: https://HOST/api/v3
  token_env: GITHUB_TOKEN               # or a list [TOKEN_A, TOKEN_B]: shard K uses the (K mod M)-th
  discover_mode: sync                   # sync: every issue and comment, incrementally; search: bisect vocabulary only
  max_retries: 3
  # mode: offline                       # imported data only; discover is skipped (r2v import sets it when no token is set)

# Where the database (r2v.db) and the git mirrors live, relative to this file.
data_dir: data

# How many items a stage processes at once.
concurrency: 2

# The repositories to mine. Add them with: r2v repo add owner/name [--git-url URL]
repos: []
#  - name: owner/name
#    git_url: https://github.com/owner/name.git   # or a local path / file:// URL (mirrored blobless)
#    git_dir: /archive/owner/name.git             # or use a repository on disk in place (never fetched into)
#    default_branch: main                         # overrides the API's answer
#    aliases: [oldowner/oldname]                  # former names: their commit URLs count as this repository's
#    test_command: "npm test -- {tests}"          # coupled pairs and transplanted probes: {tests} is replaced
#                                                 # by test ids; {junit}, if present, by a JUnit XML report path
#    test_globs: ["test/**", "**/*.test.ts"]      # which changed files are tests
#    test_setup: ["npm ci --offline"]             # transplanted probes: run in each checkout before the tests
#    test_setup_cache: [node_modules]             # kept per (repository, lockfile digest): N cases install once
#    components: {parser: [src/parse, src/lex]}   # locality label: path prefixes per component (default: top-level dirs)

# Optional external screener (e.g. a script that asks a language model): it reads one candidate
# as JSON on stdin and answers {"decision", "reasons", "quotes"}. Its answers are proposals recorded
# in the review ledger under reviewer screener:<name>; they never override a rule-based reject.
# screener:
#   name: llm
#   command: ["python3", "screen.py"]
#   timeout_s: 120

# Coupled PR pairs.
pairs:
  window_days: 14     # also pair PRs merged within this many days of each other
  base: newer         # which of the two base commits is the shared base
  repeats: 2          # each test run is repeated; disagreement makes a pair flaky
`;
