import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../../support/make-repo.js';
import { defaultGitUrl, ensureMirror, mirrorDir, redactUrl } from '../../../src/git/mirror.js';
import { openGitRepos } from '../../../src/git/repos.js';
import { defaultBranchOf } from '../../../src/git/history.js';
import { observeGitSpawns, runGit } from '../../../src/git/runner.js';

async function refs(gitDir: string): Promise<string[]> {
  return (await runGit(gitDir, ['for-each-ref', '--format=%(refname) %(objectname)'])).stdout.split('\n').filter(Boolean);
}

describe('mirrors', () => {
  it('names mirror directories and default URLs', () => {
    expect(mirrorDir('/data', 'acme/widgets')).toBe('/data/mirrors/acme__widgets.git');
    expect(defaultGitUrl('acme/widgets')).toBe('https://github.com/acme/widgets.git');
    expect(redactUrl('https://user:s3cret@example.com/a/b.git')).toBe('https://example.com/a/b.git');
    expect(() => mirrorDir('/data', 'not-a-repo')).toThrow(/not-a-repo: must be owner\/name/);
  });

  it('clones from a file:// URL with branches, tags and pull heads, then fetches incrementally', async () => {
    const source = await makeRepo({ branch: 'trunk' });
    const c1 = await source.commit('c1');
    await source.tag('v1.0');
    await source.checkout('pr', { create: true });
    const prHead = await source.commit('pr work');
    await source.checkout('trunk');
    await source.updateRef('refs/pull/3/head', prHead);
    await source.updateRef('refs/pull/3/merge', prHead);
    const data = await tempDir();
    const dir = mirrorDir(data, 'acme/widgets');
    await ensureMirror({ repo: 'acme/widgets', url: pathToFileURL(source.dir).href, dir });
    expect(await refs(dir)).toEqual([
      `refs/heads/pr ${prHead}`,
      `refs/heads/trunk ${c1}`,
      `refs/pull/3/head ${prHead}`,
      `refs/tags/v1.0 ${c1}`,
    ]);
    expect(await defaultBranchOf(dir)).toBe('trunk');
    expect(existsSync(`${dir}.partial`)).toBe(false);

    const c2 = await source.commit('c2');
    await source.git(['branch', '-D', 'pr']);
    await ensureMirror({ repo: 'acme/widgets', url: source.dir, dir });
    expect(await refs(dir)).toEqual([`refs/heads/trunk ${c2}`, `refs/pull/3/head ${prHead}`, `refs/tags/v1.0 ${c1}`]);
  });

  it('fails with the repository named and leaves nothing behind when the source is not a repository', async () => {
    const data = await tempDir();
    const dir = mirrorDir(data, 'acme/gone');
    await expect(ensureMirror({ repo: 'acme/gone', url: join(data, 'no-such-repo'), dir })).rejects.toThrow(/^acme\/gone: fetch from .*no-such-repo failed/);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(`${dir}.partial`)).toBe(false);
  });

  it('retries a fetch that failed for network reasons, then fails with the status in the message', async () => {
    let hits = 0;
    const server = createServer((req, res) => {
      hits += 1;
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('busy');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/acme/widgets.git`;
      const data = await tempDir();
      const dir = mirrorDir(data, 'acme/widgets');
      const err = await ensureMirror({ repo: 'acme/widgets', url, dir, retry: { retries: 2, minTimeoutMs: 10 } }).catch((e: unknown) => e);
      expect(String(err)).toMatch(/acme\/widgets: fetch from http:\/\/127\.0\.0\.1:\d+\/acme\/widgets\.git failed: .*503/);
      expect((err as { kind?: string }).kind).toBe('transient');
      expect(hits).toBe(3);
      expect(existsSync(dir)).toBe(false);
    } finally {
      server.close();
    }
  });

  it('fails for good, not as a network failure, when the source lacks an object a pull head needs', async () => {
    const source = await makeRepo();
    await source.commit('c1');
    await source.checkout('pr', { create: true });
    // Enough incompressible data ahead of the lost blob that the pack is usually already streaming
    // when the source fails, so the client sees "early EOF" as on a network drop (the exact stderr
    // is covered by the unit test of isTransientGitStderr).
    const files: Record<string, string> = { 'zz-only-here.txt': 'lost content\n' };
    for (let i = 0; i < 200; i++) files[`data/f${i}.txt`] = randomBytes(30_000).toString('base64');
    const prHead = await source.commit('pr work', { files });
    await source.updateRef('refs/pull/1/head', prHead);
    const blob = await source.git(['rev-parse', `${prHead}:zz-only-here.txt`]);
    await rm(join(source.dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
    const dir = mirrorDir(await tempDir(), 'acme/widgets');
    const err = await ensureMirror({ repo: 'acme/widgets', url: pathToFileURL(source.dir).href, dir, retry: { retries: 2, minTimeoutMs: 10 } }).catch((e: unknown) => e);
    expect(String(err)).toMatch(/^MinerError: acme\/widgets: fetch from file:\/\/.* failed: .*corruption/);
    expect((err as { kind?: string }).kind).toBe('git');
    expect(existsSync(dir)).toBe(false);
  });

  it('refuses a directory in the way that is not a bare repository', async () => {
    const data = await tempDir();
    const dir = mirrorDir(data, 'acme/widgets');
    await runGit('', ['init', '-q', dir]);
    const source = await makeRepo();
    await source.commit('c1');
    await expect(ensureMirror({ repo: 'acme/widgets', url: source.dir, dir })).rejects.toThrow(/exists but is not a bare git repository/);
  });
});

describe('openGitRepos', () => {
  it('ensures each mirror once per run and shares one object reader', async () => {
    const source = await makeRepo();
    const c1 = await source.commit('c1');
    const data = await tempDir();
    const urls: string[] = [];
    const repos = openGitRepos({ dataDir: data, urlFor: (r) => (urls.push(r), source.dir) });
    try {
      const [a, b] = await Promise.all([repos.get('acme/widgets'), repos.get('Acme/Widgets')]);
      expect(a).toBe(b);
      expect(urls).toEqual(['acme/widgets']);
      expect(a.gitDir).toBe(mirrorDir(data, 'acme/widgets'));
      expect((await a.objects.resolve([c1.slice(0, 7)]))[0]!.sha).toBe(c1);
    } finally {
      await repos.close();
    }
  });

  it('answers the rest of the run with a mirror failure that is not transient, without fetching again', async () => {
    const data = await tempDir();
    const missing = join(await tempDir(), 'widgets');
    const urls: string[] = [];
    const repos = openGitRepos({ dataDir: data, urlFor: (r) => (urls.push(r), missing) });
    try {
      const first = await repos.get('acme/widgets').catch((e: unknown) => e);
      expect((first as { kind?: string }).kind).toBe('git');
      const source = await makeRepo();
      await source.commit('c1');
      await rename(source.dir, missing);
      expect(await repos.get('acme/widgets').catch((e: unknown) => e)).toBe(first);
      expect(urls).toEqual(['acme/widgets']);
    } finally {
      await repos.close();
    }
    const next = openGitRepos({ dataDir: data, urlFor: () => missing });
    try {
      expect((await next.get('acme/widgets')).gitDir).toBe(mirrorDir(data, 'acme/widgets'));
    } finally {
      await next.close();
    }
  });

  it('with fetch: false uses the existing mirror and fails clearly when there is none', async () => {
    const source = await makeRepo();
    const c1 = await source.commit('c1');
    const data = await tempDir();
    await ensureMirror({ repo: 'acme/widgets', url: source.dir, dir: mirrorDir(data, 'acme/widgets') });
    await source.commit('c2');
    const repos = openGitRepos({ dataDir: data, urlFor: () => source.dir, fetch: false });
    try {
      const h = await repos.get('acme/widgets');
      expect((await h.objects.resolve(['refs/heads/main']))[0]!.sha).toBe(c1);
      await expect(repos.get('acme/other')).rejects.toThrow(/acme\/other: no mirror at .*acme__other\.git/);
    } finally {
      await repos.close();
    }
  });

  it('uses an existing mirror without fetching; fetches once when a needed object is missing, or always with mode always', async () => {
    const source = await makeRepo();
    await source.commit('c1');
    const data = await tempDir();
    const dir = mirrorDir(data, 'acme/widgets');
    await ensureMirror({ repo: 'acme/widgets', url: source.dir, dir });
    const c2 = await source.commit('c2');
    const fetches: string[] = [];
    const stop = observeGitSpawns((gitDir, args) => {
      if (args[0] === 'fetch' && gitDir === dir) fetches.push(args.join(' '));
    });
    try {
      const repos = openGitRepos({ dataDir: data, urlFor: () => source.dir });
      try {
        const h = await repos.get('acme/widgets');
        expect(fetches).toEqual([]);
        expect(await h.objects.commit(c2)).toBeNull();
        const bogus = 'f'.repeat(40);
        expect(await h.ensureObjects([c2, bogus])).toEqual([bogus]);
        expect(fetches).toHaveLength(1);
        expect((await h.objects.commit(c2))?.sha).toBe(c2);
        expect(await h.ensureObjects([bogus])).toEqual([bogus]);
        expect(await h.ensureObjects([c2])).toEqual([]);
        expect(fetches).toHaveLength(1);
      } finally {
        await repos.close();
      }
      const c3 = await source.commit('c3');
      const always = openGitRepos({ dataDir: data, urlFor: () => source.dir, mode: 'always' });
      try {
        expect((await (await always.get('acme/widgets')).objects.commit(c3))?.sha).toBe(c3);
        expect(fetches).toHaveLength(2);
      } finally {
        await always.close();
      }
      await source.commit('c4');
      const discovered = openGitRepos({ dataDir: data, urlFor: () => source.dir, refreshFirst: (r) => r === 'acme/widgets' });
      try {
        await discovered.get('acme/widgets');
        expect(fetches).toHaveLength(3);
      } finally {
        await discovered.close();
      }
    } finally {
      stop();
    }
  });
});
