import { repositoryAliases } from '../github/identity.js';
import { attributeThread } from '../backward/chain.js';
import { threadFromRows } from '../backward/thread.js';
import { repoConfig } from '../config.js';
import type { CommentRow, ThreadRow } from '../store/tables/sources.js';
import { digestOf } from '../util/canonical.js';
import type { Store } from '../store/db.js';
import type { PlannedItem, Stage } from './types.js';

export interface AttributeItem {
  readonly repo: string;
  readonly number: number;
  readonly thread: ThreadRow;
  readonly comments: readonly CommentRow[];
  readonly aliases: readonly string[];
}

/**
 * Backward: finds first-bad attributions in every issue thread (body and comments) and makes
 * the text-level screening decision. A thread rejected here carries its reason codes and the
 * quoted evidence; later Backward stages read the stored attributions.
 */
export const attributeStage: Stage<AttributeItem> = {
  name: 'attribute',
  version: 2,
  needs: ['discover'],
  description: 'find first-bad attributions in issue threads and screen their wording (Backward)',
  plan(ctx, repos) {
    const sources = ctx.store.sources;
    const items: PlannedItem<AttributeItem>[] = [];
    for (const repo of repos) {
      const aliases = repositoryAliases(repo, repoConfig(ctx.config, repo)?.aliases ?? [], sources.repo(repo)?.htmlUrl);
      for (const thread of sources.threads(repo)) {
        if (thread.kind !== 'issue') continue;
        const comments = sources.comments(repo, thread.number);
        items.push({
          key: `${repo}#${thread.number}`,
          repo,
          inputDigest: digestOf(aliases.length > 0 ? { thread, comments, aliases } : { thread, comments }),
          input: { repo, number: thread.number, thread, comments, aliases },
        });
      }
    }
    return items;
  },
  async process(item) {
    const { repo, number } = item.input;
    const thread = threadFromRows(item.input.thread, [...item.input.comments], item.input.aliases);
    const { attributions, screen } = attributeThread(thread);
    const save = (store: Store): void =>
      store.backward.replaceAttributions(repo, number, attributions, screen);
    if (screen.decision === 'reject') {
      return { status: 'rejected', reason: [...new Set(screen.reasons.map((r) => r.code))].join(',') || 'no-attribution', save };
    }
    return { status: 'done', save };
  },
};
