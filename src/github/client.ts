import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { restEndpointMethods } from '@octokit/plugin-rest-endpoint-methods';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import type { Logger } from '../log.js';
import { redact, silentLogger } from '../log.js';
import type { GitHubTables } from '../store/tables/github.js';
import { GitHubError, httpStatusOf, toGitHubError } from './errors.js';
import { NOT_MODIFIED_HEADER } from './headers.js';
import type { GitHubPort, PortScope } from './port.js';
import { createRestPort } from './rest.js';

/** The octokit class r2v uses: REST methods, pagination, retries and rate-limit throttling. */
export const R2vOctokit = Octokit.plugin(restEndpointMethods, paginateRest, retry, throttling);
export type R2vOctokit = InstanceType<typeof R2vOctokit>;

/** Where responses, conditional-request validators and the budget go (the store in production). */
export type HttpRecorder = Pick<GitHubTables, 'cached' | 'putCached' | 'putRaw' | 'count'>;

export interface GitHubClientOptions {
  readonly apiUrl: string;
  /** Defaults to `${apiUrl}/graphql`, or …/api/graphql for a GitHub Enterprise …/api/v3. */
  readonly graphqlUrl?: string;
  readonly token: string;
  readonly recorder: HttpRecorder;
  /** Retries of one request (5xx, rate limits) before giving up. */
  readonly maxRetries?: number;
  /** plugin-retry backoff unit: waits (n+1)² × this many ms. Default 1000. */
  readonly retryBaseMs?: number;
  /** Rate-limit unit: waits retry-after (or until x-ratelimit-reset) × this many ms. Default 1000. */
  readonly rateLimitBaseMs?: number;
  /** A rate-limit wait longer than this (seconds) gives up instead. Default 900. */
  readonly maxRateLimitWaitSeconds?: number;
  /** GitHub asks clients to space GraphQL (1 s) and search (2 s) calls; false turns the pacing off. */
  readonly pace?: boolean;
  readonly log?: Logger;
  readonly now?: () => Date;
}

export interface GitHubClient {
  /** A port whose requests are counted against `scope` (stage, repository). */
  port(scope: PortScope): GitHubPort;
}

/** GraphQL endpoint for an API base URL (GitHub Enterprise serves it beside /api/v3). */
export function graphqlUrlFor(apiUrl: string, explicit?: string): string {
  if (explicit) return explicit;
  const base = apiUrl.replace(/\/+$/, '');
  return /\/api\/v3$/.test(base) ? base.replace(/\/api\/v3$/, '/api/graphql') : `${base}/graphql`;
}

/** A limiter group that runs jobs at once (used when pacing is off, e.g. against a local server). */
const unpaced = { key: () => ({ schedule: (_o: unknown, fn: (...a: unknown[]) => unknown, ...args: unknown[]) => fn(...args) }) };

