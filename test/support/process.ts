/** Process checks for tests that must prove a child (or its whole group) is gone. */
import { readFileSync } from 'node:fs';

/** True when the pid no longer exists or is a zombie waiting to be reaped. */
export function isDead(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Polls isDead until it holds or `ms` pass; the last check decides. */
export async function waitDead(pid: number, ms = 2000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (isDead(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return isDead(pid);
}
