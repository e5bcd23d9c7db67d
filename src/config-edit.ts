import { existsSync, readFileSync } from 'node:fs';
import YAML, { isSeq, YAMLSeq } from 'yaml';
import { ConfigError, UsageError } from './errors.js';
import { parseConfigText, repoNameProblem, STARTER_CONFIG, type RepoConfig } from './config.js';
import { writeFileAtomic } from './util/atomic-file.js';

function load(path: string): YAML.Document {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : STARTER_CONFIG;
  parseConfigText(text, path); // refuse to edit a broken config
  return YAML.parseDocument(text);
}

function save(path: string, doc: YAML.Document): void {
  const text = doc.toString();
  parseConfigText(text, path); // never write a config that would not load
  writeFileAtomic(path, text);
}

function reposSeq(doc: YAML.Document): YAMLSeq {
  const node = doc.get('repos', true);
  if (isSeq(node)) {
    node.flow = false;
    return node;
  }
  const seq = new YAMLSeq();
  doc.set('repos', seq);
  return seq;
}

export function addRepo(path: string, repo: RepoConfig): void {
  const problem = repoNameProblem(repo.name);
  if (problem) throw new UsageError(`${repo.name}: ${problem}`);
  const doc = load(path);
  const seq = reposSeq(doc);
  const exists = seq.items.some((item) => String((item as YAML.YAMLMap).get?.('name') ?? '').toLowerCase() === repo.name.toLowerCase());
  if (exists) throw new UsageError(`${repo.name}: already in ${path}`);
  const entry: Record<string, string> = { name: repo.name };
  if (repo.git_url) entry.git_url = repo.git_url;
  if (repo.default_branch) entry.default_branch = repo.default_branch;
  seq.items.push(doc.createNode(entry));
  save(path, doc);
}

export function removeRepo(path: string, name: string): void {
  if (!existsSync(path)) throw new ConfigError(`${path}: config file not found`);
  const doc = load(path);
  const seq = reposSeq(doc);
  const before = seq.items.length;
  seq.items = seq.items.filter((item) => String((item as YAML.YAMLMap).get?.('name') ?? '').toLowerCase() !== name.toLowerCase());
  if (seq.items.length === before) throw new UsageError(`${name}: not in ${path}`);
  save(path, doc);
}

/**
 * Sets `github.mode` when the file does not set it yet (keeping the file's comments); returns
 * whether it wrote.
 */
export function setGitHubModeIfUnset(path: string, mode: 'online' | 'offline'): boolean {
  const doc = load(path);
  const current = doc.getIn(['github', 'mode']);
  if (current !== undefined && current !== null) return false;
  if (doc.get('github') === undefined || doc.get('github') === null) doc.set('github', doc.createNode({}));
  doc.setIn(['github', 'mode'], mode);
  save(path, doc);
  return true;
}
