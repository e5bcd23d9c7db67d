import { describe, expect, it } from 'vitest';
import { detectSvnRevision, svnRevisionOf } from '../../../src/sanitize/svn-revision.js';

describe('a culprit named by its Subversion revision', () => {
  it('reads the revision from the git-svn-id line of a converted commit, and nothing from other messages', () => {
    expect(svnRevisionOf('Path3: stop looping when masked\n\ngit-svn-id: http://example.googlecode.com/svn/trunk@5245 96395faa-99c1-11dd-bbfe-3dabce05a288')).toBe(5245);
    expect(svnRevisionOf('Fix the loader\n\nRefs: svn@5245')).toBeNull();
    expect(svnRevisionOf('')).toBeNull();
  });

  it('deletes "r5245", "Revision 5245", "rev. 5245" and "svn 5245", not the bare number or another revision', () => {
    const text = 'Worked in r5244, broken in r5245. Revision 5245 changed the loop; rev. 5245 and svn 5245 too. Line 5245 is fine, r52456 is another.';
    const cut = detectSvnRevision(text, 5245).map((s) => text.slice(s.start, s.end));
    expect(cut).toEqual(['r5245', 'Revision 5245', 'rev. 5245', 'svn 5245']);
    expect(detectSvnRevision(text, null)).toEqual([]);
  });
});
