import { describe, expect, it } from 'vitest';
import { ablateSymptoms, isContextLine } from '../../../src/sanitize/ablate.js';
import { isDeletionOf } from '../../../src/sanitize/delete.js';
import { seededRandom } from '../../../src/util/random.js';

const report = [
  'Since the last upgrade the exporter writes an empty file when the input has a BOM.',
  '',
  '```',
  '$ widget export in.csv',
  'Error: unexpected token at line 1',
  '```',
  '',
  '## Environment',
  '- OS: Debian 12',
  '- widget 4.2.1',
  '- Python version: 3.11.4',
  '',
  'It worked fine before, the output had all the rows.',
].join('\n');

describe('symptom ablation', () => {
  it('keeps only version and environment context', () => {
    const out = ablateSymptoms(report);
    expect(out.text).toContain('## Environment');
    expect(out.text).toContain('- OS: Debian 12');
    expect(out.text).toContain('- widget 4.2.1');
    expect(out.text).toContain('- Python version: 3.11.4');
    expect(out.text).not.toMatch(/empty file|unexpected token|worked fine|widget export/);
    expect(out.deletions.every((d) => d.detector === 'symptom')).toBe(true);
  });

  it('only deletes', () => {
    const out = ablateSymptoms(report);
    expect(isDeletionOf(report, out.text, out.deletions)).toBe(true);
    const rnd = seededRandom(11);
    const pieces = ['OS: Linux\n', 'crash on save\n', '```\n', 'v1.2.3\n', '\n', 'Traceback (most recent call last):\n', '# Version\n', 'node: 20.1\n'];
    for (let i = 0; i < 200; i++) {
      let t = '';
      for (let k = 0; k < 12; k++) t += pieces[Math.floor(rnd() * pieces.length)];
      const a = ablateSymptoms(t);
      expect(isDeletionOf(t, a.text, a.deletions)).toBe(true);
    }
  });

  it('tells context lines from symptom lines', () => {
    expect(isContextLine('rustc 1.79.0 (129f3b996 2024-06-10)')).toBe(true);
    expect(isContextLine('**Platform**: macOS 14.5')).toBe(true);
    expect(isContextLine('The build fails with a linker error on 1.79.0 when LTO is on')).toBe(false);
    expect(isContextLine('')).toBe(false);
  });
});
