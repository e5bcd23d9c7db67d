import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { join, resolve } from 'node:path';
import { tempDir } from '../support/make-repo.js';

const BIN = join(resolve(import.meta.dirname, '../..'), 'bin/r2v.js');

describe('r2v output into a pipe', () => {
  it('stops quietly with exit 0 when the reader closes the pipe early (r2v … | head)', async () => {
    const dir = await tempDir();
    const child = execa('node', [BIN, '--help'], { cwd: dir, reject: false, env: { CI: 'true' } });
    child.stdout.destroy();
    const r = await child;
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(r.exitCode).toBe(0);
  });
});
