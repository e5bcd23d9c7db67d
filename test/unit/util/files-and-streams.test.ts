import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../src/util/atomic-file.js';
import { captureStream } from '../../../src/util/capture.js';
import { tempDir } from '../../support/make-repo.js';

describe('writeFileAtomic', () => {
  it('replaces the file and leaves no temporary file behind', async () => {
    const dir = await tempDir();
    const path = join(dir, 'out.json');
    writeFileSync(path, 'old');
    writeFileAtomic(path, 'new text\n');
    expect(readFileSync(path, 'utf8')).toBe('new text\n');
    expect(readdirSync(dir)).toEqual(['out.json']);
  });

  it('throws without creating the file when the directory does not exist', async () => {
    const dir = await tempDir();
    expect(() => writeFileAtomic(join(dir, 'missing', 'out.json'), 'x')).toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('captureStream', () => {
  it('joins the bytes of every write, so a character split between writes survives', async () => {
    const c = captureStream();
    const bytes = Buffer.from('a→b', 'utf8');
    await new Promise<void>((resolve) => c.stream.write(bytes.subarray(0, 2), () => resolve()));
    await new Promise<void>((resolve) => c.stream.write(bytes.subarray(2), () => resolve()));
    await new Promise<void>((resolve) => c.stream.write('c\n', () => resolve()));
    expect(c.text()).toBe('a→bc\n');
  });
});
