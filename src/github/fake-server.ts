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
import { answerRequest, type FakeWorld } from './fake-world.js';

export { parseSearchQuery } from './fake-world.js';
export type { FakeComment, FakeIssue, FakePull, FakeRepo, FakeTimelineEvent, FakeWorld } from './fake-world.js';

export type FaultKind = 'secondary-rate-limit' | 'primary-rate-limit' | 'status' | 'truncated' | 'malformed-json' | 'delay' | 'echo-authorization';

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
    // A misbehaving server (or proxy) that repeats the request's credentials in its error.
    if (fault?.kind === 'echo-authorization') {
      return send(fault.status ?? 401, JSON.stringify({ message: `Bad credentials: Authorization: ${headers.authorization ?? ''}`, echo: headers.authorization ?? '' }));
    }

    const url = new URL(path, base);
    const answer = answerRequest(world, method, url, body, base);
    if (answer === null) {
      unexpected.push(record);
      return send(404, JSON.stringify({ message: `Not Found (fake GitHub has no route ${method} ${url.pathname})` }));
    }
    if (answer.location) return send(answer.status, JSON.stringify(answer.body), { location: answer.location });
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

