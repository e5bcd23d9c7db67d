/**
 * A server that echoes the Authorization header in its errors: the token must not reach the
 * database, the run log, any file of the data dir, status output (text or JSON) or stderr.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toGitHubError } from '../../../src/github/errors.js';
import { redact } from '../../../src/log.js';
import { runCliCaptured, type CliResult } from '../../support/cli.js';
import { startFakeGitHub, type FakeGitHub } from '../../support/github-server.js';
import { tempDir } from '../../support/make-repo.js';
import { smallRepo, world } from '../github/world.js';

/** Not shaped like a GitHub token, so only the literal-secret redaction can catch it. */
const SECRET = 's3cr3t-r2v-echo-7f3a9c2e';

const servers: FakeGitHub[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

function allBytes(dir: string): Buffer {
  const parts: Buffer[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (lstatSync(p).isDirectory()) walk(p);
      else if (lstatSync(p).isFile()) parts.push(readFileSync(p));
    }
  };
  if (existsSync(dir)) walk(dir);
  return Buffer.concat(parts);
}

describe('secrets echoed by a server', () => {
  it('are redacted where the error is made', () => {
    const e = toGitHubError({ status: 422, message: `Validation Failed (Authorization: token ${SECRET})`, response: { headers: {} } }, 'GET /x', 0, [SECRET]);
    expect(e.message).toBe('GET /x: request rejected (422 Validation Failed (Authorization: token [REDACTED]))');
    // Without the secret list, the Authorization value and token shapes are still masked.
    expect(toGitHubError({ status: 401, message: `Bad credentials: Authorization: bearer ${SECRET}`, response: { headers: {} } }, 'GET /y', 0).message).not.toContain(SECRET);
    expect(redact('a ghp_abcdefghijklmnopqrstuvwxyz0123456789 b', [])).toBe('a [REDACTED] b');
  });

  it('never reach the database, the run log, the data dir, status output or stderr', async () => {
    const server = await startFakeGitHub(world(smallRepo('acme/small'), smallRepo('acme/other')), {
      faults: [{ match: 'GET /repos/acme/small/issues?', kind: 'echo-authorization', status: 422, times: Infinity }],
    });
    servers.push(server);
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), `github:\n  api_url: ${server.url}\n  max_retries: 0\nrepos:\n  - name: acme/small\n  - name: acme/other\n`);
    const env = { CI: 'true', GITHUB_TOKEN: SECRET };
    const outputs: CliResult[] = [];
    const r2v = async (args: string[], e: Record<string, string> = env): Promise<CliResult> => {
      const r = await runCliCaptured(args, dir, e);
      outputs.push(r);
      return r;
    };

    const run = await r2v(['run', '--stage', 'discover']);
    expect(run.code).toBe(3);
    // The server really echoed the token, and the failure really was recorded.
    expect(server.requests.some((r) => r.status === 422 && r.headers.authorization === `token ${SECRET}`)).toBe(true);
    const failed = await r2v(['status', '--failed']);
    expect(failed.stdout).toContain('acme/small');
    expect(failed.stdout).toContain('[REDACTED]');
    const json = await r2v(['status', '--json']);
    const report = JSON.parse(json.stdout) as { failures: { key: string; message: string }[] };
    expect(report.failures.map((f) => f.key)).toEqual(['acme/small']);
    expect(report.failures[0]!.message).toMatch(/request rejected \(422 Bad credentials: Authorization: token \[REDACTED\]\)/);
    const runLog = readFileSync(join(dir, 'data', 'run-log.jsonl'), 'utf8');
    expect(runLog).toContain('"type":"item-failed"');

    // A 401 echoing the token stops the run with one line on stderr.
    server.requests.length = 0;
    const server401 = await startFakeGitHub(world(smallRepo('acme/small')), {
      faults: [{ match: /GET \/repos\/acme\/small/, kind: 'echo-authorization', status: 401, times: Infinity }],
    });
    servers.push(server401);
    writeFileSync(join(dir, 'r2v.config.yaml'), `github:\n  api_url: ${server401.url}\n  max_retries: 0\nrepos:\n  - name: acme/small\n`);
    const denied = await r2v(['run', '--stage', 'discover', '--force']);
    expect(denied.code).not.toBe(0);
    expect(server401.requests.some((r) => r.status === 401)).toBe(true);
    expect(denied.stderr).toMatch(/^r2v: .*GitHub refused the token \(401 Bad credentials: Authorization: token \[REDACTED\]\)$/m);

    const haystack = Buffer.concat([allBytes(join(dir, 'data')), Buffer.from(outputs.map((o) => o.stdout + o.stderr).join('\n'))]);
    expect(haystack.length).toBeGreaterThan(10_000);
    expect(haystack.includes(Buffer.from(SECRET))).toBe(false);
    expect(haystack.includes(Buffer.from(SECRET.slice(3, 18)))).toBe(false);
  });
});
