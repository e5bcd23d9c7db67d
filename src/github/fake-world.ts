/**
 * The fixture world of the local fake GitHub and the answers to the routes r2v uses: REST
 * objects rendered from the world, search with `q` parsing, and GraphQL by operation name.
 * Pure: a request in, an answer (status, body or a list to paginate) out.
 */
export interface FakeComment {
  id: number;
  user: string;
  created_at: string;
  updated_at?: string;
  body: string;
}

/** A cross-reference shown on a thread's timeline: thread `source_number` mentioned it. */
export interface FakeTimelineEvent {
  event: 'cross-referenced';
  created_at: string;
  source_number: number;
  source_is_pull?: boolean;
  /** Defaults to the repository of the thread. */
  source_repo?: string;
}

export interface FakeIssue {
  number: number;
  title: string;
  body?: string | null;
  user: string;
  state?: 'open' | 'closed';
  created_at: string;
  updated_at?: string;
  closed_at?: string | null;
  comments?: FakeComment[];
  timeline?: FakeTimelineEvent[];
}

export interface FakePull {
  number: number;
  title: string;
  body?: string | null;
  user: string;
  state?: 'open' | 'closed';
  draft?: boolean;
  base_ref: string;
  base_sha: string;
  head_ref?: string;
  head_sha: string;
  merge_commit_sha?: string | null;
  created_at: string;
  updated_at?: string;
  merged_at?: string | null;
  commits?: { sha: string; message: string }[];
  /** What GraphQL closingIssuesReferences answers. */
  closing_issues?: number[];
  comments?: FakeComment[];
  timeline?: FakeTimelineEvent[];
}

export interface FakeRepo {
  name: string;
  /** Former owner/name spellings (renamed or transferred): requests under them answer 301 to the current name, as GitHub does. */
  former_names?: string[];
  default_branch?: string;
  fork?: boolean;
  parent?: string | null;
  created_at?: string;
  issues?: FakeIssue[];
  pulls?: FakePull[];
}

/** The fixture world. The server reads it on every request, so a test may change it between runs. */
export interface FakeWorld {
  repos: FakeRepo[];
}

export interface Answer {
  status: number;
  body: unknown;
  /** Items to paginate (then `body` is ignored). */
  list?: unknown[];
  /** For search: wraps the page as { total_count, incomplete_results, items }. */
  search?: boolean;
  lastModified?: string;
  /** A redirect target (with status 301). */
  location?: string;
}

const NOT_FOUND: Answer = { status: 404, body: { message: 'Not Found' } };

// ---- routes -------------------------------------------------------------------------------

