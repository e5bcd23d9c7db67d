import type { z } from 'zod';
import type { GitHubTables } from '../store/tables/github.js';
import { GitHubError, toGitHubError } from './errors.js';
import { NOT_MODIFIED_HEADER } from './headers.js';
import { closingIssuesQuery, CLOSING_ISSUES_OPERATION } from './graphql.js';
import type { CrossReference, GitHubPort, Issue, IssueComment, Listed, PortScope, PullCommit, PullRequest } from './port.js';
import { splitRepo } from './port.js';
import {
  ClosingIssuesAnswer,
  RestComment,
  RestCommit,
  RestIssue,
  RestPull,
  RestRepo,
  RestTimelineEvent,
  firstIssue,
  parseLooseArray,
  toComment,
  toCrossReference,
  toIssue,
  toPullCommit,
  toPullRequest,
  toRepoInfo,
} from './schema.js';

/** The slice of the octokit instance the port uses (kept structural so this file stays small). */
interface OctokitLike {
  request(route: string, params?: Record<string, unknown>): Promise<{ data: unknown; status: number }>;
  paginate: {
    iterator(route: string, params?: Record<string, unknown>): AsyncIterable<{ data: unknown; status: number; headers: Record<string, unknown> }>;
  };
  graphql: { defaults(options: { url: string }): (query: string, params: Record<string, unknown>) => Promise<unknown> };
}

export interface RestPortInput {
  readonly octokit: unknown;
  readonly scope: PortScope;
  readonly recorder: Pick<GitHubTables, 'cached' | 'putCached'>;
  readonly graphqlUrl: string;
  readonly now: () => Date;
  /** Redacted from error messages made here (the token). */
  readonly secrets?: readonly string[];
}

const PER_PAGE = 100;

