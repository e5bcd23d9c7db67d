import type { ItemOutcome, PlannedItem, Stage } from '../../src/stages/types.js';
import { digestOf } from '../../src/util/canonical.js';

/**
 * Test-only stages for the runner: `squares` computes n² for n = 1..count into its own table
 * (no primary key, so a duplicate row would show), with an optional delay per item.
 */
export interface SquaresOptions {
  count: number;
  delayMs?: number;
  version?: number;
  /** Items whose number is listed fail with an error of this kind. */
  failOn?: { numbers: number[]; error: () => Error };
  /** Changes every item's input digest (simulates a changed upstream result). */
  salt?: string;
  onProcess?: (n: number) => void;
}

export function squaresStage(options: SquaresOptions): Stage<{ n: number }> {
  return {
    name: 'squares',
    version: options.version ?? 1,
    needs: [],
    description: 'test stage: n squared',
    plan(_ctx, repos) {
      const items: PlannedItem<{ n: number }>[] = [];
      for (const repo of repos) {
        for (let n = 1; n <= options.count; n += 1) {
          items.push({ key: `${repo}#${n}`, repo, inputDigest: digestOf({ n, salt: options.salt ?? '' }), input: { n } });
        }
      }
      return items;
    },
    async process(item): Promise<ItemOutcome> {
      options.onProcess?.(item.input.n);
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      if (options.failOn?.numbers.includes(item.input.n)) throw options.failOn.error();
      const n = item.input.n;
      const save = (store: { db: import('better-sqlite3').Database }): void => {
        store.db.exec('CREATE TABLE IF NOT EXISTS test_squares (key TEXT NOT NULL, n INTEGER NOT NULL, square INTEGER NOT NULL)');
        store.db.prepare('DELETE FROM test_squares WHERE key = ?').run(item.key);
        store.db.prepare('INSERT INTO test_squares (key, n, square) VALUES (?, ?, ?)').run(item.key, n, n * n);
      };
      if (n % 10 === 0) return { status: 'rejected', reason: 'multiple-of-ten', save };
      return { status: 'done', save };
    },
  };
}
