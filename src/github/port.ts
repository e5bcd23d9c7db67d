/**
 * The GitHub port: what r2v asks of GitHub, in r2v's own types. Nothing outside src/github sees
 * an octokit object; a stage gets a port bound to one stage and repository (for the budget).
 */
export interface RepoInfo {
  readonly name: string;
  readonly defaultBranch: string;
  readonly isFork: boolean;
  readonly parent: string | null;
  readonly htmlUrl: string;
  readonly createdAt: string | null;
}

/** An issue or a pull-request thread (`isPull`). */
export interface Issue {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly author: string;
  readonly state: string | null;
  readonly createdAt: string;
  readonly updatedAt: string | null;
  readonly closedAt: string | null;
  readonly htmlUrl: string;
  readonly isPull: boolean;
}

export interface IssueComment {
  readonly id: number;
  /** Thread number (from the comment's issue_url when listed per repository). */
  readonly issueNumber: number;
  readonly author: string;
  readonly createdAt: string;
  readonly updatedAt: string | null;
  readonly body: string;
  readonly htmlUrl: string | null;
}

export interface PullRequest {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly author: string;
  readonly state: string;
  readonly draft: boolean;
  readonly baseRef: string;
  readonly baseSha: string;
  readonly headRef: string | null;
  readonly headSha: string;
  readonly mergeCommitSha: string | null;
  readonly createdAt: string;
  readonly updatedAt: string | null;
  readonly mergedAt: string | null;
  readonly htmlUrl: string;
}

export interface PullCommit {
  readonly sha: string;
  readonly message: string;
}

/** A timeline cross-reference: thread `source` of this repository mentioned the thread asked about. */
export interface CrossReference {
  readonly source: number;
  readonly sourceIsPull: boolean;
  readonly createdAt: string | null;
}

/** A list read across pages. `dropped` counts elements that did not match the schema. */
export interface Listed<T> {
  readonly items: T[];
  readonly dropped: number;
  /** Every page was answered by a 304 (the stored bodies were reused). */
  readonly unchanged: boolean;
}

export interface SearchPage {
  readonly totalCount: number;
  readonly items: Issue[];
  readonly dropped: number;
  /** False when only the first page was read because totalCount is above the cap. */
  readonly complete: boolean;
}

export interface GitHubPort {
  getRepository(repo: string): Promise<RepoInfo>;
  /** Issues and pull-request threads, oldest update first; `since` filters on updated_at. */
  listIssues(repo: string, options: { since?: string | null }): Promise<Listed<Issue>>;
  /** Every issue comment of the repository; `since` filters on updated_at. */
  listRepoComments(repo: string, options: { since?: string | null }): Promise<Listed<IssueComment>>;
  /**
   * Search API (`q` without the repo qualifier). Reads every page unless total_count exceeds
   * `cap`, in which case only the first page is read and `complete` is false.
   */
  searchIssues(repo: string, q: string, cap: number): Promise<SearchPage>;
  getIssue(repo: string, number: number): Promise<Issue>;
  listIssueComments(repo: string, number: number): Promise<Listed<IssueComment>>;
  /** Closed pull requests (merged or not). */
  listClosedPulls(repo: string): Promise<Listed<PullRequest>>;
  listPullCommits(repo: string, number: number): Promise<Listed<PullCommit>>;
  /** Cross-references on the timeline of a thread, restricted to this repository's threads. */
  listCrossReferences(repo: string, number: number): Promise<Listed<CrossReference>>;
  /**
   * GitHub's closingIssuesReferences of a pull request (issue numbers of this repository).
   * `version` (the PR's updated_at) memoises the answer: an unchanged PR is not asked again.
   */
  closingIssues(repo: string, number: number, version: string | null): Promise<number[]>;
}

/** Budget and cache scope of a port: one stage working on one repository. */
export interface PortScope {
  readonly stage: string;
  readonly repo: string;
}

export function splitRepo(repo: string): { owner: string; name: string } {
  const i = repo.indexOf('/');
  return { owner: repo.slice(0, i), name: repo.slice(i + 1) };
}
