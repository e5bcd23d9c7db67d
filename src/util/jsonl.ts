import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { UsageError } from '../errors.js';

export interface JsonlLine {
  readonly lineNumber: number;
  readonly value?: unknown;
  readonly error?: string;
}

/** Reads a JSONL file (or stdin for '-') line by line; blank lines are skipped. */
export async function* readJsonl(path: string): AsyncGenerator<JsonlLine> {
  const input = path === '-' ? process.stdin : createReadStream(path, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    if (path === '-') return resolve();
    input.once('error', (e: Error) => reject(new UsageError(`${path}: cannot read: ${(e as NodeJS.ErrnoException).code ?? e.message}`)));
    input.once('readable', () => resolve());
  });
  await opened;
  const rl = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  for await (const line of rl) {
    n += 1;
    if (line.trim() === '') continue;
    try {
      yield { lineNumber: n, value: JSON.parse(line) };
    } catch (error) {
      yield { lineNumber: n, error: `malformed JSON (${(error as Error).message})` };
    }
  }
}
