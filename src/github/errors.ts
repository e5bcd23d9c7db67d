import { MinerError, type ErrorKind } from '../errors.js';
import { redact } from '../log.js';

/** An API failure, classified. The message names the request (method and path), never its headers. */
export class GitHubError extends MinerError {
  readonly status: number | null;
  constructor(kind: ErrorKind, message: string, status: number | null, options?: { cause?: unknown }) {
    super(kind, message, options);
    this.status = status;
  }
}

interface RequestErrorLike {
  status?: unknown;
  message?: unknown;
  response?: { headers?: Record<string, string | undefined> };
}

/** Whether an error is an octokit RequestError with an HTTP status. */
export function httpStatusOf(error: unknown): number | null {
  const status = (error as RequestErrorLike | null)?.status;
  return typeof status === 'number' ? status : null;
}

/**
 * Maps an octokit error to a GitHubError. Only the status, the API's own message and the request
 * label (method + path) are kept: octokit errors carry the request with its authorization header.
 * The API's message is redacted here, where the error is made, since a server may echo the
 * credentials back (`secrets`: the token; token shapes and Authorization values are always masked).
 */
export function toGitHubError(error: unknown, label: string, retries: number, secrets: readonly string[] = []): GitHubError {
  if (error instanceof GitHubError) return error;
  const status = httpStatusOf(error);
  const e = (error ?? {}) as RequestErrorLike;
  const apiMessage = redact(typeof e.message === 'string' ? e.message.split('\n')[0]!.slice(0, 200) : String(error), secrets);
  const headers = e.response?.headers ?? {};
  if ((status === 403 || status === 429) && /secondary rate/i.test(apiMessage)) {
    return new GitHubError('rate-limit', `${label}: secondary rate limit, gave up after ${retries} retries`, status, { cause: error });
  }
  if ((status === 403 || status === 429) && (headers['x-ratelimit-remaining'] === '0' || /rate limit/i.test(apiMessage))) {
    const reset = headers['x-ratelimit-reset'];
    const when = reset && /^\d+$/.test(reset) ? ` (resets at ${new Date(Number(reset) * 1000).toISOString()})` : '';
    return new GitHubError('rate-limit', `${label}: rate limit exhausted${when}, gave up after ${retries} retries`, status, { cause: error });
  }
  if (/GraphQL Rate Limit/i.test(apiMessage)) {
    return new GitHubError('rate-limit', `${label}: GraphQL rate limit, gave up after ${retries} retries`, status, { cause: error });
  }
  const gqlErrors = (error as { errors?: unknown } | null)?.errors;
  if (status === null && Array.isArray(gqlErrors) && gqlErrors.length > 0) {
    const first = (gqlErrors[0] as { type?: unknown; message?: unknown }) ?? {};
    const kind = first.type === 'NOT_FOUND' ? 'not-found' : 'validation';
    return new GitHubError(kind, `${label}: GraphQL error ${String(first.type ?? '')}: ${redact(String(first.message ?? '').slice(0, 200), secrets)}`, null, { cause: error });
  }
  if (status === 401) return new GitHubError('auth', `${label}: GitHub refused the token (401 ${apiMessage})`, status, { cause: error });
  if (status === 404 || status === 410) return new GitHubError('not-found', `${label}: not found (${status})`, status, { cause: error });
  if (status === 403) return new GitHubError('not-found', `${label}: forbidden (403 ${apiMessage})`, status, { cause: error });
  if (e.response === undefined) {
    // octokit reports a failed fetch (connection reset, truncated body) as a 500 with no response.
    return new GitHubError('transient', `${label}: network error (${apiMessage}) after ${retries} retries`, null, { cause: error });
  }
  if (status !== null && status >= 500) {
    return new GitHubError('transient', `${label}: server error ${status} after ${retries} retries`, status, { cause: error });
  }
  if (status !== null && status >= 400) return new GitHubError('validation', `${label}: request rejected (${status} ${apiMessage})`, status, { cause: error });
  return new GitHubError('transient', `${label}: ${apiMessage}`, status, { cause: error });
}
