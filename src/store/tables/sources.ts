import type { Database } from 'better-sqlite3';
import { allRows, flag, flagOrNull, getRow, json, num, type Row, str, strOrNull } from '../row.js';

/** Raw GitHub data (threads, comments, pull requests, links, repositories): the inputs of every stage. */
export interface ThreadRow {
  repo: string;
  number: number;
  kind: 'issue' | 'pull';
  title: string;
  body: string;
  author: string;
  state: string | null;
  createdAt: string;
  updatedAt: string | null;
  closedAt: string | null;
  htmlUrl: string;
  source: string;
}

export interface CommentRow {
  repo: string;
  number: number;
  commentId: number;
  author: string;
  createdAt: string;
  updatedAt: string | null;
  body: string;
  htmlUrl: string | null;
}

export interface PullRow {
  repo: string;
  number: number;
  title: string;
  body: string;
  author: string;
  state: string;
  draft: boolean;
  baseRef: string;
  baseSha: string;
  headRef: string | null;
  headSha: string;
  mergeCommitSha: string | null;
  createdAt: string;
  mergedAt: string | null;
  htmlUrl: string;
  commitShas: string[];
  commitMessages: string[];
  source: string;
}

export interface LinkRow {
  repo: string;
  issue: number;
  pull: number;
  /** closing-references | keyword-title | keyword-body | keyword-commit | timeline | import */
  how: string;
  evidence: string;
}

export interface RepoRow {
  name: string;
  defaultBranch: string | null;
  isFork: boolean | null;
  parent: string | null;
  htmlUrl: string | null;
  source: string;
  updatedAt: string;
}

const b = (v: boolean | null): number | null => (v === null ? null : v ? 1 : 0);

/** The statements of Sources, prepared once per instance. */
function prepareSources(db: Database) {
  return {
    upsertThread: db.prepare(`INSERT INTO threads (repo, number, kind, title, body, author, state, created_at, updated_at, closed_at, html_url, source)
      VALUES (@repo, @number, @kind, @title, @body, @author, @state, @createdAt, @updatedAt, @closedAt, @htmlUrl, @source)
      ON CONFLICT (repo, number) DO UPDATE SET kind=excluded.kind, title=excluded.title, body=excluded.body, author=excluded.author,
        state=excluded.state, created_at=excluded.created_at, updated_at=excluded.updated_at, closed_at=excluded.closed_at,
        html_url=excluded.html_url, source=excluded.source`),
    upsertComment: db.prepare(`INSERT INTO comments (repo, number, comment_id, author, created_at, updated_at, body, html_url)
      VALUES (@repo, @number, @commentId, @author, @createdAt, @updatedAt, @body, @htmlUrl)
      ON CONFLICT (repo, comment_id) DO UPDATE SET number=excluded.number, author=excluded.author, created_at=excluded.created_at,
        updated_at=excluded.updated_at, body=excluded.body, html_url=excluded.html_url`),
    deleteComments: db.prepare('DELETE FROM comments WHERE repo = ? AND number = ?'),
    upsertPull: db.prepare(`INSERT INTO pulls (repo, number, title, body, author, state, draft, base_ref, base_sha, head_ref, head_sha,
        merge_commit_sha, created_at, merged_at, html_url, commit_shas, commit_messages, source)
      VALUES (@repo, @number, @title, @body, @author, @state, @draft, @baseRef, @baseSha, @headRef, @headSha,
        @mergeCommitSha, @createdAt, @mergedAt, @htmlUrl, @commitShas, @commitMessages, @source)
      ON CONFLICT (repo, number) DO UPDATE SET title=excluded.title, body=excluded.body, author=excluded.author, state=excluded.state,
        draft=excluded.draft, base_ref=excluded.base_ref, base_sha=excluded.base_sha, head_ref=excluded.head_ref, head_sha=excluded.head_sha,
        merge_commit_sha=excluded.merge_commit_sha, created_at=excluded.created_at, merged_at=excluded.merged_at,
        html_url=excluded.html_url, commit_shas=excluded.commit_shas, commit_messages=excluded.commit_messages, source=excluded.source`),
    upsertLink: db.prepare(`INSERT INTO links (repo, issue, pull, how, evidence) VALUES (@repo, @issue, @pull, @how, @evidence)
      ON CONFLICT (repo, issue, pull, how) DO UPDATE SET evidence=excluded.evidence`),
    deleteLinksOfPull: db.prepare('DELETE FROM links WHERE repo = ? AND pull = ?'),
    upsertRepo: db.prepare(`INSERT INTO repos (name, default_branch, is_fork, parent, html_url, source, updated_at)
      VALUES (@name, @defaultBranch, @isFork, @parent, @htmlUrl, @source, @updatedAt)
      ON CONFLICT (name) DO UPDATE SET default_branch=excluded.default_branch, is_fork=excluded.is_fork, parent=excluded.parent,
        html_url=excluded.html_url, source=excluded.source, updated_at=excluded.updated_at`),
    thread: db.prepare('SELECT * FROM threads WHERE repo = ? AND number = ?'),
    threadsOfRepo: db.prepare('SELECT * FROM threads WHERE repo = ? ORDER BY number'),
    comments: db.prepare('SELECT * FROM comments WHERE repo = ? AND number = ? ORDER BY created_at, comment_id'),
    pull: db.prepare('SELECT * FROM pulls WHERE repo = ? AND number = ?'),
    pullsOfRepo: db.prepare('SELECT * FROM pulls WHERE repo = ? ORDER BY number'),
    linksOfRepo: db.prepare('SELECT * FROM links WHERE repo = ? ORDER BY issue, pull, how'),
    repo: db.prepare('SELECT * FROM repos WHERE name = ?'),
    repoNames: db.prepare('SELECT name FROM repos ORDER BY name'),
    commentThread: db.prepare('SELECT number FROM comments WHERE repo = ? AND comment_id = ?'),
  };
}

