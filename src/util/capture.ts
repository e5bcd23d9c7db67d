import { Writable } from 'node:stream';

/** A writable stream that keeps everything written to it; `text()` is the UTF-8 of all of it so far. */
export function captureStream(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      chunks.push(Buffer.from(chunk));
      cb();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}
