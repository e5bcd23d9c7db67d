/** Logger to stderr. Never writes to stdout, which carries data. Redacts the secrets it is given. */
export type Level = 'debug' | 'info' | 'warn' | 'error';
export interface Logger {
  debug(msg: string, meta?: Record<string, unknown>): void;
  info(msg: string, meta?: Record<string, unknown>): void;
  warn(msg: string, meta?: Record<string, unknown>): void;
  error(msg: string, meta?: Record<string, unknown>): void;
}

const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[REDACTED]');
  return out;
}

export function createLogger(options: {
  stream: NodeJS.WritableStream;
  level?: Level;
  secrets?: readonly string[];
}): Logger {
  const min = ORDER[options.level ?? 'info'];
  const secrets = options.secrets ?? [];
  const write = (level: Level, msg: string, meta?: Record<string, unknown>): void => {
    if (ORDER[level] < min) return;
    const tail = meta && Object.keys(meta).length > 0 ? ` ${JSON.stringify(meta)}` : '';
    options.stream.write(redact(`r2v ${level}: ${msg}${tail}\n`, secrets));
  };
  return {
    debug: (m, x) => write('debug', m, x),
    info: (m, x) => write('info', m, x),
    warn: (m, x) => write('warn', m, x),
    error: (m, x) => write('error', m, x),
  };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