export class Sources {
  private readonly s: ReturnType<typeof prepareSources>;
  constructor(private readonly db: Database) {
    this.s = prepareSources(db);
  }

  upsertThread(row: ThreadRow): void {
    this.s.upsertThread.run(row);
  }
  /** Replaces the stored comments of a thread with `rows`. */
  replaceComments(repo: string, number: number, rows: readonly CommentRow[]): void {
    this.s.deleteComments.run(repo, number);
    for (const r of rows) this.s.upsertComment.run(r);
  }
  upsertComment(row: CommentRow): void {
    this.s.upsertComment.run(row);
  }
  upsertPull(row: PullRow): void {
    this.s.upsertPull.run({
      ...row,
      draft: row.draft ? 1 : 0,
      commitShas: JSON.stringify(row.commitShas),
      commitMessages: JSON.stringify(row.commitMessages),
    });
  }
  /** Replaces every link found for a pull request. */
  replaceLinksOfPull(repo: string, pull: number, rows: readonly LinkRow[]): void {
    this.s.deleteLinksOfPull.run(repo, pull);
    for (const r of rows) this.s.upsertLink.run(r);
  }
  upsertLink(row: LinkRow): void {
    this.s.upsertLink.run(row);
  }
  upsertRepo(row: RepoRow): void {
    this.s.upsertRepo.run({ ...row, isFork: b(row.isFork) });
  }

  thread(repo: string, number: number): ThreadRow | undefined {
    const r = getRow(this.s.thread, repo, number);
    return r ? toThread(r) : undefined;
  }
  threads(repo: string): ThreadRow[] {
    return allRows(this.s.threadsOfRepo, repo).map(toThread);
  }
  comments(repo: string, number: number): CommentRow[] {
    return allRows(this.s.comments, repo, number).map(toComment);
  }
  pull(repo: string, number: number): PullRow | undefined {
    const r = getRow(this.s.pull, repo, number);
    return r ? toPull(r) : undefined;
  }
  pulls(repo: string): PullRow[] {
    return allRows(this.s.pullsOfRepo, repo).map(toPull);
  }
  links(repo: string): LinkRow[] {
    return allRows(this.s.linksOfRepo, repo).map((r) => ({
      repo: str(r, 'repo'),
      issue: num(r, 'issue'),
      pull: num(r, 'pull'),
      how: str(r, 'how'),
      evidence: str(r, 'evidence'),
    }));
  }
  /** Names of the repositories stored (configured or imported), sorted. */
  repoNames(): string[] {
    return allRows(this.s.repoNames).map((r) => str(r, 'name'));
  }
  /** The number of the thread a stored comment belongs to. */
  commentThread(repo: string, commentId: number): number | undefined {
    const r = getRow(this.s.commentThread, repo, commentId);
    return r ? num(r, 'number') : undefined;
  }
  repo(name: string): RepoRow | undefined {
    const r = getRow(this.s.repo, name);
    if (!r) return undefined;
    return {
      name: str(r, 'name'),
      defaultBranch: strOrNull(r, 'default_branch'),
      isFork: flagOrNull(r, 'is_fork'),
      parent: strOrNull(r, 'parent'),
      htmlUrl: strOrNull(r, 'html_url'),
      source: str(r, 'source'),
      updatedAt: str(r, 'updated_at'),
    };
  }
}

function toThread(r: Row): ThreadRow {
  return {
    repo: str(r, 'repo'),
    number: num(r, 'number'),
    kind: r.kind as 'issue' | 'pull',
    title: str(r, 'title'),
    body: str(r, 'body'),
    author: str(r, 'author'),
    state: strOrNull(r, 'state'),
    createdAt: str(r, 'created_at'),
    updatedAt: strOrNull(r, 'updated_at'),
    closedAt: strOrNull(r, 'closed_at'),
    htmlUrl: str(r, 'html_url'),
    source: str(r, 'source'),
  };
}
function toComment(r: Row): CommentRow {
  return {
    repo: str(r, 'repo'),
    number: num(r, 'number'),
    commentId: num(r, 'comment_id'),
    author: str(r, 'author'),
    createdAt: str(r, 'created_at'),
    updatedAt: strOrNull(r, 'updated_at'),
    body: str(r, 'body'),
    htmlUrl: strOrNull(r, 'html_url'),
  };
}
function toPull(r: Row): PullRow {
  return {
    repo: str(r, 'repo'),
    number: num(r, 'number'),
    title: str(r, 'title'),
    body: str(r, 'body'),
    author: str(r, 'author'),
    state: str(r, 'state'),
    draft: flag(r, 'draft'),
    baseRef: str(r, 'base_ref'),
    baseSha: str(r, 'base_sha'),
    headRef: strOrNull(r, 'head_ref'),
    headSha: str(r, 'head_sha'),
    mergeCommitSha: strOrNull(r, 'merge_commit_sha'),
    createdAt: str(r, 'created_at'),
    mergedAt: strOrNull(r, 'merged_at'),
    htmlUrl: str(r, 'html_url'),
    commitShas: json<string[]>(r, 'commit_shas'),
    commitMessages: json<string[]>(r, 'commit_messages'),
    source: str(r, 'source'),
  };
}
