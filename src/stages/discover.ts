import { repoConfig } from '../config.js';
import { buildDiscoverRows, fetchRepository, type DiscoverRows, type LaggedCursor } from '../github/discover.js';
import type { Store } from '../store/db.js';
import { planItem } from './plan.js';
import type { Stage } from './types.js';

const CURSOR_RESOURCES = ['issues', 'comments'] as const;

export interface DiscoverInput {
  readonly repo: string;
  /** The config that decides what is asked of the API. */
  readonly mode: 'search' | 'sync';
  readonly api: string;
  readonly graphql: string | null;
}

/**
 * discover: per repository, its metadata, the Backward candidate threads (search or sync mode),
 * the merged pull requests with their commits and links, and the linked issues' threads, all
 * saved in one `save()`. Reads the live API; `r2v import` fills the same tables offline.
 */
export const discoverStage: Stage<DiscoverInput> = {
  name: 'discover',
  version: 1,
  needs: [],
  description: 'list candidate issues, comments, merged pull requests and their links from the GitHub API',
  plan(ctx, repos) {
    const g = ctx.config.github;
    // An offline workspace (github.mode: offline) holds imported data only: nothing to discover.
    if (g.mode === 'offline') return [];
    // Only configured repositories are discovered live; imported-only ones stay offline.
    return repos
      .filter((repo) => repoConfig(ctx.config, repo) !== undefined)
      .map((repo) => planItem(repo, repo, { repo, mode: g.discover_mode, api: g.api_url, graphql: g.graphql_url ?? null }));
  },
  async process(item, ctx) {
    const { repo, mode } = item.input;
    const tables = ctx.store.github;
    const sources = ctx.store.sources;
    const port = ctx.github.port({ stage: 'discover', repo });
    const cursors: Record<string, LaggedCursor> = {};
    for (const r of CURSOR_RESOURCES) cursors[r] = { since: tables.cursor(repo, r), next: tables.cursor(repo, `${r}:next`) };
    const fetched = await fetchRepository(port, repo, {
      mode,
      cursors,
      now: ctx.now,
      isStored: (n) => sources.thread(repo, n) !== undefined,
    });
    if (fetched.info.name && fetched.info.name.toLowerCase() !== repo.toLowerCase()) {
      ctx.log.info('repository answers under another name (renamed or transferred): both names are one repository', { repo, current: fetched.info.name });
    }
    if (fetched.dropped > 0) ctx.log.warn('dropped list elements that did not match the schema', { repo, dropped: fetched.dropped });
    for (const s of fetched.incompleteSlices) ctx.log.warn('search slice still above the result cap', { repo, slice: s });
    const rows = buildDiscoverRows(fetched, ctx.now());
    // New pull requests or threads can name commits the mirror lacks: fetch it when next opened.
    if (rows.pulls.length > 0 || rows.threads.length > 0) ctx.git.markStale(repo);
    return { status: 'done', save: (store) => saveDiscoverRows(store, rows, fetched.cursors) };
  },
};

/** Replaces what an earlier run of the item wrote (upserts; full comment lists and links are replaced). */
export function saveDiscoverRows(store: Store, rows: DiscoverRows, cursors: Record<string, LaggedCursor>): void {
  const sources = store.sources;
  const tables = store.github;
  const old = sources.repo(rows.repo.name);
  const same =
    old !== undefined &&
    old.defaultBranch === rows.repo.defaultBranch &&
    old.isFork === rows.repo.isFork &&
    old.parent === rows.repo.parent &&
    old.htmlUrl === rows.repo.htmlUrl &&
    old.source === rows.repo.source;
  if (!same) sources.upsertRepo(rows.repo);
  for (const t of rows.threads) sources.upsertThread(t);
  for (const c of rows.comments) sources.upsertComment(c);
  for (const l of rows.commentLists) sources.replaceComments(rows.repo.name, l.number, l.rows);
  for (const p of rows.pulls) {
    sources.upsertPull(p);
    sources.replaceLinksOfPull(p.repo, p.number, rows.links.get(p.number) ?? []);
  }
  for (const [resource, c] of Object.entries(cursors)) {
    tables.setCursor(rows.repo.name, resource, c.since);
    tables.setCursor(rows.repo.name, `${resource}:next`, c.next);
  }
}
