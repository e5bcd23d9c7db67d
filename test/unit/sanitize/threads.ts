import type { Attribution, Thread } from '../../../src/model/backward.js';

/** Builds a thread from post bodies (index 0 = the issue body). */
export function aThread(title: string, bodies: readonly string[], repo = 'acme/widget'): Thread {
  return {
    repo,
    number: 42,
    title,
    author: 'reporter',
    createdAt: '2024-02-01T00:00:00Z',
    url: `https://github.com/${repo}/issues/42`,
    posts: bodies.map((body, index) => ({
      index,
      id: index === 0 ? null : 1000 + index,
      author: index === 0 ? 'reporter' : `dev${index}`,
      createdAt: `2024-02-0${Math.min(index + 1, 9)}T00:00:00Z`,
      body,
      url: null,
    })),
  };
}

/** An attribution whose reference is `ref` and whose sentence is `sentence`, both found in posts[post]. */
export function anAttribution(thread: Thread, post: number, sentence: string, ref: string): Attribution {
  const body = thread.posts[post]!.body;
  const s = body.indexOf(sentence);
  if (s < 0) throw new Error(`sentence not in post ${post}: ${sentence}`);
  const r = body.indexOf(ref, s);
  if (r < 0) throw new Error(`ref not in sentence: ${ref}`);
  return {
    ref: { type: 'sha', text: ref, value: ref.toLowerCase(), urlRepo: null },
    kind: 'statement',
    post,
    start: r,
    end: r + ref.length,
    sentence: { start: s, end: s + sentence.length, text: sentence },
    author: thread.posts[post]!.author,
    createdAt: thread.posts[post]!.createdAt,
    hedged: false,
  };
}