/** The fake GitHub's answer to one request, or null when no route matches. */
export function answerRequest(world: FakeWorld, method: string, url: URL, body: string, base: string): Answer | null {
  // GitHub Enterprise serves REST under /api/v3 and GraphQL at /api/graphql.
  const p = url.pathname.replace(/\/+$/, '').replace(/^\/api\/v3(?=\/)/, '');
  const q = url.searchParams;
  if (method === 'POST' && (p === '/graphql' || p === '/api/graphql')) return graphql(world, body);
  if (method !== 'GET') return null;
  if (p === '/search/issues') return search(world, q.get('q') ?? '', base);
  const m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(p);
  if (!m) return null;
  const name = `${m[1]}/${m[2]}`;
  const rest = m[3] ?? '';
  const known = /^(|\/issues|\/issues\/comments|\/issues\/\d+|\/issues\/\d+\/comments|\/issues\/\d+\/timeline|\/pulls|\/pulls\/\d+|\/pulls\/\d+\/commits)$/;
  if (!known.test(rest)) return null;
  const repo = world.repos.find((r) => r.name.toLowerCase() === name.toLowerCase());
  if (!repo) {
    // A renamed or transferred repository: GitHub answers 301 and clients follow it.
    const moved = world.repos.find((r) => (r.former_names ?? []).some((f) => f.toLowerCase() === name.toLowerCase()));
    if (!moved) return NOT_FOUND;
    return { status: 301, body: { message: 'Moved Permanently', url: `${base}/repos/${moved.name}${rest}${url.search}` }, location: `${base}/repos/${moved.name}${rest}${url.search}` };
  }
  const threads = threadsOf(repo);

  if (rest === '') {
    return {
      status: 200,
      body: {
        full_name: repo.name,
        default_branch: repo.default_branch ?? 'main',
        fork: repo.fork ?? false,
        parent: repo.parent ? { full_name: repo.parent } : null,
        html_url: `https://github.com/${repo.name}`,
        created_at: repo.created_at ?? '2020-01-01T00:00:00Z',
      },
    };
  }
  if (rest === '/issues') {
    const state = q.get('state') ?? 'open';
    const since = q.get('since');
    let list = threads.filter((t) => state === 'all' || (t.state ?? 'open') === state);
    if (since) list = list.filter((t) => updated(t) >= since);
    list = sortBy(list, q.get('sort') === 'created' ? (t) => t.created_at : updated, q.get('direction') ?? 'desc');
    return { status: 200, body: null, list: list.map((t) => renderIssue(repo.name, t)) };
  }
  if (rest === '/issues/comments') {
    const since = q.get('since');
    let all = threads.flatMap((t) => (t.comments ?? []).map((c) => ({ c, n: t.number })));
    if (since) all = all.filter(({ c }) => (c.updated_at ?? c.created_at) >= since);
    all = sortBy(all, ({ c }) => (q.get('sort') === 'created' ? c.created_at : (c.updated_at ?? c.created_at)), q.get('direction') ?? 'asc');
    return { status: 200, body: null, list: all.map(({ c, n }) => renderComment(repo.name, n, c, base)) };
  }
  const issueM = /^\/issues\/(\d+)(\/comments|\/timeline)?$/.exec(rest);
  if (issueM) {
    const t = threads.find((x) => x.number === Number(issueM[1]));
    if (!t) return NOT_FOUND;
    if (issueM[2] === '/comments') {
      return { status: 200, body: null, list: sortBy(t.comments ?? [], (c) => c.created_at, 'asc').map((c) => renderComment(repo.name, t.number, c, base)) };
    }
    if (issueM[2] === '/timeline') {
      return { status: 200, body: null, list: (t.timeline ?? []).map((e) => renderTimeline(repo, e)) };
    }
    return { status: 200, body: renderIssue(repo.name, t), lastModified: httpDate(updated(t)) };
  }
  const pulls = repo.pulls ?? [];
  if (rest === '/pulls') {
    const state = q.get('state') ?? 'open';
    const list = pulls.filter((x) => state === 'all' || (x.state ?? 'closed') === state);
    const sorted = sortBy(list, q.get('sort') === 'updated' ? (x) => x.updated_at ?? x.created_at : (x) => x.created_at, q.get('direction') ?? 'desc');
    return { status: 200, body: null, list: sorted.map((x) => renderPull(repo.name, x)) };
  }
  const pullM = /^\/pulls\/(\d+)(\/commits)?$/.exec(rest);
  if (pullM) {
    const pr = pulls.find((x) => x.number === Number(pullM[1]));
    if (!pr) return NOT_FOUND;
    if (pullM[2]) return { status: 200, body: null, list: (pr.commits ?? []).map((c) => ({ sha: c.sha, commit: { message: c.message } })) };
    return { status: 200, body: renderPull(repo.name, pr) };
  }
  return null;
}

interface Thread extends FakeIssue {
  isPull: boolean;
}

/** Issues plus the pull-request threads (as the issues API lists them). */
function threadsOf(repo: FakeRepo): Thread[] {
  const issues: Thread[] = (repo.issues ?? []).map((i) => ({ ...i, isPull: false }));
  const taken = new Set(issues.map((i) => i.number));
  for (const pr of repo.pulls ?? []) {
    if (taken.has(pr.number)) continue;
    issues.push({
      number: pr.number,
      title: pr.title,
      body: pr.body ?? null,
      user: pr.user,
      state: pr.state ?? 'closed',
      created_at: pr.created_at,
      updated_at: pr.updated_at ?? pr.created_at,
      closed_at: pr.merged_at ?? null,
      comments: pr.comments,
      timeline: pr.timeline,
      isPull: true,
    });
  }
  return issues;
}

const updated = (t: { updated_at?: string; created_at: string }): string => t.updated_at ?? t.created_at;

function sortBy<T>(list: T[], key: (t: T) => string, direction: string): T[] {
  const sorted = list.slice().sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return direction === 'desc' ? sorted.reverse() : sorted;
}

function httpDate(iso: string): string {
  return new Date(iso).toUTCString();
}

function renderIssue(repo: string, t: Thread): Record<string, unknown> {
  const out: Record<string, unknown> = {
    number: t.number,
    title: t.title,
    body: t.body ?? null,
    user: { login: t.user },
    state: t.state ?? 'open',
    created_at: t.created_at,
    updated_at: updated(t),
    closed_at: t.closed_at ?? null,
    html_url: `https://github.com/${repo}/${t.isPull ? 'pull' : 'issues'}/${t.number}`,
    comments: (t.comments ?? []).length,
  };
  if (t.isPull) out.pull_request = { url: `https://api.github.com/repos/${repo}/pulls/${t.number}` };
  return out;
}

function renderComment(repo: string, number: number, c: FakeComment, base: string): Record<string, unknown> {
  return {
    id: c.id,
    user: { login: c.user },
    created_at: c.created_at,
    updated_at: c.updated_at ?? c.created_at,
    body: c.body,
    html_url: `https://github.com/${repo}/issues/${number}#issuecomment-${c.id}`,
    issue_url: `${base}/repos/${repo}/issues/${number}`,
  };
}

