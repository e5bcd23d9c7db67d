/** Turns the sample world into the fixture world the local fake GitHub serves. */
import type { FakeWorld, FakeRepo, FakeTimelineEvent } from '../../src/github/fake-server.js';
import type { SampleWorld } from './types.js';

export function toFakeWorld(world: SampleWorld): FakeWorld {
  const repos: FakeRepo[] = world.repos.map((r) => {
    const timelines = new Map<number, FakeTimelineEvent[]>();
    for (const p of r.pulls) {
      const mentioned = new Set<number>(p.closing_issues);
      for (const m of p.body.matchAll(/#(\d+)/g)) mentioned.add(Number(m[1]));
      for (const n of mentioned) {
        if (!r.issues.some((i) => i.number === n)) continue;
        const list = timelines.get(n) ?? [];
        list.push({ event: 'cross-referenced', created_at: p.created_at, source_number: p.number, source_is_pull: true });
        timelines.set(n, list);
      }
    }
    return {
      name: r.name,
      default_branch: r.defaultBranch,
      fork: false,
      parent: null,
      created_at: '2023-12-01T00:00:00Z',
      issues: r.issues.map((i) => ({
        number: i.number,
        title: i.title,
        body: i.body,
        user: i.user.login,
        state: i.state,
        created_at: i.created_at,
        updated_at: i.comments.at(-1)?.created_at ?? i.created_at,
        closed_at: i.closed_at,
        comments: i.comments.map((c) => ({ id: c.id, user: c.user.login, created_at: c.created_at, body: c.body })),
        timeline: timelines.get(i.number) ?? [],
      })),
      pulls: r.pulls.map((p) => ({
        number: p.number,
        title: p.title,
        body: p.body,
        user: p.user.login,
        state: p.state,
        draft: p.draft,
        base_ref: p.base.ref,
        base_sha: p.base.sha,
        head_ref: p.head.ref,
        head_sha: p.head.sha,
        merge_commit_sha: p.merge_commit_sha,
        created_at: p.created_at,
        updated_at: p.merged_at ?? p.created_at,
        merged_at: p.merged_at,
        commits: p.commits,
        closing_issues: p.closing_issues,
      })),
    };
  });
  return { repos };
}
