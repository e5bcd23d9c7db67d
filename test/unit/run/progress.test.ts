import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli.js';
import { createProgress } from '../../../src/run/progress.js';
import { captureStream } from '../../../src/util/capture.js';
import { tempDir } from '../../support/make-repo.js';
import { squaresStage } from '../../support/test-stages.js';

function capture() {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  return { stream, text: () => chunks.join('') };
}

describe('progress', () => {
  it('on a terminal redraws one live line per stage with counts, rate and ETA', async () => {
    const out = capture();
    let t = 0;
    const p = createProgress({ stream: out.stream, mode: 'tty', now: () => t });
    p.stageStarted('resolve', 10, 0);
    t = 2000;
    p.item('resolve', 'done');
    p.item('resolve', 'rejected');
    p.stageFinished('resolve');
    await new Promise((r) => setImmediate(r));
    const text = out.text();
    // 2 items in 2 s → 1.0/s, 8 left → ETA 8s; every redraw clears the line first.
    expect(text).toContain('\x1b[2K\rresolve        2/10 (done 1, rejected 1, failed 0) 1.0/s ETA 8s');
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n')).toHaveLength(2);
  });

  it('off a terminal writes plain lines at most once per interval, plus the final line', async () => {
    const out = capture();
    let t = 0;
    const p = createProgress({ stream: out.stream, mode: 'lines', now: () => t, intervalMs: 1000 });
    p.stageStarted('link', 4, 3);
    t = 100;
    p.item('link', 'done'); // too soon: no line
    t = 1500;
    p.item('link', 'failed'); // interval passed: one line
    t = 1600;
    p.item('link', 'done'); // too soon again
    p.stageFinished('link');
    await new Promise((r) => setImmediate(r));
    expect(out.text().split('\n').filter(Boolean)).toEqual([
      'r2v: link: 4 pending, 3 up to date',
      'r2v: link           2/4 (done 1, rejected 0, failed 1) 1.3/s ETA 2s',
      'r2v: link           3/4 (done 2, rejected 0, failed 1) 1.9/s ETA 1s finished',
    ]);
    expect(out.text()).not.toContain('\x1b');
  });

  it('quiet writes nothing', async () => {
    const out = capture();
    const p = createProgress({ stream: out.stream, mode: 'quiet' });
    p.stageStarted('x', 1, 0);
    p.item('x', 'done');
    p.stageFinished('x');
    p.message('hello');
    await new Promise((r) => setImmediate(r));
    expect(out.text()).toBe('');
  });
});

describe('r2v run picks the progress form from the terminal', () => {
  it('draws the live line when stderr is a terminal, and nothing with --quiet', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), 'repos:\n  - name: test/world\n');
    const runIn = async (args: string[]) => {
      const out = captureStream();
      const err = captureStream();
      const code = await runCli(args, {
        io: { stdout: out.stream, stderr: err.stream, cwd: dir, env: {}, isTTY: true },
        signal: new AbortController().signal,
        extraStages: [squaresStage({ count: 3 })],
      });
      return { code, stdout: out.text(), stderr: err.text() };
    };
    const tty = await runIn(['run', '--stage', 'squares']);
    expect(tty.code).toBe(0);
    expect(tty.stdout).toBe('');
    expect(tty.stderr).toContain('\x1b[2K\rsquares        3/3 (done 3, rejected 0, failed 0)');
    const quiet = await runIn(['--quiet', 'run', '--stage', 'squares', '--force']);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
  });
});
