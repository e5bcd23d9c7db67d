import type { Migration } from '../migrate.js';

/**
 * GitHub edge additions: the `Link` header of a cached response, so a page answered by a 304
 * can still lead pagination to the next page.
 */
export const migration0008: Migration = {
  id: 8,
  name: 'github',
  up(db) {
    db.exec(`ALTER TABLE http_cache ADD COLUMN link TEXT;`);
  },
};
