/**
 * Progress on stderr. On a terminal: one live line per stage (counts, rate, ETA), redrawn in
 * place. Elsewhere (CI, pipes): plain lines, at most one every `intervalMs` per stage, plus the
 * final line. Quiet: nothing.
 */
export interface Progress {
  stageStarted(stage: string, total: number, skipped: number): void;
  item(stage: string, outcome: 'done' | 'rejected' | 'failed'): void;
  stageFinished(stage: string): void;
  message(text: string): void;
}

interface Counter {
  total: number;
  done: number;
  rejected: number;
  failed: number;
  started: number;
  lastPrint: number;
}

export function createProgress(options: {
  stream: NodeJS.WritableStream;
  mode: 'tty' | 'lines' | 'quiet';
  now?: () => number;
  intervalMs?: number;
}): Progress {
  const now = options.now ?? (() => Date.now());
  const interval = options.intervalMs ?? 5000;
  const counters = new Map<string, Counter>();
  const write = (s: string): void => void options.stream.write(s);

  const line = (stage: string, c: Counter): string => {
    const processed = c.done + c.rejected + c.failed;
    const secs = Math.max((now() - c.started) / 1000, 0.001);
    const rate = processed / secs;
    const left = c.total - processed;
    const eta = rate > 0 && left > 0 ? ` ETA ${formatSecs(left / rate)}` : '';
    return `${stage.padEnd(14)} ${processed}/${c.total} (done ${c.done}, rejected ${c.rejected}, failed ${c.failed}) ${rate.toFixed(1)}/s${eta}`;
  };

  if (options.mode === 'quiet') {
    return { stageStarted() {}, item() {}, stageFinished() {}, message() {} };
  }
  return {
    stageStarted(stage, total, skipped) {
      const c: Counter = { total, done: 0, rejected: 0, failed: 0, started: now(), lastPrint: now() };
      counters.set(stage, c);
      const up = skipped > 0 ? `, ${skipped} up to date` : '';
      if (options.mode === 'tty') write(`\x1b[2K\r${line(stage, c)}${up ? ` [${skipped} up to date]` : ''}`);
      else write(`r2v: ${stage}: ${total} pending${up}\n`);
    },
    item(stage, outcome) {
      const c = counters.get(stage);
      if (!c) return;
      c[outcome] += 1;
      if (options.mode === 'tty') write(`\x1b[2K\r${line(stage, c)}`);
      else if (now() - c.lastPrint >= interval) {
        c.lastPrint = now();
        write(`r2v: ${line(stage, c)}\n`);
      }
    },
    stageFinished(stage) {
      const c = counters.get(stage);
      if (!c) return;
      if (options.mode === 'tty') write(`\x1b[2K\r${line(stage, c)}\n`);
      else write(`r2v: ${line(stage, c)} finished\n`);
    },
    message(text) {
      write(options.mode === 'tty' ? `\x1b[2K\r${text}\n` : `r2v: ${text}\n`);
    },
  };
}

function formatSecs(s: number): string {
  if (s < 60) return `${Math.ceil(s)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.ceil(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export const quietProgress: Progress = createProgress({ stream: process.stderr, mode: 'quiet' });
