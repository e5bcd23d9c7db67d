import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/db.js';
import { tempDir } from '../../support/make-repo.js';

const AT = '2024-01-01T00:00:00.000Z';

describe('store table groups', () => {
  it('are made once per store and keep their statements', async () => {
    const store = openStore(join(await tempDir('r2v-groups-'), 'r2v.db'));
    try {
      expect(store.backward).toBe(store.backward);
      expect(store.sources).toBe(store.sources);
      const other = openStore(':memory:');
      try {
        expect(other.backward).not.toBe(store.backward);
      } finally {
        other.close();
      }
      store.sources.upsertRepo({ name: 'o/r', defaultBranch: 'main', isFork: null, parent: null, htmlUrl: null, source: 'import', updatedAt: AT });
      expect(store.sources.repoNames()).toEqual(['o/r']);
      expect(store.sources.repo('o/r')).toMatchObject({ name: 'o/r', defaultBranch: 'main', isFork: null, htmlUrl: null });
    } finally {
      store.close();
    }
  });

  it('parse rows at the boundary: a column of the wrong type is an error naming the column, nulls stay null', async () => {
    const store = openStore(join(await tempDir('r2v-groups-'), 'r2v.db'));
    try {
      store.workItems.record(
        { stage: 'discover', key: 'o/r', repo: 'o/r', status: 'done', reason: null, errorKind: null, errorMessage: null, stageVersion: 1, inputDigest: 'd', updatedAt: AT },
        undefined,
      );
      expect(store.workItems.get('discover', 'o/r')).toMatchObject({ attempts: 1, reason: null, errorKind: null });
      // SQLite keeps text that does not look like a number in an INTEGER column.
      store.db.prepare("UPDATE work_items SET attempts = 'many' WHERE key = 'o/r'").run();
      expect(() => store.workItems.get('discover', 'o/r')).toThrow('column attempts holds string, not a number');
      // A TEXT column takes a number as text, but keeps a blob.
      store.db.prepare("UPDATE work_items SET attempts = 2, input_digest = X'01' WHERE key = 'o/r'").run();
      expect(() => store.workItems.get('discover', 'o/r')).toThrow('column input_digest holds object, not text');
    } finally {
      store.close();
    }
  });
});
