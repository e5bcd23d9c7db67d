import type { Store } from '../store/db.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Services } from '../services.js';
import type { GitHubClient } from '../github/client.js';
import type { GitRepos } from '../git/port.js';
import type { RunCaches } from '../run/caches.js';

/** What a run was asked to do beyond the config (from `r2v run` options; tests set their own). */
export interface RunOptions {
  /** The data directory (mirrors, probes, logs, caches). */
  readonly dataDir: string;
  /** The config file's directory: relative `git_url` / `git_dir` paths are taken from there. */
  readonly configDir?: string;
  /** false: never fetch a mirror (a missing one is an error). */
  readonly fetch?: boolean;
  /** `--refresh-mirrors`: fetch every mirror the run opens. */
  readonly refreshMirrors?: boolean;
  /** `--require-review`: admission requires a human accept. */
  readonly requireReview?: boolean;
  /** `--require-isolation`: admission requires probes that ran without network. */
  readonly requireIsolation?: boolean;
  /** pairs: time limit of one test command run (ms); default DEFAULT_TEST_TIMEOUT_MS. */
  readonly testTimeoutMs?: number;
}

export interface StageContext {
  readonly store: Store;
  readonly config: Config;
  readonly log: Logger;
  readonly now: () => Date;
  readonly signal: AbortSignal;
  readonly options: RunOptions;
  /** The GitHub client of the run, created on first use (token, retries, recorder into the store). */
  readonly github: GitHubClient;
  /** The git mirrors of the run, opened on first use, closed with `services`. */
  readonly git: GitRepos;
  /** What the run computes once and shares between items. */
  readonly caches: RunCaches;
  /** What to close when the run ends (the git port, long-lived processes); the run's owner calls close(). */
  readonly services: Services;
  /** Credentials of this run (the GitHub token); redacted from every message the runner keeps. */
  readonly secrets?: readonly string[];
}

/** One unit of work of a stage, as enumerated by `plan`. */
export interface PlannedItem<P = unknown> {
  /** Stable id, unique within the stage (e.g. `owner/name#123`). */
  readonly key: string;
  readonly repo: string;
  /**
   * Digest of everything the item reads (upstream rows, config that matters). When it changes,
   * the item is stale and runs again.
   */
  readonly inputDigest: string;
  readonly input: P;
}

/**
 * What processing an item produced. `save` runs synchronously inside the transaction that also
 * writes the ledger row, so results and ledger commit together. `save` must replace any rows a
 * previous run of the same item wrote (delete-then-insert or UPSERT): items run at least once.
 */
export type ItemOutcome =
  | { readonly status: 'done'; save(store: Store): void }
  | { readonly status: 'rejected'; readonly reason: string; save(store: Store): void };

export interface Stage<P = unknown> {
  readonly name: string;
  /** Bump when the stage's semantics change: every item becomes pending again. */
  readonly version: number;
  /** Stages whose results this one reads (must come earlier in the registry). */
  readonly needs: readonly string[];
  readonly description: string;
  /** Every item in scope (done or not); the runner filters to the pending ones. */
  plan(ctx: StageContext, repos: readonly string[]): PlannedItem<P>[] | Promise<PlannedItem<P>[]>;
  process(item: PlannedItem<P>, ctx: StageContext): Promise<ItemOutcome>;
}
