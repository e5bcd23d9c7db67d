/**
 * `r2v` outside the checkout: `npm install -g .` (what the README documents; `npm link` makes the
 * same link) puts an `r2v` on PATH that works from any directory, because bin/r2v.js finds its
 * files relative to itself, not to the working directory.
 */
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../support/make-repo.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('r2v installed from the checkout', () => {
  it('npm install -g . (offline, into a temp prefix) gives an r2v that runs init and status in any directory', async () => {
    const prefix = await tempDir('r2v-prefix-');
    const install = await execa('npm', ['install', '-g', '--prefix', prefix, ROOT, '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { reject: false, env: { npm_config_update_notifier: 'false' } });
    expect(install.stderr).not.toMatch(/ERR!/);
    expect(install.exitCode).toBe(0);
    const bin = join(prefix, 'bin', 'r2v');
    expect(realpathSync(bin)).toBe(realpathSync(join(ROOT, 'bin/r2v.js')));
    const elsewhere = await tempDir('r2v-elsewhere-');
    const env = { CI: 'true', PATH: `${join(prefix, 'bin')}:${process.env.PATH}` };
    const version = await execa('r2v', ['--version'], { cwd: elsewhere, reject: false, env });
    expect(version.exitCode).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const init = await execa('r2v', ['init'], { cwd: elsewhere, reject: false, env });
    expect(init.exitCode).toBe(0);
    expect(existsSync(join(elsewhere, 'r2v.config.yaml'))).toBe(true);
    expect(existsSync(join(elsewhere, 'data/r2v.db'))).toBe(true);
    const status = await execa('r2v', ['status', '--json'], { cwd: elsewhere, reject: false, env });
    expect(status.exitCode).toBe(0);
    expect((JSON.parse(status.stdout) as { db: string }).db).toBe(join(elsewhere, 'data/r2v.db'));
  }, 300_000);
});
