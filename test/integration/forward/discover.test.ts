import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Config } from '../../../src/config.js';
import { silentLogger } from '../../../src/log.js';
import { createStageContext } from '../../../src/run/context.js';
import { runStages } from '../../../src/run/runner.js';
import { discoverStage } from '../../../src/stages/discover.js';
import { forwardScreenStage } from '../../../src/stages/forward-screen.js';
import { linkStage } from '../../../src/stages/link.js';
import { recoverStage } from '../../../src/stages/recover.js';
import { routeStage } from '../../../src/stages/route.js';
import { openStore } from '../../../src/store/db.js';
import { FAST_CLIENT } from '../../support/discover-child.js';
import { startFakeGitHub, type FakeGitHub } from '../../support/github-server.js';
import { makeRepo, tempDir } from '../../support/make-repo.js';
import { WORKFLOWS } from '../../unit/forward/workflows.js';

const REPO = 'acme/gadgets';
const TOKEN = 'ghp_forwardtesttoken0000000000000000000';
const servers: FakeGitHub[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

describe('Forward from the fake GitHub', () => {
  it('discovers a fixed issue, then links, recovers, routes and screens it', async () => {
    const repo = await makeRepo();
    const base = await repo.commit('project', {
      files: { ...WORKFLOWS, 'docs/guide.md': '# Guide\n', 'docs/index.md': '# Index\n', 'src/a.ts': 'export const a = 1;\n' },
    });
    await repo.checkout('fix-guide', { create: true });
    const head = await repo.commit('document empty input', { files: { 'docs/guide.md': '# Guide\n\nEmpty input is allowed.\n' } });
    await repo.updateRef('refs/pull/2/head', head);
    await repo.checkout('main');
    const merge = await repo.merge('fix-guide', { message: 'Merge pull request #2' });

    const server = await startFakeGitHub({
      repos: [
        {
          name: REPO,
          default_branch: 'main',
          issues: [
            {
              number: 1, title: 'Guide is silent on empty input', body: 'docs/guide.md does not say what empty input does.', user: 'reporter',
              state: 'closed', created_at: '2024-03-01T00:00:00Z', closed_at: '2024-03-04T00:00:00Z',
              comments: [
                { id: 11, user: 'alice', created_at: '2024-03-01T10:00:00Z', body: 'Same question here.' },
                { id: 12, user: 'dev', created_at: '2024-03-03T00:00:00Z', body: 'Fixed by #2.' },
              ],
            },
          ],
          pulls: [
            {
              number: 2, title: 'Document empty input', body: 'Fixes #1', user: 'dev', state: 'closed', base_ref: 'main', base_sha: base,
              head_ref: 'fix-guide', head_sha: head, merge_commit_sha: merge, created_at: '2024-03-02T00:00:00Z',
              merged_at: '2024-03-03T00:00:00Z', commits: [{ sha: head, message: 'document empty input' }], closing_issues: [1],
            },
          ],
        },
      ],
    });
    servers.push(server);

    const dataDir = await tempDir('r2v-forward-gh-');
    const store = openStore(join(dataDir, 'r2v.db'));
    const config = Config.parse({ github: { api_url: server.url }, repos: [{ name: REPO, git_url: repo.dir }] });
    const ctx = createStageContext({
      store, config, log: silentLogger, signal: new AbortController().signal, dataDir,
      env: { GITHUB_TOKEN: TOKEN }, now: () => new Date('2025-01-01T00:00:00Z'), githubClient: FAST_CLIENT,
    });
    try {
      const summary = await runStages(ctx, { stages: [discoverStage, linkStage, recoverStage, routeStage, forwardScreenStage], repos: [REPO] });
      expect(summary.failed).toBe(0);
      expect(server.unexpected).toEqual([]);
      const [c, ...more] = store.forward.cases([REPO]);
      expect(more).toEqual([]);
      expect(c).toMatchObject({
        issue: 1,
        pull: 2,
        decision: 'candidate',
        base: base,
        base_rule: 'pr-base-sha',
        changed_paths: ['docs/guide.md'],
        gold: ['.github/workflows/docs.yml', '.github/workflows/lint.yml'],
        source: { issue_url: `https://github.com/${REPO}/issues/1`, pr_url: `https://github.com/${REPO}/pull/2` },
      });
      expect(c!.source.link_kinds).toContain('closing-references');
      expect(c!.issue_text).toBe(
        'Guide is silent on empty input\n\ndocs/guide.md does not say what empty input does.\n\n--- comment by @alice at 2024-03-01T10:00:00Z ---\n\nSame question here.',
      );
      const everything = JSON.stringify(store.db.prepare('SELECT * FROM forward_cases').all()) + JSON.stringify(store.db.prepare('SELECT * FROM forward_golds').all());
      expect(everything).not.toContain(TOKEN);
    } finally {
      await ctx.services.close();
      store.close();
    }
  });
});
