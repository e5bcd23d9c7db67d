import type { Thread } from '../../../src/model/backward.js';

/** A thread of `bodies` (index 0 is the issue body), one author per post unless given. */
export function aThread(bodies: readonly string[], options: { repo?: string; number?: number; authors?: readonly string[] } = {}): Thread {
  const repo = options.repo ?? 'acme/widget';
  const number = options.number ?? 100;
  return {
    repo,
    number,
    title: 'Widget renders blank after upgrade',
    author: options.authors?.[0] ?? 'reporter',
    createdAt: '2024-05-01T00:00:00Z',
    url: `https://github.com/${repo}/issues/${number}`,
    posts: bodies.map((body, index) => ({
      index,
      id: index === 0 ? null : 1000 + index,
      author: options.authors?.[index] ?? (index === 0 ? 'reporter' : `commenter${index}`),
      createdAt: `2024-05-0${Math.min(index + 1, 9)}T00:00:00Z`,
      body,
      url: null,
    })),
  };
}
