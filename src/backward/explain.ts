/** A human-readable account of every commit reference in a thread and what the extractor made of it. */
import { extractAttributions } from './attribute.js';
import { findRefs } from './refs.js';
import type { Thread } from './types.js';

export function explainThread(thread: Thread): string {
  const attributions = extractAttributions(thread);
  let out = '';
  for (const post of thread.posts) {
    for (const r of findRefs(post.body)) {
      const a = attributions.find((x) => x.post === post.index && x.start === r.start);
      const where = post.index === 0 ? 'body' : `comment ${post.index}`;
      out += `  ${where} ${post.author}: ${r.ref.text} → ${a ? `${a.kind}${a.hedged ? ' (hedged)' : ''}` : 'not an attribution'}\n`;
    }
  }
  return out;
}
