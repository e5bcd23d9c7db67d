/** Words made only of these characters mean the same to /bin/sh quoted or not. */
export const SHELL_SAFE_WORD = /^[\w./:=@%+-]+$/;

/**
 * One word for /bin/sh: left as is when it is made only of characters the shell takes literally,
 * else single-quoted (a `'` inside becomes `'\''`). Either way the program receives `word` exactly.
 */
export function shellQuote(word: string): string {
  return SHELL_SAFE_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
