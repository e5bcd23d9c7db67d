/**
 * A local fake GitHub over real HTTP (node:http on 127.0.0.1, random port), answering from a
 * fixture world: the REST routes r2v uses, search with `q` parsing (repo, is, created ranges,
 * quoted phrases, OR), GraphQL by operation name, Link pagination with absolute URLs, ETags
 * and 304s, x-ratelimit-* headers, and injectable faults. Unknown routes answer 404 and are
 * recorded in `unexpected`. Used by tests and by the demo command.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

export type FaultKind = 'secondary-rate-limit' | 'primary-rate-limit' | 'status' | 'truncated' | 'malformed-json' | 'delay';

export interface Fault {
  /** Substring of, or pattern over, `METHOD /path?query` (e.g. 'GET /repos/o/r/issues?'). */
  match: string | RegExp;
  kind: FaultKind;
  /** How many matching requests it affects (default 1; Infinity for all). */
  times?: number;
  /** For 'status' (default 502). */
  status?: number;
  /** For the rate limits (default 1). */
  retryAfterSeconds?: number;
  /** For 'delay': milliseconds before the normal answer. */
  delayMs?: number;
}

export interface RecordedRequest {
  method: string;
  /** Path and query, as received. */
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

export interface FakeGitHub {
  url: string;
  requests: RecordedRequest[];
  unexpected: RecordedRequest[];
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body: unknown;
  /** Items to paginate (then `body` is ignored). */
  list?: unknown[];
  /** For search: wraps the page as { total_count, incomplete_results, items }. */
  search?: boolean;
  lastModified?: string;
}

const NOT_FOUND: Answer = { status: 404, body: { message: 'Not Found' } };

export async function startFakeGitHub(world: FakeWorld, opts: { faults?: Fault[] } = {}): Promise<FakeGitHub> {
  const faults = (opts.faults ?? []).map((f) => ({ ...f, left: f.times ?? 1 }));
  const requests: RecordedRequest[] = [];
  const unexpected: RecordedRequest[] = [];
  let base = '';
  let served = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: `fake server error: ${(error as Error).message}` }));
      });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : (v ?? '');
    const record: RecordedRequest = { method, path, headers, body, status: 0 };
    requests.push(record);
    const target = `${method} ${path}`;
    served += 1;
    const rate = {
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': String(Math.max(0, 5000 - served)),
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
    };
    const send = (status: number, payload: string, extra: Record<string, string> = {}): void => {
      record.status = status;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...rate, ...extra });
      res.end(payload);
    };

    for (const f of faults) {
      if (f.kind !== 'delay' || f.left <= 0 || !matches(f.match, target)) continue;
      f.left -= 1;
      await new Promise((r) => setTimeout(r, f.delayMs ?? 100));
    }
    const fault = faults.find((f) => f.kind !== 'delay' && f.left > 0 && matches(f.match, target));
    if (fault) fault.left -= 1;
    if (fault?.kind === 'secondary-rate-limit') {
      return send(403, JSON.stringify({ message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' }), {
        'retry-after': String(fault.retryAfterSeconds ?? 1),
      });
    }
    if (fault?.kind === 'primary-rate-limit') {
      return send(403, JSON.stringify({ message: 'API rate limit exceeded for user.' }), {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + (fault.retryAfterSeconds ?? 1)),
      });
    }
    if (fault?.kind === 'status') return send(fault.status ?? 502, JSON.stringify({ message: 'Bad Gateway' }));
    if (fault?.kind === 'malformed-json') return send(200, '{"message": "this is not', {});

    const url = new URL(path, base);
    const answer = route(world, method, url, body, base);
    if (answer === null) {
      unexpected.push(record);
      return send(404, JSON.stringify({ message: `Not Found (fake GitHub has no route ${method} ${url.pathname})` }));
    }
    let status = answer.status;
    let payload: unknown = answer.body;
    const extra: Record<string, string> = {};
    if (answer.list) {
      const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 30) || 30));
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
      const last = Math.max(1, Math.ceil(answer.list.length / perPage));
      const slice = answer.list.slice((page - 1) * perPage, page * perPage);
      payload = answer.search ? { total_count: answer.list.length, incomplete_results: false, items: slice } : slice;
      const link = pageLinks(url, page, last);
      if (link) extra.link = link;
    }
    const text = JSON.stringify(payload);
    if (status === 200) {
      const etag = `W/"${createHash('sha1').update(text).digest('hex').slice(0, 20)}"`;
      extra.etag = etag;
      if (answer.lastModified) extra['last-modified'] = answer.lastModified;
      const inm = headers['if-none-match'];
      const ims = headers['if-modified-since'];
      const notModified = inm !== undefined
        ? inm.split(',').map((s) => s.trim()).includes(etag)
        : ims !== undefined && answer.lastModified !== undefined && Date.parse(ims) >= Date.parse(answer.lastModified);
      if (notModified) {
        record.status = 304;
        res.writeHead(304, { ...rate, ...extra });
        res.end();
        return;
      }
    }
    if (fault?.kind === 'truncated') {
      record.status = status;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...rate, ...extra });
      res.write(text.slice(0, Math.floor(text.length / 2)));
      res.socket?.destroy();
      return;
    }
    status = status || 200;
    send(status, text, extra);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    unexpected,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

function matches(m: string | RegExp, target: string): boolean {
  return typeof m === 'string' ? target.includes(m) : m.test(target);
}

function pageLinks(url: URL, page: number, last: number): string | null {
  if (last <= 1) return null;
  const at = (p: number): string => {
    const u = new URL(url.toString());
    u.searchParams.set('page', String(p));
    return u.toString();
  };
  const parts: string[] = [];
  if (page < last) parts.push(`<${at(page + 1)}>; rel="next"`, `<${at(last)}>; rel="last"`);
  if (page > 1) parts.push(`<${at(1)}>; rel="first"`, `<${at(page - 1)}>; rel="prev"`);
  return parts.join(', ');
}

// ---- routes -------------------------------------------------------------------------------

function route(world: FakeWorld, method: string, url: URL, body: string, base: string): Answer | null {
  const p = url.pathname.replace(/\/+$/, '');
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
  if (!repo) return NOT_FOUND;
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
