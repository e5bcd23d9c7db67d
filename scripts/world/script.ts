/** Shared machinery for writing a sample repository's story: clock, authors, noise, PRs, issues. */
import { seededRandom } from '../../src/util/random.js';
import { History, type Author } from './history.js';
import type { WorldComment, WorldIssue, WorldPull } from './types.js';

export const AUTHORS: Author[] = [
  { name: 'Maya Lindqvist', email: 'maya@example.org' },
  { name: 'Tomás Ferreira', email: 'tomas@example.org' },
  { name: 'Priya Raman', email: 'priya@example.org' },
  { name: 'Jonas Becker', email: 'jonas@example.org' },
  { name: 'Aiko Tanaka', email: 'aiko@example.org' },
  { name: 'Sam Okafor', email: 'sam@example.org' },
];

const login = (a: Author): string => a.email.split('@')[0]!;

export interface PrCommit {
  message: string;
  files: Record<string, string | null>;
}

export interface PrPlan {
  number: number;
  title: string;
  body: string;
  author: Author;
  branch: string;
  commits: PrCommit[];
  closes?: number[];
  draft?: boolean;
}

export interface OpenPr {
  plan: PrPlan;
  forkMark: number;
  createdAt: number;
  commitMarks: number[];
}

export class RepoScript {
  readonly h: History;
  readonly rand: () => number;
  time: number;
  private noiseCount = 0;
  readonly issues: WorldIssue[] = [];
  readonly pulls: (Omit<WorldPull, 'base' | 'head' | 'merge_commit_sha' | 'commits'> & {
    baseMark: number; headMark: number; mergeMark: number | null; commitMarks: number[]; commitMessages: string[]; baseRef: string; headRef: string;
  })[] = [];
  private nextCommentId: number;

  constructor(readonly repo: string, seed: number, startIso: string, readonly noisePaths: (i: number) => Record<string, string>) {
    this.h = new History('main');
    this.rand = seededRandom(seed);
    this.time = Date.parse(startIso) / 1000;
    this.nextCommentId = seed * 1000;
  }

  author(i?: number): Author {
    return AUTHORS[i ?? Math.floor(this.rand() * AUTHORS.length)]!;
  }

  tick(hours = 3): number {
    this.time += Math.round(hours * 3600 + this.rand() * 1800);
    return this.time;
  }

  iso(t = this.time): string {
    return new Date(t * 1000).toISOString().replace('.000Z', 'Z');
  }

  commit(message: string, files: Record<string, string | null>, author?: Author, branch = 'main'): number {
    return this.h.commit(branch, { message, author: author ?? this.author(), time: this.tick(), files });
  }

  /** `n` ordinary commits on main that touch only noise files (docs, changelog, misc). */
  noise(n: number): void {
    const verbs = ['Tidy', 'Clarify', 'Update', 'Polish', 'Reword', 'Extend', 'Fix typo in', 'Refresh'];
    for (let k = 0; k < n; k += 1) {
      this.noiseCount += 1;
      const files = this.noisePaths(this.noiseCount);
      const first = Object.keys(files)[0]!;
      const verb = verbs[Math.floor(this.rand() * verbs.length)]!;
      this.commit(`${verb} ${first.split('/').pop()}`, files);
    }
  }

  /** Opens a PR: a branch from main's tip with its commits. */
  openPr(plan: PrPlan): OpenPr {
    const forkMark = this.h.tip('main');
    this.h.branch(plan.branch, 'main');
    const createdAt = this.tick(1);
    const marks = plan.commits.map((c) => this.commit(c.message, c.files, plan.author, plan.branch));
    return { plan, forkMark, createdAt, commitMarks: marks };
  }

