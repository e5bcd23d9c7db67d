/** Process checks for tests that must prove a child (or its whole group) is gone. */
import { readdirSync, readFileSync } from 'node:fs';

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

/** Live (non-zombie) processes whose command line contains `marker`, from the process list (/proc). */
export function processesMatching(marker: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(marker) && !isDead(Number(entry))) out.push(Number(entry));
    } catch {
      // gone while listing
    }
  }
  return out;
}

/** Polls the process list until no process matches `marker` or `ms` pass; returns what is left. */
export async function waitNoneMatching(marker: string, ms = 5000): Promise<number[]> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (processesMatching(marker).length === 0) return [];
    await new Promise((r) => setTimeout(r, 50));
  }
  return processesMatching(marker);
}

/** A number unlikely to be in any other command line, for `sleep <n>` markers. */
export function uniqueSleepSeconds(): number {
  return 600_000 + Math.floor(Math.random() * 300_000);
}
