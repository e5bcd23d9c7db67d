/** Builds the `Thread` the attribution rules read, from stored rows or from an import line. */
import { z } from 'zod';
import { RepoName } from '../config.js';
import { ValidationError } from '../errors.js';
import type { CommentRow, ThreadRow } from '../store/tables/sources.js';
import type { Thread, ThreadPost } from '../model/backward.js';

/** From src/store/tables/sources.ts rows; comments are put in time order (ties by id). `aliases`: former names of the repository. */
export function threadFromRows(thread: ThreadRow, comments: readonly CommentRow[], aliases: readonly string[] = []): Thread {
  const ordered = [...comments].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.commentId - b.commentId));
  const posts: ThreadPost[] = [
    { index: 0, id: null, author: thread.author, createdAt: thread.createdAt, body: thread.body, url: thread.htmlUrl },
    ...ordered.map((c, k) => ({ index: k + 1, id: c.commentId, author: c.author, createdAt: c.createdAt, body: c.body, url: c.htmlUrl })),
  ];
  return {
    repo: thread.repo,
    number: thread.number,
    title: thread.title,
    author: thread.author,
    createdAt: thread.createdAt,
    url: thread.htmlUrl,
    posts,
    ...(aliases.length > 0 ? { aliases: [...aliases] } : {}),
  };
}

/**
 * The names under which the thread's commits may be linked as this repository's: its former names,
 * and the forks of the people who write in it (`<login>/<name>`: a contributor linking the commit in
 * their own fork, whose hash the repository holds once merged). A fork's commit that never reached
 * the repository does not resolve there, so it is still no culprit. Not for the cutoff rule, whose
 * merges "of" a fork are another repository's branch.
 */
export function linkNames(thread: Thread): readonly string[] {
  const name = thread.repo.split('/')[1] ?? '';
  const logins = new Set([thread.author, ...thread.posts.map((p) => p.author)].filter((a): a is string => typeof a === 'string' && /^[A-Za-z0-9-]+$/.test(a)));
  return [...(thread.aliases ?? []), ...[...logins].map((login) => `${login}/${name}`)];
}

const User = z.object({ login: z.string() }).nullable().optional();
const Timestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a timestamp');

export const ImportLine = z.object({
  repo: RepoName,
  issue: z.object({
    number: z.number().int().positive(),
    title: z.string(),
    body: z.string().nullable().optional(),
    user: User,
    created_at: Timestamp,
    html_url: z.string(),
  }),
  comments: z
    .array(
      z.object({
        id: z.number().int(),
        user: User,
        created_at: Timestamp,
        body: z.string().nullable().optional(),
        html_url: z.string().nullable().optional(),
      }),
    )
    .default([]),
});
export type ImportLine = z.infer<typeof ImportLine>;

/** From one line of the import format (REST issue and comments); throws ValidationError naming the bad field. */
export function threadFromImport(line: unknown): Thread {
  const parsed = ImportLine.safeParse(line);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join('.') : 'line';
    throw new ValidationError(`thread import: ${where}: ${issue.message}`);
  }
  const { repo, issue, comments } = parsed.data;
  const ordered = comments
    .map((c, i) => ({ c, i }))
    .sort((a, b) => Date.parse(a.c.created_at) - Date.parse(b.c.created_at) || a.i - b.i)
    .map(({ c }) => c);
  const author = issue.user?.login ?? 'ghost';
  const posts: ThreadPost[] = [
    { index: 0, id: null, author, createdAt: issue.created_at, body: issue.body ?? '', url: issue.html_url },
    ...ordered.map((c, k) => ({
      index: k + 1,
      id: c.id,
      author: c.user?.login ?? 'ghost',
      createdAt: c.created_at,
      body: c.body ?? '',
      url: c.html_url ?? null,
    })),
  ];
  return { repo, number: issue.number, title: issue.title, author, createdAt: issue.created_at, url: issue.html_url, posts };
}
