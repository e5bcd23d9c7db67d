import type { Store } from '../store/db.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Services } from '../services.js';

export interface StageContext {
  readonly store: Store;
  readonly config: Config;
  readonly log: Logger;
  readonly now: () => Date;
  readonly signal: AbortSignal;
  /** Lazily created ports (GitHub, git mirrors, …); closed by the runner at the end. */
  readonly services: Services;
  /** Free-form run options (e.g. requireProbe) passed from the CLI. */
  readonly options: Readonly<Record<string, unknown>>;
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
