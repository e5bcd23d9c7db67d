/** The sample world: repositories (real bare git repos) plus the GitHub data about them. */
export interface WorldUser {
  readonly login: string;
}

export interface WorldComment {
  readonly id: number;
  readonly user: WorldUser;
  readonly created_at: string;
  readonly body: string;
  readonly html_url: string;
}

export interface WorldIssue {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly user: WorldUser;
  readonly state: 'open' | 'closed';
  readonly created_at: string;
  readonly closed_at: string | null;
  readonly html_url: string;
  readonly comments: WorldComment[];
}

export interface WorldPull {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly user: WorldUser;
  readonly state: 'open' | 'closed';
  readonly draft: boolean;
  readonly created_at: string;
  readonly merged_at: string | null;
  readonly html_url: string;
  readonly base: { ref: string; sha: string };
  readonly head: { ref: string; sha: string };
  readonly merge_commit_sha: string | null;
  readonly commits: { sha: string; message: string }[];
  /** Issues this PR closes (what GitHub's closingIssuesReferences would return). */
  readonly closing_issues: number[];
}

export interface WorldRepo {
  readonly name: string;
  readonly description: string;
  readonly defaultBranch: string;
  /** Bare repository that plays the role of the GitHub remote. */
  readonly gitDir: string;
  readonly testCommand?: string;
  readonly testGlobs?: string[];
  readonly issues: WorldIssue[];
  readonly pulls: WorldPull[];
}

/** A probe written for a Backward thread (the demo installs it once the case id is known). */
export interface WorldProbe {
  readonly repo: string;
  readonly number: number;
  readonly spec: Record<string, unknown>;
}

/** What each hand-made thread or PR is meant to show, for the demo summary and the tests. */
export interface WorldExpectation {
  readonly repo: string;
  readonly kind: 'backward' | 'forward' | 'pair';
  readonly ref: string;
  readonly expect: string;
}

export interface SampleWorld {
  readonly root: string;
  readonly repos: WorldRepo[];
  readonly probes: WorldProbe[];
  readonly expectations: WorldExpectation[];
}