export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  const log = options.log ?? silentLogger;
  const now = options.now ?? (() => new Date());
  const maxRetries = options.maxRetries ?? 3;
  const rateBase = options.rateLimitBaseMs ?? 1000;
  const maxWait = options.maxRateLimitWaitSeconds ?? 900;
  const graphqlUrl = graphqlUrlFor(options.apiUrl, options.graphqlUrl);
  const secrets = [options.token];

  return {
    port(scope) {
      const { recorder } = options;
      let fetches = 0;
      const countingFetch: typeof fetch = (input, init) => {
        fetches += 1;
        recorder.count(scope.stage, scope.repo, { requests: 1 });
        return fetch(input, init);
      };
      const onLimit = (kind: string) => (retryAfter: number, req: { method?: string; url?: string }, _o: unknown, retryCount: number): boolean => {
        const give = retryCount >= maxRetries || retryAfter > maxWait;
        log.warn(give ? 'rate limit: giving up' : 'rate limit: waiting', {
          kind,
          repo: scope.repo,
          request: `${req.method ?? ''} ${req.url ?? ''}`,
          retryAfterSeconds: retryAfter,
          attempt: retryCount + 1,
        });
        if (give) return false;
        recorder.count(scope.stage, scope.repo, { waitedMs: retryAfter * rateBase });
        return true;
      };
      const throttle: Record<string, unknown> = {
        id: 'r2v',
        retryAfterBaseValue: rateBase,
        onRateLimit: onLimit('primary'),
        onSecondaryRateLimit: onLimit('secondary'),
      };
      if (options.pace === false) {
        throttle.write = unpaced;
        throttle.search = unpaced;
        throttle.notifications = unpaced;
      }
      const octokit = new R2vOctokit({
        auth: options.token,
        baseUrl: options.apiUrl.replace(/\/+$/, ''),
        userAgent: 'r2v',
        request: { fetch: countingFetch },
        retry: { retries: maxRetries, retryAfterBaseValue: options.retryBaseMs ?? 1000 },
        throttle: throttle as never,
        log: {
          debug: () => undefined,
          info: () => undefined,
          warn: (msg: string) => log.warn(redact(String(msg), secrets)),
          error: (msg: string) => log.error(redact(String(msg), secrets)),
        },
      });

      // Outermost wrap: sees one logical request (after plugin-retry and throttling did their work).
      octokit.hook.wrap('request', async (request, reqOptions) => {
        const parsed = octokit.request.endpoint.parse(reqOptions as never) as { method: string; url: string };
        const label = requestLabel(parsed.method, parsed.url);
        const isGet = parsed.method === 'GET';
        const key = `${parsed.method} ${parsed.url}`;
        const cached = isGet ? recorder.cached(key) : undefined;
        // before-after-hook binds the same options object to every inner layer, so the
        // conditional headers are set on it rather than on a copy.
        const opts = reqOptions as { headers?: Record<string, string> };
        opts.headers = opts.headers ?? {};
        if (cached?.etag) opts.headers['if-none-match'] = cached.etag;
        if (cached?.lastModified) opts.headers['if-modified-since'] = cached.lastModified;
        const before = fetches;
        const settle = (): void => {
          const retries = Math.max(0, fetches - before - 1);
          if (retries > 0) recorder.count(scope.stage, scope.repo, { retries });
        };
        try {
          const response = await request(reqOptions as never);
          settle();
          let data: unknown = response.data;
          let body = typeof data === 'string' ? data : JSON.stringify(data ?? null);
          // A server that echoes the credentials: nothing of them is stored or passed on.
          if (secrets.some((x) => x.length >= 4 && body.includes(x))) {
            body = redact(body, secrets);
            data = typeof data === 'string' ? body : (JSON.parse(body) as unknown);
            (response as { data: unknown }).data = data;
          }
          const fetchedAt = now().toISOString();
          // Stored before anything parses it.
          recorder.putRaw({ stage: scope.stage, repo: scope.repo, request: label, status: response.status, body, fetchedAt });
          if (typeof data !== 'object' || data === null) {
            throw new GitHubError(
              body.length === 0 ? 'transient' : 'parse',
              `${label}: response body is not valid JSON (${body.length === 0 ? 'empty or truncated' : `${body.length} bytes`})`,
              response.status,
            );
          }
          if (isGet) {
            const h = response.headers as Record<string, string | undefined>;
            recorder.putCached({
              key,
              url: parsed.url,
              etag: h.etag ?? null,
              lastModified: h['last-modified'] ?? null,
              link: h.link ?? null,
              status: response.status,
              body,
              fetchedAt,
            });
          }
          return response;
        } catch (error) {
          settle();
          if (httpStatusOf(error) === 304 && cached) {
            recorder.count(scope.stage, scope.repo, { notModified: 1 });
            const headers304: Record<string, string> = { [NOT_MODIFIED_HEADER]: '1' };
            if (cached.link) headers304.link = cached.link;
            return { status: cached.status, url: parsed.url, headers: headers304, data: JSON.parse(cached.body) } as never;
          }
          throw toGitHubError(error, label, Math.max(0, fetches - before - 1), secrets);
        }
      });

      return createRestPort({ octokit, scope, recorder, graphqlUrl, now, secrets });
    },
  };
}

/** `GET /repos/o/n/issues?page=2`: method and path, no host and never a header. */
export function requestLabel(method: string, url: string): string {
  try {
    const u = new URL(url);
    return `${method} ${u.pathname}${u.search}`;
  } catch {
    return `${method} ${url}`;
  }
}

/** Reads the token from the environment passed in; a missing token fails the run (kind 'auth'). */
export function tokenFrom(env: Readonly<Record<string, string | undefined>>, tokenEnv: string, purpose: string): string {
  const token = env[tokenEnv];
  if (!token || token.trim() === '') {
    throw new GitHubError('auth', `${tokenEnv} is not set: ${purpose} needs a token (export ${tokenEnv}=… or use r2v import for offline data)`, null);
  }
  return token.trim();
}