export function createRestPort(input: RestPortInput): GitHubPort {
  const octokit = input.octokit as OctokitLike;

  /** Reads every page; list elements that do not match `schema` are dropped and counted. */
  async function list<R, T>(
    route: string,
    params: Record<string, unknown>,
    schema: z.ZodType<R>,
    map: (r: R) => T | null,
  ): Promise<Listed<T>> {
    const items: T[] = [];
    let dropped = 0;
    let unchanged = true;
    for await (const page of octokit.paginate.iterator(route, { per_page: PER_PAGE, ...params })) {
      if (page.headers[NOT_MODIFIED_HEADER] !== '1') unchanged = false;
      const parsed = parseLooseArray(schema, page.data);
      for (const r of parsed.items) {
        const t = map(r);
        if (t === null) dropped += 1;
        else items.push(t);
      }
      dropped += parsed.dropped;
    }
    return { items, dropped, unchanged };
  }

  async function one<R>(route: string, params: Record<string, unknown>, schema: z.ZodType<R>): Promise<R> {
    const { data } = await octokit.request(route, params);
    const r = schema.safeParse(data);
    if (!r.success) throw new GitHubError('parse', `${describe(route, params)}: unexpected response: ${firstIssue(r.error)}`, null);
    return r.data;
  }

  return {
    async getRepository(repo) {
      return toRepoInfo(await one('GET /repos/{owner}/{repo}', own(repo), RestRepo));
    },
    listIssues(repo, { since }) {
      const params: Record<string, unknown> = { ...own(repo), state: 'all', sort: 'updated', direction: 'asc' };
      if (since) params.since = since;
      return list('GET /repos/{owner}/{repo}/issues', params, RestIssue, toIssue);
    },
    listRepoComments(repo, { since }) {
      const params: Record<string, unknown> = { ...own(repo), sort: 'updated', direction: 'asc' };
      if (since) params.since = since;
      return list('GET /repos/{owner}/{repo}/issues/comments', params, RestComment, (c) => toComment(c));
    },
    async searchIssues(repo, q, cap) {
      const items: Issue[] = [];
      let dropped = 0;
      let totalCount = 0;
      let first = true;
      for await (const page of octokit.paginate.iterator('GET /search/issues', {
        q: `repo:${repo} ${q}`,
        per_page: PER_PAGE,
        sort: 'created',
        order: 'asc',
      })) {
        const data = page.data as unknown[] & { total_count?: unknown };
        if (first) {
          totalCount = typeof data.total_count === 'number' ? data.total_count : 0;
          first = false;
        }
        const parsed = parseLooseArray(RestIssue, data);
        items.push(...parsed.items.map(toIssue));
        dropped += parsed.dropped;
        if (totalCount > cap) return { totalCount, items, dropped, complete: false };
      }
      return { totalCount, items, dropped, complete: true };
    },
    async getIssue(repo, number) {
      return toIssue(await one('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...own(repo), issue_number: number }, RestIssue));
    },
    listIssueComments(repo, number): Promise<Listed<IssueComment>> {
      return list('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...own(repo), issue_number: number }, RestComment, (c) =>
        toComment(c, number),
      );
    },
    listClosedPulls(repo): Promise<Listed<PullRequest>> {
      return list('GET /repos/{owner}/{repo}/pulls', { ...own(repo), state: 'closed', sort: 'created', direction: 'asc' }, RestPull, toPullRequest);
    },
    listPullCommits(repo, number): Promise<Listed<PullCommit>> {
      return list('GET /repos/{owner}/{repo}/pulls/{pull_number}/commits', { ...own(repo), pull_number: number }, RestCommit, toPullCommit);
    },
    listCrossReferences(repo, number): Promise<Listed<CrossReference>> {
      return list('GET /repos/{owner}/{repo}/issues/{issue_number}/timeline', { ...own(repo), issue_number: number }, RestTimelineEvent, (e) =>
        toCrossReference(e, repo),
      ).then((l) => ({ ...l, dropped: 0 })); // other event types are not errors
    },
    async closingIssues(repo, number, version) {
      const memoKey = `graphql ${CLOSING_ISSUES_OPERATION} ${repo}#${number}@${version ?? ''}`;
      const memo = version ? input.recorder.cached(memoKey) : undefined;
      let data: unknown;
      if (memo) {
        data = JSON.parse(memo.body);
      } else {
        const { owner, name } = splitRepo(repo);
        try {
          data = await octokit.graphql.defaults({ url: input.graphqlUrl })(closingIssuesQuery, { owner, name, number });
        } catch (error) {
          // GraphQL-level errors arrive in a 200 and are thrown after the HTTP layer.
          throw toGitHubError(error, `POST /graphql ${CLOSING_ISSUES_OPERATION}(${repo}#${number})`, 0, input.secrets);
        }
      }
      const r = ClosingIssuesAnswer.safeParse(data);
      if (!r.success) {
        throw new GitHubError('parse', `POST /graphql ${CLOSING_ISSUES_OPERATION}(${repo}#${number}): unexpected response: ${firstIssue(r.error)}`, null);
      }
      if (!memo && version) {
        input.recorder.putCached({
          key: memoKey,
          url: input.graphqlUrl,
          etag: null,
          lastModified: null,
          link: null,
          status: 200,
          body: JSON.stringify(data),
          fetchedAt: input.now().toISOString(),
        });
      }
      const nodes = r.data.repository.pullRequest?.closingIssuesReferences.nodes ?? [];
      return nodes
        .filter((n): n is NonNullable<typeof n> => n !== null && n.repository.nameWithOwner.toLowerCase() === repo.toLowerCase())
        .map((n) => n.number);
    },
  };
}

function own(repo: string): { owner: string; repo: string } {
  const { owner, name } = splitRepo(repo);
  return { owner, repo: name };
}

function describe(route: string, params: Record<string, unknown>): string {
  return route.replace(/\{(\w+)\}/g, (_m, k: string) => String(params[k] ?? `{${k}}`));
}