function renderPull(repo: string, x: FakePull): Record<string, unknown> {
  return {
    number: x.number,
    title: x.title,
    body: x.body ?? null,
    user: { login: x.user },
    state: x.state ?? 'closed',
    draft: x.draft ?? false,
    base: { ref: x.base_ref, sha: x.base_sha },
    head: { ref: x.head_ref ?? `feature-${x.number}`, sha: x.head_sha },
    merge_commit_sha: x.merge_commit_sha ?? null,
    created_at: x.created_at,
    updated_at: x.updated_at ?? x.created_at,
    merged_at: x.merged_at ?? null,
    html_url: `https://github.com/${repo}/pull/${x.number}`,
  };
}

function renderTimeline(repo: FakeRepo, e: FakeTimelineEvent): Record<string, unknown> {
  const from = e.source_repo ?? repo.name;
  const issue: Record<string, unknown> = { number: e.source_number, repository: { full_name: from } };
  if (e.source_is_pull) issue.pull_request = { url: `https://api.github.com/repos/${from}/pulls/${e.source_number}` };
  return { event: e.event, created_at: e.created_at, source: { type: 'issue', issue } };
}

// ---- search -------------------------------------------------------------------------------

interface SearchQuery {
  repo: string | null;
  kind: 'issue' | 'pr' | null;
  from: string | null;
  to: string | null;
  /** OR of AND-groups of lower-cased terms. */
  groups: string[][];
}

/** Parses the parts of a search `q` the fake understands. */
export function parseSearchQuery(q: string): SearchQuery {
  const out: SearchQuery = { repo: null, kind: null, from: null, to: null, groups: [[]] };
  const tokens = q.match(/"[^"]*"|\S+/g) ?? [];
  for (const tok of tokens) {
    if (tok === 'OR') {
      out.groups.push([]);
      continue;
    }
    const qual = /^(repo|is|type|created):(.+)$/.exec(tok);
    if (qual) {
      const [, k, v] = qual;
      if (k === 'repo') out.repo = v!.toLowerCase();
      else if (k === 'is' || k === 'type') out.kind = v === 'pr' || v === 'pull-request' ? 'pr' : v === 'issue' ? 'issue' : out.kind;
      else {
        const range = /^(.+)\.\.(.+)$/.exec(v!);
        if (range) {
          out.from = range[1] === '*' ? null : range[1]!;
          out.to = range[2] === '*' ? null : range[2]!;
        } else if (v!.startsWith('>=')) out.from = v!.slice(2);
        else if (v!.startsWith('>')) out.from = v!.slice(1);
        else if (v!.startsWith('<=')) out.to = v!.slice(2);
        else if (v!.startsWith('<')) out.to = v!.slice(1);
        else {
          out.from = v!;
          out.to = v!;
        }
      }
      continue;
    }
    out.groups[out.groups.length - 1]!.push(tok.replace(/^"|"$/g, '').toLowerCase());
  }
  out.groups = out.groups.filter((g) => g.length > 0);
  return out;
}

function search(world: FakeWorld, q: string, _base: string): Answer {
  const sq = parseSearchQuery(q);
  const repos = world.repos.filter((r) => sq.repo === null || r.name.toLowerCase() === sq.repo);
  const hits: Record<string, unknown>[] = [];
  for (const repo of repos) {
    for (const t of sortBy(threadsOf(repo), (x) => x.created_at, 'asc')) {
      if (sq.kind === 'issue' && t.isPull) continue;
      if (sq.kind === 'pr' && !t.isPull) continue;
      if (sq.from !== null && t.created_at < sq.from) continue;
      if (sq.to !== null && t.created_at.slice(0, sq.to.length) > sq.to) continue;
      const text = [t.title, t.body ?? '', ...(t.comments ?? []).map((c) => c.body)].join('\n').toLowerCase();
      if (sq.groups.length > 0 && !sq.groups.some((g) => g.every((term) => text.includes(term)))) continue;
      hits.push(renderIssue(repo.name, t));
    }
  }
  return { status: 200, body: null, list: hits, search: true };
}

// ---- GraphQL ------------------------------------------------------------------------------

function graphql(world: FakeWorld, body: string): Answer | null {
  let parsed: { query?: string; variables?: Record<string, unknown> };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return { status: 400, body: { message: 'Problems parsing JSON' } };
  }
  const op = /\b(?:query|mutation)\s+(\w+)/.exec(parsed.query ?? '')?.[1];
  const v = parsed.variables ?? {};
  if (op === 'ClosingIssues') {
    const repo = world.repos.find((r) => r.name.toLowerCase() === `${String(v.owner)}/${String(v.name)}`.toLowerCase());
    const pr = repo?.pulls?.find((x) => x.number === Number(v.number));
    if (!repo) return { status: 200, body: { data: { repository: null }, errors: [{ type: 'NOT_FOUND', message: 'Could not resolve to a Repository' }] } };
    return {
      status: 200,
      body: {
        data: {
          repository: {
            pullRequest: pr
              ? { closingIssuesReferences: { nodes: (pr.closing_issues ?? []).map((n) => ({ number: n, repository: { nameWithOwner: repo.name } })) } }
              : null,
          },
        },
      },
    };
  }
  return null;
}
