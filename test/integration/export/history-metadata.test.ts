import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { historyMetadata, writeHistoryMetadata } from '../../../src/export/package.js';
import { GitError } from '../../../src/git/runner.js';
import { tempDir } from '../../support/make-repo.js';

const data = (text: string): string => `data ${Buffer.byteLength(text)}\n${text}\n`;

describe('history_metadata.jsonl, streamed', () => {
  it('writes the same bytes as the buffered listing over a history larger than one pipe chunk, multi-byte text included', async () => {
    const dir = join(await tempDir('r2v-history-'), 'repo.git');
    await execa('git', ['init', '-q', '--bare', '--initial-branch=main', dir]);
    const parts: string[] = [];
    for (let i = 1; i <= 1500; i++) {
      const message = `Fix naïve parsing of “quoted” values ${i} — ünïcödé ✓\n\nBody line one of ${i}.\nBody line two: ${'x'.repeat(i % 90)}\n`;
      parts.push(`commit refs/heads/main\nmark :${i}\nauthor Zoë Dev <zoe@example.com> ${1_600_000_000 + i * 60} +0000\ncommitter Zoë Dev <zoe@example.com> ${1_600_000_000 + i * 60} +0000\n${data(message)}${i > 1 ? `from :${i - 1}\n` : ''}M 100644 inline f.txt\n${data(`${i}\n`)}`);
    }
    await execa('git', [`--git-dir=${dir}`, 'fast-import', '--quiet'], { input: parts.join('') });
    const out = join(await tempDir('r2v-history-out-'), 'history_metadata.jsonl');
    expect(await writeHistoryMetadata(dir, 'main', out)).toBe(1500);
    const buffered = await historyMetadata(dir, 'main');
    const text = readFileSync(out, 'utf8');
    expect(Buffer.byteLength(text)).toBeGreaterThan(256 * 1024);
    expect(text).toBe(buffered.map((l) => `${l}\n`).join(''));
    expect(text.split('\n').filter(Boolean)).toHaveLength(1500);
    expect(JSON.parse(text.split('\n')[0]!).message).toContain('ünïcödé ✓');
  });

  it('fails with a git error naming the command when the revision does not exist', async () => {
    const dir = join(await tempDir('r2v-history-'), 'repo.git');
    await execa('git', ['init', '-q', '--bare', dir]);
    const out = join(await tempDir('r2v-history-out-'), 'h.jsonl');
    await expect(writeHistoryMetadata(dir, 'nope', out)).rejects.toBeInstanceOf(GitError);
  });
});
