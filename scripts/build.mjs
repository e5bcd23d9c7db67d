/**
 * The build: `tsc -p tsconfig.build.json --noCheck` compiles src/ to dist/ (incremental; type errors
 * are `npm run typecheck`'s job and never block a build, a test run or `npm ci`), then the top-level
 * help manifest (dist/command-manifest.json) is written from the compiled program, the CLI is
 * bundled by esbuild into dist/r2v-bundle.js (+ dist/r2v-bundle-*.js chunks, one per lazily loaded
 * command group: a few files to load instead of ~450 modules; bin/r2v.js runs it) and a stamp marks
 * the build complete. `npm run build` and `npm ci` (prepare) run it; tests, the demo and the bench
 * call ensureBuild(), which rebuilds only when a source is newer than the stamp.
 *
 *   node scripts/build.mjs           build
 *   node scripts/build.mjs --check   exit 1 when dist/ is stale (no build)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-stamp');
const INPUTS = ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** True when dist/ is missing or older than any source it is built from. */
export function isStale() {
  if (!existsSync(STAMP)) return true;
  const built = statSync(STAMP).mtimeMs;
  return INPUTS.some((p) => newestMtime(join(ROOT, p)) > built);
}

/** Compiles src/ to dist/ and writes the command manifest and the stamp; throws on a compile error. */
export async function build() {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--noCheck'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`build: tsc -p tsconfig.build.json failed (exit ${r.status ?? r.signal})`);
  const started = Date.now();
  const cli = await import(`${pathToFileURL(join(DIST, 'cli.js')).href}?t=${started}`);
  const manifest = await cli.commandManifest({
    io: { stdout: process.stdout, stderr: process.stderr, env: {}, cwd: ROOT, isTTY: false },
    signal: new AbortController().signal,
    setExitCode() {},
  });
  writeFileSync(join(DIST, 'command-manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  await bundle();
  writeFileSync(STAMP, `${new Date(started).toISOString()}\n`);
}

/**
 * dist/cli.js and everything it imports (dependencies included, better-sqlite3's native module
 * excepted) bundled into dist/r2v-bundle.js and its chunks, in dist/ itself so that
 * `new URL('../package.json', import.meta.url)` still finds the package. The old bundle is removed
 * first: a failed bundling leaves none, and bin/r2v.js then runs dist/cli.js.
 */
async function bundle() {
  for (const name of readdirSync(DIST)) if (/^r2v-bundle.*\.js(?:\.map)?$/.test(name)) rmSync(join(DIST, name));
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: { 'r2v-bundle': join(DIST, 'cli.js') },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: DIST,
    chunkNames: 'r2v-bundle-[hash]',
    external: ['better-sqlite3'],
    // CommonJS dependencies (commander, yaml, …) call require() for Node's built-ins.
    banner: { js: "import { createRequire as __r2vCreateRequire } from 'node:module'; const require = __r2vCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
}

/** Builds when stale; a no-op otherwise. Returns whether it built. */
export async function ensureBuild() {
  if (!isStale()) return false;
  await build();
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const stale = isStale();
    process.stderr.write(stale ? 'build: dist/ is stale (run npm run build)\n' : 'build: dist/ is up to date\n');
    process.exitCode = stale ? 1 : 0;
  } else {
    try {
      await build();
    } catch (error) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
    }
  }
}
