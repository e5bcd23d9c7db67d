import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { commandWord } from '../../src/cli.js';
import { commandModules } from '../../src/commands/index.js';
import type { CliContext } from '../../src/commands/types.js';
import { isStale } from '../../scripts/build.mjs';
import { runCliCaptured } from '../support/cli.js';
import { tempDir } from '../support/make-repo.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/r2v.js');
const bin = (args: string[]) => execa('node', [BIN, ...args], { cwd: ROOT, reject: false, env: { CI: 'true' } });

const ctx: CliContext = {
  io: { stdout: process.stdout, stderr: process.stderr, env: {}, cwd: ROOT, isTTY: false },
  signal: new AbortController().signal,
  setExitCode: () => undefined,
};

describe('compiled CLI', () => {
  it('the global setup left dist/ built and up to date with the sources', () => {
    expect(existsSync(join(ROOT, 'dist/cli.js'))).toBe(true);
    expect(isStale()).toBe(false);
    expect(statSync(join(ROOT, 'dist/cli.js')).mtimeMs).toBeLessThanOrEqual(statSync(join(ROOT, 'dist/.build-stamp')).mtimeMs);
  });

  it('bin/r2v.js --help (from the build manifest, no command module loaded) equals the full program help', async () => {
    const compiled = await bin(['--help']);
    const full = await runCliCaptured(['--help'], ROOT);
    expect(compiled.exitCode).toBe(0);
    expect(full.code).toBe(0);
    expect(compiled.stdout.trimEnd()).toBe(full.stdout.trimEnd());
    expect(compiled.stdout).toContain('status [options]');
    const manifest = JSON.parse(readFileSync(join(ROOT, 'dist/command-manifest.json'), 'utf8')) as { name: string }[];
    expect(manifest.map((e) => e.name)).toContain('export');
  });

  it('runs a command from its own module, and unknown commands still get a suggestion', async () => {
    const help = await bin(['help', 'status']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Usage: r2v status [options]');
    const typo = await bin(['statu']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain("unknown command 'statu'");
    expect(typo.stderr).toContain('status');
  });

  it('bin/r2v.js runs the bundle, which gives what the compiled modules give', async () => {
    expect(existsSync(join(ROOT, 'dist/r2v-bundle.js'))).toBe(true);
    const dir = await tempDir('r2v-bundle-');
    const init = await execa('node', [BIN, 'init'], { cwd: dir, reject: false, env: { CI: 'true' } });
    expect(init.exitCode).toBe(0);
    const bundled = await execa('node', [BIN, 'status', '--json'], { cwd: dir, reject: false, env: { CI: 'true' } });
    const modules = await execa('node', ['--input-type=module', '-e', `const { runCli } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/cli.js')).href)}); process.exitCode = await runCli(['status', '--json']);`], {
      cwd: dir,
      reject: false,
      env: { CI: 'true' },
    });
    expect(bundled.exitCode).toBe(0);
    expect(modules.exitCode).toBe(0);
    expect(JSON.parse(bundled.stdout)).toEqual(JSON.parse(modules.stdout));
    expect(bundled.stdout).toContain('"name":"admit"');
  });

  it('each command module registers exactly the top-level names listed for it', async () => {
    for (const module of commandModules) {
      const program = new Command();
      (await module.load())(program, ctx);
      expect(program.commands.map((c) => c.name()).sort()).toEqual([...module.names].sort());
    }
  });

  it('finds the command word after global options', () => {
    expect(commandWord(['--config', 'x.yaml', '-q', 'status', '--json'])).toBe('status');
    expect(commandWord(['--db', 'r.db', 'run'])).toBe('run');
    expect(commandWord(['--config=x.yaml', 'export'])).toBe('export');
    expect(commandWord(['--help'])).toBeUndefined();
    expect(commandWord([])).toBeUndefined();
  });
});
