import { describe, expect, it } from 'vitest';
import { Bm25Index, tokenize } from '../../../src/baselines/bm25.js';

describe('tokenize', () => {
  it('lower-cases, splits on non-alphanumerics and drops bare numbers, single letters and very long tokens', () => {
    expect(tokenize("TypeError: can't read 'width' of undefined at line 42 (src/Layout.js) x")).toEqual(
      ['typeerror', 'can', 'read', 'width', 'of', 'undefined', 'at', 'line', 'src', 'layout', 'js'],
    );
    expect(tokenize(`v2 ${'a'.repeat(41)} ünïcode`)).toEqual(['v2', 'ünïcode']);
  });
});

describe('Bm25Index', () => {
  const docs = [
    'parser: accept trailing commas',
    'layout crashes with TypeError width undefined',
    'docs: describe the layout engine',
    'layout: TypeError width undefined when the box is empty, again width',
    'bump version',
  ].map(tokenize);

  it('ranks by Okapi BM25 with k1 = 1.2 and b = 0.75', () => {
    const idx = new Bm25Index();
    for (const d of docs) idx.add(d);
    const ranked = idx.rank(tokenize('TypeError width'));
    // By hand: N = 5, avgdl = 28/5; both terms have df = 2; doc 1 (|d| = 6) has each once,
    // doc 3 (|d| = 11) has typeerror once and width twice. The shorter document wins.
    const idf = Math.log(1 + (5 - 2 + 0.5) / (2 + 0.5));
    const part = (tf: number, len: number) => (idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * len) / (28 / 5)));
    expect(ranked.map((r) => r.doc)).toEqual([1, 3]);
    expect(ranked[0]!.score).toBeCloseTo(2 * part(1, 6), 12);
    expect(ranked[1]!.score).toBeCloseTo(part(1, 11) + part(2, 11), 12);
  });

  it('computes N, avgdl and df over the visible documents only, as an index of those documents would', () => {
    const all = new Bm25Index();
    for (const d of docs) all.add(d);
    const visible = Uint8Array.from([1, 0, 1, 1, 0]);
    const only = new Bm25Index();
    for (const i of [0, 2, 3]) only.add(docs[i]!);
    const q = tokenize('layout TypeError width commas');
    const a = all.rank(q, visible);
    const b = only.rank(q).map((r) => ({ doc: [0, 2, 3][r.doc]!, score: r.score }));
    expect(a.map((r) => r.doc)).toEqual(b.map((r) => r.doc));
    a.forEach((r, i) => expect(r.score).toBeCloseTo(b[i]!.score, 12));
    expect(all.rank(q, new Uint8Array(5))).toEqual([]);
  });

  it('breaks ties by the order of addition and ranks no document without a shared term', () => {
    const idx = new Bm25Index();
    idx.add(tokenize('fix crash'));
    idx.add(tokenize('unrelated'));
    idx.add(tokenize('fix crash'));
    expect(idx.rank(tokenize('crash')).map((r) => r.doc)).toEqual([0, 2]);
    expect(idx.rank(tokenize('nothing here'))).toEqual([]);
    expect(idx.top(tokenize('crash'), null, 2)).toEqual({ doc: 0, targetRank: 2 });
    expect(idx.top(tokenize('nothing'), null, 1)).toEqual({ doc: -1, targetRank: null });
  });

  it('top gives the first document of rank and the rank of a target without sorting', () => {
    const idx = new Bm25Index();
    for (const d of docs) idx.add(d);
    const visible = Uint8Array.from([1, 1, 1, 1, 0]);
    for (const q of ['layout width', 'TypeError', 'docs layout engine parser', 'bump']) {
      const ranked = idx.rank(tokenize(q), visible);
      for (let target = 0; target < 5; target += 1) {
        const pos = ranked.findIndex((r) => r.doc === target);
        expect(idx.top(tokenize(q), visible, target)).toEqual({ doc: ranked[0]?.doc ?? -1, targetRank: pos < 0 ? null : pos + 1 });
      }
    }
  });
});
