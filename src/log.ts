/** Logger to stderr. Never writes to stdout, which carries data. Redacts the secrets it is given. */
export type Level = 'debug' | 'info' | 'warn' | 'error';
export interface Logger {
  debug(msg: string, meta?: Record<string, unknown>): void;
  info(msg: string, meta?: Record<string, unknown>): void;
  warn(msg: string, meta?: Record<string, unknown>): void;
  error(msg: string, meta?: Record<string, unknown>): void;
}

const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Shapes of GitHub tokens, and credentials after an Authorization header name. */
const TOKEN_SHAPES: readonly RegExp[] = [
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
  /(\bauthorization\b["']?\s*[:=]\s*["']?(?:(?:token|bearer|basic)\s+)?)(?!\[REDACTED\]|(?:token|bearer|basic)\s)[^\s"',;})\]]+/gi,
];

/**
 * `text` with every given secret (4+ characters) and anything shaped like a GitHub token or an
 * echoed Authorization header replaced by [REDACTED]. Used wherever a message is created or kept.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[REDACTED]');
  out = out.replace(TOKEN_SHAPES[0]!, '[REDACTED]');
  out = out.replace(TOKEN_SHAPES[1]!, (_m, head: string) => `${head}[REDACTED]`);
  return out;
}

/** The values of environment variables that hold credentials (names with TOKEN, SECRET, PASSWORD or KEY). */
export function secretsInEnv(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env)
    .filter(([k, v]) => /TOKEN|SECRET|PASSWORD|PASSWD|_KEY$/i.test(k) && typeof v === 'string' && v.trim().length >= 4)
    .map(([, v]) => v!.trim());
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
