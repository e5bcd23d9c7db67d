/**
 * Repository identity: a repository renamed or transferred on GitHub keeps answering under its
 * former names (the API redirects them with 301). The name r2v was configured with stays the key
 * of everything stored; the name GitHub answered with (recorded in the repository's `html_url`)
 * and the configured `aliases` are the same repository for resolution, cross-repository screening
 * and sanitization.
 */

/** owner/name of a repository page URL (`https://github.com/owner/name`, any host), or null. */
export function nameOfRepoUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  const m = /^https?:\/\/[^/\s]+\/([A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9._-]+?)(?:\.git)?\/?$/.exec(url.trim());
  return m ? m[1]! : null;
}

/**
 * The other names of `repo`: the configured former names, plus the name GitHub answered with when
 * it differs from `repo` (a rename or transfer seen live). Deduplicated case-insensitively, never
 * `repo` itself, in a stable order.
 */
export function repositoryAliases(repo: string, configured: readonly string[], storedHtmlUrl: string | null | undefined): string[] {
  const seen = new Set([repo.toLowerCase()]);
  const out: string[] = [];
  for (const name of [...configured, nameOfRepoUrl(storedHtmlUrl)]) {
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    out.push(name);
  }
  return out;
}