  /** Merges an open PR into main with a merge commit or a squash commit. */
  mergePr(pr: OpenPr, how: 'merge' | 'squash', override?: Record<string, string | null>): number {
    const { plan } = pr;
    const time = this.tick(2);
    const headMark = pr.commitMarks[pr.commitMarks.length - 1]!;
    let mergeMark: number;
    if (how === 'merge') {
      mergeMark = this.h.merge('main', plan.branch, {
        message: `Merge pull request #${plan.number} from ${login(plan.author)}/${plan.branch}\n\n${plan.title}`,
        author: this.author(0),
        time,
        forkMark: pr.forkMark,
      });
    } else {
      const head = this.h.files(plan.branch);
      const fork = this.h.snapshotOf(pr.forkMark);
      const changes: Record<string, string | null> = {};
      for (const [p, v] of head) if (fork.get(p) !== v) changes[p] = v;
      for (const p of fork.keys()) if (!head.has(p)) changes[p] = null;
      mergeMark = this.h.commit('main', { message: `${plan.title} (#${plan.number})`, author: plan.author, time, files: { ...changes, ...(override ?? {}) } });
    }
    if (how === 'merge' && override) {
      // A hand-resolved merge result for overlapping PRs.
      this.h.amendFiles(mergeMark, override);
    }
    this.h.ref(`refs/pull/${plan.number}/head`, headMark);
    this.h.deleteBranch(plan.branch);
    this.pulls.push({
      number: plan.number,
      title: plan.title,
      body: plan.body,
      user: { login: login(plan.author) },
      state: 'closed',
      draft: plan.draft ?? false,
      created_at: this.iso(pr.createdAt),
      merged_at: this.iso(time),
      html_url: `https://github.com/${this.repo}/pull/${plan.number}`,
      closing_issues: plan.closes ?? [],
      baseMark: pr.forkMark,
      headMark,
      mergeMark,
      commitMarks: pr.commitMarks,
      commitMessages: plan.commits.map((c) => c.message),
      baseRef: 'main',
      headRef: plan.branch,
    });
    return mergeMark;
  }

  /** Records an issue thread; comment times are offsets in hours after creation. */
  issue(i: { number: number; title: string; author: Author | string; at: number; body: string; comments?: { author: Author | string; afterHours: number; body: string }[]; closedAfterHours?: number }): WorldIssue {
    const who = (a: Author | string): string => (typeof a === 'string' ? a : login(a));
    const comments: WorldComment[] = (i.comments ?? []).map((c) => {
      this.nextCommentId += 1;
      return {
        id: this.nextCommentId,
        user: { login: who(c.author) },
        created_at: this.iso(i.at + Math.round(c.afterHours * 3600)),
        body: c.body,
        html_url: `https://github.com/${this.repo}/issues/${i.number}#issuecomment-${this.nextCommentId}`,
      };
    });
    const issue: WorldIssue = {
      number: i.number,
      title: i.title,
      body: i.body,
      user: { login: who(i.author) },
      state: i.closedAfterHours !== undefined ? 'closed' : 'open',
      created_at: this.iso(i.at),
      closed_at: i.closedAfterHours !== undefined ? this.iso(i.at + i.closedAfterHours * 3600) : null,
      html_url: `https://github.com/${this.repo}/issues/${i.number}`,
      comments,
    };
    this.issues.push(issue);
    return issue;
  }

  /** Resolves marks to SHAs once the history is written. */
  finishPulls(): WorldPull[] {
    return this.pulls.map((p) => ({
      number: p.number,
      title: p.title,
      body: p.body,
      user: p.user,
      state: p.state,
      draft: p.draft,
      created_at: p.created_at,
      merged_at: p.merged_at,
      html_url: p.html_url,
      closing_issues: p.closing_issues,
      base: { ref: p.baseRef, sha: this.h.sha(p.baseMark) },
      head: { ref: p.headRef, sha: this.h.sha(p.headMark) },
      merge_commit_sha: p.mergeMark === null ? null : this.h.sha(p.mergeMark),
      commits: p.commitMarks.map((m, k) => ({ sha: this.h.sha(m), message: p.commitMessages[k]! })),
    }));
  }
}
