import { readFileSync } from 'node:fs';
import { inspectThread, openGitTarget } from '../src/commands/inspect-backward.js';
const ids = process.argv.slice(2);
for (const l of readFileSync('/work/shared/corpus/backward-real/threads.jsonl', 'utf8').split('\n')) {
  if (!l.trim()) continue;
  const c = JSON.parse(l);
  if (!ids.includes(c.id)) continue;
  const ts = (d: string) => (/^\d{4}-\d{2}-\d{2}$/.test(d) ? `${d}T23:59:59Z` : d);
  const thread = { repo: c.repo, number: c.number, title: c.title, author: c.author ?? 'ghost', createdAt: ts(c.created_at), url: c.url,
    posts: [{ index: 0, id: null, author: c.author ?? 'ghost', createdAt: ts(c.created_at), body: c.body ?? '', url: null },
      ...c.comments.map((m: any, k: number) => ({ index: k + 1, id: k + 1, author: m.author ?? 'g', createdAt: ts(m.created_at), body: m.body ?? '', url: null }))] };
  const [o, n] = c.repo.split('/');
  let git = null;
  try { git = await openGitTarget(`/work/.mirror/${o}+${n}/repo`, '/'); } catch {}
  const got = await inspectThread(thread as any, git);
  console.log(c.id, got.decision, got.gold, JSON.stringify(got.report.text.slice(0, 600)));
  for (const s of c.expected.answer_spans) if (got.report.text.includes(s)) console.log(c.id, 'SURVIVES:', JSON.stringify(s.slice(0, 200)));
  for (const s of c.expected.must_keep) if (!got.report.text.includes(s)) console.log(c.id, 'LOST:', JSON.stringify(s.slice(0, 200)));
}
process.exit(0);
