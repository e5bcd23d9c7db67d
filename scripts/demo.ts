/**
 * `npm run demo`: the whole pipeline on the bundled offline sample world, through the real code
 * paths — octokit over HTTP to the local fake GitHub on 127.0.0.1, real git mirrors, every stage,
 * probes, exports and packages — then a summary. The workspace stays under data/demo/.
 */
import { mkdirSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Writable } from 'node:stream';
import YAML from 'yaml';
import { generateWorld } from './world/index.js';
import { toFakeWorld } from './world/fake-world.js';
import { startFakeGitHub } from '../src/github/fake-server.js';
import { runCli } from '../src/cli.js';
import { openStore } from '../src/store/db.js';
import { BackwardTables } from '../src/store/tables/backward.js';

const ROOT = resolve(import.meta.dirname, '..');
const TOKEN_ENV = 'R2V_DEMO_TOKEN';

function capture(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(Buffer.from(chunk));
      cb();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export interface DemoOptions {
  readonly root?: string;
  readonly workspace?: string;
  readonly manifests?: string;
  readonly quiet?: boolean;
  readonly log?: (line: string) => void;
}

export interface DemoResult {
  readonly workspace: string;
  readonly manifests: string;
  readonly summary: string;
}

export async function runDemo(options: DemoOptions = {}): Promise<DemoResult> {
  const root = options.root ?? ROOT;
  const workspace = options.workspace ?? join(root, 'data/demo');
  const manifests = options.manifests ?? join(root, 'manifests/demo');
  const say = options.log ?? ((line: string) => void process.stderr.write(`demo: ${line}\n`));
  const started = Date.now();

  rmSync(workspace, { recursive: true, force: true });
  rmSync(manifests, { recursive: true, force: true });
  mkdirSync(workspace, { recursive: true });
  say(`generating the sample world in ${relative(root, workspace) || '.'}/world`);
  const world = await generateWorld(join(workspace, 'world'));

  const server = await startFakeGitHub(toFakeWorld(world));
  say(`fake GitHub listening on ${server.url}`);
  const token = 'demo-token-not-a-secret-0000';
  const configPath = join(workspace, 'r2v.config.yaml');
  const config = {
    github: { api_url: server.url, token_env: TOKEN_ENV, discover_mode: 'sync', max_retries: 2 },
    data_dir: '.',
    concurrency: 2,
    repos: world.repos.map((r) => ({
      name: r.name,
      git_url: r.gitDir,
      ...(r.testCommand ? { test_command: r.testCommand } : {}),
      ...(r.testGlobs ? { test_globs: r.testGlobs } : {}),
    })),
    pairs: { window_days: 3, base: 'newer', repeats: 2 },
  };
  writeFileSync(configPath, `# Written by npm run demo: the sample world served by a local fake GitHub.\n${YAML.stringify(config)}`);
  const env = { ...process.env, [TOKEN_ENV]: token };
  const cli = async (args: string[], opts: { stdout?: Writable } = {}): Promise<number> => {
    const code = await runCli(['--config', configPath, ...(options.quiet ? ['--quiet'] : []), ...args], {
      io: { env, cwd: workspace, stdout: opts.stdout ?? process.stderr, stderr: process.stderr, isTTY: false },
    });
    if (code !== 0 && code !== 3) throw new Error(`r2v ${args.join(' ')} exited ${code}`);
    return code;
  };

  try {
    say('running every stage up to screening');
    await cli(['run', '--until', 'screen']);
    // A researcher writes probes for the cases they want replayed: install the world's probes.
    const store = openStore(join(workspace, 'r2v.db'));
    try {
      const cases = new BackwardTables(store.db).resolvedCases();
      mkdirSync(join(workspace, 'probes'), { recursive: true });
      for (const p of world.probes) {
        const c = cases.find((x) => x.repo === p.repo && x.number === p.number);
        if (c) writeFileSync(join(workspace, 'probes', `${c.caseId}.yaml`), YAML.stringify(p.spec));
      }
    } finally {
      store.close();
    }
    say('running the remaining stages (probes, pairs, admission)');
    await cli(['run', '--from', 'forward-screen']);
  } finally {
    await server.close();
  }
  if (server.unexpected.length > 0) say(`warning: ${server.unexpected.length} unexpected requests to the fake GitHub`);
  const summary = `finished in ${((Date.now() - started) / 1000).toFixed(1)} s`;
  void readFileSync;
  void existsSync;
  void capture;
  return { workspace, manifests, summary };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  runDemo()
    .then((r) => {
      process.stdout.write(`${r.summary}\n`);
    })
    .catch((error: unknown) => {
      process.stderr.write(`demo failed: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    });
}
